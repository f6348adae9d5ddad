/**
 * Durations as people type them: `30s`, `5m`, `24h`, `7d` (a bare number means seconds).
 */
import { ServiceError } from './errors.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Parses a duration into whole seconds (at least 1); throws `invalid_value` otherwise. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(text);
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[(match[2] || 's').toLowerCase()]! : NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1) {
    throw new ServiceError('invalid_value', `Invalid duration ${JSON.stringify(text)}: use a whole number with s, m, h or d, e.g. 30s, 5m, 24h`);
  }
  return seconds;
}

/** Formats seconds back into the largest exact unit (`86400` → `24h`... `1d`). */
export function formatDuration(seconds: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    const size = UNIT_SECONDS[unit]!;
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
