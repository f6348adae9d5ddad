/**
 * Stage 5, file away: a file that failed or repeats earlier content gets its note and moves to
 * failed/ or duplicate/; an issued file's original (with its sidecar) moves to done/.
 */
import { join } from 'node:path';
import type { IngestCore } from './core.js';
import type { FileRow } from './journal.js';
import { DUPLICATE_DIR, FAILED_DIR } from './names.js';
import { firstFree, moveFile, numbered, writeAtomic } from './paths.js';

export class Filer {

  constructor(private readonly core: IngestCore) {}

  fail(row: FileRow, id: string, message: string): void {
    const folder = this.core.folderOf(row);
    const [final] = firstFree((n) => [join(folder.root, FAILED_DIR, numbered(row.rel_path, n))], this.core.reserved);
    this.core.reserved.add(final!);
    this.core.save(row, { state: 'failed', error_id: id, error_message: message, final_path: final! });
    this.core.counts.failed++;
    this.core.options.onEvent?.({ type: 'failed', folder: folder.root, path: row.rel_path, id, message });
  }

  duplicate(row: FileRow, of: number | null, message: string): void {
    const folder = this.core.folderOf(row);
    const [final] = firstFree((n) => [join(folder.root, DUPLICATE_DIR, numbered(row.rel_path, n))], this.core.reserved);
    this.core.reserved.add(final!);
    this.core.save(row, { state: 'duplicate', duplicate_of: of, error_message: message, final_path: final! });
    this.core.counts.duplicates++;
    this.core.options.onEvent?.({ type: 'duplicate', folder: folder.root, path: row.rel_path, message });
  }

  /** Writes the note beside where the file goes, then moves it (and its sidecar) there. */
  async fileAway(row: FileRow): Promise<void> {
    if (row.state === 'moved') {
      this.core.save(row, { closed_at: row.closed_at ?? Date.now() });
      return;
    }
    if (row.state !== 'failed' && row.state !== 'duplicate') return;
    await this.core.durable();
    const when = new Date(row.updated_at).toISOString();
    if (row.state === 'failed') {
      await writeAtomic(`${row.final_path}.error.json`, `${JSON.stringify({ id: row.error_id, message: row.error_message, when, file: row.rel_path, sha256: row.sha256 }, null, 2)}\n`);
    } else {
      let original: Record<string, unknown> | null = null;
      if (row.duplicate_of !== null) {
        const of = this.core.sameContent(row).find((r) => r.id === row.duplicate_of);
        if (of) original = { path: of.rel_path, moved_to: of.final_path, proof: of.proof_path, credential_uid: of.credential_uid };
      }
      await writeAtomic(
        `${row.final_path}.duplicate.json`,
        `${JSON.stringify({ id: 'duplicate', message: row.error_message, when, file: row.rel_path, sha256: row.sha256, duplicate_of: original }, null, 2)}\n`,
      );
    }
    await moveFile(this.core.pathOf(row), row.final_path!);
    await this.moveSidecar(row);
    this.core.save(row, { closed_at: Date.now() });
  }

  async moveSidecar(row: FileRow): Promise<void> {
    if (!row.sidecar || !row.final_path) return;
    await moveFile(join(this.core.folderOf(row).root, row.sidecar), `${row.final_path}.json`);
  }
}
