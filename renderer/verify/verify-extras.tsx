import { useState, type FormEvent } from 'react';
import type { UnmatchedOriginal } from '../../common/ipc/verify.js';
import { useVerifyStore } from './verify-store.js';

/** Originals dropped without a proof: "Which credential is this?" asks the engine (the spec's verify by file). */
export function UnmatchedOriginals({ originals }: { originals: UnmatchedOriginal[] }) {
  const which = useVerifyStore((s) => s.which);
  const askWhich = useVerifyStore((s) => s.askWhich);
  return (
    <section className="verify-extras" aria-labelledby="verify-originals-title">
      <h2 id="verify-originals-title">Files without a proof</h2>
      <ul>
        {originals.slice(0, 200).map((o) => {
          const answer = which[o.name];
          return (
            <li key={o.name}>
              {o.name}{' '}
              <button type="button" aria-label={`Which credential is ${o.name.split('/').pop()}?`} onClick={() => void askWhich(o.name)}>
                Which credential is this?
              </button>
              {typeof answer === 'string' && <span className="muted"> {answer}</span>}
              {Array.isArray(answer) && (
                <ul>
                  {answer.map((m, i) => (
                    <li key={m.certificate_uid || i}>
                      {m.title} <code>{m.certificate_uid}</code>: <span className={`verify-${m.result}`}>{m.result}</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      {originals.length > 200 && <p className="muted">… and {originals.length - 200} more.</p>}
    </section>
  );
}

/** Whether credentials' status lists may be fetched: off until the user turns it on (each start). */
export function NetworkSetting() {
  const network = useVerifyStore((s) => s.network);
  const setNetwork = useVerifyStore((s) => s.setNetwork);
  return (
    <p className="verify-extras">
      <label>
        <input type="checkbox" checked={network} onChange={(e) => void setNetwork(e.target.checked)} /> Check revocation status lists online
      </label>{' '}
      <span className="muted">
        A Verifiable Credential may name a status list on its issuer's server: with this on, the next drops fetch it for the revocation step. Off, nothing is fetched.
      </span>
    </p>
  );
}

/** The user's own RPC endpoint per engine, kept in the data directory. */
export function EndpointSettings() {
  const endpoints = useVerifyStore((s) => s.endpoints);
  const setEndpoint = useVerifyStore((s) => s.setEndpoint);
  const [engine, setEngine] = useState('');
  const [url, setUrl] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (engine.trim() === '' || url.trim() === '') return;
    void setEndpoint(engine.trim(), url.trim()).then(() => {
      setEngine('');
      setUrl('');
    });
  };
  return (
    <details className="verify-extras">
      <summary>Chain endpoints used to verify ({endpoints.length === 0 ? 'the configured engines' : `${endpoints.length} of your own`})</summary>
      <p className="muted">Without an endpoint of your own, the chain of each engine in this data directory is asked; with none, the chain steps stay pending.</p>
      {endpoints.length > 0 && (
        <ul>
          {endpoints.map((e) => (
            <li key={e.engine}>
              <code>{e.engine}</code>: <code>{e.rpc_url}</code>{' '}
              <button type="button" aria-label={`Remove the endpoint of ${e.engine}`} onClick={() => void setEndpoint(e.engine, null)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit}>
        <label>
          Engine
          <input value={engine} onChange={(e) => setEngine(e.target.value)} placeholder="sepolia" />
        </label>
        <label>
          RPC endpoint
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://rpc.example.org" type="url" />
        </label>
        <button type="submit">Use this endpoint</button>
      </form>
    </details>
  );
}
