/**
 * The narrowest a table's columns may get, from their CSS grid tracks: below it the table
 * scrolls sideways (with a scrollbar) instead of cutting its last columns off, e.g. when a
 * detail panel takes part of the window.
 */

/** The smallest width of one track in rem: `8rem` → 8, `minmax(12rem, 3fr)` → 12, `1fr` → 0. */
export function trackMinRem(track: string): number {
  const t = track.trim();
  const fixed = /^(\d+(?:\.\d+)?)rem$/.exec(t);
  if (fixed) return Number(fixed[1]);
  const minmax = /^minmax\(\s*(\d+(?:\.\d+)?)rem\s*,/.exec(t);
  return minmax ? Number(minmax[1]) : 0;
}

/** The sum of the tracks' smallest widths, in rem. */
export function tableMinRem(tracks: readonly string[]): number {
  return tracks.reduce((sum, t) => sum + trackMinRem(t), 0);
}
