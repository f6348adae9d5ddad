/**
 * The one way to verify many proofs in one process, for the CLI's `verify PROOF... | DIR` and
 * the app's Verify view: the chains asked once per engine and chain id, every chain read that
 * proofs share (registry, root, transaction, block) asked once per run and the anchoring they
 * share decided once (VerifyOptions.share), the per-leaf revocations from the registry's logs or
 * in JSON-RPC batches (verify-revocation-batch), everything offline (reading, parsing,
 * shape, leaf hash, Merkle path, Ed25519) done on worker threads in batches ahead of the chain
 * steps (verify-offline-pool; its workers shared by the runs one after another), Verifiable
 * Credentials' Data Integrity proofs checked on worker threads too (vc-pool), and many
 * proofs in flight at once so that all of it overlaps.
 * Each proof still goes through the six steps of verifyChecked, the code of verifyProof: the
 * results are those of one proof verified alone.
 */
import type { Address } from '../../chain/index.js';
import { checkOffline, type OfflineInput, type OfflineOutcome } from './verify-offline.js';
import { vcPool } from '../vc/vc-pool.js';
import { borrowOfflinePool } from './verify-offline-pool.js';
import { settledMemo } from './settled-memo.js';
import type { ChainReader, ChainUnavailable, VerifyOptions } from './verify-proof.js';

/** Proofs in flight at once: overlaps chain round trips. */
export const VERIFY_CONCURRENCY = 128;
/** From this many proofs the offline checks go to worker threads (fewer are quicker on this thread). */
export const OFFLINE_POOL_FROM = 64;
/** Proofs per message to a worker: few messages, and the first results come soon. */
export const OFFLINE_BATCH = 100;
/** Batches given to each worker at once: it starts the next while the answer of one travels. */
const BATCHES_PER_WORKER = 2;

export interface VerifyingRun {
  /** The options to verify each proof of the run with (chains cached, signatures pooled). */
  options: VerifyOptions;
  /** Calls `work` for indices 0..count-1, VERIFY_CONCURRENCY at a time, until done or `signal` aborts. */
  each(count: number, work: (index: number) => Promise<void>, signal?: { readonly aborted: boolean }): Promise<void>;
  /**
   * Starts checking `inputs` offline, in order, in batches (on worker threads for a large run);
   * answers each one's outcome by index. Ask for them in about that order: a proof's outcome is
   * ready when the batches before it are. Ask once: a batch is let go when all its proofs' were.
   */
  checkAll(inputs: readonly OfflineInput[]): (index: number) => Promise<OfflineOutcome>;
  close(): Promise<void>;
}

/**
 * A run over `count` proofs with `base`'s chains and settings.
 *
 * @example
 * const run = openVerifyingRun(chains.verifyOptions(), paths.length);
 * const outcome = run.checkAll(paths.map((path) => ({ path })));
 * try { await run.each(paths.length, async (i) => void (results[i] = await verifyOutcome(await outcome(i), run.options))); } finally { await run.close(); }
 */
export function openVerifyingRun(base: VerifyOptions, count: number): VerifyingRun {
  const borrowed = count >= OFFLINE_POOL_FROM ? borrowOfflinePool() : undefined;
  const pool = borrowed?.pool;
  // Once the run is closed (done, cancelled, failed) no more of its batches go to the shared workers.
  let closed = false;
  const readers = settledMemo();
  const options: VerifyOptions = {
    ...base,
    // A large run's Verifiable Credentials are checked on worker threads too (started only if it has any).
    ...(borrowed ? { checkDataIntegrity: vcPool().dataIntegrityHolds } : {}),
    // What proofs of one batch have in common on chain is computed once per run (a failure is not kept).
    share: settledMemo(),
    // A failed connection is not kept: the next proof tries again.
    chainFor: (engine, chainId) =>
      readers(`${engine}:${chainId}`, (): Promise<ChainReader | ChainUnavailable | undefined> =>
        Promise.resolve(base.chainFor(engine, chainId)).then((found) => (found && !('reason' in found) ? cachedReader(found) : found)),
      ),
  };
  return {
    options,
    async each(total, work, signal) {
      let next = 0;
      const lane = async () => {
        while (next < total && !signal?.aborted) await work(next++);
      };
      await Promise.all(Array.from({ length: Math.min(VERIFY_CONCURRENCY, total) }, lane));
    },
    checkAll(inputs) {
      if (!pool) return (index) => (index < inputs.length ? Promise.resolve().then(() => checkOffline(inputs[index]!)) : Promise.reject(new RangeError(`No proof ${index}`)));
      const batches: (Promise<OfflineOutcome[]> | undefined)[] = [];
      const starters: (() => void)[] = [];
      for (let at = 0; at < inputs.length; at += OFFLINE_BATCH) {
        const slice = inputs.slice(at, at + OFFLINE_BATCH);
        const batch = new Promise<void>((start) => starters.push(start)).then(() => pool.check(slice));
        // A run cancelled (or failed) before asking for a batch leaves it unread: not an unhandled rejection.
        batch.catch(() => undefined);
        batches.push(batch);
      }
      // BATCHES_PER_WORKER × workers out at once, the next sent whenever any is back (the pool
      // gives it to the least busy worker): a worker done early never waits on a slower one's.
      let started = 0;
      const startNext = () => {
        if (!closed && started < starters.length) starters[started++]!();
      };
      for (const batch of batches) void batch!.finally(startNext).catch(() => undefined);
      for (let b = 0; b < pool.size * BATCHES_PER_WORKER; b++) startNext();
      // A batch is let go once each of its outcomes was asked for: a run does not hold every
      // proof's outcome until its end (the garbage collector would copy them again and again).
      const unasked = batches.map((_, b) => Math.min(OFFLINE_BATCH, inputs.length - b * OFFLINE_BATCH));
      const asked = new Uint8Array(inputs.length);
      return async (index) => {
        const b = Math.floor(index / OFFLINE_BATCH);
        const batch = batches[b];
        if (!batch) throw new RangeError(index >= 0 && index < inputs.length ? `Proof ${index} was handed out already` : `No proof ${index}`);
        if (asked[index] === 0) {
          asked[index] = 1;
          if (--unasked[b]! === 0) batches[b] = undefined;
        }
        return (await batch)[index % OFFLINE_BATCH]!;
      };
    },
    close: async () => {
      closed = true;
      borrowed?.release();
    },
  };
}

/**
 * The chain reads of one run, each asked once: 10,000 proofs of one job share their registry,
 * root, transaction and block, so only the per-proof revocation of the leaf is asked 10,000
 * times. A run lasts seconds; what changes on chain meanwhile shows in the next run. A failed
 * read is not kept.
 */
export function cachedReader(reader: ChainReader): ChainReader {
  const once = settledMemo();
  return {
    chainId: reader.chainId,
    readRegistry: (address) => once(`registry:${address}`, () => reader.readRegistry(address)),
    issuedAt: (address, root) => once(`issued:${address}:${root}`, () => reader.issuedAt(address, root)),
    revokedAt: (address, hash) => once(`revoked:${address}:${hash}`, () => reader.revokedAt(address, hash)),
    getReceipt: (hash) => once(`receipt:${hash}`, () => reader.getReceipt(hash)),
    confirmations: (hash) => once(`confirmations:${hash}`, () => reader.confirmations(hash)),
    blockTimestamp: (block) => once(`block:${block}`, () => reader.blockTimestamp(block)),
    getTransaction: (hash) => once(`tx:${hash}`, () => reader.getTransaction(hash)),
    ...(reader.transactionCount ? { transactionCount: (address: Address) => once(`count:${address}`, () => reader.transactionCount!(address)) } : {}),
    ...(reader.finalizedBlockNumber ? { finalizedBlockNumber: () => once('finalized', () => reader.finalizedBlockNumber!()) } : {}),
    ...(reader.genesisHash ? { genesisHash: () => once('genesis', () => reader.genesisHash!()) } : {}),
  };
}
