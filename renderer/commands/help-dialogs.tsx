import { type CommandId } from '../../common/commands.js';
import { useT } from '../i18n/use-t.js';
import { ColumnHeads } from '../shell/column-heads.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { windowCommands } from './command-registry.js';
import { copyText } from './copy-text.js';
import { commandSectionTitle, commandTitle } from './command-title.js';
import { shortcutText } from './shortcut-text.js';

/** Help › Keyboard shortcuts: every command that has one, from the command table. */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const commands = windowCommands().filter((c) => c.accelerator);
  const t = useT();
  return (
    <Modal title={t('commands.shortcuts.title')} onClose={onClose}>
      <table className="plain-table shortcut-table">
        <ColumnHeads names={[t('commands.shortcuts.keys'), t('commands.shortcuts.command'), t('commands.shortcuts.menu')]} />
        <tbody>
          {commands.map((c) => (
            <tr key={c.id}>
              <td>
                <kbd>{shortcutText(c.accelerator!)}</kbd>
              </td>
              <td>{commandTitle(c.id as CommandId).replace(/…$/, '')}</td>
              <td>{commandSectionTitle(c.section)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{t('commands.shortcuts.table')}</p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}

/** Help › About Proofdesk. */
export function AboutDialog({ onClose }: { onClose(): void }) {
  const version = useShellStore((s) => s.status?.version ?? '');
  const t = useT();
  return (
    <Modal title={t('commands.about.title')} onClose={onClose}>
      <p>{t('commands.about.version', { version })}</p>
      <p className="muted">{t('commands.about.what')}</p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}

/** What Help › Copy diagnostics puts on the clipboard: what a support request needs, no secret. */
export function diagnosticsText(): string {
  const { status, tasks } = useShellStore.getState();
  const lines = [
    `Proofdesk ${status?.version ?? 'unknown'}`,
    `Window: ${status?.nativeMenu ? 'desktop app' : 'browser bridge'} (${navigator.userAgent})`,
    `Service: ${status?.mode === 'remote' ? 'remote' : 'this machine'}`,
    `Keys: ${status?.keyStore ?? 'no key store'}`,
    `Issuing: ${status?.issuingOff ? `off (${status.issuingOff})` : 'on'}`,
    ...(status?.engines ?? []).map((e) => `Engine ${e.id} (${e.environment}): chain ${e.chain}${e.detail ? ` (${e.detail})` : ''}`),
    `Tasks running: ${Object.values(tasks).filter((t) => t.state === 'running').length}`,
  ];
  return lines.join('\n') + '\n';
}

/** Copies the diagnostics and says so. */
export function copyDiagnostics(): Promise<void> {
  return copyText(diagnosticsText(), 'diagnostics').then(() => undefined);
}
