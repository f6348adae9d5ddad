import { COMMAND_SECTION_TITLES, shortcutLabel } from '../../common/commands.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { IS_MAC, windowCommands } from './command-registry.js';
import { copyText } from './copy-text.js';

/** Help › Keyboard shortcuts: every command that has one, from the command table. */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const commands = windowCommands().filter((c) => c.accelerator);
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <table className="plain-table shortcut-table">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Command</th>
            <th scope="col">Menu</th>
          </tr>
        </thead>
        <tbody>
          {commands.map((c) => (
            <tr key={c.id}>
              <td>
                <kbd>{shortcutLabel(c.accelerator!, IS_MAC)}</kbd>
              </td>
              <td>{c.title.replace(/…$/, '')}</td>
              <td>{COMMAND_SECTION_TITLES[c.section]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">In a table: arrows, Home, End, Page Up/Down move; Shift extends; Space selects; Enter opens. Shift+F10 or the menu key opens a row's menu.</p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}

/** Help › About Proofdesk. */
export function AboutDialog({ onClose }: { onClose(): void }) {
  const version = useShellStore((s) => s.status?.version ?? '');
  return (
    <Modal title="About Proofdesk" onClose={onClose}>
      <p>Proofdesk {version}</p>
      <p className="muted">Issues credentials in bulk, anchored on blockchains, and verifies their proof files.</p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
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
  return copyText(diagnosticsText(), 'The diagnostics');
}
