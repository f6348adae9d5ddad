/**
 * A ChainReader (what verification reads on chain) over a connected ChainClient. ChainClient has
 * every read verification needs except the transaction itself (its recipient and calldata, to
 * check that the proof's transaction is the registry's `issue(root)`): that one read goes through
 * viem here, to the same RPC URL, bounded by the same timeout, its errors normalised like every
 * ChainClient error (ChainUnreachableError when the endpoint does not answer).
 */
import { TransactionNotFoundError, createPublicClient, http, type PublicClient } from 'viem';
import { ChainUnreachableError, type ChainClient, type Hex } from '../../chain/index.js';
import { toChainError } from '../../chain/normalize-error.js';
import type { ChainReader, ChainTransaction } from './verify-proof.js';

/** Wraps `client` as a ChainReader. */
export function chainReaderFor(client: ChainClient): ChainReader {
  const transport = http(client.rpcUrl, { timeout: client.timeoutMs, retryCount: 2, retryDelay: 100 });
  const viemClient = createPublicClient({ transport, cacheTime: 0 }) as PublicClient;

  async function getTransaction(hash: Hex): Promise<ChainTransaction | null> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChainUnreachableError(client.rpcUrl, { details: `no answer within ${client.timeoutMs} ms` })), client.timeoutMs);
    });
    try {
      const tx = await Promise.race([viemClient.getTransaction({ hash }), deadline]);
      return { to: tx.to ?? null, input: tx.input };
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return null;
      throw toChainError(error, { rpcUrl: client.rpcUrl, hash });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    chainId: client.chainId,
    readRegistry: (address) => client.readRegistry(address),
    issuedAt: (address, root) => client.issuedAt(address, root),
    revokedAt: (address, hash) => client.revokedAt(address, hash),
    getReceipt: (hash) => client.getReceipt(hash),
    confirmations: (hash) => client.confirmations(hash),
    blockTimestamp: (blockNumber) => client.blockTimestamp(blockNumber),
    getTransaction,
  };
}
