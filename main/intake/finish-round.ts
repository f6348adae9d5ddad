/**
 * Stage 4, the files whose job is finished, a round at a time: the files finishing together
 * (up to ROUND_MAX) go through each step side by side — where their proof and original go (one
 * journal commit), their proofs built in bulk and written as one round of files (one sync pass),
 * `issued` (one commit), the originals moved to done/ (one commit, `moved`). Each file still
 * fails alone: an error of one file's step leaves the others going, and is retried for it alone.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FolderIntakeCore } from './folder-intake-core.js';
import { ContainmentError, errorCode, hashContained, statEntry } from './entries.js';
import { folderFaultPoint } from './fault-points.js';
import type { FileRow } from './journal.js';
import { DONE_DIR, vcPathOf } from './names.js';
import { credentialTexts, proofTexts } from './job-proofs.js';
import { writeRound } from './proof-round.js';
import { firstFree, fitPath, moveFile, numbered, writeAtomic } from './paths.js';

/**
 * The most files in one round. A round's proofs are synced with one syncfs from 256 files on
 * (main/durable/sync-files.ts), and its journal writes are one commit per step, whatever its size,
 * so larger rounds mean fewer syncfs and fewer commits for the same files. A
 * syncfs flushes what every program has written to the file system, so on a busy disk each one
 * waits for others' writes too: fewer of them, less of that. The proofs are still built a slice
 * at a time (job-proofs.ts) and written 64 at once; a round holds its proofs' texts (~4 KB each).
 */
export const ROUND_MAX = 2_048;
/** Files hashed between two turns of the event loop (the proof writes go on meanwhile). */
const HASHES_PER_TURN = 32;

type Outcome = Map<number, unknown>;

/** A file whose proof is ready to be written. */
interface ToWrite {
  row: FileRow;
  certificateUid: string;
  path: string;
  text: string;
}

/** Whether the file is still what was issued: `gone` (deleted, or a link put in its place), `changed`, `same`. */
type Change = 'same' | 'changed' | 'gone';

export class FinishRounds {
  /** The round taking files now (it starts at the next turn of the event loop). */
  private forming: { rows: FileRow[]; outcome: Promise<Outcome> } | undefined;

  constructor(
    private readonly core: FolderIntakeCore,
    /** Credential uid → certificate uid, of the finished jobs followed (collect-proofs.ts). */
    private readonly certificateOf: Map<string, string>,
  ) {}

  /** Finishes one file (scheduled, its job finished; or issued): resolves when its round is done with it, rejects with its own error. */
  async finish(row: FileRow): Promise<void> {
    let forming = this.forming;
    if (!forming) {
      const rows: FileRow[] = [];
      const outcome = new Promise<Outcome>((resolve) =>
        setImmediate(() => {
          if (this.forming?.rows === rows) this.forming = undefined;
          resolve(this.round(rows));
        }),
      );
      this.forming = forming = { rows, outcome };
    }
    forming.rows.push(row);
    if (forming.rows.length >= ROUND_MAX) this.forming = undefined;
    const error = (await forming.outcome).get(row.id);
    if (error !== undefined) throw error;
  }

  /** One round; never rejects: each file's error is in the outcome. */
  private async round(rows: FileRow[]): Promise<Outcome> {
    const errors: Outcome = new Map();
    const fail = (row: FileRow, error: unknown) => errors.set(row.id, error);
    try {
      const checked = await this.issue(
        rows.filter((r) => r.state === 'scheduled'),
        fail,
      );
      await this.move(
        rows.filter((r) => r.state === 'issued' && !errors.has(r.id)),
        checked,
        fail,
      );
    } catch (error) {
      // A step of the whole round (the journal): every file not told yet is told.
      for (const row of rows) if (!errors.has(row.id)) fail(row, error);
    }
    return errors;
  }

  /**
   * Scheduled files whose job finished: where their proof and original go (journaled first: a
   * restart writes the same files), their proofs written, then `issued`. Returns, of the files
   * issued, those found unchanged now (hashed once: not again before the move).
   */
  private async issue(rows: FileRow[], fail: (row: FileRow, error: unknown) => void): Promise<Set<number>> {
    const checked = new Set<number>();
    if (rows.length === 0) return checked;
    const toWrite = await this.build(rows, fail);
    if (toWrite.length > 0) await this.writeAndIssue(toWrite, checked, fail);
    return checked;
  }

  /**
   * Where each file's proof and original go (journaled: one commit), and their proofs' texts
   * (built in bulk). Returns the files ready to be written.
   */
  private async build(rows: FileRow[], fail: (row: FileRow, error: unknown) => void): Promise<ToWrite[]> {
    const ready: { row: FileRow; certificateUid: string }[] = [];
    await Promise.all(
      rows.map(async (row) => {
        try {
          const certificateUid = this.certificateOf.get(row.credential_uid!) ?? (await this.findCertificate(row.credential_uid!));
          if (!certificateUid) {
            // Not in the job after all: find where it is.
            this.core.rows.save(row, { state: 'created', job_uid: null });
            return;
          }
          if (!row.final_path || !row.proof_path) {
            const { final, proof } = this.chooseDonePaths(row);
            this.core.rows.save(row, { final_path: final, proof_path: proof });
            this.core.rows.reserve(final, proof);
          }
          ready.push({ row, certificateUid });
        } catch (error) {
          fail(row, error);
        }
      }),
    );
    if (ready.length === 0) return [];
    // Where the proofs go is journaled before they are written: one commit for the round.
    await this.core.durable();

    const texts = await proofTexts(this.core.service, ready.map((r) => r.certificateUid));
    const toWrite: ToWrite[] = [];
    ready.forEach(({ row, certificateUid }, i) => {
      const text = texts[i]!;
      if (typeof text !== 'string') return fail(row, text);
      try {
        this.core.diskFull.assertRoom(row.proof_path!);
        toWrite.push({ row, certificateUid, path: row.proof_path!, text });
      } catch (error) {
        fail(row, error);
      }
    });
    const withCredential = toWrite.filter((w) => this.core.folderOf(w.row).format === 'both');
    if (withCredential.length === 0) return toWrite;
    const refused = await this.writeCredentials(withCredential, fail);
    return toWrite.filter((w) => !refused.has(w.row.id));
  }

  /**
   * The Verifiable Credentials (NAME.vc.json beside NAME.proof.json) of a round's files whose
   * folder asks for them, written before their proofs: a restart writes them again, the same.
   * Returns the rows that failed (each failed with its reason).
   */
  private async writeCredentials(toWrite: ToWrite[], fail: (row: FileRow, error: unknown) => void): Promise<Set<number>> {
    const texts = await credentialTexts(this.core.service, toWrite.map((w) => w.certificateUid));
    const files: { row: FileRow; path: string; text: string }[] = [];
    const refused = new Set<number>();
    toWrite.forEach(({ row, path }, i) => {
      const text = texts[i];
      try {
        if (typeof text !== 'string') throw text;
        const vcPath = vcPathOf(path);
        this.core.diskFull.assertRoom(vcPath);
        files.push({ row, path: vcPath, text });
      } catch (error) {
        refused.add(row.id);
        fail(row, error);
      }
    });
    const errors = await writeRound(files);
    files.forEach(({ row }, i) => {
      if (errors[i] === undefined) return;
      refused.add(row.id);
      fail(row, errors[i]);
    });
    return refused;
  }

  /** Writes a round's proofs (each file hashed again meanwhile), then journals the files issued (one commit). */
  private async writeAndIssue(toWrite: ToWrite[], checked: Set<number>, fail: (row: FileRow, error: unknown) => void): Promise<void> {
    // Is each file still what was issued? Hashed while its proof is written (a proof is written
    // either way: of a changed file, it gets a note that it is superseded).
    const writing = writeRound(toWrite, {
      afterStep: (step) => {
        if (step === 'synced') folderFaultPoint('proofs-unrenamed');
      },
    });
    // Awaited after the hashes: until then a failure of the whole round must not go unhandled.
    writing.catch(() => undefined);
    const changes = new Map<number, Change | { error: unknown }>();
    for (let i = 0; i < toWrite.length; i++) {
      if (i > 0 && i % HASHES_PER_TURN === 0) await new Promise((r) => setImmediate(r));
      const { row } = toWrite[i]!;
      try {
        changes.set(row.id, await this.compare(row));
      } catch (error) {
        changes.set(row.id, { error });
      }
    }
    const writeErrors = await writing;
    const issued: FileRow[] = [];
    for (let i = 0; i < toWrite.length; i++) {
      const { row } = toWrite[i]!;
      const change = changes.get(row.id)!;
      if (writeErrors[i] !== undefined) fail(row, writeErrors[i]);
      else if (typeof change !== 'string') fail(row, change.error);
      else if (change === 'changed') {
        this.certificateOf.delete(row.credential_uid!);
        try {
          await this.supersede(row);
        } catch (error) {
          fail(row, error);
        }
      } else {
        if (change === 'same') checked.add(row.id);
        this.core.rows.save(row, { state: 'issued' });
        this.certificateOf.delete(row.credential_uid!);
        issued.push(row);
      }
    }
    if (issued.length > 0) {
      await this.core.durable();
      for (let n = 0; n < issued.length; n++) folderFaultPoint('after-issued');
    }
  }

  /** A credential whose certificate was not learned from its job: asked about on its own. */
  private async findCertificate(credentialUid: string): Promise<string | undefined> {
    const page = await this.core.service.listCertificates({ credential_uid: credentialUid, per_page: 100 });
    return page.items.find((c) => c.certificate.credential.uid === credentialUid)?.certificate.uid;
  }

  /**
   * Issued files: each moved to done/ (with its sidecar) if it is still what was issued, else
   * superseded. Moved, never issued again: the journal says issued. `checked`: files hashed
   * just now and found the same (a look at size and time is enough for them).
   */
  private async move(rows: FileRow[], checked: Set<number>, fail: (row: FileRow, error: unknown) => void): Promise<void> {
    await Promise.all(
      rows.map(async (row) => {
        try {
          const source = this.core.pathOf(row);
          const now = await statEntry(source);
          const unchanged = checked.has(row.id) && now.kind === 'file' && now.size === row.size && now.mtimeMs === row.mtime_ms;
          if (!unchanged && (await this.compare(row)) === 'changed') return await this.supersede(row);
          const folder = this.core.folderOf(row);
          // `now` is the look right before the move (a changed or gone file was handled above).
          const moved = (this.core.filer.movable(row, source, unchanged ? now : undefined) && (await moveFile(source, row.final_path!, folder.realRoot))) || existsSync(row.final_path!);
          await this.core.filer.moveSidecar(row);
          await this.core.filer.removeStaleNote(row);
          if (!moved) this.core.warn(`${row.rel_path} was issued but had gone from the folder before it could be moved to ${DONE_DIR}/`);
          this.core.rows.save(row, { state: 'moved', closed_at: this.core.clock.now() });
          this.core.count('issued');
          this.core.options.onEvent?.({ type: 'issued', folder: folder.root, path: row.rel_path, proof: row.proof_path!, credential_uid: row.credential_uid! });
        } catch (error) {
          fail(row, error);
        }
      }),
    );
  }

  /** Where the original and its proof go: `done/<rel>` and `<out>/<rel>.proof.json`, numbered on a clash. */
  chooseDonePaths(row: FileRow): { final: string; proof: string } {
    const folder = this.core.folderOf(row);
    const [final, proof] = firstFree(
      (n) => {
        const rel = numbered(row.rel_path, n);
        return [join(folder.root, DONE_DIR, rel), fitPath(join(folder.outDir, rel), '.proof.json')];
      },
      this.core.rows.reserved,
    );
    return { final: final!, proof: proof! };
  }

  /**
   * Whether the file is still what was issued: size and modification time, then its hash.
   * `gone`: deleted (or a link put in its place, which is never read); `changed`: other content.
   */
  private async compare(row: FileRow): Promise<Change> {
    const path = this.core.pathOf(row);
    const info = await statEntry(path);
    if (info.kind !== 'file') return 'gone';
    if (info.size !== row.size || info.mtimeMs !== row.mtime_ms) return 'changed';
    try {
      // The look just taken is the look before the open; nothing reads the look after it.
      const { sha256 } = await hashContained(path, info.size, this.core.folderOf(row).realRoot, { seen: info, after: false });
      return sha256 === row.sha256 ? 'same' : 'changed';
    } catch (error) {
      if (error instanceof ContainmentError || errorCode(error) === 'ENOENT') return 'gone';
      throw error;
    }
  }

  /**
   * The file changed after it was taken and its credential is issued: the proof (of the content
   * that was issued) gets a note beside it saying so, the file is not moved to done/, and it is
   * taken again as a new file.
   */
  private async supersede(row: FileRow): Promise<void> {
    const folder = this.core.folderOf(row);
    const message = `${row.rel_path} changed after it was taken: credential ${row.credential_uid} was issued for its earlier content (sha256 ${row.sha256}), so this proof is superseded. The file was not moved to ${DONE_DIR}/; its new content is taken as a new file.`;
    await writeAtomic(
      fitPath(row.proof_path!, '.superseded.json'),
      `${JSON.stringify({ id: 'superseded', message, when: new Date(this.core.clock.now()).toISOString(), file: row.rel_path, sha256: row.sha256, credential_uid: row.credential_uid, proof: row.proof_path }, null, 2)}\n`,
    );
    this.core.warn(message);
    this.core.rows.save(row, { state: 'moved', final_path: null, error_message: message, closed_at: this.core.clock.now() });
    this.core.count('issued');
    this.core.options.onEvent?.({ type: 'issued', folder: folder.root, path: row.rel_path, proof: row.proof_path!, credential_uid: row.credential_uid! });
    // Taken again right away as a new file (not only at the next rescan).
    this.core.untrack(row);
    this.core.settler.hear(folder, row.rel_path);
  }
}
