import { ServiceError } from '../../../common/errors.js';
import {
  BelowBaseFeeError,
  ChainUnreachableError,
  FeeAboveCapError,
  InsufficientFundsError,
  KeyInUseElsewhereError,
  NonceConflictError,
  RateLimitedError,
  ReplacementUnderpricedError,
  formatAmount,
  parseGwei,
  type ChainClient,
  type ChainHead,
  type Hex,
  type TransactionReceiptSummary,
} from '../../chain/index.js';
import { DEFAULT_FEE_CAP_GWEI, DEFAULT_REPLACE_AFTER_BLOCKS } from '../engine-catalog.js';
import { inTransaction } from '../database.js';
import { diskFullError, isDiskFull } from '../disk-full.js';
import { cached } from '../list-query.js';
import { ChainPace, UNREACHABLE_AFTER_MS } from './chain-pace.js';
import { ChainStateLostError, loadTx, sendTx, settleTx, signAndStore, type ChainTx, type ReplacementPolicy } from './chain-txs.js';
import { buildJobCertificates } from './certificate-builder.js';
import { Exclusive } from './exclusive.js';
import { LOCAL_FUNDING_WEI, LOCAL_LOW_WATER_WEI } from './local-funding.js';
import type { IssuingContext } from './issuing-context.js';
import { ensurePartnerKeys, loadChainKey } from './partner-keys.js';
import { followMined } from './follow-mined.js';
import { recordJobFinished, recordJobMined } from './job-dates.js';
import { NonceUnsettledError, nodeSaid, resolveTakenNonce } from './taken-nonce.js';
import { ensureRegistry, registryAddress } from './registry.js';
import { stage } from '../stage-timing.js';

/**
 * Gas of `issue(root)` when it cannot be estimated yet (no registry deployed): 44,899 measured on
 * anvil, with the signing headroom on top.
 */
export const ISSUE_GAS_ALLOWANCE = 60_000n;

/** Block times from which a transaction just sent is not looked for in the same step. */
const SETTLE_AT_ONCE_BELOW_MS = 1_000;

interface JobRow {
  id: number;
  uid: string;
  partner_id: string;
  engine: string;
  status: 'scheduled' | 'started' | 'unconfirmed' | 'finished' | 'failed';
  root: string | null;
  issue_tx: number | null;
}

/**
 * Another process sharing the data directory got there first: throwing inside signAndStore's
 * transaction drops our signed transaction before it is ever sent.
 */
export function claim(changes: number, what: string): void {
  if (changes === 0) throw new Error(`Another process is already issuing this ${what}`);
}


/**
 * Moves jobs through DESIGN.md's states: scheduled → started → unconfirmed → finished, or
 * failed. Every step is idempotent and resumes from what is stored, so after a crash the same
 * job picks up where it stopped — with the same signed transaction, never a second nonce.
 */
export class JobIssuer {
  private readonly exclusive = new Exclusive();
  /** How often each engine's chain may be asked while work waits, and the backoff after errors. */
  readonly pace: ChainPace;
  /** Stored transactions whose nonce another holder of the key was said loudly to hold (said once each). */
  private readonly saidElsewhere = new Set<number>();
  /** Accounts an immediate issue has claimed, from its checks until its job is sent. */
  private readonly claimed = new Set<string>();

  constructor(
    private readonly ctx: IssuingContext,
    /** The clock of the pace (default: the wall clock). */
    paceClock?: () => number,
  ) {
    this.pace = new ChainPace((engine) => {
      const seconds = this.ctx.chains.config(engine).block_time_s;
      return seconds === undefined ? undefined : seconds * 1000;
    }, paceClock);
  }

  /** Whether another live process holds the issuing lease (then issuing is its). */
  issuingElsewhere(): boolean {
    return this.ctx.lease.heldElsewhere() !== undefined;
  }

  private job(id: number): JobRow {
    return cached(this.ctx.db, 'SELECT id, uid, partner_id, engine, status, root, issue_tx FROM jobs WHERE id = ?').get(id) as JobRow;
  }

  /** Whether this Partner's account is busy issuing on the engine. */
  isBusy(partnerId: string, engine: string): boolean {
    const key = `${partnerId}:${engine}`;
    return (
      this.claimed.has(key) ||
      this.exclusive.isBusy(key) ||
      cached(this.ctx.db, "SELECT 1 FROM jobs WHERE partner_id = ? AND engine = ? AND status = 'started'").get(partnerId, engine) !== undefined
    );
  }

  /**
   * Runs `task` with the account claimed: a second caller asking meanwhile is told it is busy,
   * even while `task` is still checking balances, before its job has started. Returns false
   * (and runs nothing) when the account is busy already.
   */
  async whileClaimed(partnerId: string, engine: string, task: () => Promise<void>): Promise<boolean> {
    if (this.isBusy(partnerId, engine)) return false;
    const key = `${partnerId}:${engine}`;
    this.claimed.add(key);
    try {
      await task();
      return true;
    } finally {
      this.claimed.delete(key);
    }
  }

  /** Uids of the scheduled job's credentials whose expiry date has passed (they must not be issued). */
  expiredCredentials(jobId: number): string[] {
    return cached(
      this.ctx.db,
      'SELECT c.uid FROM job_credentials jc JOIN credentials c ON c.id = jc.credential_id WHERE jc.job_id = ? AND jc.active = 1 AND c.expiry_date IS NOT NULL AND c.expiry_date <= ? ORDER BY c.id',
    )
      .pluck()
      .all(jobId, this.ctx.clock.now()) as string[];
  }

  /**
   * Takes the credentials that expired while scheduled out of the job (they stay as credentials,
   * unscheduled) and returns an `invalid_expiry_date` error naming them, or undefined when none did.
   */
  dropExpired(jobId: number): ServiceError | undefined {
    const expired = this.expiredCredentials(jobId);
    if (expired.length === 0) return undefined;
    inTransaction(this.ctx.db, () => {
      const remove = cached(this.ctx.db, 'DELETE FROM job_credentials WHERE job_id = ? AND credential_id = (SELECT id FROM credentials WHERE uid = ?)');
      for (const uid of expired) remove.run(jobId, uid);
    });
    return new ServiceError('invalid_expiry_date', `${expired.length} credential(s) expired before their job was issued and were taken out of it, not issued: ${expired.join(', ')}`);
  }

  /**
   * Freezes a scheduled job's credentials and marks it started; new schedules open a new job.
   * `empty_credential_list` for a job with no credentials.
   */
  start(jobId: number): void {
    inTransaction(this.ctx.db, () => {
      if (!cached(this.ctx.db, 'SELECT 1 FROM job_credentials WHERE job_id = ? AND active = 1').get(jobId)) {
        throw new ServiceError('empty_credential_list', 'The scheduled job has no credentials to issue');
      }
      cached(this.ctx.db, "UPDATE jobs SET status = 'started', start_date = ? WHERE id = ? AND status = 'scheduled'").run(this.ctx.clock.now(), jobId);
    });
  }

  /** The Partner's connected chain, keys and (on the local chain) funds. */
  async prepare(partnerId: string, engine: string): Promise<{ client: ChainClient; chainKey: Hex; identity: Awaited<ReturnType<typeof ensurePartnerKeys>> }> {
    const identity = await ensurePartnerKeys(this.ctx.db, this.ctx.secrets, partnerId);
    const chainKey = await loadChainKey(this.ctx.secrets, partnerId);
    const client = await this.ctx.chains.client(engine);
    if (engine === 'local' && (await client.balanceOf(identity.address)) < LOCAL_LOW_WATER_WEI) await client.fund(identity.address, LOCAL_FUNDING_WEI);
    return { client, chainKey, identity };
  }

  /** How the engine's stuck transactions are replaced: its fee cap and patience, the Partner's key. */
  replacement(engine: string, privateKey: Hex): ReplacementPolicy {
    const config = this.ctx.chains.config(engine);
    return {
      privateKey,
      maxFeeCap: this.feeCap(engine),
      replaceAfterBlocks: config.replace_after_blocks ?? DEFAULT_REPLACE_AFTER_BLOCKS,
      minesOnDemand: this.ctx.chains.isLocal(engine),
      clock: this.ctx.clock,
    };
  }

  /** The engine's fee cap in wei per gas. */
  feeCap(engine: string): bigint {
    return parseGwei(String(this.ctx.chains.config(engine).fee_cap_gwei ?? DEFAULT_FEE_CAP_GWEI));
  }

  /**
   * Checks, before a job starts, that the Partner's account can pay for its transactions at
   * today's fees: the registry deployment when there is none yet, and the issue (gas × max fee).
   * Short, it throws `insufficient_funds` naming the account and the amount; fees above the
   * engine's cap throw `try_again_later` saying so. The job is left as it is (scheduled), and
   * its note says why it waits.
   */
  async checkFunds(jobId: number, partnerId: string, engine: string): Promise<void> {
    // The job starts right after these checks when its funds suffice: the signer threads start
    // now, while the chain is asked, rather than when its first payloads are ready to sign.
    this.ctx.signer.start();
    const { client, identity } = await this.prepare(partnerId, engine);
    const registry = registryAddress(this.ctx, partnerId, engine);
    const deployed = cached(this.ctx.db, 'SELECT 1 FROM registries WHERE partner_id = ? AND engine = ?').get(partnerId, engine) !== undefined;
    const calls = registry
      ? [{ to: registry, data: client.encodeIssue(`0x${'ff'.repeat(32)}`) }]
      : [...(deployed ? [] : [{ data: client.encodeDeploy(`0x${identity.signingPublicKey}`) }]), { data: '0x' as Hex, gas: ISSUE_GAS_ALLOWANCE }];
    let cost: { needed: bigint; balance: bigint };
    try {
      cost = await client.estimateCost(identity.address, calls, this.feeCap(engine));
    } catch (error) {
      if (error instanceof FeeAboveCapError) {
        this.note(jobId, error.shortMessage);
        throw new ServiceError('try_again_later', `Fees on ${engine} are above its cap: ${error.shortMessage}`, { cause: error });
      }
      throw error;
    }
    if (cost.balance < cost.needed) {
      const message = `The partner's account ${identity.address} holds ${formatAmount(cost.balance)} on ${engine}; issuing needs at least ${formatAmount(cost.needed)} (gas × max fee)`;
      this.note(jobId, `waiting for funds: ${message}`);
      throw new ServiceError('insufficient_funds', message);
    }
  }

  /** Says why a job is not moving (shown with the job), or clears it with null. */
  note(jobId: number, waiting: string | null): void {
    cached(this.ctx.db, 'UPDATE jobs SET waiting = ? WHERE id = ? AND waiting IS DISTINCT FROM ?').run(waiting, jobId, waiting);
  }

  /**
   * A job that could not get as far as a signed transaction (a full disk while its certificates
   * were built) goes back to `scheduled`, so nothing is left `started` behind the user's back —
   * unless a new open job was made meanwhile (then it stays started and resumes on the next round).
   */
  private unstart(jobId: number): void {
    try {
      inTransaction(this.ctx.db, () => {
        const job = this.job(jobId);
        if (job.status !== 'started' || job.issue_tx !== null) return;
        if (cached(this.ctx.db, "SELECT 1 FROM jobs WHERE partner_id = ? AND engine = ? AND status = 'scheduled'").get(job.partner_id, job.engine)) return;
        cached(this.ctx.db, 'DELETE FROM certificates WHERE job_id = ?').run(jobId);
        cached(this.ctx.db, "UPDATE jobs SET status = 'scheduled', start_date = NULL, root = NULL WHERE id = ?").run(jobId);
        cached(this.ctx.db, 'DELETE FROM job_proof_parts WHERE job_id = ?').run(jobId);
      });
    } catch {
      // The disk is too full even for this: the job resumes from `started` on the next round.
    }
  }

  /**
   * Takes a started or unconfirmed job as far as it can go now, without waiting for blocks.
   * A chain that cannot be reached leaves the job as it is, for the next try.
   */
  advance(jobId: number, head?: ChainHead): Promise<void> {
    if (this.issuingElsewhere()) return Promise.resolve();
    const job = this.job(jobId);
    // A job with a transaction out waits out the backoff after errors.
    if (job.issue_tx !== null && !this.pace.ready(job.engine)) return Promise.resolve();
    return this.exclusive.run(`${job.partner_id}:${job.engine}`, async () => {
      try {
        await this.step(jobId, head);
        this.note(jobId, null);
        this.pace.answered(job.engine);
      } catch (error) {
        this.paceAfter(jobId, job.engine, error);
        // The nonce is used, or a pending transaction holds it: find out by what, never fail for it.
        if (error instanceof NonceConflictError || error instanceof ReplacementUnderpricedError) {
          await this.takenNonce(jobId, error);
          return;
        }
        if (error instanceof InsufficientFundsError) {
          // Never failed (nor its credentials released) for want of funds: it waits to be funded.
          this.note(jobId, `waiting for funds: ${error.shortMessage}`);
          this.unstart(jobId);
          throw error;
        }
        if (error instanceof FeeAboveCapError) {
          this.note(jobId, error.shortMessage);
          return;
        }
        if (error instanceof RateLimitedError || error instanceof BelowBaseFeeError) {
          this.note(jobId, `waiting: ${error.shortMessage}`);
          return;
        }
        // Reconnecting reconciles: the chain answering again, or one that lost what was recorded.
        if (error instanceof ChainUnreachableError || error instanceof ChainStateLostError) {
          this.ctx.chains.forget(job.engine);
          return;
        }
        if (isDiskFull(error)) {
          this.unstart(jobId);
          throw diskFullError(this.ctx.dataDir, undefined, error);
        }
        cached(this.ctx.db, 'UPDATE jobs SET failure = ? WHERE id = ?').run(String((error as Error).message ?? error), jobId);
        throw error;
      }
    });
  }

  /**
   * The chain refused a broadcast of the job's transaction (its issue, or its registry's
   * deployment): its nonce is used, or held by a pending transaction (taken-nonce.ts). One of its own variants
   * is adopted; a transaction signed elsewhere is waited for, named on the job ("another Proofdesk
   * is using this key") and said once loudly; once that one is final the job's transaction is
   * given up and the job signs again at the next free nonce (its root is never issued twice:
   * the registry is asked first). Its credentials stay with it throughout.
   */
  private async takenNonce(jobId: number, refusal: NonceConflictError | ReplacementUnderpricedError): Promise<void> {
    const hash = refusal.hash;
    const txId = hash === undefined ? undefined : (cached(this.ctx.db, 'SELECT tx_id FROM chain_tx_variants WHERE hash = ?').pluck().get(hash) as number | undefined);
    if (txId === undefined) {
      this.note(jobId, 'waiting: another transaction holds this account\'s nonce');
      return;
    }
    const job = this.job(jobId);
    const tx = loadTx(this.ctx.db, txId);
    const registry = registryAddress(this.ctx, job.partner_id, job.engine);
    const anchor = tx.purpose === 'issue' && registry && job.root ? { registry, root: job.root as Hex } : undefined;
    try {
      const taken = await resolveTakenNonce(this.ctx, job.engine, await this.ctx.chains.client(job.engine), tx, nodeSaid(refusal), anchor);
      if (taken.outcome === 'released') this.signAgain(tx, taken.holder);
      else if (taken.outcome === 'settled') cached(this.ctx.db, 'UPDATE jobs SET issue_tx = ? WHERE id = ?').run(taken.txId, jobId);
    } catch (error) {
      if (error instanceof KeyInUseElsewhereError) {
        this.note(jobId, error.shortMessage);
        if (!this.saidElsewhere.has(tx.id)) {
          this.saidElsewhere.add(tx.id);
          this.ctx.notice(`WARNING: job ${job.uid} on ${job.engine}: ${error.shortMessage}. Run one issuing instance per key.`);
        }
        return;
      }
      if (error instanceof NonceUnsettledError) {
        this.note(jobId, `waiting: ${error.message}`);
        return;
      }
      if (error instanceof ChainUnreachableError) {
        this.ctx.chains.forget(job.engine);
        return;
      }
      throw error;
    }
  }

  /**
   * A transaction given up because a transaction signed elsewhere (`holder`) took its nonce for
   * good: its job goes back to `started` without a transaction (keeping its certificates and
   * credentials) and signs again at the next free nonce; a deployment is forgotten, to be made
   * again. Said once, loudly.
   */
  signAgain(tx: ChainTx, holder: Hex): void {
    const jobs = inTransaction(this.ctx.db, () => {
      if (tx.purpose === 'deploy') cached(this.ctx.db, 'DELETE FROM registries WHERE deploy_tx = ?').run(tx.id);
      const ids = cached(this.ctx.db, "SELECT uid FROM jobs WHERE issue_tx = ? AND status <> 'failed'").pluck().all(tx.id) as string[];
      cached(
        this.ctx.db,
        "UPDATE jobs SET status = 'started', issue_tx = NULL, issued_date = NULL, finished_date = NULL, waiting = NULL WHERE issue_tx = ? AND status IN ('started', 'unconfirmed', 'finished')",
      ).run(tx.id);
      return ids;
    });
    const what = tx.purpose === 'deploy' ? 'the registry is deployed again' : `job ${jobs.join(', ')} signs again`;
    this.ctx.notice(
      `WARNING: another Proofdesk is using the key of account ${tx.sender} on ${tx.engine}: its transaction ${holder} took nonce ${tx.nonce} (now final), so ${tx.hash} can never be mined; ${what} at the next free nonce. Run one issuing instance per key.`,
    );
  }

  /** The backoff after a failed look; a job waiting on an endpoint silent for 30 s says so. */
  private paceAfter(jobId: number, engine: string, error: unknown): void {
    if (error instanceof RateLimitedError) {
      this.pace.failed(engine, { retryAfterMs: error.retryAfterMs });
    } else if (error instanceof ChainUnreachableError) {
      this.pace.failed(engine, { unreachable: true });
      const silent = this.pace.silentFor(engine);
      if (silent >= UNREACHABLE_AFTER_MS) this.note(jobId, `waiting: the RPC endpoint of ${engine} has not answered for ${Math.floor(silent / 1000)} s`);
    }
  }

  /** `head`: the chain's head as this round saw it (asked again when absent). */
  private async step(jobId: number, head?: ChainHead): Promise<void> {
    let job = this.job(jobId);
    if (job.status !== 'started' && job.status !== 'unconfirmed') return;
    const { client, chainKey, identity } = await stage('chain checks', () => this.prepare(job.partner_id, job.engine));
    if (job.status === 'started') {
      if (job.root === null) {
        const partnerName = cached(this.ctx.db, 'SELECT name FROM partners WHERE id = ?').pluck().get(job.partner_id) as string;
        await buildJobCertificates(this.ctx, { id: job.id, engine: job.engine, partnerId: job.partner_id, partnerName }, identity);
        job = this.job(jobId);
      }
      const registry = await stage('transaction', () => ensureRegistry(this.ctx, client, job.partner_id, job.engine, identity, chainKey, this.replacement(job.engine, chainKey)));
      if (!registry) return;
      if (job.issue_tx === null) {
        const tx = await stage('transaction', () => signAndStore(
          this.ctx.db,
          this.ctx.clock,
          client,
          { engine: job.engine, sender: identity.address, privateKey: chainKey, purpose: 'issue', to: registry, data: client.encodeIssue(job.root as Hex), maxFeeCap: this.feeCap(job.engine) },
          (txId) => {
            this.ctx.lease.fence();
            claim(cached(this.ctx.db, 'UPDATE jobs SET issue_tx = ? WHERE id = ? AND issue_tx IS NULL').run(txId, jobId).changes, 'job');
          },
        ));
        await stage('transaction', async () => {
          await this.mineNotBeforeStart(jobId, job.engine, client);
          await sendTx(this.ctx.db, client, tx);
        });
        // A chain that mines blocks at intervals has no receipt a moment after sending: the
        // next block's round asks. One that mines on demand (the local chain) has, at once.
        if (!this.ctx.chains.isLocal(job.engine) && this.pace.blockMs(job.engine) >= SETTLE_AT_ONCE_BELOW_MS) return;
        job = this.job(jobId);
      } else {
        const stored = loadTx(this.ctx.db, job.issue_tx);
        // Signed and not sent yet, or sent and lost with the chain's unsaved blocks (a crash right
        // after the broadcast): it goes out in this step, and its block must not predate the start.
        if (stored.state === 'signed' || (stored.state === 'sent' && this.ctx.chains.isLocal(job.engine) && !(await client.isKnown(stored.hash)))) {
          await this.mineNotBeforeStart(jobId, job.engine, client);
        }
      }
      const tx = await stage('confirmation', () => settleTx(this.ctx.db, client, loadTx(this.ctx.db, job.issue_tx!), () => this.ctx.chains.persist(job.engine), this.replacement(job.engine, chainKey), head));
      if (tx.state === 'reverted' || tx.state === 'dropped') {
        this.fail(jobId, `The issuing transaction ${tx.hash} was ${tx.state}`);
        return;
      }
      if (tx.state !== 'mined') return;
      // Guarded by the status: a job failed meanwhile (its credentials released) stays failed.
      recordJobMined(this.ctx.db, jobId, tx.mined_date!);
      // The receipt just read says where it is: following it needs no second read.
      await stage('confirmation', () => this.followToFinal(jobId, job.engine, client, head, tx.receipt));
      return;
    }
    await stage('confirmation', () => this.followToFinal(jobId, job.engine, client, head));
  }

  /**
   * Re-checks a job whose transaction is mined (unconfirmed, or finished lately) against the chain
   * now (followToFinal). A chain that does not answer, or no longer holds the transaction, drops
   * the connection: the next one reconciles (re-sends it from its stored signed copy).
   */
  follow(jobId: number, head?: ChainHead): Promise<void> {
    const job = this.job(jobId);
    return this.exclusive.run(`${job.partner_id}:${job.engine}`, async () => {
      try {
        await this.followToFinal(jobId, job.engine, await this.ctx.chains.client(job.engine), head);
      } catch (error) {
        if (error instanceof ChainUnreachableError || error instanceof ChainStateLostError) {
          this.ctx.chains.forget(job.engine);
          return;
        }
        throw error;
      }
    });
  }

  /**
   * An unconfirmed (or recently finished) job's transaction, as the chain holds it now: moved
   * blocks are recorded (follow-mined.ts), and the job is finished once its block is final.
   */
  async followToFinal(jobId: number, engine: string, client: ChainClient, head?: ChainHead, receipt?: TransactionReceiptSummary): Promise<void> {
    const { issue_tx: txId, status } = this.job(jobId);
    if (txId === null || (status !== 'unconfirmed' && status !== 'finished')) return;
    const followed = await followMined(this.ctx, engine, client, jobId, txId, { head, receipt });
    // Recorded as mined, yet not in the chain (lost blocks, a reorg): reconnecting reconciles.
    if (followed.state === 'lost') throw new ChainStateLostError(engine, `transaction ${loadTx(this.ctx.db, txId).hash} is no longer mined`);
    if (followed.state === 'reverted') {
      this.fail(jobId, `The issuing transaction ${loadTx(this.ctx.db, txId).hash} reverted when the chain re-included it`, true);
      return;
    }
    // Blocks were replaced: the jobs finished before this one are re-checked too (chain-watch.ts).
    if (followed.moved) this.pace.sawReorg(engine);
    if (followed.progress.final) recordJobFinished(this.ctx.db, jobId, this.ctx.clock.now());
  }

  /**
   * A job's issued_date is its block's time, in whole seconds: mined in the second the job
   * started, it would read earlier than start_date (20:12:47.000 vs 20:12:47.437). The local
   * chain mines that block now by our clock, and at the next whole second when that is the
   * second the job started in. anvil's own clock is not trusted for it: it runs behind ours by
   * the time anvil took to start (its genesis time was taken before) and, after a restart, from
   * the last block it saved. Other chains keep their own clock (see docs/chain.md).
   */
  private async mineNotBeforeStart(jobId: number, engine: string, client: ChainClient): Promise<void> {
    if (!this.ctx.chains.isLocal(engine)) return;
    const start = cached(this.ctx.db, 'SELECT start_date FROM jobs WHERE id = ?').pluck().get(jobId) as number | null;
    // A clock far ahead of the chain's (a test's) is left alone.
    if (start === null || start - Date.now() > 2000) return;
    const head = Math.floor((await client.blockTimestamp(await client.blockNumber())).getTime() / 1000);
    await client.setNextBlockTimestamp(Math.max(Math.ceil(start / 1000), Math.floor(Date.now() / 1000), head));
  }

  /**
   * Fails a job: its credentials are released (they can be scheduled again) and its unanchored
   * certificates go. `evenFinished` also fails a finished job, for a chain that lost its
   * transaction beyond recovery.
   */
  fail(jobId: number, reason: string, evenFinished = false): void {
    inTransaction(this.ctx.db, () => {
      const from = evenFinished ? "('started', 'unconfirmed', 'finished')" : "('started', 'unconfirmed')";
      cached(this.ctx.db, `UPDATE jobs SET status = 'failed', failed_date = ?, failure = ? WHERE id = ? AND status IN ${from}`).run(this.ctx.clock.now(), reason, jobId);
      cached(this.ctx.db, 'UPDATE job_credentials SET active = 0 WHERE job_id = ?').run(jobId);
      cached(this.ctx.db, 'DELETE FROM certificates WHERE job_id = ?').run(jobId);
    });
  }

  // Nodes sharing a database may have different engines (engines.json, the local chain's home):
  // a job on an engine this node does not have is left for one that has it, never touched here.
  /** Jobs under way (started or unconfirmed) on engines this node has, oldest first. */
  activeJobs(): number[] {
    const rows = cached(this.ctx.db, "SELECT id, engine FROM jobs WHERE status IN ('started', 'unconfirmed') ORDER BY id").all() as { id: number; engine: string }[];
    return rows.filter((r) => this.ctx.chains.knows(r.engine)).map((r) => r.id);
  }

  /** Scheduled jobs due now on engines this node has, oldest first. */
  dueJobs(): { id: number; partner_id: string; engine: string; empty: boolean; waiting: string | null }[] {
    return (
      cached(
        this.ctx.db,
        "SELECT j.id, j.partner_id, j.engine, j.waiting, NOT EXISTS (SELECT 1 FROM job_credentials jc WHERE jc.job_id = j.id AND jc.active = 1) AS empty FROM jobs j WHERE j.status = 'scheduled' AND j.scheduled_date <= ? ORDER BY j.id",
      ).all(this.ctx.clock.now()) as { id: number; partner_id: string; engine: string; waiting: string | null; empty: number }[]
    )
      .filter((r) => this.ctx.chains.knows(r.engine))
      .map((r) => ({ ...r, empty: r.empty === 1 }));
  }

  /** An empty job that came due waits one more interval instead of issuing nothing. */
  postpone(jobId: number): void {
    cached(this.ctx.db, 'UPDATE jobs SET scheduled_date = ? + (SELECT issuing_interval_s FROM partners p WHERE p.id = jobs.partner_id) * 1000 WHERE id = ?').run(this.ctx.clock.now(), jobId);
  }
}
