/**
 * Stage 5, file away: a file that failed or repeats earlier content gets its note and moves to
 * failed/ or duplicate/; an issued file's original (with its sidecar) moves to done/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderIntakeCore } from './folder-intake-core.js';
import { checkMovable, ContainmentError, signatureOf, type EntryInfo } from './entries.js';
import type { FileRow } from './journal.js';
import { DUPLICATE_DIR, FAILED_DIR } from './names.js';
import { firstFree, fitPath, moveFile, numbered, writeAtomic } from './paths.js';

/** Where the note of a file filed under failed/ or duplicate/ goes: beside it, `NAME.error.json` / `NAME.duplicate.json`. */
export function noteOf(filedPath: string, kind: 'failed' | 'duplicate'): string {
  return fitPath(filedPath, kind === 'failed' ? '.error.json' : '.duplicate.json');
}

export class Filer {
  /** Per folder, the paths of its files that ever failed (read from the journal once, then kept up to date). */
  private readonly failedPaths = new Map<number, Set<string>>();

  constructor(private readonly core: FolderIntakeCore) {}

  private failedPathsOf(folderId: number): Set<string> {
    let paths = this.failedPaths.get(folderId);
    if (!paths) this.failedPaths.set(folderId, (paths = new Set(this.core.journal.failedPaths(folderId))));
    return paths;
  }

  fail(row: FileRow, id: string, message: string): void {
    const folder = this.core.folderOf(row);
    this.failedPathsOf(folder.id).add(row.rel_path);
    const [final] = firstFree((n) => [join(folder.root, FAILED_DIR, numbered(row.rel_path, n))], this.core.rows.reserved);
    this.core.rows.reserve(final!);
    this.core.rows.save(row, { state: 'failed', error_id: id, error_message: message, final_path: final! });
    this.core.reportFailure(folder, row.rel_path, id, message, final!);
  }

  duplicate(row: FileRow, of: number | null, message: string): void {
    const folder = this.core.folderOf(row);
    const [final] = firstFree((n) => [join(folder.root, DUPLICATE_DIR, numbered(row.rel_path, n))], this.core.rows.reserved);
    this.core.rows.reserve(final!);
    this.core.rows.save(row, { state: 'duplicate', duplicate_of: of, error_message: message, final_path: final! });
    this.core.count('duplicates');
    this.core.options.onEvent?.({ type: 'duplicate', folder: folder.root, path: row.rel_path, message });
  }

  /** Writes the note beside where the file goes, then moves it (and its sidecar) there. */
  async fileAway(row: FileRow): Promise<void> {
    if (row.state === 'moved') {
      this.core.rows.save(row, { closed_at: row.closed_at ?? this.core.clock.now() });
      return;
    }
    if (row.state !== 'failed' && row.state !== 'duplicate') return;
    await this.core.durable();
    this.core.diskFull.assertRoom(row.final_path!);
    const when = new Date(row.updated_at).toISOString();
    if (row.state === 'failed') {
      await writeAtomic(
        noteOf(row.final_path!, 'failed'),
        `${JSON.stringify({ id: row.error_id, message: row.error_message, when, file: row.rel_path, sha256: row.sha256 }, null, 2)}\n`,
        this.core.folderOf(row).realRoot,
      );
    } else {
      let original: Record<string, unknown> | null = null;
      if (row.duplicate_of !== null) {
        const of = this.core.rows.sameContent(row).find((r) => r.id === row.duplicate_of);
        if (of) original = { path: of.rel_path, moved_to: of.final_path, proof: of.proof_path, credential_uid: of.credential_uid };
      }
      await writeAtomic(
        noteOf(row.final_path!, 'duplicate'),
        `${JSON.stringify({ id: 'duplicate', message: row.error_message, when, file: row.rel_path, sha256: row.sha256, duplicate_of: original }, null, 2)}\n`,
        this.core.folderOf(row).realRoot,
      );
    }
    if (this.movable(row, this.core.pathOf(row))) await moveFile(this.core.pathOf(row), row.final_path!, this.core.folderOf(row).realRoot);
    await this.moveSidecar(row);
    if (row.state === 'duplicate') await this.removeStaleNote(row);
    this.core.rows.save(row, { closed_at: this.core.clock.now() });
  }

  /**
   * Whether a file of the folder may be moved (checkMovable): a link is never moved. A link
   * left in place is remembered, so the rescans do not report it again while it stays the same.
   */
  movable(row: FileRow, path: string, seen?: EntryInfo): boolean {
    const folder = this.core.folderOf(row);
    try {
      return checkMovable(path, folder.realRoot, seen);
    } catch (error) {
      if (!(error instanceof ContainmentError)) throw error;
      if (path === this.core.pathOf(row)) {
        this.core.refuse(folder, row.rel_path, signatureOf(path));
        this.core.leftInPlace(folder, row.rel_path);
      }
      if (row.state !== 'failed') this.core.warn(`${row.rel_path} is left where it is: ${error.message}`);
      return false;
    }
  }

  async moveSidecar(row: FileRow): Promise<void> {
    if (!row.sidecar || !row.final_path) return;
    const sidecar = join(this.core.folderOf(row).root, row.sidecar);
    if (this.movable(row, sidecar)) await moveFile(sidecar, fitPath(row.final_path, '.json'), this.core.folderOf(row).realRoot);
  }

  /**
   * A file failed before and put back (by hand, or by retry) has succeeded now: its old
   * failed/NAME.error.json is removed (only a note of this path whose file is no longer beside it).
   * Looked for only when the journal says a file of this path failed: not for every file.
   */
  async removeStaleNote(row: FileRow): Promise<void> {
    if (!this.failedPathsOf(row.folder_id).has(row.rel_path)) return;
    const root = this.core.folderOf(row).root;
    for (let n = 1; n <= 50; n++) {
      const failedPath = join(root, FAILED_DIR, numbered(row.rel_path, n));
      const note = noteOf(failedPath, 'failed');
      if (!existsSync(note)) {
        if (n > 1) return;
        continue;
      }
      if (existsSync(failedPath)) continue;
      try {
        const content = JSON.parse(readFileSync(note, 'utf8')) as { file?: unknown };
        if (content.file === row.rel_path) await rm(note, { force: true });
      } catch {
        // Not a note of ours (or unreadable): left alone.
      }
    }
  }
}
