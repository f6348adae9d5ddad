import { useEffect, useId, useState } from 'react';
import { LOST_KEY_SENTENCE } from '../../common/ipc/settings.js';
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

  useEffect(() => {
    void load();
  }, [load]);

  if (created) {
    return (
      <section className="view first-run" aria-labelledby="first-run-title">
        <h1 id="first-run-title">{created.partner.name} is ready to issue</h1>
        <p>The keys are made and kept {overview?.keyStore === 'encrypted-file' ? 'in the encrypted secrets file' : 'in the OS keychain'}.</p>
        <p className="first-run-warning" role="note">{LOST_KEY_SENTENCE} Make a backup in Settings › Keys.</p>
        <dl className="facts">
          <dt>Chain account</dt>
          <dd><code>{created.partner.chain_address}</code></dd>
          <dt>Client id</dt>
          <dd><code>{created.client_id}</code></dd>
          <dt>Client secret</dt>
          <dd>
            <code data-testid="first-run-secret">{created.client_secret}</code>
            <div className="muted">Shown this once, for tools that call the service; Settings › Partner can make a new one.</div>
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
            Continue to Records
          </button>
        </div>
      </section>
    );
  }

  const problem = overview?.keyStoreProblem ?? null;
  const keyLock = overview?.keyLock ?? null;
  return (
    <section className="view first-run" aria-labelledby="first-run-title">
      <h1 id="first-run-title">Welcome to Proofdesk</h1>
      <p>Set up the Partner who issues the credentials: the name people see on them, and how often scheduled credentials are issued together in one transaction.</p>
      {keyLock ? (
        // No keychain: the keys go into the encrypted file, under a passphrase typed here.
        <div className="first-run-passphrase">
          {keyLock === 'create' && problem && <p className="muted">{problem}</p>}
          <PassphraseForm mode={keyLock} onDone={() => void load()} />
        </div>
      ) : problem && (
        <div className="error-panel" role="alert">
          <p>Proofdesk cannot keep the Partner&apos;s keys on this machine yet. {problem}</p>
          <p>Then start Proofdesk again and this page continues.</p>
        </div>
      )}
      <form
        className="first-run-form"
        aria-label="Set up the Partner"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(name, interval);
        }}
      >
        <div className="field">
          <label htmlFor={nameId}>Partner name</label>
          <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus autoComplete="organization" />
        </div>
        <div className="field">
          <label htmlFor={intervalId}>Issuing interval</label>
          <input id={intervalId} value={interval} onChange={(e) => setInterval(e.target.value)} required aria-describedby={`${intervalId}-help`} />
          <span id={`${intervalId}-help`} className="muted">
            A number with s, m, h or d, e.g. 30m or 24h.
          </span>
        </div>
        <p className="first-run-warning">{LOST_KEY_SENTENCE}</p>
        {error && (
          <div className="error-panel" role="alert">
            {error}
          </div>
        )}
        <div>
          <button type="submit" disabled={busy || problem !== null || name.trim() === ''}>
            {busy ? 'Making the keys…' : 'Create Partner and keys'}
          </button>
        </div>
      </form>
      {!problem && (
        <div className="first-run-restore">
          <p>Already issuing on another machine? Restore that Partner from its key backup instead.</p>
          <RestoreForm onRestored={onDone} />
        </div>
      )}
    </section>
  );
}
