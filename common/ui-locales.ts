/**
 * The locales the window can speak: the languages its catalogue is complete in, and the
 * pseudo-locale that finds words outside it. Shared so main checks the one the page names.
 */

/** The languages the catalogue (renderer/i18n/messages) is complete in. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The pseudo-locale: English accented, 30 % longer and bracketed, to find strings outside the catalogue. */
export const PSEUDO_LOCALE = 'en-XA';

/** A locale the window can show: a catalogued language or the pseudo-locale. */
export type UiLocale = Language | typeof PSEUDO_LOCALE;

/** Every locale the window can show. */
export const UI_LOCALES: readonly UiLocale[] = [...LANGUAGES, PSEUDO_LOCALE];

/**
 * The first locale the window can show among language tags, most preferred first; English when none.
 *
 * @example uiLocaleOf(['fr-FR', 'de-AT']) // 'de'
 */
export function uiLocaleOf(tags: readonly string[]): UiLocale {
  for (const tag of tags) {
    if (tag.toLowerCase() === PSEUDO_LOCALE.toLowerCase()) return PSEUDO_LOCALE;
    const language = tag.split('-')[0]?.toLowerCase();
    const known = LANGUAGES.find((l) => l === language);
    if (known) return known;
  }
  return 'en';
}
