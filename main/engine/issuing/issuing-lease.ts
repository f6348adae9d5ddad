/**
 * The issuing lease: which one process issues for a database (signs, sends, follows jobs),
 * however many share it — the app and `watch` on one data directory, or several `serve` nodes.
 * The holder renews it at every scheduler tick; when the holder dies, another process takes it
 * once it has expired (LEASE_MS), or at once when the holder ran on the same node and its
 * process is gone. Every new holder gets a higher token, and a transaction is stored only while
 * the storing process is not locked out by another holder (`fence`), so a holder that lost the
 * lease (paused past its expiry, say) stores nothing more; the new holder sends the transactions
 * already stored, never a second one for the same job.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isProcessAlive } from '../../process/is-process-alive.js';
import { inWriteLock, type Db } from '../database.js';
import { cached } from '../list-query.js';
import { forShare } from '../store/dialect.js';

/** How long a lease lasts without renewal: a dead holder's work resumes elsewhere within this and a tick. */
export const LEASE_MS = 10_000;

/** A held lease is written again only once less than this is left: a tick every 100 ms need not write. */
const RENEW_WHEN_LEFT_MS = (LEASE_MS * 2) / 3;

interface LeaseRow {
  holder: string;
  node: string;
  pid: number;
  token: number;
  taken_date: number;
  expires: number;
}

/** Another holder has the lease: this process must not issue. */
export class IssuingElsewhereError extends Error {
  override readonly name = 'IssuingElsewhereError';
}

/** The node's name in the lease: PROOFDESK_NODE_NAME (a container's or unit's name), else the host name. */
export function nodeName(): string {
  return process.env.PROOFDESK_NODE_NAME || hostname();
}

export class IssuingLease {
  /** This lease holder: the node, the process, and this engine within it. */
  private readonly holder: string;
  private readonly node: string;
  /** The token while this holds the lease. */
  private token: number | undefined;

  constructor(
    private readonly db: Db,
    /** Wall-clock time: a lease is about processes being alive, not about a test's clock. */
    private readonly now: () => number = Date.now,
    node = nodeName(),
  ) {
    this.node = node;
    this.holder = `${node}/${process.pid}/${randomUUID()}`;
  }

  private row(lock = ''): LeaseRow | undefined {
    return cached(this.db, `SELECT holder, node, pid, token, taken_date, expires FROM issuing_lease WHERE id = 1${lock}`).get() as LeaseRow | undefined;
  }

  /** Whether another holder's lease still keeps this one out. */
  private locksOut(row: LeaseRow | undefined, now: number): boolean {
    if (row === undefined || row.holder === this.holder || row.expires <= now) return false;
    // A holder of this node whose process is gone (killed, crashed) is not waited for.
    return !(row.node === this.node && row.pid !== process.pid && !isProcessAlive(row.pid));
  }

  /** Takes the lease, or renews it when this holds it; false while another live holder has it. */
  acquire(): boolean {
    const seen = this.row();
    if (this.token !== undefined && seen?.holder === this.holder && seen.token === this.token && seen.expires - this.now() > RENEW_WHEN_LEFT_MS) return true;
    return inWriteLock(this.db, () => {
      const now = this.now();
      const row = this.row();
      if (this.locksOut(row, now)) {
        this.token = undefined;
        return false;
      }
      if (row !== undefined && row.holder === this.holder && row.token === this.token) {
        cached(this.db, 'UPDATE issuing_lease SET expires = ? WHERE id = 1').run(now + LEASE_MS);
        return true;
      }
      const token = (row?.token ?? 0) + 1;
      cached(
        this.db,
        `INSERT INTO issuing_lease (id, holder, node, pid, token, taken_date, expires) VALUES (1, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, node = excluded.node, pid = excluded.pid, token = excluded.token,
           taken_date = excluded.taken_date, expires = excluded.expires`,
      ).run(this.holder, this.node, process.pid, token, now, now + LEASE_MS);
      this.token = token;
      return true;
    });
  }

  /** The holder that keeps this process from issuing now, or undefined. */
  heldElsewhere(): string | undefined {
    const row = this.row();
    return this.locksOut(row, this.now()) ? row!.holder : undefined;
  }

  /** The node whose process holds the lease now (this one's, when it is this process), or undefined when none does. */
  leaderNode(): string | undefined {
    const row = this.row();
    if (row === undefined) return undefined;
    if (row.holder === this.holder) return this.heldHere ? this.node : undefined;
    return this.locksOut(row, this.now()) ? row.node : undefined;
  }

  /** Whether this holds the lease (as of its last renewal). */
  get heldHere(): boolean {
    const row = this.row();
    return this.token !== undefined && row?.holder === this.holder && row.token === this.token && row.expires > this.now();
  }

  /**
   * Throws IssuingElsewhereError when another holder's lease keeps this process out. Called in
   * the database transaction that stores a signed transaction: the check and the write are one.
   */
  fence(): void {
    // The row stays as read until the storing transaction ends: a node taking the lease meanwhile
    // waits for it, and then finds the stored transaction to send.
    const row = this.row(forShare(this.db));
    if (this.locksOut(row, this.now())) throw new IssuingElsewhereError(`Issuing runs in ${row!.holder}; this process stores no transaction`);
  }

  /** Whether the database is still open (an engine closing under a timer). */
  get databaseOpen(): boolean {
    return this.db.open;
  }

  /** Gives the lease up (its token stays, so the next holder's is higher). */
  release(): void {
    if (this.token === undefined) return;
    cached(this.db, 'UPDATE issuing_lease SET expires = 0 WHERE id = 1 AND holder = ? AND token = ?').run(this.holder, this.token);
    this.token = undefined;
  }
}
