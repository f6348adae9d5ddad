/**
 * Stage 3, upload and schedule: a described file is sent with create-and-schedule, after its
 * `uploading` record is journaled; a request whose outcome is unknown is recovered by looking
 * for its credential before sending again; a credential in no job is scheduled again.
 */
import type { ReadStream } from 'node:fs';
import type { ServiceError } from '../../common/errors.js';
import { isServiceError } from '../../common/errors.js';
import type { CredentialDetails } from '../../common/requests.js';
import type { Credential, Job } from '../../common/wire-types.js';
import type { FolderIntakeCore } from './folder-intake-core.js';
import { isDiskFull } from './disk-full.js';
import { ContainmentError, readContained, statEntry, streamContained } from './entries.js';
import { folderFaultPoint } from './fault-points.js';
import { INGEST_METADATA_KEY } from './file-metadata.js';
import type { FileRow } from './journal.js';
import { credentialsSince } from './job-proofs.js';
import { ByteGate } from './pool.js';
import { HELD_BYTES } from './read-for-intake.js';
import { intakeSenderFor, type IntakeSender } from './sender.js';
import { SMALL_FILE_BYTES, sha256Hex } from '../files/hash-file.js';

/** How far back of a request's time its credential is looked for (clocks of remote services differ). */
export const RECOVERY_SKEW_MS = 10 * 60_000;

/** A ServiceError that says the request was refused (so nothing changed): every 4xx but 401. */
function isRefusal(error: unknown): error is ServiceError {
  return isServiceError(error) && error.status >= 400 && error.status < 500 && error.id !== 'unauthorized';
}

export class Uploader {
  /** Create-and-schedule through the shared intake: the requests of concurrent files go as one batch on the embedded engine. */
  private readonly sender: IntakeSender;
  /** Bytes of small files read and not yet recorded by the service, at most. */
  readonly held: ByteGate;

  constructor(private readonly core: FolderIntakeCore) {
    this.sender = intakeSenderFor(core.service);
    this.held = new ByteGate(core.options.heldBytes ?? HELD_BYTES);
  }

  /** One file from settled to scheduled, in one task (so a small file's bytes are read once). */
  async take(row: FileRow): Promise<void> {
    if (row.state === 'created') return this.ensureJob(row);
    // A small file's bytes are held from its hash until its batch is recorded, and a batch's
    // worth of files are taken at once: their bytes together stay within the budget. A large
    // file is streamed (hashed, then uploaded alone) and counts as a small file's most, so only
    // a few are read at once, not as many as there are small ones.
    const held = Math.min(Math.max(row.size, 0), SMALL_FILE_BYTES);
    if (held > 0) {
      await this.held.acquire(held);
      // Stopped or paused while it waited for room: left as it is, for the resume or the next
      // start (a stop waits for the files under way, not for every file queued behind them).
      if (!this.core.running) {
        this.held.release(held);
        return;
      }
    }
    try {
      let bytes: Buffer | undefined;
      if (row.state === 'seen') {
        const hashed = await this.core.describer.hash(row);
        if (!hashed) return;
        bytes = hashed.bytes;
      }
      if (row.state === 'hashed') await this.upload(row, bytes);
    } finally {
      if (held > 0) this.held.release(held);
    }
  }

  /**
   * Sends a hashed file: duplicates are filed instead, and the `uploading` record is written
   * before the request goes out. Small files go as the bytes that were hashed; large ones are
   * streamed from disk, and the service's hash of them is compared with ours afterwards.
   */
  async upload(row: FileRow, hashedBytes: Buffer | undefined): Promise<void> {
    const folder = this.core.folderOf(row);
    const path = this.core.pathOf(row);
    let bytes = hashedBytes;
    if (!bytes) {
      // Back from waiting: look again that it is what was hashed.
      const info = await statEntry(path);
      if (info.kind === 'gone') return this.core.vanish(row);
      if (info.kind !== 'file' || info.size !== row.size || info.mtimeMs !== row.mtime_ms) {
        return this.core.resettle(row, info.kind === 'file' ? info.size : -1, info.kind === 'file' ? info.mtimeMs : -1);
      }
      if (row.size <= SMALL_FILE_BYTES) {
        try {
          bytes = await readContained(path, folder.realRoot);
        } catch (error) {
          if (error instanceof ContainmentError) return this.core.filer.fail(row, 'no_file_on_payload', error.message);
          throw error;
        }
        if (sha256Hex(bytes) !== row.sha256) return this.core.resettle(row, info.size, info.mtimeMs);
      }
    }
    if (!folder.allowDuplicates) {
      const same = this.core.rows.sameContent(row);
      const original = same.find((r) => r.state !== 'hashed' && r.state !== 'uploading');
      if (original) return this.core.filer.duplicate(row, original.id, this.core.describeOriginal(original));
      // An identical file is being sent, or is ahead of this one: wait for its outcome.
      if (same.some((r) => r.state === 'uploading' || r.id < row.id)) {
        this.core.rows.save(row, {});
        this.core.retryIn(row, Math.max(100, this.core.stableMs / 2));
        return;
      }
    }
    this.core.rows.save(row, { state: 'uploading', attempt_at: this.core.clock.now() });
    await this.core.durable();
    folderFaultPoint('after-uploading');
    let credential: Credential;
    let stream: ReadStream | undefined;
    try {
      const name = row.rel_path.slice(row.rel_path.lastIndexOf('/') + 1);
      // A large file is streamed from a descriptor opened the safe way (never a path the service would open, following links).
      if (!bytes) stream = streamContained(path, folder.realRoot);
      credential = await this.sender.createAndSchedule(folder.engine, {
        file: bytes ? { data: bytes, name } : { data: stream!, name },
        credential_details: { ...(JSON.parse(row.details!) as CredentialDetails), ignore_duplicate: folder.allowDuplicates ? 'true' : 'false' },
      });
    } catch (error) {
      stream?.destroy();
      if (error instanceof ContainmentError) return this.core.filer.fail(row, 'no_file_on_payload', error.message);
      if (isRefusal(error) && isDiskFull(error)) {
        // The service's disk is full: nothing changed; the file waits and is sent again.
        this.core.rows.save(row, { state: 'hashed' });
        this.core.retryLater(row, error);
        return;
      }
      if (isRefusal(error)) {
        // A refused request changed nothing (the service's rule): the outcome is known.
        if (error.id === 'file_already_exists') {
          const original = this.core.rows.sameContent(row).find((r) => r.state !== 'hashed' && r.state !== 'uploading');
          return this.core.filer.duplicate(row, original?.id ?? null, original ? this.core.describeOriginal(original) : `The service already holds this content (${error.message})`);
        }
        if (error.id === 'no_file_on_payload' && (await statEntry(path)).kind === 'gone') return this.core.vanish(row);
        return this.core.filer.fail(row, error.id, error.message);
      }
      // Unknown outcome: the credential may exist. Look for it before sending again.
      this.core.retryLater(row, error);
      return;
    }
    folderFaultPoint('after-create');
    await this.created(row, credential);
  }

  /**
   * A credential exists for the row (made by create-and-schedule, so it is scheduled too):
   * checks it carries the bytes that were hashed and journals its uid. Which job it is in is
   * learned in bulk when a job finishes or fails (pollJobs), not asked per file.
   */
  async created(row: FileRow, credential: Credential): Promise<void> {
    const hash = credential.files[0]?.file_hash;
    if (hash !== undefined && hash !== row.sha256) {
      // The file changed while it was streamed: take the credential back and settle again.
      try {
        const result = await this.core.service.unscheduleCredential(credential.uid, row.engine);
        if (result.credential_deleted) {
          this.core.warn(`${row.rel_path} changed while it was uploaded; it will be taken again once it is stable`);
          this.core.rows.unindexContent(row);
          this.core.rows.save(row, { state: 'seen', credential_uid: null, sha256: null, details: null });
          const now = this.core.clock.now();
          this.core.settler.settleFrom(row.id, now, now);
          return;
        }
      } catch (error) {
        this.core.warn(`${row.rel_path} changed while it was uploaded, and its credential could not be withdrawn: ${(error as Error).message}`);
      }
    }
    this.core.rows.save(row, { state: 'scheduled', credential_uid: credential.uid });
  }

  /** The job (not failed) the credential is in on the engine, if any. */
  async activeJob(credentialUid: string, engine: string): Promise<Job | undefined> {
    const jobs = await this.core.service.listJobs({ uid: credentialUid, per_page: 100 });
    return jobs.items.find((j) => j.status !== 'failed' && j.chain === engine);
  }

  /**
   * For a credential that may be in no job (its job failed, or it was taken out): finds the job
   * it is in, or schedules it again, and journals it.
   */
  async ensureJob(row: FileRow): Promise<void> {
    const uid = row.credential_uid!;
    const active = await this.activeJob(uid, row.engine);
    if (active) {
      this.core.rows.save(row, { state: 'scheduled', job_uid: active.uid });
      return;
    }
    this.core.rows.save(row, { attempt_at: this.core.clock.now() });
    await this.core.durable();
    try {
      const job = await this.core.service.scheduleCredentials({ engine: row.engine, credentials: [uid] });
      this.core.rows.save(row, { state: 'scheduled', job_uid: job.uid });
    } catch (error) {
      if (isServiceError(error) && error.id === 'missing_credential') {
        // Withdrawn by someone else: nothing was issued, so it is created again.
        this.core.rows.save(row, { state: 'hashed', credential_uid: null, job_uid: null });
        return;
      }
      throw error;
    }
  }

  /**
   * Rows whose request was sent but whose answer was never journaled (a crash, a lost answer):
   * each one's credential is looked for by the content hash and path in its metadata, among
   * the credentials made since the request. Found: journaled as created. Not found: the request
   * never took effect, and it is sent again.
   */
  async recoverUploads(rows: FileRow[]): Promise<void> {
    const since = Math.min(...rows.map((r) => r.attempt_at ?? r.seen_at)) - RECOVERY_SKEW_MS;
    const byKey = await credentialsSince(this.core.service, since, (credential) => {
      const ingest = credential.metadata[INGEST_METADATA_KEY] as { sha256?: unknown; path?: unknown } | undefined;
      return typeof ingest?.sha256 === 'string' && typeof ingest.path === 'string' ? [`${ingest.sha256}\0${ingest.path}`] : [];
    });
    let found = 0;
    let resent = 0;
    for (const row of rows) {
      if (row.state !== 'uploading') continue;
      const candidates = (byKey.get(`${row.sha256}\0${row.rel_path}`) ?? []).filter(
        (c) => Date.parse(c.upload_date) >= (row.attempt_at ?? 0) - RECOVERY_SKEW_MS && !this.core.journal.credentialClaimed(c.uid),
      );
      const match = candidates.find((c) => c.files[0]?.file_hash === row.sha256) ?? candidates[0];
      if (match) {
        found++;
        await this.created(row, match);
      } else {
        resent++;
        this.core.rows.save(row, { state: 'hashed' });
      }
    }
    this.core.options.onEvent?.({ type: 'recovered', found, resent });
  }
}
