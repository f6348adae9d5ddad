/**
 * The native menu's words in the window's language, from the window's own catalogue
 * (renderer/i18n/messages): the same messages the page's menu button and palette show, so the
 * two never say different things. The pseudo-locale, a check of the page's words, leaves the
 * native menu English.
 */
import type { CommandId, CommandSection } from '../../common/commands.js';
import type { UiLocale } from '../../common/ui-locales.js';
import de from '../../renderer/i18n/messages/de.json' with { type: 'json' };
import en from '../../renderer/i18n/messages/en.json' with { type: 'json' };

/** The words of main's native dialogs (titles and file type names), by their catalogue ids. */
export type NativeWordId =
  | 'native.dialog.saveKeyBackup'
  | 'native.dialog.restoreKeyBackup'
  | 'native.dialog.exportList'
  | 'native.filter.keyBackup'
  | 'native.filter.csv'
  | 'native.filter.xlsx';

/** The macOS app menu's platform items (their roles' own labels are English). */
export type MacItem = 'hide' | 'hideOthers' | 'unhide';

/** What the menu template needs to say. */
export interface MenuLabels {
  command(id: CommandId): string;
  section(section: CommandSection): string;
  mac(item: MacItem): string;
  /** A native dialog's title or file type name. */
  native(id: NativeWordId): string;
}

const CATALOGUES: Record<'en' | 'de', Record<string, string>> = { en, de };

/**
 * The menu's labels for a locale.
 *
 * @example menuLabels('de').section('file') // 'Datei'
 */
export function menuLabels(locale: UiLocale): MenuLabels {
  const messages = CATALOGUES[locale === 'de' ? 'de' : 'en'];
  const say = (id: string): string => {
    const text = messages[id] ?? en[id as keyof typeof en];
    if (text === undefined) throw new Error(`The catalogue has no message ${id}`);
    return text;
  };
  return {
    command: (id) => say(`command.${id}`),
    section: (section) => say(`command.section.${section}`),
    mac: (item) => say(`command.mac.${item}`),
    native: (id) => say(id),
  };
}
