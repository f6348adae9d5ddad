/**
 * The renderer's side of the command table (common/commands.ts): who carries out each command
 * (views register a handler while they are shown), whether it can run now, and `runCommand`,
 * the one way the menu, the palette, the shortcuts and the application menu's clicks run one.
 */
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { commandById, commandsFor, isCommandEnabled, type CommandContext, type CommandId, type CommandSpec } from '../../common/commands.js';
import { selectedCount } from '../table/selection.js';
import { useJobsStore } from '../jobs/jobs-store.js';
import { useRecordsStore } from '../records/records-store.js';
import { useShellStore } from '../shell/shell-store.js';
import { useVerifyStore } from '../verify/verify-store.js';

type Handler = () => void;

/** Which commands have a handler now: a change re-renders the menus and the palette. */
const useHandlerStore = create<{ handlers: Partial<Record<CommandId, Handler>> }>()(() => ({ handlers: {} }));

/**
 * Registers the handler of a command while the calling component is shown. The latest `run`
 * is called, so it may close over the component's state.
 *
 * @example useCommandHandler('edit.addTags', () => setDialog({ kind: 'tags', mode: 'add' }))
 */
export function useCommandHandler(id: CommandId, run: Handler): void {
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    const handler = () => latest.current();
    useHandlerStore.setState((s) => ({ handlers: { ...s.handlers, [id]: handler } }));
    return () =>
      useHandlerStore.setState((s) => {
        if (s.handlers[id] !== handler) return s;
        const handlers = { ...s.handlers };
        delete handlers[id];
        return { handlers };
      });
  }, [id]);
}

/** True in macOS windows (shortcut labels use ⌘). */
export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The commands this window offers: the browser bridge leaves out the desktop window's own. */
export function windowCommands(): CommandSpec[] {
  return commandsFor(useShellStore.getState().status?.nativeMenu ? 'desktop' : 'browser');
}

/** The window as enablement sees it now, from the feature stores. */
export function commandContextNow(): CommandContext {
  const shell = useShellStore.getState();
  const records = useRecordsStore.getState();
  return {
    section: shell.section,
    records: records.total,
    selectedRecords: selectedCount(records.selection, records.total),
    listExport: listToExport(shell.section, records.total),
    partner: shell.status?.partner != null && shell.status.mode === 'embedded',
  };
}

/** Whether the open section has a list to export: Verify's finished run, a non-empty Records or Jobs list. */
function listToExport(section: string, records: number): boolean {
  if (section === 'verify') return useVerifyStore.getState().summary !== null;
  if (section === 'records') return records > 0;
  if (section === 'jobs') return useJobsStore.getState().total > 0;
  return false;
}

/** The same, for a component: it re-renders when any of it changes. */
export function useCommandContext(): CommandContext {
  useShellStore((s) => s.section);
  useShellStore((s) => s.status);
  useRecordsStore((s) => s.total);
  useRecordsStore((s) => s.selection);
  useVerifyStore((s) => s.summary);
  useJobsStore((s) => s.total);
  return commandContextNow();
}

/** Whether a command can run now: the table's condition holds and something carries it out. */
export function canRun(command: CommandSpec, ctx: CommandContext, handlers: Partial<Record<CommandId, Handler>>): boolean {
  if (command.role || (useShellStore.getState().status?.nativeMenu && mainRuns(command))) return true;
  return handlers[command.id as CommandId] !== undefined && isCommandEnabled(command, ctx);
}

/** The handlers registered now (re-renders the caller when they change). */
export function useCommandHandlers(): Partial<Record<CommandId, Handler>> {
  return useHandlerStore((s) => s.handlers);
}

/** Commands the platform carries out, done from the page: the focused field's clipboard and undo. */
const EDITING: Partial<Record<CommandId, string>> = {
  'edit.undo': 'undo',
  'edit.redo': 'redo',
  'edit.cut': 'cut',
  'edit.copy': 'copy',
  'edit.paste': 'paste',
  'edit.selectAll': 'selectAll',
};

/** The commands main carries out in the Electron window: the platform's roles and the theme. */
function mainRuns(command: CommandSpec): boolean {
  return command.role !== undefined || command.id.startsWith('view.theme');
}

/**
 * Runs a command if it can run now; false when it cannot (not enabled here, or nothing
 * carries it out). The platform's commands are main's in the Electron window (its menu item
 * is clicked); in the browser the editing ones act on the focused element.
 */
export function runCommand(id: CommandId, ctx: CommandContext = commandContextNow()): boolean {
  const command = commandById(id);
  if (useShellStore.getState().status?.nativeMenu && mainRuns(command)) {
    void window.proofdesk.appRunCommand(id).catch(() => undefined);
    return true;
  }
  const editing = EDITING[id];
  if (editing) {
    // execCommand is deprecated but remains the only way a page triggers the focused field's
    // own undo and clipboard (Chromium refuses `paste` from a page; the shortcut still works).
    return document.execCommand(editing);
  }
  const handler = useHandlerStore.getState().handlers[id];
  if (!handler || !isCommandEnabled(command, ctx)) return false;
  handler();
  return true;
}
