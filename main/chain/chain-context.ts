/**
 * What every chain function works with: a viem public client for one RPC endpoint whose chain
 * id has been checked. Built by ChainClient.connect; the functions beside it take it first.
 */
import type { PublicClient, Transport } from 'viem';
import type { RPC_ACTIONS } from './chain-client.js';

/** The calls of a viem public client the chain functions make (chain-client.ts builds it with these alone). */
export type ChainRpc = Pick<PublicClient, keyof typeof RPC_ACTIONS | 'request'>;

export interface ChainContext {
  /** viem client with caching off (a cached block number would freeze confirmations). */
  client: ChainRpc;
  /** The client's transport, for the dev-only test client. */
  transport: Transport;
  rpcUrl: string;
  /** The chain id the node reported at connect, equal to the configured one. */
  chainId: number;
  /** Chain ids on which dev-only calls (fund, mine) are allowed. */
  devChainIds: readonly number[];
}
