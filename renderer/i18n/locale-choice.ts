/**
 * Which language the window speaks: the admin's choice in Settings, else the operating
 * system's (Electron) or the browser's languages (the browser bridge), else English.
 */

import { uiLocaleOf, type Language, type UiLocale } from '../../common/ui-locales.js';

/** What Settings offers: follow the system, or one language. */
export type LanguageChoice = 'system' | Language;

/** Scripts written right to left, by their language subtag. */
const RTL_LANGUAGES = new Set(['ar', 'fa', 'he', 'ur', 'ps', 'yi', 'dv', 'ku']);

/**
 * The locale to show.
 *
 * @example pickLocale('system', null, ['de-AT', 'en']) // 'de'
 * @param choice The Settings choice (`system` follows the OS or the browser).
 * @param osLocale Electron's `app.getLocale()`; null in the browser bridge.
 * @param browserLanguages `navigator.languages`, most preferred first.
 */
export function pickLocale(choice: LanguageChoice, osLocale: string | null, browserLanguages: readonly string[]): UiLocale {
  if (choice !== 'system') return choice;
  return uiLocaleOf(osLocale ? [osLocale] : browserLanguages);
}

/** The writing direction of a locale, for `<html dir>`. */
export function localeDirection(locale: string): 'ltr' | 'rtl' {
  return RTL_LANGUAGES.has(locale.split('-')[0]?.toLowerCase() ?? '') ? 'rtl' : 'ltr';
}

/** Reads a stored choice; anything unknown is `system`. */
export function parseLanguageChoice(stored: string | null): LanguageChoice {
  return stored === 'en' || stored === 'de' ? stored : 'system';
}
