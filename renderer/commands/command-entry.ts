import { ariaKeyShortcuts, commandById, type CommandId } from '../../common/commands.js';
import { IS_MAC } from './command-registry.js';
import type { MenuEntry } from './popup-menu.js';
import { shortcutText } from './shortcut-text.js';

/**
 * A context menu entry that does what a command of the table does: its shortcut shows beside it.
 *
 * @example commandEntry('edit.addTags', 'Add tags…', () => openTagDialog())
 */
export function commandEntry(id: CommandId, label: string, run: () => void): MenuEntry {
  const accelerator = commandById(id).accelerator;
  return { key: id, label, run, ...(accelerator ? { shortcut: shortcutText(accelerator), keyShortcuts: ariaKeyShortcuts(accelerator, IS_MAC) } : {}) };
}
