import { useEffect, type ReactNode } from 'react';
import { RawIntlProvider } from 'react-intl';
import { documentLanguage, useI18nStore } from './i18n-store.js';

/** Gives every view the window's `IntlShape` and sets `<html lang dir>` from its locale. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const intl = useI18nStore((s) => s.intl);
  const locale = useI18nStore((s) => s.locale);
  useEffect(() => {
    const { lang, dir } = documentLanguage(locale);
    document.documentElement.lang = lang;
    document.documentElement.dir = dir;
  }, [locale]);
  return <RawIntlProvider value={intl}>{children}</RawIntlProvider>;
}
