import { ariaKeyShortcuts, commandById, type CommandId } from '../../common/commands.js';
import { IS_MAC } from './command-registry.js';
import { commandTitle } from './command-title.js';
import { t } from '../i18n/i18n-store.js';
import { shortcutText } from './shortcut-text.js';

/**
 * The attributes that show a control's shortcut from the command table: a tooltip naming it
 * (`Add tags (Ctrl+Shift+T)`) and `aria-keyshortcuts`. Spread on the control that does what the
 * command does.
 *
 * @example <button {...commandHint('edit.addTags')}>Add tags</button>
 */
export function commandHint(id: CommandId): { title?: string; 'aria-keyshortcuts'?: string } {
  const command = commandById(id);
  if (!command.accelerator) return {};
  return {
    title: t('command.hint', { title: commandTitle(id).replace(/…$/, ''), shortcut: shortcutText(command.accelerator) }),
    'aria-keyshortcuts': ariaKeyShortcuts(command.accelerator, IS_MAC),
  };
}
