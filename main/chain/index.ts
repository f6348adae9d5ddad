/**
 * main/chain: blockchain engines. EVM chains through viem (ChainClient) and the local dev chain
 * (anvil). Everything the engine needs is exported here; the files beside are implementation.
 */
export { startAnvil, type AnvilNode, type AnvilExit, type StartAnvilParameters } from './anvil.js';
export { dumpStateViaRpc } from './anvil-snapshots.js';
export { persistAnvilState } from './anvil-durable-state.js';
export { findRunningAnvil, type AnvilLockRecord } from './anvil-lock.js';
export type { AnvilStateOrigin } from './anvil-state-file.js';
export { resolveAnvilBinary } from './anvil-binary.js';
export { isProcessAlive } from './anvil-lock.js';
export { ChainClient, DEFAULT_CHAIN_TIMEOUT_MS, type ChainHead, type ConnectChainParameters } from './chain-client.js';
export { REPLACEMENT_BUMP_PERCENT, feesOf, maxCost, type SignTransactionRequest, type SignedTransaction, type TransactionFees } from './sign-transaction.js';
export type { TransactionReceiptSummary, TransactionSummary } from './transaction-status.js';
export type { RegistryInfo } from './registry-reads.js';
export type { NonceHolder } from './nonce-holder.js';
export { encodeDeploy, encodeIssue, encodeRevoke } from './registry-calls.js';
export { REGISTRY_ABI, REGISTRY_BYTECODE, REGISTRY_BUILD } from './registry-artifact.js';
export { LOCAL_CHAIN_ID } from './dev-chain.js';
export { accountFromPrivateKey, generatePrivateKey, type PrivateKeyAccount } from './accounts.js';
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
  type ChainErrorCode,
  type ChainErrorOptions,
} from './errors.js';
export { parseGwei, type Address, type Hex } from 'viem';
