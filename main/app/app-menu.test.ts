import { describe, expect, it } from 'vitest';
import { commandsFor, type CommandId } from '../../common/commands.js';
import { COMMANDS, COMMAND_SECTION_TITLES } from '../../common/commands.js';
import de from '../../renderer/i18n/messages/de.json' with { type: 'json' };
import { buildMenuTemplate, menuItems, pageCommandIds, type ThemeSource } from './app-menu.js';
import { menuLabels } from './menu-labels.js';
import type { UiLocale } from '../../common/ui-locales.js';

function build(mac = false, locale: UiLocale = 'en', theme?: ThemeSource) {
  const sent: CommandId[] = [];
  const themes: ThemeSource[] = [];
  const template = buildMenuTemplate({ mac, labels: menuLabels(locale), send: (id) => sent.push(id), setTheme: (t) => themes.push(t), ...(theme ? { theme } : {}) });
  return { template, sent, themes };
}

/** Every label of a template, in order (separators left out). */
const labelsOf = (template: ReturnType<typeof build>['template']) => menuItems(template).filter((i) => i.type !== 'separator').map((i) => i.label);

describe('the application menu', () => {
  it('has File, Edit, View, Window and Help, each command once with its shortcut', () => {
    const { template } = build();
    expect(template.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    const items = menuItems(template).filter((i) => i.id);
    expect(items.map((i) => i.id).sort()).toEqual(commandsFor('desktop').map((c) => c.id).sort());
    const addTags = items.find((i) => i.id === 'edit.addTags')!;
    expect(addTags).toMatchObject({ label: 'Add tags…', accelerator: 'CmdOrCtrl+Shift+T' });
    const file = template[0]!.submenu as { type?: string; label?: string }[];
    expect(file.map((i) => i.label ?? i.type)).toEqual(['Add files…', 'Add folder…', 'Import CSV…', 'separator', 'Export list…', 'Back up keys…', 'separator', 'Quit']);
  });

  it("sends the page's commands on click, leaves the platform's to their roles, and sets the theme in main", () => {
    const { template, sent, themes } = build();
    const item = (id: string) => menuItems(template).find((i) => i.id === id)!;
    (item('view.jobs').click as () => void)();
    (item('edit.addTags').click as () => void)();
    expect(sent).toEqual(['view.jobs', 'edit.addTags']);
    expect(item('edit.copy')).toMatchObject({ role: 'copy', accelerator: 'CmdOrCtrl+C' });
    expect(item('edit.copy').click).toBeUndefined();
    expect(item('file.quit').role).toBe('quit');
    (item('view.themeDark').click as () => void)();
    expect(themes).toEqual(['dark']);
    expect(sent).toHaveLength(2);
    expect(pageCommandIds(template)).toContain('edit.schedule');
    expect(pageCommandIds(template)).not.toContain('edit.paste');
    expect(pageCommandIds(template)).not.toContain('view.themeDark');
  });

  it('puts About and Quit under the app menu on macOS', () => {
    const { template } = build(true);
    expect(template.map((m) => m.label)).toEqual(['Proofdesk', 'File', 'Edit', 'View', 'Window', 'Help']);
    const appMenu = menuItems([template[0]!]).map((i) => i.id).filter(Boolean);
    expect(appMenu).toEqual(['help.about', 'file.quit']);
    expect(menuItems(template).filter((i) => i.id === 'file.quit')).toHaveLength(1);
  });

  it('speaks German with the German catalogue: every item labelled, roles too, and no English label left but the name Proofdesk', () => {
    for (const mac of [false, true]) {
      const english = labelsOf(build(mac, 'en').template);
      const german = labelsOf(build(mac, 'de').template);
      expect(german).toHaveLength(english.length);
      expect(german.every((label) => typeof label === 'string' && label.length > 0)).toBe(true);
      const left = german.filter((label, i) => label === english[i] && label !== 'Proofdesk');
      expect(left, mac ? 'macOS' : 'Windows and Linux').toEqual([]);
    }
    const { template } = build(false, 'de');
    expect(template.map((m) => m.label)).toEqual(['&Datei', '&Bearbeiten', '&Ansicht', '&Fenster', '&Hilfe']);
    const item = (id: string) => menuItems(template).find((i) => i.id === id)!;
    expect(item('edit.copy')).toMatchObject({ role: 'copy', label: de['command.edit.copy'], accelerator: 'CmdOrCtrl+C' });
    expect(item('file.quit')).toMatchObject({ role: 'quit', label: 'Beenden' });
    const macApp = build(true, 'de').template[0]!.submenu as { role?: string; label?: string }[];
    expect(macApp.filter((i) => i.role === 'hide' || i.role === 'hideOthers' || i.role === 'unhide').map((i) => i.label)).toEqual(['Proofdesk ausblenden', 'Andere ausblenden', 'Alle einblenden']);
  });

  it('keeps the theme chosen when rebuilt in another language', () => {
    const { template } = build(false, 'de', 'dark');
    const checked = menuItems(template).filter((i) => i.type === 'radio' && i.checked).map((i) => i.id);
    expect(checked).toEqual(['view.themeDark']);
  });

  it("takes its English from the window's catalogue, which says what the command table says", () => {
    const english = menuLabels('en');
    expect(COMMANDS.filter((c) => english.command(c.id) !== c.title).map((c) => c.id)).toEqual([]);
    expect(Object.entries(COMMAND_SECTION_TITLES).filter(([section, title]) => english.section(section as keyof typeof COMMAND_SECTION_TITLES) !== title)).toEqual([]);
    // The pseudo-locale checks the page's words; the native menu stays English under it.
    expect(labelsOf(build(false, 'en-XA').template)).toEqual(labelsOf(build(false, 'en').template));
  });

  it("words main's native dialogs in the page's language too", () => {
    const ids = ['native.dialog.saveKeyBackup', 'native.dialog.restoreKeyBackup', 'native.dialog.exportList', 'native.filter.keyBackup', 'native.filter.xlsx'] as const;
    const english = ids.map((id) => menuLabels('en').native(id));
    const german = ids.map((id) => menuLabels('de').native(id));
    expect(english).toEqual(['Save the key backup', 'Choose the key backup to restore', 'Export the list', 'Proofdesk key backup', 'Excel workbook']);
    expect(german.filter((text, i) => text === english[i])).toEqual([]);
  });
});
