/**
 * Where the engine keeps uploaded files' bytes, content-addressed by SHA-256: one small
 * interface with two places behind it, chosen when the engine opens by its database's kind.
 * SQLite keeps them as files in the data directory (FileStore, file-store.ts); PostgreSQL keeps
 * them in the database (DatabaseFileStore, store/database-file-store.ts), so `serve` nodes
 * sharing it need nothing else. Everything that reads stored bytes goes through it.
 */
import type { Readable } from 'node:stream';
import type { UploadSource } from '../../common/requests.js';
import type { Clock } from './clock.js';
import type { Db } from './database.js';
import { FileStore } from './file-store.js';
import { DatabaseFileStore } from './store/database-file-store.js';
import { postgresOf } from './store/dialect.js';

/** An upload streamed in and hashed, not yet part of the store (each place adds where it waits). */
export interface StagedUpload {
  hash: string;
  size: number;
  fileType: string | undefined;
}

/**
 * The stored bytes of uploaded files. `stage` streams an upload in while hashing it; `commit`
 * (synchronous, under the engine's write lock, just before the records naming it) makes staged
 * bytes the bytes of their hash (the same bytes stored once, however often uploaded);
 * `discard` drops what was staged and not committed. Nothing of a failed or refused upload
 * stays.
 */
export interface FileBytes {
  /** Streams an upload in, hashing it on the way: `no_file_on_payload` when there is none to read, `payload_too_large` past the limit. */
  stage(source: UploadSource): Promise<StagedUpload>;
  /** Makes a batch of staged uploads durable before the transaction that records them commits. */
  makeDurable(staged: readonly StagedUpload[]): Promise<void>;
  /** Makes staged bytes the stored bytes of their hash. */
  commit(staged: StagedUpload): void;
  /** Drops a staged upload (committed or not: what the store took stays). */
  discard(staged: StagedUpload): void;
  /** Deletes the stored bytes of `hash` (the caller checked that no record names them). */
  remove(hash: string): void;
  has(hash: string): boolean;
  /** The size of the stored bytes of `hash`, or undefined when there are none. */
  sizeOf(hash: string): number | undefined;
  /** The stored bytes of `hash`, streamed (flat memory however large); fails when there are none. */
  read(hash: string): Readable;
  /** Deletes uploads abandoned mid-stream (a process killed while one came in) last touched before `cutoff`. */
  sweepAbandoned(cutoff: number): void;
  /** Drops this process's uploads in flight. */
  close(): void;
}

/**
 * Where an engine on `db` keeps uploaded files: the data directory on SQLite, the database
 * itself on PostgreSQL. `maxFileBytes` is the largest upload taken (by default: none in the
 * data directory, DATABASE_MAX_FILE_BYTES in the database).
 */
export function openFileBytes(db: Db, dataDir: string, clock: Clock, maxFileBytes?: number): FileBytes {
  const postgres = postgresOf(db);
  return postgres ? new DatabaseFileStore(postgres, clock, maxFileBytes) : new FileStore(dataDir, maxFileBytes);
}
