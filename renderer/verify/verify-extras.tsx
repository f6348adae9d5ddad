import { useState, type FormEvent } from 'react';
import type { UnmatchedOriginal } from '../../common/ipc/verify.js';
import { MainWords } from '../i18n/main-words.js';
import { useT } from '../i18n/use-t.js';
import { useVerifyStore } from './verify-store.js';

/** Originals dropped without a proof: "Which credential is this?" asks the engine (the spec's verify by file). */
export function UnmatchedOriginals({ originals }: { originals: UnmatchedOriginal[] }) {
  const t = useT();
  const which = useVerifyStore((s) => s.which);
  const askWhich = useVerifyStore((s) => s.askWhich);
  return (
    <section className="verify-extras" aria-labelledby="verify-originals-title">
      <h2 id="verify-originals-title">{t('verify.originals.title')}</h2>
      <ul>
        {originals.slice(0, 200).map((o) => {
          const answer = which[o.name];
          return (
            <li key={o.name}>
              {o.name}{' '}
              <button type="button" aria-label={t('verify.originals.whichNamed', { name: o.name.split('/').pop() })} onClick={() => void askWhich(o.name)}>
                {t('verify.originals.which')}
              </button>
              {typeof answer === 'string' && (
                <span className="muted">
                  {' '}
                  <MainWords>{answer}</MainWords>
                </span>
              )}
              {Array.isArray(answer) && (
                <ul>
                  {answer.map((m, i) => (
                    <li key={m.certificate_uid || i}>
                      {/* The proof's uid on hover: the title is what the admin knows it by. */}
                      <span title={m.certificate_uid}>{m.title}</span>: <span className={`verify-${m.result}`}>{t('verify.result', { result: m.result })}</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      {originals.length > 200 && <p className="muted">{t('verify.originals.more', { count: originals.length - 200 })}</p>}
    </section>
  );
}

/** Whether credentials' status lists may be fetched: off until the user turns it on (each start). */
export function NetworkSetting() {
  const t = useT();
  const network = useVerifyStore((s) => s.network);
  const setNetwork = useVerifyStore((s) => s.setNetwork);
  return (
    <p className="verify-extras">
      <label>
        <input type="checkbox" checked={network} onChange={(e) => void setNetwork(e.target.checked)} /> {t('verify.network.label')}
      </label>{' '}
      <span className="muted">
        {t('verify.network.hint')}
      </span>
    </p>
  );
}

/** The user's own RPC endpoint per engine, kept in the data directory. */
export function EndpointSettings() {
  const t = useT();
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
      <summary>{t('verify.endpoints.summary', { count: endpoints.length })}</summary>
      <p className="muted">{t('verify.endpoints.hint')}</p>
      {endpoints.length > 0 && (
        <ul>
          {endpoints.map((e) => (
            <li key={e.engine}>
              <code>{e.engine}</code>: <code>{e.rpc_url}</code>{' '}
              <button type="button" aria-label={t('verify.endpoints.removeNamed', { engine: e.engine })} onClick={() => void setEndpoint(e.engine, null)}>
                {t('verify.endpoints.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit}>
        <label>
          {t('verify.endpoints.engine')}
          <input value={engine} onChange={(e) => setEngine(e.target.value)} placeholder={t('verify.endpoints.enginePlaceholder')} />
        </label>
        <label>
          {t('verify.endpoints.rpc')}
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder={t('verify.endpoints.rpcPlaceholder')} type="url" />
        </label>
        <button type="submit">{t('verify.endpoints.use')}</button>
      </form>
    </details>
  );
}
