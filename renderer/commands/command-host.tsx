import { useEffect, useRef, useState } from 'react';
import { COMMAND_IDS, type CommandId } from '../../common/commands.js';
import { onAppEvent } from '../shell/app-events.js';
import { useShellStore } from '../shell/shell-store.js';
import { useSettingsStore } from '../settings/settings-store.js';
import { useVerifyStore } from '../verify/verify-store.js';
import { ListExportDialog } from '../list-export/list-export-dialog.js';
import { closeListExport, openListExport, useListExportStore } from '../list-export/list-export-store.js';
import { AboutDialog, ShortcutsDialog, copyDiagnostics } from './help-dialogs.js';
import { CommandPalette } from './command-palette.js';
import { canRun, runCommand, useCommandContext, useCommandHandler, useCommandHandlers, windowCommands } from './command-registry.js';
import { useCommandShortcuts } from './command-shortcuts.js';
import { askForNotifications, startNotifier } from '../notifications/notifier.js';
import { useT } from '../i18n/use-t.js';
import { useI18nStore } from '../i18n/i18n-store.js';

type Open = 'palette' | 'shortcuts' | 'about' | null;

/** Focuses an element once it is shown (a view that opens renders on the next frame). */
function focusWhenShown(find: () => HTMLElement | null): void {
  const now = find();
  if (now) return now.focus();
  const observer = new MutationObserver(() => {
    const element = find();
    if (!element) return;
    observer.disconnect();
    element.focus();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => observer.disconnect(), 5_000);
}

/**
 * Carries out the window-wide commands (sections, palette, help, export, key backup,
 * notifications), runs the commands the application menu sends, dispatches the shortcuts, in
 * the Electron window tells main which commands can run so its menu greys out the others,
 * starts the notifier and names the Partner in the window's title. Mounted once by the app.
 */
export function CommandHost() {
  const [open, setOpen] = useState<Open>(null);
  const go = useShellStore((s) => s.go);
  const t = useT();
  useCommandShortcuts();

  useCommandHandler('view.records', () => go('records'));
  useCommandHandler('view.jobs', () => go('jobs'));
  useCommandHandler('view.verify', () => go('verify'));
  useCommandHandler('view.watch', () => go('watch'));
  useCommandHandler('view.settings', () => go('settings'));
  useCommandHandler('view.activity', () => go('activity'));
  useCommandHandler('view.palette', () => setOpen((o) => (o === 'palette' ? null : 'palette')));
  useCommandHandler('help.shortcuts', () => setOpen('shortcuts'));
  useCommandHandler('help.about', () => setOpen('about'));
  useCommandHandler('help.copyDiagnostics', () => void copyDiagnostics());
  // Verify exports its run's report; Records and Jobs open the `Export list` dialog.
  useCommandHandler('file.exportList', () => {
    const section = useShellStore.getState().section;
    if (section === 'verify') void useVerifyStore.getState().report('csv');
    else if (section === 'records' || section === 'jobs') openListExport(section);
  });
  const exporting = useListExportStore((s) => s.open);
  useCommandHandler('file.backupKeys', () => {
    go('settings');
    useSettingsStore.getState().setTab('keys');
    // The backup form's first passphrase field: the admin types it next.
    focusWhenShown(() => {
      const form = document.querySelector('form.backup-keys');
      return form?.querySelector<HTMLElement>('input[type="password"]') ?? null;
    });
  });

  useCommandHandler('view.notifications', () => void askForNotifications());
  useEffect(() => startNotifier(), []);

  // The window's title names the Partner (the taskbar, the window switcher, the browser tab).
  const partnerName = useShellStore((s) => s.status?.partner?.name ?? null);
  useEffect(() => {
    document.title = partnerName ? t('shell.windowTitle', { partner: partnerName }) : t('shell.brand');
  }, [partnerName, t]);

  // The application menu (Electron) speaks the page's language: main rebuilds it when it changes.
  const locale = useI18nStore((s) => s.locale);
  useEffect(() => {
    window.proofdesk.appUiLocale(locale).catch(() => undefined);
  }, [locale]);

  // The application menu's clicks (Electron) arrive as `command` events.
  useEffect(() => onAppEvent('command', ({ command }) => void runCommand(command)), []);

  // Electron: the native menu shows what can run now.
  const nativeMenu = useShellStore((s) => s.status?.nativeMenu === true);
  const ctx = useCommandContext();
  const handlers = useCommandHandlers();
  const sent = useRef('');
  useEffect(() => {
    if (!nativeMenu) return;
    const enabled = windowCommands()
      .filter((c) => canRun(c, ctx, handlers))
      .map((c) => c.id as CommandId)
      .filter((id) => COMMAND_IDS.includes(id));
    const key = enabled.join(' ');
    if (key === sent.current) return;
    sent.current = key;
    window.proofdesk.appCommandsEnabled(enabled).catch(() => undefined);
  });

  const close = () => setOpen(null);
  return (
    <>
      {open === 'palette' && <CommandPalette onClose={close} />}
      {open === 'shortcuts' && <ShortcutsDialog onClose={close} />}
      {open === 'about' && <AboutDialog onClose={close} />}
      {exporting && <ListExportDialog list={exporting} onClose={closeListExport} />}
    </>
  );
}
