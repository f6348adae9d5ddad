import { useEffect, useId, useState } from 'react';
import { LOST_KEY_SENTENCE } from '../../common/ipc/settings.js';
import { OutcomeLine } from './outcome-line.js';
import { NewPassphraseFields } from './new-passphrase-fields.js';
import { RestoreForm } from './restore-form.js';
import { useSettingsStore } from './settings-store.js';
import { useShellStore } from '../shell/shell-store.js';

const MIN_PASSPHRASE = 10;
const STORE_TEXT = {
  keychain: 'In the OS keychain of this computer.',
  'encrypted-file': 'In the encrypted secrets file of the data directory (secrets.enc.json), under the passphrase Proofdesk was started with.',
} as const;

/** Settings › Keys: where they are, the public key, the chain accounts and balances, backup and restore. */
export function KeysPanel() {
  const keys = useSettingsStore((s) => s.keys);
  const loading = useSettingsStore((s) => s.keysLoading);
  const loadKeys = useSettingsStore((s) => s.loadKeys);

  useEffect(() => {
    void loadKeys();
  }, [loadKeys]);

  return (
    <div className="settings-panel">
      <p className="first-run-warning">{LOST_KEY_SENTENCE}</p>
      {loading && !keys && <p role="status">Asking each engine&apos;s chain for the balance…</p>}
      {keys && (
        <>
          <dl className="facts">
            <dt>Kept</dt>
            <dd>{keys.keyStore ? STORE_TEXT[keys.keyStore] : 'No key store is open on this machine.'}</dd>
            <dt>Signing key</dt>
            <dd><code data-testid="settings-signing-key">{keys.signingPublicKey ?? 'not made yet'}</code> (Ed25519, public part)</dd>
            <dt>Chain account</dt>
            <dd><code data-testid="settings-address">{keys.address ?? 'not made yet'}</code></dd>
          </dl>
          <table className="settings-table" aria-label="Chain accounts">
            <thead>
              <tr>
                <th scope="col">Engine</th>
                <th scope="col">Chain id</th>
                <th scope="col">Environment</th>
                <th scope="col">Balance (ether)</th>
                <th scope="col">What to do</th>
              </tr>
            </thead>
            <tbody>
              {keys.accounts.map((a) => (
                <tr key={a.engine}>
                  <td><code>{a.engine}</code></td>
                  <td>{a.chain_id ?? '—'}</td>
                  <td>{a.environment}</td>
                  <td>{a.balance ?? 'unknown'}</td>
                  <td>{a.hint}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={() => void loadKeys()} disabled={loading}>
            Refresh balances
          </button>
        </>
      )}
      <BackupForm />
      <RestoreForm />
    </div>
  );
}

function BackupForm() {
  const backUp = useSettingsStore((s) => s.backUp);
  const busy = useSettingsStore((s) => s.busy.backup ?? false);
  const outcome = useSettingsStore((s) => s.outcomes.backup);
  const native = useShellStore((s) => s.status?.canChooseFolder ?? false);
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const id = useId();
  const mismatch = second !== '' && first !== second;
  const short = first !== '' && first.length < MIN_PASSPHRASE;
  return (
    <form
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        if (mismatch || short) return;
        void backUp(first).then((ok) => {
          if (!ok) return;
          setFirst('');
          setSecond('');
        });
      }}
    >
      <h2 id={`${id}-title`}>Back up the keys</h2>
      <p className="muted">
        One file, encrypted with a passphrase you choose, to restore this Partner on another machine. It holds no key in clear.{' '}
        {native ? 'Back up keys asks where to save it.' : 'Your browser downloads it.'}
      </p>
      <NewPassphraseFields
        id={id}
        label="New backup passphrase"
        againLabel="Type the backup passphrase again"
        hint={`At least ${MIN_PASSPHRASE} characters; without it the backup cannot be opened.`}
        first={first}
        second={second}
        onFirst={setFirst}
        onSecond={setSecond}
      />
      {short && <p className="muted" role="status">The passphrase is shorter than {MIN_PASSPHRASE} characters.</p>}
      <OutcomeLine outcome={outcome} />
      <button type="submit" disabled={busy || first === '' || mismatch || short || second === ''}>
        {busy ? 'Backing up…' : 'Back up keys'}
      </button>
    </form>
  );
}
