import { useRef, useState, type ReactNode } from 'react';
import { VERIFICATION_STEP_KEYS, type VerificationResult } from '../../common/wire-types.js';
import { useStagingStore } from '../staging/staging-store.js';
import { useDetailStore } from './detail-store.js';
import { RecordTree } from './record-tree.js';
import { usePaneWidth, type PaneWidthOptions } from './pane-width.js';
import './detail.css';
import { ColumnHeads } from '../shell/column-heads.js';
import { ErrorLine } from '../shell/error-line.js';
import { CopyButton } from '../shell/copy-button.js';
import { engineTechnical, useEngineName } from '../shell/engine-name.js';
import { localDateTime } from '../format/local-format.js';
import { Message, strong, useT } from '../i18n/use-t.js';
import { Fact } from '../shell/fact.js';

function Steps({ result }: { result: VerificationResult }) {
  const t = useT();
  return (
    <div className="verification">
      <p>
        <Message id="detail.result" values={{ status: result.result.status, b: (chunks) => <strong className={`verify-${result.result.status}`}>{chunks}</strong> }} />
      </p>
      <ol aria-label={t('detail.steps')}>
        {VERIFICATION_STEP_KEYS.map((key) => (
          <li key={key}>
            <Message id="detail.step" values={{ name: result.verification[key].name, status: result.verification[key].status, b: strong }} />
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The confirmation before revoking: says plainly that it cannot be undone. */
function RevokeDialog({ engine, title, onConfirm, onClose }: { engine: string; title: string; onConfirm(): void; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT();
  const engineName = useEngineName();
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
      <h2 id="revoke-title">{t('detail.revoke.title')}</h2>
      <p id="revoke-text">
        {t('detail.revoke.text', { title, engine: engineName(engine) })}
      </p>
      <div className="dialog-actions">
        <button type="button" autoFocus onClick={() => ref.current?.close()}>
          {t('detail.revoke.keep')}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            onConfirm();
            ref.current?.close();
          }}
        >
          {t('detail.revoke.revoke')}
        </button>
      </div>
    </dialog>
  );
}

/** The panel's width: 30rem at first, never under 20rem, never over 60 % of the window. */
const PANEL_WIDTH: PaneWidthOptions = { storageKey: 'proofdesk.detail-width', initial: 420, min: 280, maxShare: 0.6 };

/** The detail panel's box, its width set by dragging its edge (a `separator`: `Resize credential detail`). */
function PanelBox({ children }: { children: ReactNode }) {
  const t = useT();
  const { width, separator } = usePaneWidth(PANEL_WIDTH, t('detail.resize'));
  return (
    <div className="detail-panel-box" style={{ flexBasis: width }}>
      <div className="pane-edge" {...separator} />
      <aside className="detail-panel" aria-label={t('detail.label')}>
        {children}
      </aside>
    </div>
  );
}

/** The detail panel of one credential (region `Credential detail`). */
export function DetailPanel() {
  const { uid, detail, loading, error, verifications, busy, notice } = useDetailStore();
  const { close, verify, downloadProof, downloadCredential, unschedule, revoke, openOriginal } = useDetailStore.getState();
  const addToRecord = useStagingStore((s) => s.addToRecord);
  const [confirming, setConfirming] = useState<string | null>(null);
  const t = useT();
  const engineName = useEngineName();
  if (!uid && !notice) return null;
  if (!uid) {
    return (
      <PanelBox>
        <p role="status">{notice}</p>
      </PanelBox>
    );
  }
  const credential = detail?.credential;
  return (
    <PanelBox>
      <header className="detail-header">
        <h2>{credential?.title ?? (loading ? t('common.loading') : t('detail.credential'))}</h2>
        <button type="button" className="link-button" aria-label={t('detail.close')} onClick={close}>
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
            <Fact term={t('detail.uploaded')}>{localDateTime(credential.upload_date)}</Fact>
            <Fact term={t('detail.expires')}>{credential.expiry_date ? localDateTime(credential.expiry_date) : t('detail.never')}</Fact>
            <Fact term={t('detail.tags')}>{credential.tags.length ? credential.tags.join(', ') : <span className="muted">{t('detail.none')}</span>}</Fact>
          </dl>
          {/* The uid is for support and the API: kept at hand, after what the credential is. */}
          <details className="technical">
            <summary>{t('detail.technical')}</summary>
            <dl className="detail-fields">
              <Fact term={t('detail.uid')}>
                <code data-testid="credential-uid">{credential.uid}</code> <CopyButton value={credential.uid} name={t('detail.copyUid')} what="uid" />
              </Fact>
            </dl>
          </details>

          <h3>{t('detail.metadata')}</h3>
          {Object.keys(credential.metadata).length === 0 ? (
            <p className="muted">{t('detail.noMetadata')}</p>
          ) : (
            <table className="plain-table" aria-label={t('detail.metadata')}>
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

          <h3>{t('detail.files')}</h3>
          {credential.files.length === 0 ? (
            <p className="muted">{t('detail.noFile')}</p>
          ) : (
            <ul className="detail-files">
              {credential.files.map((f) => (
                <li key={f.file_hash}>
                  {f.file_type ?? t('detail.unknownType')}{' '}
                  <code className="muted" title={`${t('detail.hashTitle')}: ${f.file_hash}`}>
                    {f.file_hash.slice(0, 12)}…
                  </code>{' '}
                  <button
                    type="button"
                    disabled={busy !== null}
                    aria-label={t('detail.openOriginalNamed', { count: credential.files.length, hash: f.file_hash.slice(0, 12) })}
                    onClick={() => void openOriginal(f.file_hash)}
                  >
                    {t('detail.openOriginal')}
                  </button>
                </li>
              ))}
            </ul>
          )}

          <h3>{t('detail.record')}</h3>
          <RecordTree record={detail.record} current={credential.uid} size={detail.record_size} />
          <button type="button" onClick={() => addToRecord(credential.uid, credential.title)}>
            {t('detail.addToRecord')}
          </button>
          <span className="muted">{t('detail.addToRecordHelp')}</span>

          <h3>{t('detail.certificates')}</h3>
          <table className="plain-table" aria-label={t('detail.certificates')}>
            <ColumnHeads names={[t('detail.column.engine'), t('detail.column.state'), t('detail.column.issued'), t('detail.column.actions')]} />
            <tbody>
              {detail.engines.map((e) => (
                <tr key={e.engine}>
                  <th scope="row" title={engineTechnical(e.engine)}>
                    {engineName(e.engine)}
                  </th>
                  <td className="detail-state">
                    {t('records.state', { state: e.state })}
                    {e.certificate?.revoked_date ? ` ${localDateTime(e.certificate.revoked_date)}` : ''}
                    {e.job && e.state !== 'issued' && e.state !== 'revoked' ? <span className="muted">{t('detail.job', { status: e.job.status })}</span> : null}
                  </td>
                  <td>{e.certificate?.issued_date ? localDateTime(e.certificate.issued_date) : <span className="muted">—</span>}</td>
                  <td>
                    <div className="detail-actions">
                      {e.certificate && (
                        <>
                          <button type="button" disabled={busy !== null} onClick={() => void verify(e.certificate!.uid)}>
                            {t('detail.verifyNow')}
                          </button>
                          <button type="button" disabled={busy !== null} onClick={() => void downloadProof(e.certificate!.uid)}>
                            {t('detail.downloadProof')}
                          </button>
                          <button type="button" disabled={busy !== null} onClick={() => void downloadCredential(e.certificate!.uid)}>
                            {t('detail.downloadWallet')}
                          </button>
                        </>
                      )}
                      {e.state === 'scheduled' && (
                        <button type="button" disabled={busy !== null} onClick={() => void unschedule(e.engine)}>
                          {t('detail.unschedule')}
                        </button>
                      )}
                      {e.state === 'issued' && (
                        <button type="button" className="danger" disabled={busy !== null} onClick={() => setConfirming(e.engine)}>
                          {t('detail.revoke')}
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
              <section key={e.engine} aria-label={t('detail.verificationOn', { engine: engineName(e.engine) })}>
                <h3>{t('detail.verificationOn', { engine: engineName(e.engine) })}</h3>
                <Steps result={result} />
              </section>
            ) : null;
          })}
          {confirming && <RevokeDialog engine={confirming} title={credential.title} onConfirm={() => void revoke(confirming)} onClose={() => setConfirming(null)} />}
        </>
      )}
    </PanelBox>
  );
}
