/**
 * The app's commands as data: one table (id, title, shortcut, when it is enabled, menu section)
 * from which the Electron application menu (main/app/app-menu.ts), the browser bridge's menu
 * button, the command palette and the renderer's keyboard shortcuts are all built. A command
 * added here appears in all of them; a shortcut changed here changes everywhere at once.
 *
 * Shortcuts are Electron accelerators (`CmdOrCtrl+Shift+T`): Cmd on macOS, Ctrl elsewhere.
 */

/** The application menu's top-level menus, in order. */
export const COMMAND_SECTIONS = ['file', 'edit', 'view', 'window', 'help'] as const;
export type CommandSection = (typeof COMMAND_SECTIONS)[number];

/** The menu titles of the sections. */
export const COMMAND_SECTION_TITLES: Record<CommandSection, string> = {
  file: 'File',
  edit: 'Edit',
  view: 'View',
  window: 'Window',
  help: 'Help',
};

/**
 * When a command can run, judged on the window as it is (see `CommandContext`):
 * - `always`
 * - `records`: the Records section is open
 * - `records-listed`: Records is open and its filter matches at least one credential
 * - `records-selected`: Records is open and at least one credential is selected
 * - `list-export`: the open section has a list to export (Records or Jobs listing at least one
 *   row, Verify with a finished run)
 * - `partner`: a Partner of this machine's engine is active (its keys are here)
 */
export type CommandWhen = 'always' | 'records' | 'records-listed' | 'records-selected' | 'list-export' | 'partner';

/**
 * The Electron menu role of a command the platform itself carries out (the focused text field's
 * undo and clipboard, the window's zoom, minimize and close, quitting). Their shortcuts are the
 * platform's own: the renderer does not dispatch them.
 */
export type CommandRole =
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'selectAll'
  | 'zoomIn'
  | 'zoomOut'
  | 'resetZoom'
  | 'minimize'
  | 'close'
  | 'quit';

export interface CommandSpec {
  id: string;
  /** The menu item's label, the palette's entry and the accessible name of the menu item. */
  title: string;
  section: CommandSection;
  /** Items of one group sit together; a separator goes between groups of a section. */
  group: number;
  /** Electron accelerator; absent when the command has no shortcut. */
  accelerator?: string;
  when: CommandWhen;
  /** Set when the platform carries the command out (see CommandRole). */
  role?: CommandRole;
  /**
   * `desktop`: only in the Electron window (the browser has its own window, zoom and quit, and
   * the bridge cannot reach them). `browser`: only in the browser bridge (asking the browser's
   * leave to notify; the desktop app notifies through main). Absent: everywhere.
   */
  only?: 'desktop' | 'browser';
}

/** Every command of the app, in menu order. */
export const COMMANDS = [
  { id: 'file.addFiles', title: 'Add files…', section: 'file', group: 0, accelerator: 'CmdOrCtrl+O', when: 'records' },
  { id: 'file.addFolder', title: 'Add folder…', section: 'file', group: 0, accelerator: 'CmdOrCtrl+Shift+O', when: 'records' },
  { id: 'file.importCsv', title: 'Import CSV…', section: 'file', group: 0, accelerator: 'CmdOrCtrl+I', when: 'records' },
  { id: 'file.exportList', title: 'Export list…', section: 'file', group: 1, accelerator: 'CmdOrCtrl+E', when: 'list-export' },
  { id: 'file.backupKeys', title: 'Back up keys…', section: 'file', group: 1, when: 'partner' },
  { id: 'file.quit', title: 'Quit', section: 'file', group: 2, accelerator: 'CmdOrCtrl+Q', when: 'always', role: 'quit', only: 'desktop' },

  { id: 'edit.undo', title: 'Undo', section: 'edit', group: 0, accelerator: 'CmdOrCtrl+Z', when: 'always', role: 'undo' },
  { id: 'edit.redo', title: 'Redo', section: 'edit', group: 0, accelerator: 'CmdOrCtrl+Shift+Z', when: 'always', role: 'redo' },
  { id: 'edit.cut', title: 'Cut', section: 'edit', group: 1, accelerator: 'CmdOrCtrl+X', when: 'always', role: 'cut' },
  { id: 'edit.copy', title: 'Copy', section: 'edit', group: 1, accelerator: 'CmdOrCtrl+C', when: 'always', role: 'copy' },
  { id: 'edit.paste', title: 'Paste', section: 'edit', group: 1, accelerator: 'CmdOrCtrl+V', when: 'always', role: 'paste' },
  { id: 'edit.selectAll', title: 'Select all', section: 'edit', group: 1, accelerator: 'CmdOrCtrl+A', when: 'always', role: 'selectAll' },
  { id: 'edit.selectAllMatching', title: 'Select all matching', section: 'edit', group: 2, accelerator: 'CmdOrCtrl+Shift+A', when: 'records-listed' },
  { id: 'edit.find', title: 'Find records', section: 'edit', group: 2, accelerator: 'CmdOrCtrl+F', when: 'records' },
  { id: 'edit.addTags', title: 'Add tags…', section: 'edit', group: 3, accelerator: 'CmdOrCtrl+Shift+T', when: 'records-selected' },
  { id: 'edit.schedule', title: 'Schedule…', section: 'edit', group: 3, accelerator: 'CmdOrCtrl+Shift+S', when: 'records-selected' },

  { id: 'view.records', title: 'Records', section: 'view', group: 0, accelerator: 'CmdOrCtrl+1', when: 'always' },
  { id: 'view.jobs', title: 'Jobs', section: 'view', group: 0, accelerator: 'CmdOrCtrl+2', when: 'always' },
  { id: 'view.verify', title: 'Verify', section: 'view', group: 0, accelerator: 'CmdOrCtrl+3', when: 'always' },
  { id: 'view.watch', title: 'Watch folders', section: 'view', group: 0, accelerator: 'CmdOrCtrl+4', when: 'always' },
  { id: 'view.settings', title: 'Settings', section: 'view', group: 0, accelerator: 'CmdOrCtrl+5', when: 'always' },
  { id: 'view.activity', title: 'Activity', section: 'view', group: 0, accelerator: 'CmdOrCtrl+6', when: 'always' },
  { id: 'view.palette', title: 'Command palette…', section: 'view', group: 1, accelerator: 'CmdOrCtrl+K', when: 'always' },
  { id: 'view.zoomIn', title: 'Zoom in', section: 'view', group: 2, accelerator: 'CmdOrCtrl+=', when: 'always', role: 'zoomIn', only: 'desktop' },
  { id: 'view.zoomOut', title: 'Zoom out', section: 'view', group: 2, accelerator: 'CmdOrCtrl+-', when: 'always', role: 'zoomOut', only: 'desktop' },
  { id: 'view.resetZoom', title: 'Actual size', section: 'view', group: 2, accelerator: 'CmdOrCtrl+0', when: 'always', role: 'resetZoom', only: 'desktop' },
  { id: 'view.themeSystem', title: 'Theme: as the system', section: 'view', group: 3, when: 'always', only: 'desktop' },
  { id: 'view.themeLight', title: 'Theme: light', section: 'view', group: 3, when: 'always', only: 'desktop' },
  { id: 'view.themeDark', title: 'Theme: dark', section: 'view', group: 3, when: 'always', only: 'desktop' },
  { id: 'view.notifications', title: 'Turn on notifications…', section: 'view', group: 3, when: 'always', only: 'browser' },

  { id: 'window.minimize', title: 'Minimize', section: 'window', group: 0, accelerator: 'CmdOrCtrl+M', when: 'always', role: 'minimize', only: 'desktop' },
  { id: 'window.close', title: 'Close window', section: 'window', group: 0, accelerator: 'CmdOrCtrl+W', when: 'always', role: 'close', only: 'desktop' },

  { id: 'help.shortcuts', title: 'Keyboard shortcuts', section: 'help', group: 0, accelerator: 'CmdOrCtrl+/', when: 'always' },
  { id: 'help.copyDiagnostics', title: 'Copy diagnostics', section: 'help', group: 0, when: 'always' },
  { id: 'help.about', title: 'About Proofdesk', section: 'help', group: 1, when: 'always' },
] as const satisfies readonly CommandSpec[];

export type CommandId = (typeof COMMANDS)[number]['id'];

export const COMMAND_IDS: readonly CommandId[] = COMMANDS.map((c) => c.id);

/** The command of an id. */
export function commandById(id: CommandId): CommandSpec {
  return COMMANDS.find((c) => c.id === id)!;
}

/** True for a known command id (untrusted input, e.g. an IPC argument). */
export function isCommandId(value: unknown): value is CommandId {
  return typeof value === 'string' && (COMMAND_IDS as readonly string[]).includes(value);
}

/** The commands a window offers: the Electron window's, or those the browser bridge can carry out. */
export function commandsFor(where: 'desktop' | 'browser'): CommandSpec[] {
  return COMMANDS.filter((c: CommandSpec) => c.only === undefined || c.only === where);
}

/** What enablement is judged on: the window as it is now. */
export interface CommandContext {
  /** The open section (`records`, `jobs`, `verify`, `watch`, `settings`). */
  section: string;
  /** Credentials the Records filter matches. */
  records: number;
  /** Credentials selected in Records. */
  selectedRecords: number;
  /** True when the open section has a list to export. */
  listExport: boolean;
  /** True when a Partner of this machine's engine is active. */
  partner: boolean;
}

/** Whether a command can run in this context. */
export function isCommandEnabled(command: Pick<CommandSpec, 'when'>, ctx: CommandContext): boolean {
  switch (command.when) {
    case 'always':
      return true;
    case 'records':
      return ctx.section === 'records';
    case 'records-listed':
      return ctx.section === 'records' && ctx.records > 0;
    case 'records-selected':
      return ctx.section === 'records' && ctx.selectedRecords > 0;
    case 'list-export':
      return ctx.listExport;
    case 'partner':
      return ctx.partner;
  }
}

/** The part of a key event a shortcut is matched on (DOM KeyboardEvent and React's both fit). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The physical key (`KeyA`, `Digit1`), when known. */
  code?: string;
}

interface ParsedAccelerator {
  mod: boolean;
  shift: boolean;
  alt: boolean;
  key: string;
}

function parseAccelerator(accelerator: string): ParsedAccelerator {
  const parts = accelerator.split('+');
  // `CmdOrCtrl+=` / `CmdOrCtrl+-`: the key is the last part; a `+` key would read as empty.
  const key = parts.pop() ?? '';
  return { mod: parts.includes('CmdOrCtrl'), shift: parts.includes('Shift'), alt: parts.includes('Alt'), key: key.toLowerCase() };
}

/**
 * Whether a key press is a command's shortcut. CmdOrCtrl takes Ctrl or Cmd on every platform
 * (as the app's shortcuts always have); Shift and Alt must match exactly.
 */
export function matchesAccelerator(accelerator: string, press: KeyPress): boolean {
  const a = parseAccelerator(accelerator);
  const mod = press.ctrlKey || press.metaKey;
  if (a.mod !== mod || a.shift !== press.shiftKey || a.alt !== press.altKey) return false;
  if (press.key.toLowerCase() === a.key) return true;
  // With Alt held a letter may arrive as another character (macOS: Option+A is `å`): the
  // accelerator names the key, so a letter or digit is also compared by the physical key.
  if (/^[a-z]$/.test(a.key)) return press.code === `Key${a.key.toUpperCase()}`;
  if (/^[0-9]$/.test(a.key)) return press.code === `Digit${a.key}`;
  return false;
}

/** The command a key press is the shortcut of, among `commands` (those the renderer dispatches). */
export function commandForKey(commands: readonly CommandSpec[], press: KeyPress): CommandSpec | undefined {
  return commands.find((c) => c.accelerator !== undefined && matchesAccelerator(c.accelerator, press));
}

/** The names of the modifier keys as a keyboard of the window's language prints them (German: Strg, Umschalt). */
export interface ModifierNames {
  ctrl: string;
  alt: string;
  shift: string;
}

const ENGLISH_MODIFIERS: ModifierNames = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift' };

/** A shortcut as people read it: `Ctrl+Shift+T`, or `⌘⇧T` on macOS. */
export function shortcutLabel(accelerator: string, mac: boolean, keys: ModifierNames = ENGLISH_MODIFIERS): string {
  const a = parseAccelerator(accelerator);
  const key = a.key.length === 1 ? a.key.toUpperCase() : a.key;
  if (mac) return `${a.mod ? '⌘' : ''}${a.alt ? '⌥' : ''}${a.shift ? '⇧' : ''}${key}`;
  return [a.mod ? keys.ctrl : null, a.alt ? keys.alt : null, a.shift ? keys.shift : null, key].filter((p) => p !== null).join('+');
}

/** A shortcut as `aria-keyshortcuts` spells it: `Control+Shift+T` (`Meta+Shift+T` on macOS). */
export function ariaKeyShortcuts(accelerator: string, mac: boolean): string {
  const a = parseAccelerator(accelerator);
  const key = a.key.length === 1 ? a.key.toUpperCase() : a.key;
  return [a.mod ? (mac ? 'Meta' : 'Control') : null, a.alt ? 'Alt' : null, a.shift ? 'Shift' : null, key].filter((p) => p !== null).join('+');
}
