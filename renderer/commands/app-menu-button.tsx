import { useRef } from 'react';
import { COMMAND_SECTIONS, ariaKeyShortcuts, type CommandId } from '../../common/commands.js';
import { useShellStore } from '../shell/shell-store.js';
import { IS_MAC, canRun, runCommand, useCommandContext, useCommandHandlers, windowCommands } from './command-registry.js';
import { PopupMenu, useMenuAnchor, type MenuGroup } from './popup-menu.js';
import { commandSectionTitle, commandTitle } from './command-title.js';
import { t as translate } from '../i18n/i18n-store.js';
import { shortcutText } from './shortcut-text.js';

/**
 * The browser bridge's application menu: a `Menu` button opening every command of the window
 * (File, Edit, View, Help as groups) with its shortcut. The Electron window has the native
 * menu bar instead and shows no button.
 */
export function AppMenuButton() {
  const nativeMenu = useShellStore((s) => s.status?.nativeMenu === true);
  const menu = useMenuAnchor();
  const button = useRef<HTMLButtonElement>(null);
  // Where the admin was working before the button took focus: editing commands act there.
  const before = useRef<HTMLElement | null>(null);
  const ctx = useCommandContext();
  const handlers = useCommandHandlers();
  if (nativeMenu) return null;
  const t = translate;

  const groups: MenuGroup[] = COMMAND_SECTIONS.map((section) => ({
    label: commandSectionTitle(section),
    entries: windowCommands()
      .filter((c) => c.section === section)
      .map((c) => ({
        key: c.id,
        label: commandTitle(c.id as CommandId),
        ...(c.accelerator ? { shortcut: shortcutText(c.accelerator), keyShortcuts: ariaKeyShortcuts(c.accelerator, IS_MAC) } : {}),
        disabled: !canRun(c, ctx, handlers),
        run: () => void runCommand(c.id as CommandId),
      })),
  }));

  const open = () => {
    const box = button.current!.getBoundingClientRect();
    menu.open({ x: box.left, y: box.bottom + 2 });
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="app-menu-button"
        aria-haspopup="menu"
        aria-expanded={menu.anchor !== null}
        title={t('commands.menu.title')}
        onPointerDown={() => {
          if (document.activeElement instanceof HTMLElement && document.activeElement !== button.current) before.current = document.activeElement;
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            open();
          }
        }}
        onClick={() => (menu.anchor ? menu.close() : open())}
      >
        {t('commands.menu')}
      </button>
      {menu.anchor && <PopupMenu label={t('commands.menu')} groups={groups} at={menu.anchor.at} returnFocus={button.current} actOn={before.current} owner={button.current} onClose={menu.close} />}
    </>
  );
}
