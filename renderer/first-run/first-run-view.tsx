import { useEffect, useId, useState } from 'react';
import { useT } from '../i18n/use-t.js';
import { RestoreForm } from '../settings/restore-form.js';
import { PassphraseForm } from '../settings/passphrase-form.js';
import '../settings/settings.css';
import { useFirstRunStore } from './first-run-store.js';

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
        <p className="first-run-warning" role="note">{t('firstRun.lostKey')} {t('firstRun.makeBackup')}</p>
        <dl className="facts">
          <dt>{t('firstRun.chainAccount')}</dt>
          <dd><code>{created.partner.chain_address}</code></dd>
          <dt>{t('firstRun.clientId')}</dt>
          <dd><code>{created.client_id}</code></dd>
          <dt>{t('firstRun.clientSecret')}</dt>
          <dd>
            <code data-testid="first-run-secret">{created.client_secret}</code>
            <div className="muted">{t('firstRun.secretOnce')}</div>
          </dd>
        </dl>
        <div>
          <button
            type="button"
            onClick={() => {
              finish();
              onDone();
            }}
          >
            {t('firstRun.continue')}
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
          {keyLock === 'create' && problem && <p className="muted">{problem}</p>}
          <PassphraseForm mode={keyLock} onDone={() => void load()} />
        </div>
      ) : problem && (
        <div className="error-panel" role="alert">
          <p>{t('firstRun.noStore', { problem })}</p>
          <p>{t('firstRun.thenRestart')}</p>
        </div>
      )}
      <form
        className="first-run-form"
        aria-label={t('firstRun.form')}
        onSubmit={(e) => {
          e.preventDefault();
          void submit(name, interval);
        }}
      >
        <div className="field">
          <label htmlFor={nameId}>{t('firstRun.name')}</label>
          <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus autoComplete="organization" />
        </div>
        <div className="field">
          <label htmlFor={intervalId}>{t('firstRun.interval')}</label>
          <input id={intervalId} value={interval} onChange={(e) => setInterval(e.target.value)} required aria-describedby={`${intervalId}-help`} />
          <span id={`${intervalId}-help`} className="muted">
            {t('firstRun.intervalHelp')}
          </span>
        </div>
        <p className="first-run-warning">{t('firstRun.lostKey')}</p>
        {error && (
          <div className="error-panel" role="alert">
            {error}
          </div>
        )}
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
