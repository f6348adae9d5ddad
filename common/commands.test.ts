import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  ariaKeyShortcuts,
  commandForKey,
  commandsFor,
  isCommandEnabled,
  isCommandId,
  matchesAccelerator,
  shortcutLabel,
  type CommandContext,
  type CommandSpec,
} from './commands.js';

const press = (key: string, mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean; alt: boolean; code: string }> = {}) => ({
  key,
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  shiftKey: mods.shift ?? false,
  altKey: mods.alt ?? false,
  ...(mods.code ? { code: mods.code } : {}),
});

const records: CommandContext = { section: 'records', records: 10, selectedRecords: 0, listExport: false, partner: true };

describe('the command table', () => {
  it('has unique ids and unique shortcuts', () => {
    const ids = COMMANDS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = COMMANDS.flatMap((c: CommandSpec) => (c.accelerator ? [c.accelerator] : []));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("keeps the app's shortcuts: Ctrl+1…5 open the sections, Ctrl+F finds, Ctrl+Shift+T/S tag and schedule", () => {
    const byKey = (key: string, mods: Parameters<typeof press>[1]) => commandForKey(COMMANDS, press(key, mods))?.id;
    expect(['1', '2', '3', '4', '5'].map((k) => byKey(k, { ctrl: true }))).toEqual(['view.records', 'view.jobs', 'view.verify', 'view.watch', 'view.settings']);
    expect(byKey('f', { ctrl: true })).toBe('edit.find');
    expect(byKey('T', { ctrl: true, shift: true })).toBe('edit.addTags');
    expect(byKey('S', { meta: true, shift: true })).toBe('edit.schedule');
    expect(byKey('k', { meta: true })).toBe('view.palette');
    // Modifiers must match: Ctrl+T alone, or a plain 1, is no command.
    expect(byKey('t', { ctrl: true })).toBeUndefined();
    expect(byKey('1', {})).toBeUndefined();
    expect(byKey('1', { ctrl: true, alt: true })).toBeUndefined();
  });

  it('matches a letter by its physical key when Alt turns it into another character', () => {
    expect(matchesAccelerator('CmdOrCtrl+Alt+A', press('å', { meta: true, alt: true, code: 'KeyA' }))).toBe(true);
    expect(matchesAccelerator('CmdOrCtrl+Alt+A', press('b', { ctrl: true, alt: true, code: 'KeyB' }))).toBe(false);
    expect(matchesAccelerator('CmdOrCtrl+=', press('=', { ctrl: true }))).toBe(true);
    expect(matchesAccelerator('CmdOrCtrl+/', press('/', { ctrl: true }))).toBe(true);
  });

  it('shows shortcuts as people read them, and as aria-keyshortcuts spells them', () => {
    expect(shortcutLabel('CmdOrCtrl+Shift+T', false)).toBe('Ctrl+Shift+T');
    expect(shortcutLabel('CmdOrCtrl+Shift+T', true)).toBe('⌘⇧T');
    expect(shortcutLabel('CmdOrCtrl+Alt+A', false)).toBe('Ctrl+Alt+A');
    expect(ariaKeyShortcuts('CmdOrCtrl+1', false)).toBe('Control+1');
    expect(ariaKeyShortcuts('CmdOrCtrl+Shift+S', true)).toBe('Meta+Shift+S');
  });

  it('judges enablement on the window as it is', () => {
    const when = (id: string, ctx: CommandContext) => isCommandEnabled(COMMANDS.find((c) => c.id === id)!, ctx);
    expect(when('edit.addTags', records)).toBe(false);
    expect(when('edit.addTags', { ...records, selectedRecords: 3 })).toBe(true);
    expect(when('edit.addTags', { ...records, section: 'jobs', selectedRecords: 3 })).toBe(false);
    expect(when('edit.selectAllMatching', records)).toBe(true);
    expect(when('edit.selectAllMatching', { ...records, records: 0 })).toBe(false);
    expect(when('file.exportList', records)).toBe(false);
    expect(when('file.exportList', { ...records, section: 'verify', listExport: true })).toBe(true);
    expect(when('file.backupKeys', { ...records, partner: false })).toBe(false);
    expect(when('view.jobs', { ...records, partner: false })).toBe(true);
  });

  it('offers the browser every command but those only the desktop window can carry out', () => {
    const browser = commandsFor('browser').map((c) => c.id);
    expect(browser).not.toContain('file.quit');
    expect(browser).not.toContain('window.minimize');
    expect(browser).toContain('file.addFiles');
    expect(browser).toContain('help.copyDiagnostics');
    expect(browser).toContain('view.notifications');
    expect(commandsFor('desktop').map((c) => c.id)).not.toContain('view.notifications');
    expect(commandsFor('desktop').length + commandsFor('browser').length - COMMANDS.filter((c: CommandSpec) => !c.only).length).toBe(COMMANDS.length);
    expect(isCommandId('view.jobs')).toBe(true);
    expect(isCommandId('view.nothing')).toBe(false);
    expect(isCommandId(7)).toBe(false);
  });
});
