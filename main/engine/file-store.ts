import { diskFullError, isDiskFull } from './disk-full.js';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFile as writeFileCallback, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { ServiceError } from '../../common/errors.js';
import { isProcessAlive } from '../chain/index.js';
import type { UploadSource } from '../../common/requests.js';
import { syncFiles } from '../durable/sync-files.js';
import { hashChunks, sha256Hex } from '../files/hash-file.js';
import type { FileBytes, StagedUpload } from './file-bytes.js';
import { detectMimeType } from './mime-type.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, ensurePrivateDir } from './private-files.js';

/**
 * fs.writeFile with a callback, as a promise: the same open (O_EXCL), write and close in the
 * thread pool, but without fs/promises' FileHandle per file, whose bookkeeping costs the main
 * thread several times the CPU per staged small file.
 */
const writeFile = promisify(writeFileCallback);

/** How many folders a store stages uploads in (see nextStagingFolder). */
const STAGING_FOLDERS = 16;

/** An upload written to a temporary file and hashed, not yet part of the store. */
export interface StagedFile extends StagedUpload {
  tempPath: string;
}

/** The refusal of an upload larger than `maxBytes`. */
export function uploadTooLarge(maxBytes: number): ServiceError {
  const MiB = 1024 * 1024;
  const size = maxBytes % MiB === 0 ? `${maxBytes / MiB} MiB` : `${maxBytes} bytes`;
  return new ServiceError('payload_too_large', `The file is larger than ${size}, the most the engine stores in one file`);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

/** Reads an upload source as a byte stream; no readable file in it is `no_file_on_payload`. */
export function openSource(source: UploadSource | unknown): Readable {
  const s = source as { path?: unknown; data?: unknown } | null;
  if (typeof s === 'object' && s !== null && typeof s.path === 'string') {
    if (!existsSync(s.path)) throw new ServiceError('no_file_on_payload', `No file at ${s.path}`);
    return createReadStream(s.path);
  }
  if (typeof s === 'object' && s !== null && s.data instanceof Uint8Array) return Readable.from([s.data]);
  if (typeof s === 'object' && s !== null && isAsyncIterable(s.data)) return Readable.from(s.data);
  throw new ServiceError('no_file_on_payload', 'No file in the request: give a path or the bytes');
}

/** The name an upload came with (for the MIME fallback), if any. */
export function sourceName(source: UploadSource): string | undefined {
  return source.name ?? ('path' in source && typeof source.path === 'string' ? basename(source.path) : undefined);
}

/** SHA-256 of a source, streamed: memory stays flat however large the file. */
export async function hashSource(source: UploadSource): Promise<{ hash: string; size: number }> {
  const { sha256, size } = await hashChunks(openSource(source));
  return { hash: sha256, size };
}

/**
 * Content-addressed storage of uploaded files under `<dataDir>/files/<2 hex>/<sha256>`.
 * An upload is streamed to a temporary file while it is hashed (one pass, flat memory),
 * then moved into place, so a half-written upload is never visible under its hash.
 * Several processes may share a data directory (the app, the CLI, a server): each stages in
 * a folder of its own, and only folders of processes that are gone are cleared.
 */
export class FileStore implements FileBytes {
  private readonly root: string;
  private readonly tmp: string;
  /** Shard folders (`files/<2 hex>`) known to exist: made once, not per file. */
  private readonly shards = new Set<string>();
  /** The staging folder the last upload went to (nextStagingFolder). */
  private staged = 0;

  /**
   * @param maxFileBytes the largest upload taken (`payload_too_large` past it); none by default:
   *   the REST server and the app's bridge limit what they receive, and local files are the admin's
   */
  constructor(
    dataDir: string,
    private readonly maxFileBytes = Number.POSITIVE_INFINITY,
  ) {
    this.root = join(dataDir, 'files');
    const staging = join(dataDir, 'tmp');
    ensurePrivateDir(this.root);
    ensurePrivateDir(staging);
    for (const name of readdirSync(staging)) {
      const pid = Number(name.split('-')[0]);
      // Leftovers of a crash mid-upload are useless.
      if (!Number.isSafeInteger(pid) || !isProcessAlive(pid)) rmSync(join(staging, name), { recursive: true, force: true });
    }
    this.tmp = join(staging, `${process.pid}-${randomUUID()}`);
    mkdirSync(this.tmp, { mode: PRIVATE_DIR_MODE });
  }

  /**
   * Runs a write into one of this store's staging folders; if the folder is not there (not yet
   * used, or cleared by hand) it is made and the write runs once more (not made per file).
   */
  private async inOwnFolder(folder: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      // Uploads side by side may all find the folder missing: each makes it (or finds it made).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
      await write();
    }
  }

  /**
   * Where the next upload is staged: the uploads of a batch take turns among STAGING_FOLDERS
   * folders, made when first written to. Creating a file locks its folder, so files created
   * side by side in one folder wait for each other; spread over a few they do not.
   */
  private nextStagingFolder(): string {
    this.staged = (this.staged + 1) % STAGING_FOLDERS;
    return join(this.tmp, String(this.staged));
  }

  /**
   * Makes staged files' bytes durable in one pass, before the transaction that records them
   * commits: for a large batch on Linux one syncfs of the staging folder's file system
   * (coreutils' `sync -f`: Node has no binding), else an fdatasync per file, side by side. The renames into
   * the store that follow are journaled by the file system in order, so they are durable no
   * later than the database commit that names them (its WAL sync comes after them).
   */
  async syncStaged(files: readonly StagedFile[]): Promise<void> {
    try {
      await this.syncEach(files);
    } catch (error) {
      if (isDiskFull(error)) throw diskFullError(this.root, undefined, error);
      throw new ServiceError('internal_error', `Could not store the uploaded files: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * Makes the store's folders for these files' hashes that this store has not made yet, in the
   * thread pool, before their sync pass (which then covers the new folders too): a first batch
   * needs up to 256, and each costs the thread that makes it a wait on the disk.
   * commit() still makes a folder that is missing.
   */
  async makeShards(files: readonly StagedFile[]): Promise<void> {
    const missing = [...new Set(files.map((f) => join(this.root, f.hash.slice(0, 2))))].filter((shard) => !this.shards.has(shard));
    await Promise.all(
      missing.map(async (shard) => {
        try {
          await mkdir(shard, { recursive: true, mode: PRIVATE_DIR_MODE });
          this.shards.add(shard);
        } catch {
          // Left to commit(), which makes it or reports why it cannot.
        }
      }),
    );
  }

  /** makeShards, then syncStaged: the batch's bytes and folders durable in one pass. */
  async makeDurable(files: readonly StagedUpload[]): Promise<void> {
    const staged = files as readonly StagedFile[];
    await this.makeShards(staged);
    await this.syncStaged(staged);
  }

  private async syncEach(files: readonly StagedFile[]): Promise<void> {
    const errors: unknown[] = [];
    await syncFiles(files.map((f) => f.tempPath), errors);
    const failed = errors.find((e) => e !== undefined);
    if (failed !== undefined) throw failed;
  }

  /** Removes this store's staging folder (uploads in flight are abandoned). */
  close(): void {
    rmSync(this.tmp, { recursive: true, force: true });
  }

  pathOf(hash: string): string {
    return join(this.root, hash.slice(0, 2), hash);
  }

  has(hash: string): boolean {
    return existsSync(this.pathOf(hash));
  }

  sizeOf(hash: string): number | undefined {
    const info = statSync(this.pathOf(hash), { throwIfNoEntry: false });
    return info?.isFile() ? info.size : undefined;
  }

  read(hash: string): Readable {
    return createReadStream(this.pathOf(hash));
  }

  /** Staging folders of processes that are gone are cleared when a store opens: nothing to do here. */
  sweepAbandoned(): void {}

  /** Streams an upload to a temporary file, hashing it on the way. */
  async stage(source: UploadSource): Promise<StagedFile> {
    const input = 'data' in source && source.data instanceof Uint8Array ? source.data : openSource(source);
    const folder = this.nextStagingFolder();
    const tempPath = join(folder, randomUUID());
    const { maxFileBytes } = this;
    let output: WriteStream | undefined;
    try {
      if (input instanceof Uint8Array) {
        if (input.length > maxFileBytes) throw uploadTooLarge(maxFileBytes);
        // Bytes already in memory (small uploads, the watched folder): one hash, one write,
        // and the type sniffed from the bytes rather than read back from disk. Asynchronous:
        // creating a file is mostly waiting in the kernel, and many stagings (a batch) wait
        // side by side (a synchronous write is several times slower per file).
        // The sniff runs while the write waits in the thread pool.
        const [, fileType] = await Promise.all([this.inOwnFolder(folder, () => writeFile(tempPath, input, { flag: 'wx', mode: PRIVATE_FILE_MODE })), detectMimeType(input, sourceName(source))]);
        return { tempPath, hash: sha256Hex(input), size: input.length, fileType };
      }
      // A stream cannot be read twice: its folder is made (again) first.
      mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
      const hash = createHash('sha256');
      let size = 0;
      const hasher = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxFileBytes) return done(uploadTooLarge(maxFileBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      output = createWriteStream(tempPath, { flags: 'wx', mode: PRIVATE_FILE_MODE });
      await pipeline(input, hasher, output);
      const fileType = await detectMimeType(tempPath, sourceName(source));
      return { tempPath, hash: hash.digest('hex'), size, fileType };
    } catch (error) {
      // A stream that failed before its file was open still opens (creates) it: removed once closed.
      if (output && !output.closed) await new Promise<void>((resolve) => output!.once('close', () => resolve()));
      rmSync(tempPath, { force: true });
      if (error instanceof ServiceError) throw error;
      // Our disk being full is not the upload's fault: try again later, nothing is rejected.
      if (isDiskFull(error)) throw diskFullError(this.root, 'data' in source && source.data instanceof Uint8Array ? source.data.length : undefined, error);
      throw new ServiceError('no_file_on_payload', `Could not read the uploaded file: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * Moves a staged file into place. Bytes already stored under its hash are the same bytes: on
   * POSIX the rename replaces them atomically (readers keep what they opened), so no look
   * first — one call per file. Windows refuses to replace a file another process has open: there
   * they are kept as they are.
   */
  commit(upload: StagedUpload): void {
    const staged = upload as StagedFile;
    const target = this.pathOf(staged.hash);
    if (process.platform === 'win32' && existsSync(target)) {
      rmSync(staged.tempPath, { force: true });
      return;
    }
    const shard = join(this.root, staged.hash.slice(0, 2));
    if (!this.shards.has(shard)) {
      mkdirSync(shard, { recursive: true, mode: PRIVATE_DIR_MODE });
      this.shards.add(shard);
    }
    try {
      renameSync(staged.tempPath, target);
    } catch (error) {
      // The shard folder was removed since it was made (by hand): made again, once.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || existsSync(shard) || !existsSync(staged.tempPath)) throw error;
      mkdirSync(shard, { recursive: true, mode: PRIVATE_DIR_MODE });
      renameSync(staged.tempPath, target);
    }
  }

  discard(staged: StagedUpload): void {
    rmSync((staged as StagedFile).tempPath, { force: true });
  }

  remove(hash: string): void {
    rmSync(this.pathOf(hash), { force: true });
  }
}
