import type { VerifyRowDetail } from '../../common/ipc/verify.js';
import { MainWords } from '../i18n/main-words.js';
import { Message, useT } from '../i18n/use-t.js';
import { chainName, chainTechnical } from '../format/chain-display.js';
import { StepReason } from './step-reason.js';
import { useVerifyStore } from './verify-store.js';
import { localDateTime } from '../format/local-format.js';
import { Fact } from '../shell/fact.js';

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
            <Fact term={t('verify.detail.title')}>{credential.title}</Fact>
            {Object.entries(credential.metadata).map(([key, value]) => (
              <Fact key={key} term={key}>
                {text(value)}
              </Fact>
            ))}
            <Fact term={t('verify.detail.issuer')}>
              {credential.issuer_name} <code>{credential.issuer_address}</code>
            </Fact>
            <Fact term={t('verify.detail.uploaded')}>{localDateTime(credential.upload_date)}</Fact>
            <Fact term={t('verify.detail.issued')}>{localDateTime(credential.issued_date)}</Fact>
            <Fact term={t('verify.detail.expires')}>{credential.expiry_date ? localDateTime(credential.expiry_date) : t('verify.detail.never')}</Fact>
            <Fact term={t('verify.detail.files')}>{credential.files.length === 0 ? t('verify.detail.noFiles') : credential.files.map((f) => <code key={f.file_hash}>{f.file_hash.slice(0, 16)}… </code>)}</Fact>
            <Fact term={t('verify.detail.engine')} title={chainTechnical({ id: credential.engine, chain_id: credential.chain_id })}>{chainName({ id: credential.engine, chain_id: credential.chain_id })}</Fact>
            <Fact term={t('verify.detail.transaction')}>
              {credential.transaction_url ? (
                <a href={credential.transaction_url} target="_blank" rel="noreferrer">
                  <code>{credential.transaction_id}</code>
                </a>
              ) : (
                <code>{credential.transaction_id}</code>
              )}
            </Fact>
            <Fact term={t('verify.detail.certificate')}>
              <code>{credential.certificate_uid}</code>
            </Fact>
          </dl>
        </>
      )}
    </aside>
  );
}
