/**
 * The Electron application menu, built from the command table (common/commands.ts) as a
 * plain template, after GitHub Desktop's build-default-menu. Pure: it takes what a click does
 * and returns `MenuItemConstructorOptions`, so it is tested without Electron; main/app/index.ts
 * hands the template to `Menu.buildFromTemplate`.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { COMMAND_SECTIONS, commandsFor, isCommandId, type CommandId, type CommandSpec } from '../../common/commands.js';
import { menuLabels, type MenuLabels } from './menu-labels.js';

/** The theme commands, carried out in main (Electron's `nativeTheme.themeSource`). */
export const THEME_COMMANDS = {
  'view.themeSystem': 'system',
  'view.themeLight': 'light',
  'view.themeDark': 'dark',
} as const satisfies Partial<Record<CommandId, 'system' | 'light' | 'dark'>>;

export type ThemeSource = (typeof THEME_COMMANDS)[keyof typeof THEME_COMMANDS];

export interface MenuActions {
  /** Sends a command to the window's page (over the event channel) to carry it out. */
  send(command: CommandId): void;
  /** Sets the theme (the page's `prefers-color-scheme` follows it). */
  setTheme(theme: ThemeSource): void;
  /** macOS puts the app's name menu first and uses Cmd glyphs; others use `&` mnemonics. */
  mac: boolean;
  /** The words, in the window's language (default: English). */
  labels?: MenuLabels;
  /** The theme whose radio item is checked (default: the system's). */
  theme?: ThemeSource;
}

function isThemeCommand(id: string): id is keyof typeof THEME_COMMANDS {
  return id in THEME_COMMANDS;
}

function itemFor(command: CommandSpec, actions: MenuActions, labels: MenuLabels): MenuItemConstructorOptions {
  const id = command.id as CommandId;
  // Every item is labelled, roles too: Electron's role labels are English in every language.
  const item: MenuItemConstructorOptions = { id, label: labels.command(id) };
  if (command.accelerator) item.accelerator = command.accelerator;
  if (command.role) {
    // The platform carries it out (text field clipboard, zoom, window, quit).
    item.role = command.role;
  } else if (isThemeCommand(id)) {
    const theme = THEME_COMMANDS[id];
    item.type = 'radio';
    item.checked = theme === (actions.theme ?? 'system');
    item.click = () => actions.setTheme(theme);
  } else {
    item.click = () => actions.send(id);
  }
  return item;
}

/**
 * The application menu's template: File, Edit, View, Window, Help, from the command table, with
 * a separator between a section's groups; on macOS the app menu (About, Quit) comes first.
 *
 * @example Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate({ send, setTheme, mac })))
 */
export function buildMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const commands = commandsFor('desktop');
  const labels = actions.labels ?? menuLabels('en');
  const template: MenuItemConstructorOptions[] = [];
  if (actions.mac) {
    // macOS expects About and Quit under the app's name; they leave Help and File there.
    const about = commands.find((c) => c.id === 'help.about')!;
    const quit = commands.find((c) => c.id === 'file.quit')!;
    template.push({
      label: 'Proofdesk',
      submenu: [
        itemFor(about, actions, labels),
        { type: 'separator' },
        { role: 'hide', label: labels.mac('hide') },
        { role: 'hideOthers', label: labels.mac('hideOthers') },
        { role: 'unhide', label: labels.mac('unhide') },
        { type: 'separator' },
        itemFor(quit, actions, labels),
      ],
    });
  }
  for (const section of COMMAND_SECTIONS) {
    const items: MenuItemConstructorOptions[] = [];
    let group: number | null = null;
    for (const command of commands) {
      if (command.section !== section) continue;
      if (actions.mac && (command.id === 'help.about' || command.id === 'file.quit')) continue;
      if (group !== null && command.group !== group) items.push({ type: 'separator' });
      group = command.group;
      items.push(itemFor(command, actions, labels));
    }
    const title = labels.section(section);
    template.push({ label: actions.mac ? title : `&${title}`, submenu: items });
  }
  return template;
}

/** Every item of a template, submenus included (for the enablement updates and tests). */
export function menuItems(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? menuItems(item.submenu) : [])]);
}

/**
 * The commands of a template the page carries out (sent to it on click): the ones the page
 * greys out as it judges. The platform's (clipboard, zoom, window, quit) and the theme stay
 * as Electron keeps them.
 */
export function pageCommandIds(template: MenuItemConstructorOptions[]): CommandId[] {
  return menuItems(template)
    .filter((item) => item.role === undefined && item.type !== 'radio')
    .map((item) => item.id)
    .filter(isCommandId);
}
