/**
 * How the window shows dates and numbers: in the page's locale and the local time zone.
 * `zone` is for tests; the window always uses its own.
 */
import { formatLocale } from '../i18n/i18n-store.js';

/** The window's locale: the language it speaks (Settings, else the OS or the browser). */
export function pageLocale(): string {
  return formatLocale();
}

/** The local calendar day of an instant, e.g. `Nov 26, 2026`; `—` for none. */
export function localDay(iso: string | null, locale = pageLocale(), zone?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: zone }).format(new Date(iso));
}

/** The local day and time of an instant to the minute, e.g. `Nov 26, 2026, 7:40 PM`; `—` for none. */
export function localDateTime(iso: string | null, locale = pageLocale(), zone?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(new Date(iso));
}

/** A count with the locale's digit grouping, e.g. `5,000`. */
export function localCount(n: number, locale = pageLocale()): string {
  return new Intl.NumberFormat(locale).format(n);
}
