/** Small file-system steps of the ingester: atomic writes, moves that make their folder, unique names. */
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';

/**
 * Writes a file whole or not at all: a temporary dotfile beside it, then a rename. The
 * temporary name is fixed, so a write cut short by a crash is overwritten (not left behind)
 * when the restarted ingester writes the same file again.
 */
export async function writeAtomic(path: string, data: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${posix.basename(path)}.writing`);
  await writeFile(temp, data);
  await rename(temp, path);
}

/** Moves a file, making the destination's folder; false when the source is gone. */
export async function moveFile(from: string, to: string): Promise<boolean> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** `a/b/name.ext` with ` (n)` before the extension, for n ≥ 2 (n = 1: unchanged). */
export function numbered(relPath: string, n: number): string {
  if (n <= 1) return relPath;
  const dir = posix.dirname(relPath);
  const base = posix.basename(relPath);
  const dot = base.lastIndexOf('.');
  const named = dot > 0 ? `${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${base} (${n})`;
  return dir === '.' ? named : `${dir}/${named}`;
}

/**
 * The first of `candidates(1)`, `candidates(2)`, ... whose paths are all free: neither on disk
 * nor reserved by another file in progress.
 */
export function firstFree(candidates: (n: number) => string[], reserved: ReadonlySet<string>): string[] {
  for (let n = 1; ; n++) {
    const paths = candidates(n);
    if (paths.every((p) => !reserved.has(p) && !existsSync(p))) return paths;
  }
}
