import { useEffect, useId } from 'react';
import { useT } from '../i18n/use-t.js';
import { ColumnHeads } from '../shell/column-heads.js';
import { OutcomeLine } from './outcome-line.js';
import { useBackupPassphrase } from './backup-passphrase.js';
import { RestoreForm } from './restore-form.js';
import { useSettingsStore } from './settings-store.js';
import { useShellStore } from '../shell/shell-store.js';
import { chainName, chainTechnical, etherAmount } from '../format/chain-display.js';
import { localDateTime } from '../format/local-format.js';
import { Fact } from '../shell/fact.js';

const STORE_TEXT = {
  keychain: 'settings.keys.storeKeychain',
  'encrypted-file': 'settings.keys.storeFile',
} as const;

/** Settings › Keys: where they are, the public key, the chain accounts and balances, backup and restore. */
export function KeysPanel() {
  const keys = useSettingsStore((s) => s.keys);
  const loading = useSettingsStore((s) => s.keysLoading);
  const loadKeys = useSettingsStore((s) => s.loadKeys);
  const t = useT();

  useEffect(() => {
    void loadKeys();
  }, [loadKeys]);

  return (
    <div className="settings-panel">
      <p className="first-run-warning">{t('firstRun.lostKey')}</p>
      {loading && !keys && <p role="status">{t('settings.keys.asking')}</p>}
      {keys && (
        <>
          <dl className="facts">
            <Fact term={t('settings.keys.kept')}>{keys.keyStore ? t(STORE_TEXT[keys.keyStore]) : t('settings.keys.noStore')}</Fact>
            <Fact term={t('settings.keys.signingKey')}><code data-testid="settings-signing-key">{keys.signingPublicKey ?? t('settings.keys.notMade')}</code>{t('settings.keys.publicPart')}</Fact>
            <Fact term={t('settings.keys.chainAccount')}><code data-testid="settings-address">{keys.address ?? t('settings.keys.notMade')}</code></Fact>
          </dl>
          <table className="settings-table" aria-label={t('settings.keys.accounts')}>
            <ColumnHeads names={[t('settings.keys.column.engine'), t('settings.keys.column.chain'), t('settings.keys.column.environment'), t('settings.keys.column.balance'), t('settings.keys.column.todo')]} />
            <tbody>
              {keys.accounts.map((a) => (
                <tr key={a.engine}>
                  <td><code>{a.engine}</code></td>
                  <td title={chainTechnical({ id: a.engine, chain_id: a.chain_id })}>{chainName({ id: a.engine, chain_id: a.chain_id })}</td>
                  <td>{a.environment}</td>
                  <td title={a.balance ?? undefined}>{a.balance === null ? t('settings.keys.unknown') : etherAmount(a.balance)}</td>
                  <td>{a.hint}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={() => void loadKeys()} disabled={loading}>
            {t('settings.keys.refresh')}
          </button>
        </>
      )}
      <BackupForm />
      <RestoreForm />
    </div>
  );
}

/** Whether the keys were backed up, as far as the app knows it truly. */
function BackupState() {
  const recorded = useSettingsStore((s) => s.keys?.lastBackup ?? null);
  const session = useSettingsStore((s) => s.backedUp);
  const t = useT();
  if (recorded) return <p className="backed-up" data-testid="backup-state">{t('settings.backup.last', { at: localDateTime(recorded.at), path: recorded.path })}</p>;
  if (session) return <p className="backed-up" data-testid="backup-state">{t('settings.backup.lastDownload', { at: localDateTime(session.at), file: session.fileName })}</p>;
  return <p className="muted" data-testid="backup-state">{t('settings.backup.none')}</p>;
}

function BackupForm() {
  const busy = useSettingsStore((s) => s.busy.backup ?? false);
  const outcome = useSettingsStore((s) => s.outcomes.backup);
  const native = useShellStore((s) => s.status?.canChooseFolder ?? false);
  const id = useId();
  const t = useT();
  const { fields, ready, onSubmit } = useBackupPassphrase(id);
  return (
    <form className="backup-keys" aria-labelledby={`${id}-title`} onSubmit={onSubmit}>
      <h2 id={`${id}-title`}>{t('settings.backup.title')}</h2>
      <BackupState />
      <p className="muted">
        {t('settings.backup.help')} {native ? t('settings.backup.native') : t('settings.backup.browser')}
      </p>
      {fields}
      <OutcomeLine outcome={outcome} />
      <button type="submit" disabled={busy || !ready}>
        {busy ? t('settings.backup.busy') : t('settings.backup.submit')}
      </button>
    </form>
  );
}
