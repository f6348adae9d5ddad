/**
 * The narrowest a table's columns may get, from their CSS grid tracks: below it the table
 * scrolls sideways (with a scrollbar) instead of cutting its last columns off, e.g. when a
 * detail panel takes part of the window.
 */

/** The smallest width of one track in rem: `8rem` → 8, `minmax(12rem, 3fr)` → 12, `1fr` and pixel widths → 0. */
export function trackMinRem(track: string): number {
  const t = track.trim();
  const fixed = /^(\d+(?:\.\d+)?)rem$/.exec(t);
  if (fixed) return Number(fixed[1]);
  const minmax = /^minmax\(\s*(\d+(?:\.\d+)?)rem\s*,/.exec(t);
  return minmax ? Number(minmax[1]) : 0;
}

/** The width of a track in CSS pixels when it is one (a resized column: `160px` → 160), else 0. */
export function trackPx(track: string): number {
  const px = /^(\d+(?:\.\d+)?)px$/.exec(track.trim());
  return px ? Number(px[1]) : 0;
}

/** The sum of the tracks' smallest widths, in rem. */
export function tableMinRem(tracks: readonly string[]): number {
  return tracks.reduce((sum, t) => sum + trackMinRem(t), 0);
}

/** The sum of the tracks' smallest widths as a CSS length (rem tracks and resized pixel tracks). */
export function tableMinWidth(tracks: readonly string[]): string {
  const px = tracks.reduce((sum, t) => sum + trackPx(t), 0);
  return px === 0 ? `${tableMinRem(tracks)}rem` : `calc(${tableMinRem(tracks)}rem + ${px}px)`;
}
