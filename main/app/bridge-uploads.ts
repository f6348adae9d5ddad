/**
 * The web bridge's file intake (UI.md: in the browser the files are uploaded to the bridge), a
 * fastify plugin over @fastify/multipart. `POST /upload/<batch>` takes multipart/form-data
 * whose file parts are named by their path relative to what was dropped (URI-encoded), streams
 * each to the bridge's private folder (0700, files 0600) while hashing it, and answers
 * `{ tops }`: for each file, what was dropped (the file itself or the folder it came in), the
 * paths the page then stages with `staging:addPaths`, the call Electron makes with the paths of
 * dropped files. No file is ever held in memory whole; one larger than `maxFileBytes` is
 * refused with `payload_too_large` (413) and nothing of its request stays.
 * `DELETE /upload/<batch>` (cancel) removes everything the batch wrote, once its requests in
 * flight are done, and refuses any later one.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../common/errors.js';
import { MAX_PROOF_FILE_BYTES } from '../engine/proofs/verify-read-proof.js';
import { forgetWrittenHashes, rememberWrittenHash } from '../workspace/rows-intake/stage-files.js';
import { forgetReceived, rememberReceived } from '../workspace/verify/received-proofs.js';

/** Largest single upload: the REST service's limit (docs/api.md). */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;
/** Most files in one request (the page sends at most 500). */
const MAX_FILES_PER_REQUEST = 1000;
const BATCH = /^[A-Za-z0-9-]{8,64}$/;
const MAX_DEPTH = 32;

export interface BridgeUploadsOptions {
  /** Where the private upload folder is made (the system temp directory by default). */
  parent?: string;
  /** Largest file accepted, in bytes (MAX_UPLOAD_BYTES by default). */
  maxFileBytes?: number;
}

/** Checks one segment of an uploaded file's relative path: no `..`, no separators, no NUL. */
function segmentOk(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !/[\\/\0]/.test(segment) && segment.length <= 255;
}

/** A file part's name as the segments of its relative path, or invalid_value. */
function relativeSegments(fieldname: string): string[] {
  let rel: string[] = [];
  try {
    rel = decodeURIComponent(fieldname).split('/');
  } catch {
    // an undecodable name is refused below like any other bad one
  }
  if (rel.length === 0 || rel.length > MAX_DEPTH || !rel.every(segmentOk)) {
    throw new ServiceError('invalid_value', 'Every uploaded file needs a relative path without ".." or empty parts');
  }
  return rel;
}

function tooLarge(maxFileBytes: number): ServiceError {
  return new ServiceError('payload_too_large', `A file is larger than ${Math.floor(maxFileBytes / 1024 / 1024)} MiB, the most the app takes in one file`);
}

/**
 * Streams one file part to `target`, hashing it on the way; a `*.json` small enough to be a
 * proof is also handed to the Verify drop's offline checks (received-proofs.ts), so that they
 * need not read it back.
 */
async function receive(part: MultipartFile, target: string, maxFileBytes: number): Promise<void> {
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const hash = createHash('sha256');
  let size = 0;
  const proof: Buffer[] | null = target.toLowerCase().endsWith('.json') ? [] : null;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      if (proof && size <= MAX_PROOF_FILE_BYTES) proof.push(chunk);
      done(null, chunk);
    },
  });
  await pipeline(part.file, tap, createWriteStream(target, { mode: 0o600 }));
  // Without throwFileSizeLimit's error (a stream cut at the limit ends quietly): refuse it here too.
  if (part.file.truncated) throw tooLarge(maxFileBytes);
  rememberWrittenHash(target, hash.digest('hex'), size);
  if (proof && size <= MAX_PROOF_FILE_BYTES) rememberReceived(target, Buffer.concat(proof));
}

/**
 * Registers the upload routes on `app`; answers the function that removes every uploaded file
 * (the bridge calls it when it closes).
 *
 * @example const removeUploads = await registerUploads(app, { parent: dataDir })
 */
export async function registerUploads(app: FastifyInstance, options: BridgeUploadsOptions = {}): Promise<() => void> {
  const maxFileBytes = options.maxFileBytes ?? MAX_UPLOAD_BYTES;
  await app.register(multipart, { limits: { fileSize: maxFileBytes, files: MAX_FILES_PER_REQUEST, fields: 0 }, throwFileSizeLimit: true });
  let root: string | null = null;
  const folder = () => (root ??= mkdtempSync(join(options.parent ?? tmpdir(), 'proofdesk-uploads-')));
  /** Requests still writing, per batch: a cancel waits for them before it removes the batch. */
  const writing = new Map<string, Set<Promise<unknown>>>();
  /** Cancelled batches: nothing more is written to them. */
  const cancelled = new Set<string>();

  const batchOf = (params: unknown): string => {
    const batch = (params as { batch?: string }).batch;
    if (!batch || !BATCH.test(batch)) throw new ServiceError('invalid_value', 'Upload to /upload/<batch>, a random id of the upload');
    return batch;
  };
  const refuseCancelled = (batch: string) => {
    if (cancelled.has(batch)) throw new ServiceError('not_found', 'This upload was cancelled: drop the files again to add them');
  };

  /** Writes every file of the request; on any failure removes what it wrote. */
  const receiveAll = async (parts: AsyncIterable<MultipartFile>, batch: string): Promise<string[]> => {
    const written: string[] = [];
    const tops: string[] = [];
    try {
      for await (const part of parts) {
        const rel = relativeSegments(part.fieldname);
        refuseCancelled(batch);
        const target = join(folder(), batch, ...rel);
        written.push(target);
        await receive(part, target, maxFileBytes);
        tops.push(join(folder(), batch, rel[0]!));
      }
      refuseCancelled(batch);
      return tops;
    } catch (error) {
      await Promise.all(written.map((path) => rm(path, { force: true })));
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxFileBytes);
      throw error;
    }
  };

  app.post('/upload/:batch', async (request) => {
    const batch = batchOf(request.params);
    refuseCancelled(batch);
    if (!request.isMultipart()) throw new ServiceError('invalid_value', 'Uploads are multipart/form-data, one part per file');
    const work = receiveAll(request.files(), batch);
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    const inFlight = writing.get(batch) ?? new Set<Promise<unknown>>();
    writing.set(batch, inFlight.add(settled));
    try {
      return { tops: await work };
    } finally {
      inFlight.delete(settled);
      if (inFlight.size === 0) writing.delete(batch);
    }
  });

  app.delete('/upload/:batch', async (request) => {
    const batch = batchOf(request.params);
    cancelled.add(batch);
    await Promise.all(writing.get(batch) ?? []);
    if (root) {
      const dir = join(root, batch);
      await rm(dir, { recursive: true, force: true });
      forgetWrittenHashes(dir);
      forgetReceived(dir);
    }
    return { removed: true };
  });

  return () => {
    if (root) {
      rmSync(root, { recursive: true, force: true });
      forgetWrittenHashes(root);
      forgetReceived(root);
    }
    root = null;
  };
}
