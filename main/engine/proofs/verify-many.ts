/**
 * The one way to verify many proofs in one process, for the CLI's `verify PROOF... | DIR` and
 * the app's Verify view: the chains asked once per engine and chain id, every chain read that
 * proofs share (registry, root, transaction, block) asked once per run, the per-leaf revocation
 * reads sent in JSON-RPC batches (verify-chain-reader), the Ed25519 signatures checked on worker
 * threads in packed batches, and many proofs in flight at once so that all of it overlaps.
 * Each proof is still verified by verifyProof, step by step: the results are those of one proof
 * verified alone.
 */
import { SignaturePool } from './verify-signature-pool.js';
import type { ChainReader, ChainUnavailable, VerifyOptions } from './verify-proof.js';

/** Proofs in flight at once: overlaps chain round trips and keeps the signature workers busy. */
export const VERIFY_CONCURRENCY = 128;
/** From this many proofs the signatures go to worker threads (fewer are quicker on this thread). */
export const SIGNATURE_POOL_FROM = 64;

export interface VerifyingRun {
  /** The options to verify each proof of the run with (chains cached, signatures pooled). */
  options: VerifyOptions;
  /** Calls `work` for indices 0..count-1, VERIFY_CONCURRENCY at a time, until done or `signal` aborts. */
  each(count: number, work: (index: number) => Promise<void>, signal?: { readonly aborted: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * A run over `count` proofs with `base`'s chains and settings.
 *
 * @example
 * const run = openVerifyingRun(chains.verifyOptions(), paths.length);
 * try { await run.each(paths.length, async (i) => void (results[i] = await verifyProof(read(paths[i]), run.options))); } finally { await run.close(); }
 */
export function openVerifyingRun(base: VerifyOptions, count: number): VerifyingRun {
  const pool = count >= SIGNATURE_POOL_FROM ? new SignaturePool() : undefined;
  const readers = new Map<string, Promise<ChainReader | ChainUnavailable | undefined>>();
  const options: VerifyOptions = {
    ...base,
    checkSignature: pool?.check ?? base.checkSignature,
    chainFor: (engine, chainId) => {
      const key = `${engine}:${chainId}`;
      let reader = readers.get(key);
      if (!reader) {
        reader = Promise.resolve(base.chainFor(engine, chainId)).then((found) => (found && !('reason' in found) ? cachedReader(found) : found));
        // A failed connection is not kept: the next proof tries again.
        reader.catch(() => readers.delete(key));
        readers.set(key, reader);
      }
      return reader;
    },
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
    close: async () => void (await pool?.close()),
  };
}

/**
 * The chain reads of one run, each asked once: 10,000 proofs of one job share their registry,
 * root, transaction and block, so only the per-proof revocation of the leaf is asked 10,000
 * times. A run lasts seconds; what changes on chain meanwhile shows in the next run. A failed
 * read is not kept.
 */
export function cachedReader(reader: ChainReader): ChainReader {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let value = memo.get(key) as Promise<T> | undefined;
    if (!value) {
      value = read();
      value.catch(() => memo.delete(key));
      memo.set(key, value);
    }
    return value;
  };
  return {
    chainId: reader.chainId,
    readRegistry: (address) => once(`registry:${address}`, () => reader.readRegistry(address)),
    issuedAt: (address, root) => once(`issued:${address}:${root}`, () => reader.issuedAt(address, root)),
    revokedAt: (address, hash) => once(`revoked:${address}:${hash}`, () => reader.revokedAt(address, hash)),
    getReceipt: (hash) => once(`receipt:${hash}`, () => reader.getReceipt(hash)),
    confirmations: (hash) => once(`confirmations:${hash}`, () => reader.confirmations(hash)),
    blockTimestamp: (block) => once(`block:${block}`, () => reader.blockTimestamp(block)),
    getTransaction: (hash) => once(`tx:${hash}`, () => reader.getTransaction(hash)),
    ...(reader.genesisHash ? { genesisHash: () => once('genesis', () => reader.genesisHash!()) } : {}),
  };
}
