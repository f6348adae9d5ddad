/**
 * A ChainReader (what verification reads on chain) over a connected ChainClient: a plain object
 * delegating to the client, so that it can be spread or partly replaced (tests do) and exposes
 * nothing but reads. Every method is bounded by the client's timeout and throws only ChainError
 * subclasses (ChainUnreachableError when the endpoint does not answer).
 */
import type { ChainClient } from '../../chain/index.js';
import type { ChainReader } from './verify-proof.js';

/** Wraps `client` as a ChainReader. */
export function chainReaderFor(client: ChainClient): ChainReader {
  // Loaded on the first revocation read only: it brings viem, which `verify --offline` never needs.
  let batched: Promise<ChainReader['revokedAt']> | undefined;
  return {
    chainId: client.chainId,
    readRegistry: (address) => client.readRegistry(address),
    issuedAt: (address, root) => client.issuedAt(address, root),
    // Many proofs verified at once ask one JSON-RPC batch, not one request each.
    revokedAt: async (address, hash) => (await (batched ??= import('./verify-revocation-batch.js').then((m) => m.batchedRevokedAt(client))))(address, hash),
    getReceipt: (hash) => client.getReceipt(hash),
    confirmations: (hash) => client.confirmations(hash),
    blockTimestamp: (blockNumber) => client.blockTimestamp(blockNumber),
    finalizedBlockNumber: () => client.finalizedBlockNumber(),
    transactionCount: (address) => client.minedNonce(address),
    genesisHash: () => client.genesisHash(),
    getTransaction: async (hash) => {
      const tx = await client.getTransaction(hash);
      return tx && { to: tx.to, input: tx.input };
    },
  };
}
