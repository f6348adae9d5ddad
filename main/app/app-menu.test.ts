import { describe, expect, it } from 'vitest';
import { commandsFor, type CommandId } from '../../common/commands.js';
import { buildMenuTemplate, menuItems, pageCommandIds, type ThemeSource } from './app-menu.js';

function build(mac = false) {
  const sent: CommandId[] = [];
  const themes: ThemeSource[] = [];
  const template = buildMenuTemplate({ mac, send: (id) => sent.push(id), setTheme: (t) => themes.push(t) });
  return { template, sent, themes };
}

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
});
