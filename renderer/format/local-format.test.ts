import { describe, expect, it } from 'vitest';
import { localCount, localDateTime, localDay } from './local-format.js';

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
  });

  it('shows a dash for no date, and groups digits by locale', () => {
    expect(localDay(null)).toBe('—');
    expect(localDateTime(null)).toBe('—');
    expect(localCount(5000, 'en-US')).toBe('5,000');
    expect(localCount(5000, 'de-DE')).toBe('5.000');
  });
});
