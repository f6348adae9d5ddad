import { ariaKeyShortcuts, commandById, shortcutLabel, type CommandId } from '../../common/commands.js';
import { IS_MAC } from './command-registry.js';
import type { MenuEntry } from './popup-menu.js';

/**
 * A context menu entry that does what a command of the table does: its shortcut shows beside it.
 *
 * @example commandEntry('edit.addTags', 'Add tags…', () => openTagDialog())
 */
export function commandEntry(id: CommandId, label: string, run: () => void): MenuEntry {
  const accelerator = commandById(id).accelerator;
  return { key: id, label, run, ...(accelerator ? { shortcut: shortcutLabel(accelerator, IS_MAC), keyShortcuts: ariaKeyShortcuts(accelerator, IS_MAC) } : {}) };
}
