/** Read-only calls on a registry: who owns it, which key it binds, what it issued and revoked. */
import { ContractFunctionZeroDataError, getAbiItem, type Address, type Hex } from 'viem';
import type { ChainContext } from './chain-context.js';
import { RegistryNotFoundError } from './errors.js';
import { causeChain, isRevert, isTransportFailure } from './normalize-error.js';
import { assertBytes32 } from './registry-calls.js';
import { REGISTRY_ABI } from './registry-artifact.js';

const ISSUED_EVENT = getAbiItem({ abi: REGISTRY_ABI, name: 'Issued' });

export interface RegistryInfo {
  /** The Partner's chain account that deployed the registry. */
  owner: Address;
  /** The Partner's Ed25519 certificate-signing public key bound to `owner`. */
  signingKey: Hex;
}

type ViewName = 'owner' | 'signingKey' | 'isIssued' | 'issuedAt' | 'isRevoked' | 'revokedAt';

/** Calls a view; an address without a registry (no code, or a revert) throws RegistryNotFoundError. */
async function view(ctx: ChainContext, address: Address, functionName: ViewName, args: readonly [Hex] | readonly [], blockNumber?: bigint): Promise<unknown> {
  try {
    return await ctx.client.readContract({ address, abi: REGISTRY_ABI, functionName, args, blockNumber } as Parameters<typeof ctx.client.readContract>[0]);
  } catch (error) {
    if (!isTransportFailure(error) && (causeChain(error).some((e) => e instanceof ContractFunctionZeroDataError) || isRevert(error))) throw new RegistryNotFoundError(address, { cause: error });
    throw error;
  }
}

/** Owner and signing key of the registry at `address`. */
export async function readRegistry(ctx: ChainContext, address: Address): Promise<RegistryInfo> {
  const [owner, signingKey] = await Promise.all([view(ctx, address, 'owner', []), view(ctx, address, 'signingKey', [])]);
  return { owner: owner as Address, signingKey: signingKey as Hex };
}

/** Whether `root` was issued on the registry. */
export async function readIsIssued(ctx: ChainContext, address: Address, root: Hex): Promise<boolean> {
  assertBytes32(root, 'root');
  return (await view(ctx, address, 'isIssued', [root])) as boolean;
}

/** Block timestamp (Unix seconds) at which `root` was issued; 0n when it was not. `blockNumber`: as of that block (default: the head). */
export async function readIssuedAt(ctx: ChainContext, address: Address, root: Hex, blockNumber?: bigint): Promise<bigint> {
  assertBytes32(root, 'root');
  return (await view(ctx, address, 'issuedAt', [root], blockNumber)) as bigint;
}

/** The transaction that issued `root` on the registry between blocks `fromBlock` and `toBlock`; null when none did. */
export async function findIssuingTransaction(ctx: ChainContext, address: Address, root: Hex, fromBlock: bigint, toBlock: bigint): Promise<Hex | null> {
  assertBytes32(root, 'root');
  const logs = await ctx.client.getLogs({ address, event: ISSUED_EVENT, args: { root }, fromBlock, toBlock });
  return logs[0]?.transactionHash ?? null;
}

/** Whether `hash` (a root or a leaf) was revoked on the registry. */
export async function readIsRevoked(ctx: ChainContext, address: Address, hash: Hex): Promise<boolean> {
  assertBytes32(hash, 'hash');
  return (await view(ctx, address, 'isRevoked', [hash])) as boolean;
}

/** Block timestamp (Unix seconds) at which `hash` was revoked; 0n when it was not. */
export async function readRevokedAt(ctx: ChainContext, address: Address, hash: Hex): Promise<bigint> {
  assertBytes32(hash, 'hash');
  return (await view(ctx, address, 'revokedAt', [hash])) as bigint;
}
