import { useEffect, useId, useState } from 'react';
import { useT } from '../i18n/use-t.js';
import { Field } from '../shell/field.js';
import { RestoreForm } from '../settings/restore-form.js';
import { PassphraseForm } from '../settings/passphrase-form.js';
import { useBackupPassphrase } from '../settings/backup-passphrase.js';
import { OutcomeLine } from '../settings/outcome-line.js';
import { useSettingsStore } from '../settings/settings-store.js';
import { CopyButton } from '../shell/copy-button.js';
import { ErrorLine } from '../shell/error-line.js';
import { useShellStore } from '../shell/shell-store.js';
import { localDateTime } from '../format/local-format.js';
import '../settings/settings.css';
import { useFirstRunStore } from './first-run-store.js';
import { Fact } from '../shell/fact.js';

/**
 * The first step after the keys are made: a backup of them, saved now (the OS save dialog in the
 * desktop app, a download in the browser). "Backed up" shows only once the file was written.
 */
function BackupStep() {
  const busy = useSettingsStore((s) => s.busy.backup ?? false);
  const outcome = useSettingsStore((s) => s.outcomes.backup);
  const backedUp = useSettingsStore((s) => s.backedUp);
  const native = useShellStore((s) => s.status?.canChooseFolder ?? false);
  const id = useId();
  const t = useT();
  const { fields, ready, onSubmit } = useBackupPassphrase(id, true);
  return (
    <form className="first-run-backup" aria-labelledby={`${id}-title`} onSubmit={onSubmit}>
      <h2 id={`${id}-title`}>{t('firstRun.backup.title')}</h2>
      {backedUp && (
        <p className="backed-up" data-testid="backed-up">
          {t('firstRun.backup.done', { at: localDateTime(backedUp.at) })}
        </p>
      )}
      <p className="first-run-warning" role="note">
        {t('firstRun.lostKey')}
      </p>
      <p className="muted">{native ? t('firstRun.backup.native') : t('firstRun.backup.browser')}</p>
      {fields}
      <OutcomeLine outcome={outcome} />
      <button type="submit" className="primary" disabled={busy || !ready}>
        {busy ? t('settings.backup.busy') : backedUp ? t('firstRun.backup.again') : t('firstRun.backup.submit')}
      </button>
    </form>
  );
}

/**
 * The first run: with no Partner in the data directory, asks for its name and issuing interval,
 * makes its keys in the key store (or says exactly how to get one) and says what a lost key
 * means. `onDone` continues into Records.
 */
export function FirstRunView({ onDone }: { onDone: () => void }) {
  const overview = useFirstRunStore((s) => s.overview);
  const busy = useFirstRunStore((s) => s.busy);
  const error = useFirstRunStore((s) => s.error);
  const created = useFirstRunStore((s) => s.created);
  const load = useFirstRunStore((s) => s.load);
  const submit = useFirstRunStore((s) => s.submit);
  const finish = useFirstRunStore((s) => s.finish);
  const backedUp = useSettingsStore((s) => s.backedUp !== null);
  const [name, setName] = useState('');
  const [interval, setInterval] = useState('24h');
  const nameId = useId();
  const intervalId = useId();
  const t = useT();

  useEffect(() => {
    void load();
  }, [load]);

  if (created) {
    return (
      <section className="view first-run" aria-labelledby="first-run-title">
        <h1 id="first-run-title">{t('firstRun.ready', { name: created.partner.name })}</h1>
        <p>{t('firstRun.keysKept', { store: overview?.keyStore === 'encrypted-file' ? 'file' : 'keychain' })}</p>
        <BackupStep />
        <h2>{t('firstRun.secrets.title')}</h2>
        <dl className="facts">
          <Fact term={t('firstRun.chainAccount')}>
            <code>{created.partner.chain_address}</code>{' '}
            {created.partner.chain_address && <CopyButton value={created.partner.chain_address} name={t('firstRun.copyAccount')} what="chainAccount" />}
          </Fact>
          <Fact term={t('firstRun.clientId')}>
            <code>{created.client_id}</code> <CopyButton value={created.client_id} name={t('firstRun.copyClientId')} what="clientId" />
          </Fact>
          <Fact term={t('firstRun.clientSecret')}>
            <code data-testid="first-run-secret">{created.client_secret}</code> <CopyButton value={created.client_secret} name={t('firstRun.copySecret')} what="clientSecret" />
            <div className="muted">{t('firstRun.secretOnce')}</div>
          </Fact>
        </dl>
        <div>
          <button
            type="button"
            className={backedUp ? 'primary' : undefined}
            onClick={() => {
              finish();
              onDone();
            }}
          >
            {backedUp ? t('firstRun.continue') : t('firstRun.continueWithout')}
          </button>
        </div>
      </section>
    );
  }

  const problem = overview?.keyStoreProblem ?? null;
  const keyLock = overview?.keyLock ?? null;
  return (
    <section className="view first-run" aria-labelledby="first-run-title">
      <h1 id="first-run-title">{t('firstRun.welcome')}</h1>
      <p>{t('firstRun.intro')}</p>
      {keyLock ? (
        // No keychain: the keys go into the encrypted file, under a passphrase typed here.
        <div className="first-run-passphrase">
          <PassphraseForm mode={keyLock} onDone={() => void load()} />
          {/* Why there is no keychain, under the form it explains (its heading comes first). */}
          {keyLock === 'create' && problem && (
            <details className="error-details">
              <summary>{t('firstRun.whyFile')}</summary>
              <p className="error-technical">{problem}</p>
            </details>
          )}
        </div>
      ) : problem && (
        // One sentence and what to do; keytar, D-Bus and the packages to install are in Details.
        <ErrorLine error={{ id: 'try_again_later', message: problem }} headline={t('firstRun.noStoreHeadline')} className="error-panel" />
      )}
      <form
        className="first-run-form"
        aria-label={t('firstRun.form')}
        onSubmit={(e) => {
          e.preventDefault();
          void submit(name, interval);
        }}
      >
        <Field id={nameId} label={t('firstRun.name')} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus autoComplete="organization" />
        <Field id={intervalId} label={t('firstRun.interval')} help={t('firstRun.intervalHelp')} value={interval} onChange={(e) => setInterval(e.target.value)} required />
        <p className="first-run-warning">{t('firstRun.lostKey')}</p>
        <ErrorLine error={error} className="error-panel" />
        <div>
          <button type="submit" disabled={busy || problem !== null || name.trim() === ''}>
            {busy ? t('firstRun.making') : t('firstRun.create')}
          </button>
        </div>
      </form>
      {!problem && (
        <div className="first-run-restore">
          <p>{t('firstRun.restoreInstead')}</p>
          <RestoreForm onRestored={onDone} />
        </div>
      )}
    </section>
  );
}
