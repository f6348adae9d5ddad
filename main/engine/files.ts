import { ServiceError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { makePage, parsePageQuery } from '../../common/pagination.js';
import type { FileQuery, UploadSource } from '../../common/requests.js';
import { isSha256Hex } from '../../common/validate.js';
import type { FileRecord, Page } from '../../common/wire-types.js';
import { inTransaction, inWriteLock, type Db } from './database.js';
import type { FileBytes, StagedUpload } from './file-bytes.js';
import { Conditions, cached, selectPage } from './list-query.js';
import type { IssuingLease } from './issuing/issuing-lease.js';
import { rowsInOrder } from './store/dialect.js';
import type { PartnerScope } from './scope.js';

/** A stored file's row. */
export interface FileRow {
  id: number;
  file_hash: string;
  file_type: string | null;
  unused_since: number | null;
}

/** A file row in the wire shape (no file_type where none was detected). */
export function fileRecord(row: Pick<FileRow, 'file_hash' | 'file_type'>): FileRecord {
  return row.file_type === null ? { file_hash: row.file_hash } : { file_hash: row.file_hash, file_type: row.file_type };
}

export function findFileRow(scope: PartnerScope, hash: string): FileRow | undefined {
  return cached(scope.db, 'SELECT id, file_hash, file_type, unused_since FROM files WHERE partner_id = ? AND file_hash = ?').get(scope.partner.id, hash) as FileRow | undefined;
}

/** Streams an upload into the store's staging; `no_file_on_payload` when there is none. */
export async function stageUpload(scope: PartnerScope, source: UploadSource | undefined): Promise<StagedUpload> {
  if (!source) throw new ServiceError('no_file_on_payload', 'No file in the request');
  return scope.store.stage(source);
}

/** Whether any Partner's file record names these bytes. */
export function isReferenced(db: Db, hash: string): boolean {
  return cached(db, 'SELECT 1 FROM files WHERE file_hash = ?').get(hash) !== undefined;
}

/**
 * Puts staged bytes into the store, then writes their records with `record`, all under the
 * database's write lock: a sweep in another process sharing the data directory (which also
 * unlinks under it) can never remove the bytes between the two. The bytes go in first, so a
 * record never points at missing bytes; if `record` fails, bytes nothing points to go again.
 */
export function storeThenRecord<T>(scope: PartnerScope, staged: StagedUpload | undefined, record: () => T): T {
  if (!staged) return inTransaction(scope.db, record);
  try {
    return inWriteLock(scope.db, () => {
      try {
        scope.store.commit(staged);
      } catch (error) {
        throw new ServiceError('internal_error', 'Could not store the uploaded file', { cause: error });
      }
      try {
        // Nested: a failure rolls back to here, so the check below sees the state without it.
        return inTransaction(scope.db, record);
      } catch (error) {
        if (!isReferenced(scope.db, staged.hash)) scope.store.remove(staged.hash);
        throw error;
      }
    });
  } finally {
    scope.store.discard(staged);
  }
}

/**
 * Records a staged upload for the Partner and moves it into the store. Synchronous, so it runs
 * inside the caller's transaction. A file the Partner uploaded before is `file_already_exists`
 * unless duplicates are allowed; then the same record is returned (its retention clock restarts).
 */
export function recordUpload(scope: PartnerScope, staged: StagedUpload, allowDuplicate: boolean): FileRow {
  const existing = findFileRow(scope, staged.hash);
  const now = scope.clock.now();
  if (existing) {
    if (!allowDuplicate) throw new ServiceError('file_already_exists', `This file was uploaded before (file_hash ${staged.hash})`);
    if (existing.unused_since !== null) cached(scope.db, 'UPDATE files SET unused_since = ? WHERE id = ?').run(now, existing.id);
    return existing;
  }
  const id = cached(scope.db, 'INSERT INTO files (partner_id, file_hash, file_type, size, uploaded_date, unused_since) VALUES (?, ?, ?, ?, ?, ?)').run(
    scope.partner.id,
    staged.hash,
    staged.fileType ?? null,
    staged.size,
    now,
    now,
  ).lastInsertRowid as number;
  return { id, file_hash: staged.hash, file_type: staged.fileType ?? null, unused_since: now };
}

/** POST /files */
export async function uploadFile(scope: PartnerScope, source: UploadSource | undefined, allowDuplicate: boolean): Promise<FileRecord> {
  const staged = await stageUpload(scope, source);
  return fileRecord(storeThenRecord(scope, staged, () => recordUpload(scope, staged, allowDuplicate)));
}

/** GET /files/<file_hash>; a malformed hash or another Partner's file is `missing_file`. */
export function getFile(scope: PartnerScope, hash: string): FileRecord {
  const row = isSha256Hex(hash) ? findFileRow(scope, hash) : undefined;
  if (!row) throw new ServiceError('missing_file', `No uploaded file with hash ${JSON.stringify(hash)}`);
  return fileRecord(row);
}

/** GET /files */
export function listFiles(scope: PartnerScope, query: FileQuery | undefined): Page<FileRecord> {
  const page = parsePageQuery(query, ['uploaded'], 'uploaded');
  const where = new Conditions('f.partner_id = ?', scope.partner.id);
  if (query?.file_hash !== undefined && query.file_hash !== '') {
    if (typeof query.file_hash !== 'string') throw new ServiceError('invalid_value', 'file_hash must be one SHA-256 hash');
    where.add('f.file_hash = ?', query.file_hash);
  }
  const { total, ids } = selectPage(scope.db, 'files f', 'f.id', where, { uploaded: 'f.uploaded_date' }, page);
  return makePage(page, total, rowsInOrder<FileRow>(scope.db, 'SELECT id, file_hash, file_type FROM files', 'id', ids).map(fileRecord));
}

/** Marks files as used by a credential: they are no longer subject to the one-hour deletion. */
export function markUsed(db: Db, fileIds: readonly number[]): void {
  for (const id of fileIds) cached(db, 'UPDATE files SET unused_since = NULL WHERE id = ?').run(id);
}

/**
 * Marks files no credential uses any more as unused again, restarting their hour, so the
 * sweeper cleans up after deleted credentials too.
 */
export function releaseUnusedFiles(db: Db, fileIds: readonly number[], now: number): void {
  for (const id of fileIds) {
    cached(db, 'UPDATE files SET unused_since = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM credential_files WHERE file_id = ?)').run(now, id, id);
  }
}

/**
 * Deletes uploads that no credential used within the retention time (the spec's hour), and
 * their stored bytes once no Partner's record points at them, and uploads abandoned mid-stream.
 * Returns how many records went. Of the processes sharing the database (`serve` nodes, the app
 * beside the CLI) only one sweeps: the holder of the issuing lease, or any while nobody holds it.
 */
export function sweepUnusedFiles(db: Db, store: FileBytes, now: number, lease: Pick<IssuingLease, 'heldElsewhere'>): number {
  // Each node would find and delete the same rows, every minute: the lease names one of them.
  if (lease.heldElsewhere() !== undefined) return 0;
  const cutoff = now - LIMITS.unusedFileRetentionMs;
  store.sweepAbandoned(cutoff);
  if (!cached(db, 'SELECT 1 FROM files WHERE unused_since <= ? LIMIT 1').get(cutoff)) return 0;
  // Under the write lock, as uploads store bytes under it: see storeThenRecord.
  return inWriteLock(db, () => {
    const doomed = cached(db, 'SELECT id, file_hash FROM files WHERE unused_since <= ?').all(cutoff) as { id: number; file_hash: string }[];
    for (const f of doomed) cached(db, 'DELETE FROM files WHERE id = ?').run(f.id);
    for (const hash of new Set(doomed.map((f) => f.file_hash))) if (!isReferenced(db, hash)) store.remove(hash);
    return doomed.length;
  });
}
