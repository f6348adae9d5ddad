/** How much room is left on a disk, and byte counts for people: what a full disk's message says. */
import { existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Free bytes for an unprivileged writer on the file system holding `path` (or its nearest existing parent). */
export function freeBytes(path: string): number | undefined {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  try {
    const s = statfsSync(p);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

/** `1.2 MB`, `512 KB`, `87 B`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}
