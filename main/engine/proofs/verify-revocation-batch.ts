/**
 * The registry's `revokedAt(hash)` for many proofs at once. Verifying a folder of 10,000 proofs
 * of one job asks every other chain read once (they share their root), but the revocation of
 * each proof's own leaf 10,000 times: one HTTP request each cost more than all the offline
 * checks together. Reads asked within one turn of the event loop go out as one JSON-RPC batch
 * (the standard array form every Ethereum node serves) of plain `eth_call`s.
 *
 * Only a value read in the batch is taken from it. Anything else — a node that refuses batches,
 * a timeout, an error for one call — is asked again alone through the ChainClient, so errors
 * (unreachable, no registry at the address) are exactly those of the single read.
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import type { Address, ChainClient, Hex } from '../../chain/index.js';
import { REGISTRY_ABI } from '../../chain/registry-artifact.js';

/** Reads per JSON-RPC request: hosted nodes commonly cap a batch at 100 to 1,000. */
export const REVOCATION_BATCH = 100;

/**
 * `revokedAt` of a client, batched: viem's HTTP transport gathers the calls made in one turn of
 * the event loop into one JSON-RPC request of up to REVOCATION_BATCH calls. A call that fails
 * in the batch (for whatever reason) is asked again alone through the client.
 */
export function batchedRevokedAt(client: ChainClient): (address: Address, hash: Hex) => Promise<bigint> {
  let batched: PublicClient | undefined;
  return (address, hash) =>
    ((batched ??= createPublicClient({ transport: http(client.rpcUrl, { batch: { batchSize: REVOCATION_BATCH, wait: 0 }, timeout: client.timeoutMs, retryCount: 0 }), cacheTime: 0 }) as PublicClient).readContract({ address, abi: REGISTRY_ABI, functionName: 'revokedAt', args: [hash] }) as Promise<bigint>).then(
      (value) => (typeof value === 'bigint' ? value : client.revokedAt(address, hash)),
      () => client.revokedAt(address, hash),
    );
}
