/**
 * How the window shows dates and numbers: in the page's locale and the local time zone.
 * `zone` and `now` are for tests; the window always uses its own.
 */
import { formatLocale } from '../i18n/i18n-store.js';

/** The window's locale: the language it speaks (Settings, else the OS or the browser). */
export function pageLocale(): string {
  return formatLocale();
}

/** A formatter of instants in the locale and a time zone (`—` for none), with these options. */
function instantFormat(options: Intl.DateTimeFormatOptions) {
  return (iso: string | null, locale = pageLocale(), zone?: string): string => (iso ? new Intl.DateTimeFormat(locale, { ...options, timeZone: zone }).format(new Date(iso)) : '—');
}

/** The local calendar day of an instant, e.g. `Nov 26, 2026`; `—` for none. */
export const localDay = instantFormat({ dateStyle: 'medium' });

/** The local day and time of an instant to the minute, e.g. `Nov 26, 2026, 7:40 PM`; `—` for none. */
export const localDateTime = instantFormat({ dateStyle: 'medium', timeStyle: 'short' });

/** The local time of an instant to the minute, e.g. `2:00 PM` or `14:00`; `—` for none. */
export const localTime = instantFormat({ timeStyle: 'short' });

/** The weekday and time of an instant, e.g. `Fri 2:00 PM` or `Fr., 14:00`; `—` for none. */
export const localWeekdayTime = instantFormat({ weekday: 'short', hour: 'numeric', minute: '2-digit' });

/** A count with the locale's digit grouping, e.g. `5,000`. */
export function localCount(n: number, locale = pageLocale()): string {
  return new Intl.NumberFormat(locale).format(n);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How far an instant is from now in words, e.g. `in 3 hr.`, `2 min. ago`, `now`; past a week,
 * the local day instead (a count of weeks tells less than the date). `—` for none.
 */
export function relativeTime(iso: string | null, now = Date.now(), locale = pageLocale(), zone?: string): string {
  if (!iso) return '—';
  const diff = new Date(iso).getTime() - now;
  const size = Math.abs(diff);
  if (size < 45_000) return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second');
  const format = new Intl.RelativeTimeFormat(locale, { style: 'short' });
  if (size < HOUR) return format.format(Math.round(diff / MINUTE) || Math.sign(diff), 'minute');
  if (size < DAY) return format.format(Math.round(diff / HOUR), 'hour');
  if (size < 7 * DAY) return format.format(Math.round(diff / DAY), 'day');
  return localDay(iso, locale, zone);
}

/** A calendar day with no time zone: what a date field holds. `month` is 1-12. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** The order and separators of a locale's numeric dates, e.g. `dd.mm.yyyy` (de) or `mm/dd/yyyy` (en). */
export function datePattern(locale = pageLocale()): string {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2026, 11, 24));
  const names: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = { day: 'dd', month: 'mm', year: 'yyyy' };
  return parts.map((p) => (p.type === 'literal' ? p.value : (names[p.type] ?? ''))).join('');
}

/** A day as the locale writes it with digits, e.g. `24.12.2026` (de) or `12/24/2026` (en). */
export function formatCalendarDay(day: CalendarDay, locale = pageLocale()): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(day.year, day.month - 1, day.day)));
}

/**
 * Reads a day typed in the locale's order (`24.12.2026` in German, `12/24/2026` in English);
 * any separator, one- or two-digit day and month. An ISO date (`2026-12-24`, as pasted from
 * an export) is read in any locale. Null when it is not a real day.
 */
export function parseCalendarDay(text: string, locale = pageLocale()): CalendarDay | null {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (iso) {
    const day = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
    return isRealDay(day) ? day : null;
  }
  const numbers = text.trim().match(/\d+/g);
  if (!numbers || numbers.length !== 3) return null;
  const order = datePattern(locale).match(/dd|mm|yyyy/g) ?? ['mm', 'dd', 'yyyy'];
  const value = (name: string) => Number(numbers[order.indexOf(name)]);
  const day = { year: value('yyyy'), month: value('mm'), day: value('dd') };
  if (String(numbers[order.indexOf('yyyy')]).length !== 4) return null;
  return isRealDay(day) ? day : null;
}

/** A day as the wire writes it: `2026-12-24`. */
export function isoCalendarDay({ year, month, day }: CalendarDay): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function isRealDay({ year, month, day }: CalendarDay): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The local calendar day an instant falls on; a date alone (`2026-12-24`) is that day. */
export function dayOfInstant(iso: string): CalendarDay {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (dateOnly) return { year: Number(dateOnly[1]), month: Number(dateOnly[2]), day: Number(dateOnly[3]) };
  const date = new Date(iso);
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** The first instant of a local day, as the wire's ISO 8601 (UTC). */
export function startOfLocalDay(day: CalendarDay): string {
  return new Date(day.year, day.month - 1, day.day).toISOString();
}

/** The last millisecond of a local day, as the wire's ISO 8601 (UTC): an inclusive `to` filter. */
export function endOfLocalDay(day: CalendarDay): string {
  return new Date(new Date(day.year, day.month - 1, day.day + 1).getTime() - 1).toISOString();
}
