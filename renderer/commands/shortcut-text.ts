import { shortcutLabel } from '../../common/commands.js';
import { t } from '../i18n/i18n-store.js';
import { IS_MAC } from './command-registry.js';

/**
 * A command's shortcut as this window's keyboard prints it: `Strg+Umschalt+T` in German,
 * `Ctrl+Shift+T` in English, `⌘⇧T` on macOS.
 *
 * @example shortcutText('CmdOrCtrl+Shift+T')
 */
export function shortcutText(accelerator: string): string {
  return shortcutLabel(accelerator, IS_MAC, { ctrl: t('keys.ctrl'), alt: t('keys.alt'), shift: t('keys.shift') });
}
