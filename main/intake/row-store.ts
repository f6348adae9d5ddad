/**
 * The open journal rows of folder intake, in memory: each row once, found by id, by its path in
 * its folder or by its content, with the names chosen for originals and proofs and the count of
 * rows per state kept as they change. Every change to a row goes through save() (journaled with
 * the next group commit) or remember() (journaled with the row's next save), so the indexes and
 * counts never disagree with the rows.
 */
import type { Clock } from '../engine/clock.js';
import { FILE_STATES, type FileRow, type FileState, type Journal, type SameContentRow } from './journal.js';

/** The key of a path in a folder (`discovered`, `refused` and the rows by path share it). */
export function pathKey(folderId: number, rel: string): string {
  return `${folderId}\0${rel}`;
}

export class RowStore {
  private readonly rows = new Map<number, FileRow>();
  private readonly byPath = new Map<string, number>();
  /** Open rows by content (target and SHA-256), to tell an identical file ahead of another. */
  private readonly byContent = new Map<string, Set<number>>();
  /** Rows with changes not yet journaled (see remember). */
  private readonly unsaved = new Map<number, Set<string>>();
  private readonly reservedPaths = new Set<string>();
  private readonly counts = Object.fromEntries(FILE_STATES.map((s) => [s, 0])) as Record<FileState, number>;
  private readonly reachedCounts = Object.fromEntries(FILE_STATES.map((s) => [s, 0])) as Record<FileState, number>;

  constructor(
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  get(id: number): FileRow | undefined {
    return this.rows.get(id);
  }

  has(id: number): boolean {
    return this.rows.has(id);
  }

  values(): IterableIterator<FileRow> {
    return this.rows.values();
  }

  /** The open row of a path in a folder. */
  idAt(key: string): number | undefined {
    return this.byPath.get(key);
  }

  /** Paths chosen for originals (done/, failed/, duplicate/) and proofs of open rows: no other file gets them. */
  get reserved(): ReadonlySet<string> {
    return this.reservedPaths;
  }

  reserve(...paths: string[]): void {
    for (const path of paths) this.reservedPaths.add(path);
  }

  /** Open rows per state (the status line asks often). */
  get stateCounts(): Readonly<Record<FileState, number>> {
    return this.counts;
  }

  /** How many rows reached each state since start (cumulative: where the time goes, per stage). */
  get reached(): Readonly<Record<FileState, number>> {
    return this.reachedCounts;
  }

  /** Holds an open row (journaled already). */
  add(row: FileRow): void {
    this.countState(undefined, row.state);
    this.rows.set(row.id, row);
    this.indexContent(row);
    this.byPath.set(pathKey(row.folder_id, row.rel_path), row.id);
    if (row.final_path) this.reservedPaths.add(row.final_path);
    if (row.proof_path) this.reservedPaths.add(row.proof_path);
  }

  /** Lets a row go (closed or gone), with its names and its unjournaled changes. */
  delete(row: FileRow): void {
    if (this.rows.get(row.id) === row) this.countState(row.state, undefined);
    this.unsaved.delete(row.id);
    this.unindexContent(row);
    this.rows.delete(row.id);
    this.byPath.delete(pathKey(row.folder_id, row.rel_path));
    if (row.final_path) this.reservedPaths.delete(row.final_path);
    if (row.proof_path) this.reservedPaths.delete(row.proof_path);
  }

  /**
   * Journals changes to a row (and applies them in memory). A row first journaled here (its
   * `hashed` fields were kept in memory only) is written whole.
   */
  save(row: FileRow, changes: Partial<FileRow>): void {
    if (changes.state !== undefined && changes.state !== row.state) this.countState(row.state, changes.state);
    Object.assign(row, changes, { updated_at: this.clock.now() });
    const remembered = this.unsaved.get(row.id);
    this.unsaved.delete(row.id);
    this.journal.queue(row, [...Object.keys(changes), ...(remembered ?? []), 'updated_at']);
  }

  /** A change kept in memory only (it is journaled with the row's next write). */
  remember(row: FileRow, changes: Partial<FileRow>): void {
    if (changes.state !== undefined && changes.state !== row.state) this.countState(row.state, changes.state);
    Object.assign(row, changes);
    let columns = this.unsaved.get(row.id);
    if (!columns) this.unsaved.set(row.id, (columns = new Set()));
    for (const c of Object.keys(changes)) columns.add(c);
  }

  /** Makes the row's content known to sameContent() (once it is hashed). */
  indexContent(row: FileRow): void {
    if (row.sha256 === null) return;
    const key = contentKey(row);
    let ids = this.byContent.get(key);
    if (!ids) this.byContent.set(key, (ids = new Set()));
    ids.add(row.id);
  }

  /** Forgets the row's content (it is hashed again, or its credential withdrawn). */
  unindexContent(row: FileRow): void {
    if (row.sha256 === null) return;
    const ids = this.byContent.get(contentKey(row));
    ids?.delete(row.id);
    if (ids?.size === 0) this.byContent.delete(contentKey(row));
  }

  /**
   * Other rows with the same content and target, in a live state (not failed or duplicate):
   * open ones as they are in memory (ahead of the journal's batched writes), the others as the
   * journal has them.
   */
  sameContent(row: FileRow): SameContentRow[] {
    const found = new Map<number, SameContentRow>();
    // Rows not open here (closed, or of folders this process does not watch) count once they
    // hold a credential: one left `uploading` by a folder no longer watched must not hold this up.
    for (const r of this.journal.sameContent(row.sha256!, row.target, row.id)) {
      if (!this.rows.has(r.id) && r.state !== 'hashed' && r.state !== 'uploading') found.set(r.id, r);
    }
    for (const id of this.byContent.get(contentKey(row)) ?? []) {
      const r = this.rows.get(id);
      if (r && id !== row.id && r.state !== 'failed' && r.state !== 'duplicate' && r.state !== 'seen') found.set(id, r);
    }
    return [...found.values()].sort((a, b) => a.id - b.id);
  }

  private countState(from: FileState | undefined, to: FileState | undefined): void {
    if (from) this.counts[from]--;
    if (to) this.counts[to]++;
    if (to && from !== undefined && to !== from) this.reachedCounts[to]++;
  }
}

function contentKey(row: FileRow): string {
  return `${row.target}\0${row.sha256}`;
}
