/**
 * main/chain: blockchain engines. EVM chains through viem (ChainClient) and the local dev chain
 * (anvil). Everything the engine needs is exported here; the files beside are implementation.
 */
export { startAnvil, type AnvilNode, type StartAnvilParameters } from './anvil.js';
export { dumpStateViaRpc, persistAnvilState } from './anvil-snapshots.js';
export { resolveAnvilBinary } from './anvil-binary.js';
export { findRunningAnvil, isProcessAlive } from './anvil-lock.js';
export { ChainClient, type ChainHead } from './chain-client.js';
export { feesOf } from './sign-transaction.js';
export type { TransactionReceiptSummary } from './transaction-status.js';
export type { RegistryInfo } from './registry-reads.js';
export { encodeDeploy, encodeIssue, encodeRevoke } from './registry-calls.js';
export { accountFromPrivateKey, generatePrivateKey } from './accounts.js';
export {
  BelowBaseFeeError,
  ChainError,
  ChainMismatchError,
  FeeAboveCapError,
  RateLimitedError,
  ReplacementUnderpricedError,
  formatAmount,
  ChainUnreachableError,
  InsufficientFundsError,
  KeyInUseElsewhereError,
  NonceConflictError,
  RegistryNotFoundError,
  TransactionRevertedError,
} from './errors.js';
export { parseGwei, type Address, type Hex } from 'viem';
