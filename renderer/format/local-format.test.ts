import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  datePattern,
  dayOfInstant,
  endOfLocalDay,
  formatCalendarDay,
  localCount,
  localDateTime,
  localDay,
  localTime,
  localWeekdayTime,
  parseCalendarDay,
  relativeTime,
  startOfLocalDay,
} from './local-format.js';

// 22:30 on Nov 26 in New York (UTC-5) is already Nov 27 in UTC.
const EVENING_IN_NEW_YORK = '2026-11-27T03:30:00.000Z';

describe('local formats', () => {
  it('shows the local day, not the UTC day, of an evening upload in UTC-5', () => {
    expect(localDay(EVENING_IN_NEW_YORK, 'en-US', 'America/New_York')).toBe('Nov 26, 2026');
    expect(localDay(EVENING_IN_NEW_YORK, 'en-US', 'Europe/Berlin')).toBe('Nov 27, 2026');
  });

  it('shows day and time in the locale', () => {
    expect(localDateTime(EVENING_IN_NEW_YORK, 'en-US', 'America/New_York')).toBe('Nov 26, 2026, 10:30 PM');
    expect(localDateTime(EVENING_IN_NEW_YORK, 'de-DE', 'Europe/Berlin')).toBe('27.11.2026, 04:30');
    expect(localTime('2026-11-26T13:00:00Z', 'de', 'Europe/Berlin')).toBe('14:00');
    expect(localTime('2026-11-26T13:00:00Z', 'en', 'Europe/Berlin')).toBe('2:00 PM');
    expect(localWeekdayTime('2026-11-27T13:00:00Z', 'en', 'Europe/Berlin')).toBe('Fri 2:00 PM');
    expect(localWeekdayTime('2026-11-27T13:00:00Z', 'de', 'Europe/Berlin')).toBe('Fr., 14:00');
  });

  it('shows a dash for no date, and groups digits by locale', () => {
    expect(localDay(null)).toBe('—');
    expect(localDateTime(null)).toBe('—');
    expect(relativeTime(null)).toBe('—');
    expect(localCount(5000, 'en-US')).toBe('5,000');
    expect(localCount(5000, 'de-DE')).toBe('5.000');
  });
});

describe('relative times', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('says how long ago or how soon, in the locale', () => {
    expect(relativeTime(at(-2 * 60_000), now, 'en')).toBe('2 min. ago');
    expect(relativeTime(at(3 * 3_600_000), now, 'en')).toBe('in 3 hr.');
    expect(relativeTime(at(3 * 3_600_000), now, 'de')).toBe('in 3 Std.');
    expect(relativeTime(at(-2 * 86_400_000), now, 'de')).toBe('vor 2 Tagen');
  });

  it('says now for under 45 s, and a minute rather than zero minutes just past that', () => {
    expect(relativeTime(at(-10_000), now, 'en')).toBe('now');
    expect(relativeTime(at(50_000), now, 'en')).toBe('in 1 min.');
  });

  it('gives the local day beyond a week', () => {
    expect(relativeTime(at(-30 * 86_400_000), now, 'en', 'UTC')).toBe('Oct 27, 2026');
  });
});

describe('date fields', () => {
  it('write and read days in the locale order', () => {
    expect(datePattern('de')).toBe('dd.mm.yyyy');
    expect(datePattern('en')).toBe('mm/dd/yyyy');
    expect(formatCalendarDay({ year: 2026, month: 12, day: 24 }, 'de')).toBe('24.12.2026');
    expect(formatCalendarDay({ year: 2026, month: 12, day: 24 }, 'en')).toBe('12/24/2026');
    expect(parseCalendarDay('24.12.2026', 'de')).toEqual({ year: 2026, month: 12, day: 24 });
    expect(parseCalendarDay('1.2.2026', 'de')).toEqual({ year: 2026, month: 2, day: 1 });
    expect(parseCalendarDay('12/24/2026', 'en')).toEqual({ year: 2026, month: 12, day: 24 });
    expect(parseCalendarDay('2026-12-24', 'de')).toEqual({ year: 2026, month: 12, day: 24 });
  });

  it('refuse what is not a real day', () => {
    expect(parseCalendarDay('31.02.2026', 'de')).toBeNull();
    expect(parseCalendarDay('24/12/2026', 'en')).toBeNull();
    expect(parseCalendarDay('24.12.26', 'de')).toBeNull();
    expect(parseCalendarDay('tomorrow', 'en')).toBeNull();
    expect(parseCalendarDay('2026-02-31', 'en')).toBeNull();
  });
});

describe('local days in a fixed time zone (America/New_York)', () => {
  // vi.stubEnv sets process.env.TZ, which Node's date functions follow at once.
  beforeAll(() => {
    vi.stubEnv('TZ', 'America/New_York');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('a late-evening instant falls on its local day', () => {
    expect(dayOfInstant(EVENING_IN_NEW_YORK)).toEqual({ year: 2026, month: 11, day: 26 });
    expect(dayOfInstant('2026-11-27')).toEqual({ year: 2026, month: 11, day: 27 });
  });

  it('a local day spans from local midnight to the last millisecond before the next', () => {
    expect(startOfLocalDay({ year: 2026, month: 12, day: 24 })).toBe('2026-12-24T05:00:00.000Z');
    expect(endOfLocalDay({ year: 2026, month: 12, day: 24 })).toBe('2026-12-25T04:59:59.999Z');
  });
});
