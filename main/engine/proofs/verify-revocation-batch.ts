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
 * A run asking many leaves of one registry first reads the registry's logs, once: a hash never
 * revoked has no `Revoked(hash)` event, so "which of these are revoked" is one eth_getLogs, and
 * only the hashes it names are asked with eth_call (for revokedAt's own time). The logs are
 * trusted only when they are complete: they must hold the registry's `SigningKeySet` event,
 * which its constructor emits once and nothing emits again — a node that pruned old logs drops
 * the oldest first, so with the first event there, every later one is too. A node that refuses
 * eth_getLogs, caps its range or its results (an error), or answers without that event is
 * asked with the batched eth_calls instead, as is a registry asked for only a few hashes and a
 * chain longer than REVOCATION_LOGS_MAX_BLOCKS.
 *
 * Only a value read in the batch is taken from it. Anything else — a node that refuses batches,
 * a timeout, an error for one call, an answer that is not one word — is asked again alone
 * through the ChainClient, so errors (unreachable, no registry at the address) are exactly
 * those of the single read.
 */
import { toEventSelector, toFunctionSelector } from 'viem';
import type { Address, ChainClient, Hex } from '../../chain/index.js';

/** Reads per JSON-RPC request: hosted nodes commonly cap a batch at 100 to 1,000. */
export const REVOCATION_BATCH = 100;

/** From this many reads of one registry in one turn, its logs are read (fewer: the eth_calls cost less). */
export const REVOCATION_LOGS_FROM = 64;
/**
 * The logs are read from block 0 (the registry's first event must be in the answer), so only on
 * a chain this short: a local or young chain answers at once, where a long one (a public
 * network's node without a range cap) could scan for longer than the eth_calls take.
 */
export const REVOCATION_LOGS_MAX_BLOCKS = 1_000_000n;

const WORD = /^0x[0-9a-fA-F]{64}$/;
let selector: string | undefined;
let topics: { revoked: string; keySet: string } | undefined;

type JsonRpcAnswer = { id?: unknown; result?: unknown };

/** POSTs one JSON-RPC body; the parsed answer, or null when the node does not answer one (why is not needed: the caller falls back). */
async function post(client: ChainClient, body: unknown): Promise<unknown> {
  try {
    const response = await fetch(client.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(client.timeoutMs) });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/**
 * The hashes (lowercase 0x hex) ever revoked on the registry at `address`, from its logs; null
 * when the node does not answer them or they are not complete (no constructor event).
 */
export async function revokedFromLogs(client: ChainClient, address: Address): Promise<Set<string> | null> {
  topics ??= { revoked: toEventSelector('event Revoked(bytes32 indexed hash)'), keySet: toEventSelector('event SigningKeySet(bytes32 signingKey)') };
  const height = ((await post(client, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })) as JsonRpcAnswer | null)?.result;
  if (typeof height !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(height) || BigInt(height) > REVOCATION_LOGS_MAX_BLOCKS) return null;
  const answer = (await post(client, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ address, fromBlock: '0x0', toBlock: height, topics: [[topics.keySet, topics.revoked]] }] })) as JsonRpcAnswer | null;
  const logs = answer?.result;
  if (!Array.isArray(logs)) return null;
  const revoked = new Set<string>();
  let complete = false;
  for (const log of logs as { address?: unknown; topics?: unknown; removed?: unknown }[]) {
    // Anything but the registry's own logs means the answer is not what was asked: not trusted.
    if (typeof log !== 'object' || log === null || typeof log.address !== 'string' || log.address.toLowerCase() !== address.toLowerCase() || !Array.isArray(log.topics)) return null;
    if (log.removed === true) continue;
    const [topic, hash] = log.topics as unknown[];
    if (topic === topics.keySet) complete = true;
    else if (topic === topics.revoked && typeof hash === 'string' && WORD.test(hash)) revoked.add(hash.toLowerCase());
    else return null;
  }
  return complete ? revoked : null;
}

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

  // Per registry, for the reader's life (one verification run): its revoked hashes, or null (not usable).
  const fromLogs = new Map<string, Promise<Set<string> | null>>();
  // The same once read: a read of a hash they do not name is answered at once (no timer, no queue).
  const settled = new Map<string, Set<string>>();

  const send = async (batch: Read[]): Promise<void> => {
    selector ??= toFunctionSelector('function revokedAt(bytes32)');
    // Unreachable, timed out, not JSON (null): each read is asked alone, which says why.
    const answers = await post(
      client,
      batch.map((r, id) => ({ jsonrpc: '2.0', id, method: 'eth_call', params: [{ to: r.address, data: `${selector}${r.hash.slice(2)}` }, 'latest'] })),
    );
    const byId = new Map<unknown, JsonRpcAnswer>();
    if (Array.isArray(answers)) for (const a of answers as JsonRpcAnswer[]) if (a && typeof a === 'object') byId.set(a.id, a);
    batch.forEach((read, id) => {
      const result = byId.get(id)?.result;
      if (typeof result === 'string' && WORD.test(result)) read.resolve(BigInt(result));
      else void alone(read);
    });
  };

  const sendAll = (reads: Read[]) => {
    for (let at = 0; at < reads.length; at += REVOCATION_BATCH) void send(reads.slice(at, at + REVOCATION_BATCH));
  };

  /** The reads of one registry: those its logs show never revoked are 0n; the others are asked. */
  const answer = async (address: Address, reads: Read[]): Promise<void> => {
    const key = address.toLowerCase();
    let logs = fromLogs.get(key);
    if (!logs && reads.length >= REVOCATION_LOGS_FROM) {
      fromLogs.set(key, (logs = revokedFromLogs(client, address)));
      void logs.then((revoked) => revoked && settled.set(key, revoked));
    }
    const revoked = logs ? await logs : null;
    if (!revoked) return sendAll(reads);
    const asked: Read[] = [];
    for (const read of reads) {
      if (revoked.has(read.hash.toLowerCase())) asked.push(read);
      else read.resolve(0n);
    }
    sendAll(asked);
  };

  const flush = () => {
    const all = queue;
    queue = [];
    const byRegistry = new Map<string, Read[]>();
    for (const read of all) {
      const reads = byRegistry.get(read.address);
      if (reads) reads.push(read);
      else byRegistry.set(read.address, [read]);
    }
    for (const reads of byRegistry.values()) void answer(reads[0]!.address, reads);
  };

  return (address, hash) => {
    // After the first batch of a run, this is every read of a registry whose logs are known.
    const revoked = settled.get(address.toLowerCase());
    if (revoked && !revoked.has(hash.toLowerCase())) return Promise.resolve(0n);
    return new Promise<bigint>((resolve, reject) => {
      if (queue.length === 0) setTimeout(flush, 0);
      queue.push({ address, hash, resolve, reject });
    });
  };
}
