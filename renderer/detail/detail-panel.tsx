import { useRef, useState } from 'react';
import type { CredentialOnEngine } from '../../common/ipc/detail.js';
import { VERIFICATION_STEP_KEYS, type VerificationResult } from '../../common/wire-types.js';
import { useStagingStore } from '../staging/staging-store.js';
import { useDetailStore } from './detail-store.js';
import { RecordTree } from './record-tree.js';
import './detail.css';
import { ColumnHeads } from '../shell/column-heads.js';
import { ErrorLine } from '../shell/error-line.js';

const STATE_TEXT: Record<CredentialOnEngine['state'], string> = {
  not_scheduled: 'not scheduled',
  scheduled: 'scheduled',
  issuing: 'issuing',
  issued: 'issued',
  revoked: 'revoked',
};

function Steps({ result }: { result: VerificationResult }) {
  return (
    <div className="verification">
      <p>
        Result: <strong className={`verify-${result.result.status}`}>{result.result.status}</strong>
      </p>
      <ol aria-label="Verification steps">
        {VERIFICATION_STEP_KEYS.map((key) => (
          <li key={key}>
            {result.verification[key].name}: <strong>{result.verification[key].status}</strong>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The confirmation before revoking: says plainly that it cannot be undone. */
function RevokeDialog({ engine, title, onConfirm, onClose }: { engine: string; title: string; onConfirm(): void; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  return (
    <dialog
      ref={(node) => {
        ref.current = node;
        if (node && !node.open) node.showModal();
      }}
      aria-labelledby="revoke-title"
      aria-describedby="revoke-text"
      onClose={onClose}
      className="confirm-dialog"
    >
      <h2 id="revoke-title">Revoke certificate</h2>
      <p id="revoke-text">
        Revoke “{title}” on {engine}? This cannot be undone: every later verification of this certificate fails.
      </p>
      <div className="dialog-actions">
        <button type="button" autoFocus onClick={() => ref.current?.close()}>
          Keep it
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            onConfirm();
            ref.current?.close();
          }}
        >
          Revoke
        </button>
      </div>
    </dialog>
  );
}

/** The detail panel of one credential (region `Credential detail`). */
export function DetailPanel() {
  const { uid, detail, loading, error, verifications, busy, notice } = useDetailStore();
  const { close, verify, downloadProof, downloadCredential, unschedule, revoke, openOriginal } = useDetailStore.getState();
  const addToRecord = useStagingStore((s) => s.addToRecord);
  const [confirming, setConfirming] = useState<string | null>(null);
  if (!uid && !notice) return null;
  if (!uid) {
    return (
      <aside className="detail-panel" aria-label="Credential detail">
        <p role="status">{notice}</p>
      </aside>
    );
  }
  const credential = detail?.credential;
  return (
    <aside className="detail-panel" aria-label="Credential detail">
      <header className="detail-header">
        <h2>{credential?.title ?? (loading ? 'Loading…' : 'Credential')}</h2>
        <button type="button" className="link-button" aria-label="Close detail" onClick={close}>
          ×
        </button>
      </header>
      <ErrorLine error={error} />
      <p className="detail-notice" role="status">
        {notice}
      </p>
      {credential && detail && (
        <>
          <dl className="detail-fields">
            <dt>Uid</dt>
            <dd>
              <code>{credential.uid}</code>
            </dd>
            <dt>Uploaded</dt>
            <dd>{credential.upload_date}</dd>
            <dt>Expires</dt>
            <dd>{credential.expiry_date ?? 'never'}</dd>
            <dt>Tags</dt>
            <dd>{credential.tags.length ? credential.tags.join(', ') : <span className="muted">none</span>}</dd>
          </dl>

          <h3>Metadata</h3>
          {Object.keys(credential.metadata).length === 0 ? (
            <p className="muted">No metadata.</p>
          ) : (
            <table className="plain-table" aria-label="Metadata">
              <tbody>
                {Object.entries(credential.metadata).map(([key, value]) => (
                  <tr key={key}>
                    <th scope="row">{key}</th>
                    <td>{typeof value === 'string' ? value : JSON.stringify(value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}

          <h3>Files</h3>
          {credential.files.length === 0 ? (
            <p className="muted">No file: this credential is metadata only.</p>
          ) : (
            <ul className="detail-files">
              {credential.files.map((f) => (
                <li key={f.file_hash}>
                  <code title="SHA-256">{f.file_hash}</code> <span className="muted">{f.file_type ?? 'unknown type'}</span>{' '}
                  <button
                    type="button"
                    disabled={busy !== null}
                    aria-label={credential.files.length === 1 ? 'Open the original file' : `Open the original file ${f.file_hash.slice(0, 12)}`}
                    onClick={() => void openOriginal(f.file_hash)}
                  >
                    Open the original
                  </button>
                </li>
              ))}
            </ul>
          )}

          <h3>Record</h3>
          <RecordTree record={detail.record} current={credential.uid} size={detail.record_size} />
          <button type="button" onClick={() => addToRecord(credential.uid, credential.title)}>
            Add to record
          </button>
          <span className="muted"> stages a new credential linked to this one: give it metadata, and files you add next link to it too.</span>

          <h3>Certificates</h3>
          <table className="plain-table" aria-label="Certificates">
            <ColumnHeads names={['Engine', 'State', 'Issued', 'Actions']} />
            <tbody>
              {detail.engines.map((e) => (
                <tr key={e.engine}>
                  <th scope="row">{e.engine}</th>
                  <td>
                    {STATE_TEXT[e.state]}
                    {e.certificate?.revoked_date ? ` ${e.certificate.revoked_date}` : ''}
                    {e.job && e.state !== 'issued' && e.state !== 'revoked' ? <span className="muted"> (job {e.job.status})</span> : null}
                  </td>
                  <td>{e.certificate?.issued_date ?? <span className="muted">—</span>}</td>
                  <td>
                    <div className="detail-actions">
                      {e.certificate && (
                        <>
                          <button type="button" disabled={busy !== null} onClick={() => void verify(e.certificate!.uid)}>
                            Verify now
                          </button>
                          <button type="button" disabled={busy !== null} onClick={() => void downloadProof(e.certificate!.uid)}>
                            Download proof
                          </button>
                          <button type="button" disabled={busy !== null} onClick={() => void downloadCredential(e.certificate!.uid)}>
                            Download for a wallet
                          </button>
                        </>
                      )}
                      {e.state === 'scheduled' && (
                        <button type="button" disabled={busy !== null} onClick={() => void unschedule(e.engine)}>
                          Unschedule
                        </button>
                      )}
                      {e.state === 'issued' && (
                        <button type="button" className="danger" disabled={busy !== null} onClick={() => setConfirming(e.engine)}>
                          Revoke
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {detail.engines.map((e) => {
            const result = e.certificate ? verifications[e.certificate.uid] : undefined;
            return result ? (
              <section key={e.engine} aria-label={`Verification on ${e.engine}`}>
                <h3>Verification on {e.engine}</h3>
                <Steps result={result} />
              </section>
            ) : null;
          })}
          {confirming && <RevokeDialog engine={confirming} title={credential.title} onConfirm={() => void revoke(confirming)} onClose={() => setConfirming(null)} />}
        </>
      )}
    </aside>
  );
}
