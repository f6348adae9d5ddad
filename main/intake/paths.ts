/** Small file-system steps of the intake: atomic writes, moves that make their folder, unique names. */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, posix, sep } from 'node:path';
import { tempNameOf } from './proof-round.js';
import { withPath } from '../durable/sync-files.js';

/** The longest file name most file systems take, in bytes (ext4, APFS, NTFS in UTF-16 units). */
export const NAME_MAX = 255;

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest start of `text` that fits in `max` UTF-8 bytes, cut between characters. */
function truncateBytes(text: string, max: number): string {
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const size = bytes(ch);
    if (used + size > max) break;
    used += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * `name + suffix` when it fits in NAME_MAX bytes; otherwise the name is shortened (its
 * extension kept) and marked with a hash of the whole name, so that different long names stay
 * different: `very-long-na~1a2b3c4d.pdf.proof.json`.
 */
export function fitName(name: string, suffix = ''): string {
  if (bytes(name + suffix) <= NAME_MAX) return name + suffix;
  const mark = `~${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && bytes(name.slice(dot)) <= 16 ? name.slice(dot) : '';
  const room = NAME_MAX - bytes(mark + ext + suffix);
  return truncateBytes(name.slice(0, name.length - ext.length), room) + mark + ext + suffix;
}

/** `path + suffix`, its last name shortened to fit (fitName). */
export function fitPath(path: string, suffix = ''): string {
  return join(dirname(path), fitName(basename(path), suffix));
}

// The temporary name of a file being written: the same as a proof round's (main/intake/).
export { tempNameOf };

/**
 * Writes a file whole or not at all: its temporary name, then a rename. A write that fails
 * (a full disk) removes its temporary file: no 0-byte or half file is left behind.
 */
export async function writeAtomic(path: string, data: string, inside?: string): Promise<void> {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  if (inside !== undefined) checkInside(dir, inside);
  const temp = tempNameOf(path);
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw withPath(error, temp);
  }
}


/**
 * Refuses a folder whose real path is not inside `inside` (a real path): it leads out through
 * a link. Looked at on every write and move (one realpath(3) call), never remembered.
 */
function checkInside(dir: string, inside: string): void {
  const real = realpathSync.native(dir);
  if (real !== inside && !real.startsWith(inside + sep)) {
    throw Object.assign(new Error(`${dir} leads outside the watched folder (to ${real}, through a link): nothing is moved or written there`), { code: 'EOUTSIDE', path: dir });
  }
}

/**
 * Moves a file, making the destination's folder; false when the source is gone. With `inside`
 * (a real path), the destination's folder must really be inside it: a `done/` or `failed/`
 * that is a link to elsewhere is refused (error code EOUTSIDE), so nothing is moved out of the
 * watched folder through it.
 */
export async function moveFile(from: string, to: string, inside?: string): Promise<boolean> {
  const dir = dirname(to);
  mkdirSync(dir, { recursive: true });
  if (inside !== undefined) checkInside(dir, inside);
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    // The source is gone; else (the destination's folder removed meanwhile) the next try makes it again.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(from)) return false;
    throw error;
  }
}

/** `a/b/name.ext` with ` (n)` before the extension, for n ≥ 2 (n = 1: unchanged). */
export function numbered(relPath: string, n: number): string {
  if (n <= 1) return relPath;
  const dir = posix.dirname(relPath);
  const base = posix.basename(relPath);
  const dot = base.lastIndexOf('.');
  const named = fitName(dot > 0 ? `${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${base} (${n})`);
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
