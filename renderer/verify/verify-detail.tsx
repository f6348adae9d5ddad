import type { VerifyRowDetail } from '../../common/ipc/verify.js';
import { useVerifyStore } from './verify-store.js';
import { localDateTime } from '../format/local-format.js';

const when = (iso: string | null) => localDateTime(iso);

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One proof's detail (region `Verification detail`): the six steps with reasons, and what the credential says. */
export function VerifyDetailPane({ detail }: { detail: VerifyRowDetail }) {
  const { row, steps, credential } = detail;
  return (
    <aside className="job-detail verify-detail" aria-label="Verification detail">
      <header className="detail-header">
        <h2>{row.title || row.name.split('/').pop()}</h2>
        <button type="button" className="link-button" aria-label="Close verification detail" onClick={() => void useVerifyStore.getState().open(null)}>
          ×
        </button>
      </header>
      <p>
        Result: <strong className={`verify-${row.result}`}>{row.result}</strong>
        <br />
        <span className="muted">{row.name}</span>
        {row.original && (
          <>
            <br />
            <span className="muted">
              Original: {row.original} (matched by {row.matched_by})
            </span>
          </>
        )}
      </p>
      {steps.length === 0 ? (
        <p className="error-panel">{row.reason}</p>
      ) : (
        <>
          <h3>The six steps</h3>
          <ol className="verify-steps">
            {steps.map((s) => (
              <li key={s.key}>
                {s.name}: <span className={`step-${s.status}`}>{s.status === 'not_started' ? 'not checked' : s.status}</span>
                <span className="step-reason">{s.reason}</span>
              </li>
            ))}
          </ol>
        </>
      )}
      {credential && (
        <>
          <h3>What the credential says</h3>
          <dl>
            <dt>Title</dt>
            <dd>{credential.title}</dd>
            {Object.entries(credential.metadata).map(([key, value]) => (
              <div key={key} style={{ display: 'contents' }}>
                <dt>{key}</dt>
                <dd>{text(value)}</dd>
              </div>
            ))}
            <dt>Issuer</dt>
            <dd>
              {credential.issuer_name} <code>{credential.issuer_address}</code>
            </dd>
            <dt>Uploaded</dt>
            <dd>{when(credential.upload_date)}</dd>
            <dt>Issued</dt>
            <dd>{when(credential.issued_date)}</dd>
            <dt>Expires</dt>
            <dd>{credential.expiry_date ? when(credential.expiry_date) : 'never'}</dd>
            <dt>Files</dt>
            <dd>{credential.files.length === 0 ? 'none (metadata only)' : credential.files.map((f) => <code key={f.file_hash}>{f.file_hash.slice(0, 16)}… </code>)}</dd>
            <dt>Engine</dt>
            <dd>
              <code>{credential.engine}</code> (chain id {credential.chain_id})
            </dd>
            <dt>Transaction</dt>
            <dd>
              {credential.transaction_url ? (
                <a href={credential.transaction_url} target="_blank" rel="noreferrer">
                  <code>{credential.transaction_id}</code>
                </a>
              ) : (
                <code>{credential.transaction_id}</code>
              )}
            </dd>
            <dt>Certificate</dt>
            <dd>
              <code>{credential.certificate_uid}</code>
            </dd>
          </dl>
        </>
      )}
    </aside>
  );
}
