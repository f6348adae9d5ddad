import type { VerifyRowDetail } from '../../common/ipc/verify.js';
import { MainWords } from '../i18n/main-words.js';
import { Message, useT } from '../i18n/use-t.js';
import { chainName, chainTechnical } from '../format/chain-display.js';
import { StepReason } from './step-reason.js';
import { useVerifyStore } from './verify-store.js';
import { localDateTime } from '../format/local-format.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One proof's detail (region `Verification detail`): the six steps with reasons, and what the credential says. */
export function VerifyDetailPane({ detail }: { detail: VerifyRowDetail }) {
  const t = useT();
  const { row, steps, credential } = detail;
  return (
    <aside className="job-detail verify-detail" aria-label={t('verify.detail.label')}>
      <header className="detail-header">
        <h2>{row.title || row.name.split('/').pop()}</h2>
        <button type="button" className="link-button" aria-label={t('verify.detail.close')} onClick={() => void useVerifyStore.getState().open(null)}>
          ×
        </button>
      </header>
      <p>
        <Message id="verify.detail.result" values={{ result: row.result, b: (chunks) => <strong className={`verify-${row.result}`}>{chunks}</strong> }} />
        <br />
        <span className="muted">{row.name}</span>
        {row.original && (
          <>
            <br />
            <span className="muted">{t('verify.detail.original', { path: row.original, by: row.matched_by })}</span>
          </>
        )}
      </p>
      {steps.length === 0 ? (
        <p className="error-panel">
          <MainWords>{row.reason}</MainWords>
        </p>
      ) : (
        <>
          <h3>{t('verify.detail.steps')}</h3>
          <ol className="verify-steps">
            {steps.map((s) => (
              <li key={s.key}>
                <Message
                  id="verify.detail.step"
                  values={{ step: t('verify.step', { step: s.key }), status: t('verify.stepStatus', { status: s.status }), b: (chunks) => <span className={`step-${s.status}`}>{chunks}</span> }}
                />
                <StepReason className="step-reason" reason={s.reason} code={s.reason_code} t={t} />
              </li>
            ))}
          </ol>
        </>
      )}
      {credential && (
        <>
          <h3>{t('verify.detail.says')}</h3>
          <dl>
            <dt>{t('verify.detail.title')}</dt>
            <dd>{credential.title}</dd>
            {Object.entries(credential.metadata).map(([key, value]) => (
              <div key={key} style={{ display: 'contents' }}>
                <dt>{key}</dt>
                <dd>{text(value)}</dd>
              </div>
            ))}
            <dt>{t('verify.detail.issuer')}</dt>
            <dd>
              {credential.issuer_name} <code>{credential.issuer_address}</code>
            </dd>
            <dt>{t('verify.detail.uploaded')}</dt>
            <dd>{localDateTime(credential.upload_date)}</dd>
            <dt>{t('verify.detail.issued')}</dt>
            <dd>{localDateTime(credential.issued_date)}</dd>
            <dt>{t('verify.detail.expires')}</dt>
            <dd>{credential.expiry_date ? localDateTime(credential.expiry_date) : t('verify.detail.never')}</dd>
            <dt>{t('verify.detail.files')}</dt>
            <dd>{credential.files.length === 0 ? t('verify.detail.noFiles') : credential.files.map((f) => <code key={f.file_hash}>{f.file_hash.slice(0, 16)}… </code>)}</dd>
            <dt>{t('verify.detail.engine')}</dt>
            <dd title={chainTechnical({ id: credential.engine, chain_id: credential.chain_id })}>{chainName({ id: credential.engine, chain_id: credential.chain_id })}</dd>
            <dt>{t('verify.detail.transaction')}</dt>
            <dd>
              {credential.transaction_url ? (
                <a href={credential.transaction_url} target="_blank" rel="noreferrer">
                  <code>{credential.transaction_id}</code>
                </a>
              ) : (
                <code>{credential.transaction_id}</code>
              )}
            </dd>
            <dt>{t('verify.detail.certificate')}</dt>
            <dd>
              <code>{credential.certificate_uid}</code>
            </dd>
          </dl>
        </>
      )}
    </aside>
  );
}
