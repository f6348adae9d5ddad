/**
 * Uploaded files' bytes in the PostgreSQL database itself, so `serve` nodes sharing it need no
 * shared disk: a blob per distinct content (`file_blobs`, named by its SHA-256 once committed)
 * and its bytes in 512 KiB rows (`file_chunks`). An upload streams in a chunk at a time, each
 * chunk its own statement between the engine's transactions, hashed on the way: memory stays
 * at a chunk however large the file, and the write lock is held only for the commit, which
 * names the blob (or, when the same bytes are stored already, drops it). Reading streams the
 * chunks back one by one. Chunks travel as base64 text (libpq's text protocol, which pg-native's
 * synchronous calls use), a third smaller than bytea's hex form.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ServiceError } from '../../../common/errors.js';
import type { UploadSource } from '../../../common/requests.js';
import type { Clock } from '../clock.js';
import type { FileBytes, StagedUpload } from '../file-bytes.js';
import { openSource, sourceName, uploadTooLarge } from '../file-store.js';
import { cached } from '../list-query.js';
import { detectMimeType } from '../mime-type.js';
import type { PostgresDb } from './postgres-db.js';

/**
 * The bytes of one `file_chunks` row. Its base64 text (683 KiB) stays below the size from which
 * Node makes strings outside V8's heap (~1 MB), whose garbage the collector is slow to notice: a
 * 300 MB upload in 1 MiB chunks swelled the process by 80 MiB, in 512 KiB chunks by ~25 MiB.
 * Smaller chunks cost more statements (256 KiB: a third slower) for no less memory.
 */
export const CHUNK_BYTES = 512 * 1024;

/** The largest file stored in the database by default: the REST server's upload limit. */
export const DATABASE_MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;

/** An upload streamed into an unnamed blob. */
interface StagedBlob extends StagedUpload {
  blobId: number;
}

/** A failure of the database while bytes go in or out: ours, not the upload's. */
function storeError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  return new ServiceError('internal_error', `Could not store the uploaded file: ${(error as Error).message}`, { cause: error });
}

export class DatabaseFileStore implements FileBytes {
  /** Blobs this store is streaming in now, dropped on close. */
  private readonly inFlight = new Set<number>();

  /**
   * @param maxFileBytes the largest upload taken (`payload_too_large` past it)
   */
  constructor(
    private readonly db: PostgresDb,
    private readonly clock: Clock,
    private readonly maxFileBytes = DATABASE_MAX_FILE_BYTES,
  ) {}

  /** Streams an upload into a new unnamed blob, a chunk per statement, hashing it on the way. */
  async stage(source: UploadSource): Promise<StagedBlob> {
    const input = openSource(source);
    let blobId: number;
    try {
      blobId = cached(this.db, 'INSERT INTO file_blobs (touched_date) VALUES (?) RETURNING id').pluck().get(this.clock.now()) as number;
    } catch (error) {
      input.destroy();
      throw storeError(error);
    }
    this.inFlight.add(blobId);
    const hash = createHash('sha256');
    // One buffer, filled and written again and again: the chunk in flight is all this holds.
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    let size = 0;
    let seq = 0;
    let head: Buffer | undefined;
    const write = (bytes: Buffer) => {
      // The first chunk is kept for the type sniff (file-type reads the start of a file).
      head ??= Buffer.from(bytes);
      try {
        cached(this.db, "WITH touched AS (UPDATE file_blobs SET touched_date = ? WHERE id = ?) INSERT INTO file_chunks (blob_id, seq, bytes) VALUES (?, ?, decode(?, 'base64'))").run(
          this.clock.now(),
          blobId,
          blobId,
          seq++,
          bytes.toString('base64'),
        );
      } catch (error) {
        throw storeError(error);
      }
    };
    try {
      try {
        for await (const piece of input as AsyncIterable<Uint8Array>) {
          size += piece.length;
          if (size > this.maxFileBytes) throw uploadTooLarge(this.maxFileBytes);
          hash.update(piece);
          let at = 0;
          while (at < piece.length) {
            const taken = Math.min(piece.length - at, CHUNK_BYTES - filled);
            chunk.set(piece.subarray(at, at + taken), filled);
            filled += taken;
            at += taken;
            if (filled === CHUNK_BYTES) {
              write(chunk);
              filled = 0;
            }
          }
        }
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        throw new ServiceError('no_file_on_payload', `Could not read the uploaded file: ${(error as Error).message}`, { cause: error });
      }
      if (filled > 0) write(chunk.subarray(0, filled));
      try {
        cached(this.db, 'UPDATE file_blobs SET size = ? WHERE id = ?').run(size, blobId);
      } catch (error) {
        throw storeError(error);
      }
      const fileType = await detectMimeType(head ?? Buffer.alloc(0), sourceName(source));
      return { blobId, hash: hash.digest('hex'), size, fileType };
    } catch (error) {
      input.destroy();
      this.drop(blobId);
      throw error;
    }
  }

  /** Each chunk was committed as it came in: nothing more to make durable. */
  async makeDurable(): Promise<void> {}

  /**
   * Names the staged blob by its hash; when the same bytes are stored already they stay, and
   * the staged copy goes at once (a batch does not discard what it committed).
   */
  commit(upload: StagedUpload): void {
    const { blobId, hash } = upload as StagedBlob;
    if (cached(this.db, 'SELECT 1 FROM file_blobs WHERE file_hash = ?').get(hash) !== undefined) {
      cached(this.db, 'DELETE FROM file_blobs WHERE id = ? AND file_hash IS NULL').run(blobId);
      return;
    }
    const named = cached(this.db, 'UPDATE file_blobs SET file_hash = ? WHERE id = ? AND file_hash IS NULL').run(hash, blobId);
    if (named.changes !== 1) throw new Error(`The staged bytes of ${hash} are gone (abandoned for over an hour?)`);
  }

  discard(upload: StagedUpload): void {
    this.drop((upload as StagedBlob).blobId);
  }

  /** Deletes a blob unless it was named (committed); a database gone now leaves it to sweepAbandoned. */
  private drop(blobId: number): void {
    this.inFlight.delete(blobId);
    try {
      if (this.db.open) cached(this.db, 'DELETE FROM file_blobs WHERE id = ? AND file_hash IS NULL').run(blobId);
    } catch {
      // The connection is lost: the blob stays unnamed until the sweep removes it.
    }
  }

  remove(hash: string): void {
    cached(this.db, 'DELETE FROM file_blobs WHERE file_hash = ?').run(hash);
  }

  has(hash: string): boolean {
    return cached(this.db, 'SELECT 1 FROM file_blobs WHERE file_hash = ?').get(hash) !== undefined;
  }

  sizeOf(hash: string): number | undefined {
    return cached(this.db, 'SELECT size FROM file_blobs WHERE file_hash = ?').pluck().get(hash) as number | undefined;
  }

  /** The chunks of `hash`'s blob, one query per chunk as the reader asks for it. */
  read(hash: string): Readable {
    const { db } = this;
    let blob: { id: number; size: number } | undefined;
    let seq = 0;
    let sent = 0;
    return new Readable({
      read() {
        try {
          blob ??= cached(db, 'SELECT id, size FROM file_blobs WHERE file_hash = ?').get(hash) as { id: number; size: number } | undefined;
          if (!blob) throw new ServiceError('missing_file', `No stored bytes for file_hash ${hash}`);
          if (sent >= blob.size) return void this.push(null);
          const text = cached(db, "SELECT encode(bytes, 'base64') FROM file_chunks WHERE blob_id = ? AND seq = ?").pluck().get(blob.id, seq++) as string | undefined;
          if (text === undefined) throw new ServiceError('missing_file', `The stored bytes of ${hash} were deleted while they were read`);
          // (PostgreSQL breaks base64 into lines, which Node's decoder skips.)
          const bytes = Buffer.from(text, 'base64');
          sent += bytes.length;
          this.push(bytes);
        } catch (error) {
          this.destroy(error as Error);
        }
      },
    });
  }

  /** Deletes blobs whose upload stopped (its process killed, its connection lost) before `cutoff`. */
  sweepAbandoned(cutoff: number): void {
    cached(this.db, 'DELETE FROM file_blobs WHERE file_hash IS NULL AND touched_date <= ?').run(cutoff);
  }

  close(): void {
    for (const blobId of [...this.inFlight]) this.drop(blobId);
  }
}
