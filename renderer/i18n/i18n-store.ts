/**
 * The window's language: the Settings choice (kept in the page's local storage, a preference of
 * this window only), the OS or browser languages, and the one `IntlShape` every view and store
 * formats with.
 */
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { create } from 'zustand';
import de from './messages/de.json';
import en from './messages/en.json';
import { localeDirection, parseLanguageChoice, pickLocale, type LanguageChoice } from './locale-choice.js';
import { PSEUDO_LOCALE, type UiLocale } from '../../common/ui-locales.js';
import { pseudoMessages } from './pseudo-locale.js';
import { keep, readKept } from '../shell/kept.js';

/** The id of a message of the catalogue. */
export type MessageId = keyof typeof en;

/** Where the Settings choice is kept. */
const CHOICE_KEY = 'proofdesk.language';

const cache = createIntlCache();

function messagesFor(locale: UiLocale) {
  if (locale === 'de') return de;
  if (locale === PSEUDO_LOCALE) return pseudoMessages(en);
  return en;
}

function makeIntl(locale: UiLocale): IntlShape {
  // Numbers and dates of the pseudo-locale are English ones: only the words are made strange.
  return createIntl({ locale: locale === PSEUDO_LOCALE ? 'en' : locale, messages: messagesFor(locale), defaultLocale: 'en' }, cache);
}

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages;
}

export interface I18nStore {
  choice: LanguageChoice;
  /** The OS language (Electron's `app.getLocale()`), once main has said it; null in the browser bridge. */
  osLocale: string | null;
  locale: UiLocale;
  intl: IntlShape;
  /** Sets the Settings choice and remembers it. */
  choose(choice: LanguageChoice): void;
  /** Takes the OS language main reports. */
  setOsLocale(osLocale: string | null): void;
}

const initialChoice = parseLanguageChoice(readKept(CHOICE_KEY));
const initialLocale = pickLocale(initialChoice, null, browserLanguages());

/** The window's language and its formatter. */
export const useI18nStore = create<I18nStore>()((set, get) => {
  const apply = (choice: LanguageChoice, osLocale: string | null) => {
    const locale = pickLocale(choice, osLocale, browserLanguages());
    set(locale === get().locale ? { choice, osLocale } : { choice, osLocale, locale, intl: makeIntl(locale) });
  };
  return {
    choice: initialChoice,
    osLocale: null,
    locale: initialLocale,
    intl: makeIntl(initialLocale),
    choose(choice) {
      keep(CHOICE_KEY, choice);
      apply(choice, get().osLocale);
    },
    setOsLocale(osLocale) {
      if (osLocale !== get().osLocale) apply(get().choice, osLocale);
    },
  };
});

/**
 * A message of the catalogue in the window's language, for stores and other code outside React.
 *
 * @example t('records.toolbar.schedule')
 */
export function t(id: MessageId, values?: Record<string, string | number | Date | null | undefined>): string {
  return useI18nStore.getState().intl.formatMessage({ id }, values);
}

/** The BCP 47 locale numbers and dates are formatted in. */
export function formatLocale(): string {
  return useI18nStore.getState().intl.locale;
}

/** The `lang` and `dir` of the page for a locale. */
export function documentLanguage(locale: UiLocale): { lang: string; dir: 'ltr' | 'rtl' } {
  return { lang: locale, dir: localeDirection(locale) };
}
