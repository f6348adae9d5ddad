/**
 * The registry's `revokedAt(hash)` for many proofs at once. Verifying a folder of 10,000 proofs
 * of one job asks every other chain read once (they share their root), but the revocation of
 * each proof's own leaf 10,000 times: one HTTP request each cost more than all the offline
 * checks together. Reads asked within one turn of the event loop go out as one JSON-RPC batch
 * (the standard array form every Ethereum node serves) of plain `eth_call`s.
 *
 * The calls are written and read here, not through viem's contract calls: the calldata is the
 * selector and the hash, the answer one 32-byte word, and viem's encoding, decoding and
 * per-call promises cost the main thread more than the node took to answer.
 *
 * Only a value read in the batch is taken from it. Anything else — a node that refuses batches,
 * a timeout, an error for one call, an answer that is not one word — is asked again alone
 * through the ChainClient, so errors (unreachable, no registry at the address) are exactly
 * those of the single read.
 */
import { toFunctionSelector } from 'viem';
import type { Address, ChainClient, Hex } from '../../chain/index.js';

/** Reads per JSON-RPC request: hosted nodes commonly cap a batch at 100 to 1,000. */
export const REVOCATION_BATCH = 100;

const WORD = /^0x[0-9a-fA-F]{64}$/;
let selector: string | undefined;

interface Read {
  address: Address;
  hash: Hex;
  resolve(value: bigint): void;
  reject(error: unknown): void;
}

/**
 * `revokedAt` of a client, batched: the calls made in one turn of the event loop go out as
 * JSON-RPC requests of up to REVOCATION_BATCH calls. A call that fails in the batch (for
 * whatever reason) is asked again alone through the client.
 */
export function batchedRevokedAt(client: ChainClient): (address: Address, hash: Hex) => Promise<bigint> {
  let queue: Read[] = [];
  const alone = (read: Read) => client.revokedAt(read.address, read.hash).then(read.resolve, read.reject);

  const send = async (batch: Read[]): Promise<void> => {
    selector ??= toFunctionSelector('function revokedAt(bytes32)');
    const body = JSON.stringify(batch.map((r, id) => ({ jsonrpc: '2.0', id, method: 'eth_call', params: [{ to: r.address, data: `${selector}${r.hash.slice(2)}` }, 'latest'] })));
    let answers: unknown = null;
    try {
      const response = await fetch(client.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(client.timeoutMs) });
      if (response.ok) answers = await response.json();
    } catch {
      // Unreachable, timed out, not JSON: each read is asked alone, which says why.
    }
    const byId = new Map<unknown, { result?: unknown }>();
    if (Array.isArray(answers)) for (const a of answers as { id?: unknown; result?: unknown }[]) if (a && typeof a === 'object') byId.set(a.id, a);
    batch.forEach((read, id) => {
      const result = byId.get(id)?.result;
      if (typeof result === 'string' && WORD.test(result)) read.resolve(BigInt(result));
      else void alone(read);
    });
  };

  const flush = () => {
    const all = queue;
    queue = [];
    for (let at = 0; at < all.length; at += REVOCATION_BATCH) void send(all.slice(at, at + REVOCATION_BATCH));
  };

  return (address, hash) =>
    new Promise<bigint>((resolve, reject) => {
      if (queue.length === 0) setTimeout(flush, 0);
      queue.push({ address, hash, resolve, reject });
    });
}
