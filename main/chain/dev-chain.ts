/**
 * Calls that only exist on the local dev chain (anvil): funding accounts and mining blocks.
 * Guarded twice, by chain id and by the node's client version, so no configuration mistake can
 * send them to a real network.
 */
import { createTestClient, type Address, type TestClient } from 'viem';
import type { ChainContext } from './chain-context.js';
import { ChainError } from './errors.js';

/** Chain id of the embedded dev chain (anvil's default; the `local` engine). */
export const LOCAL_CHAIN_ID = 31337;

/** Throws unless the context's node is an anvil on an allowed dev chain id. */
export async function assertDevChain(ctx: ChainContext, what: string): Promise<void> {
  if (!ctx.devChainIds.includes(ctx.chainId)) throw new ChainError(`${what} is only available on the local dev chain (chain id ${ctx.devChainIds.join(' or ')}), not on chain id ${ctx.chainId}`);
  const version = await ctx.client.request({ method: 'web3_clientVersion' });
  if (!/anvil/i.test(String(version))) throw new ChainError(`${what} is only available on the local dev chain; ${ctx.rpcUrl} is ${String(version)}`);
}

function anvilClient(ctx: ChainContext): TestClient<'anvil'> {
  return createTestClient({ mode: 'anvil', transport: ctx.transport, cacheTime: 0 });
}

/** Adds `weiAmount` to the balance of `address` and returns the new balance. */
export async function fundAccount(ctx: ChainContext, address: Address, weiAmount: bigint): Promise<bigint> {
  if (weiAmount < 0n) throw new RangeError('weiAmount must not be negative');
  await assertDevChain(ctx, 'fund()');
  const balance = (await ctx.client.getBalance({ address })) + weiAmount;
  await anvilClient(ctx).setBalance({ address, value: balance });
  return balance;
}

/** Mines `blocks` empty blocks (all at the current time, so the chain clock does not drift) and returns the new head block number. */
export async function mineBlocks(ctx: ChainContext, blocks = 1): Promise<bigint> {
  if (!Number.isSafeInteger(blocks) || blocks < 1) throw new RangeError('blocks must be a positive integer');
  await assertDevChain(ctx, 'mine()');
  await anvilClient(ctx).mine({ blocks });
  return ctx.client.getBlockNumber({ cacheTime: 0 });
}

/** Mines the next block at exactly `seconds` (Unix time; not earlier than the head block's). */
export async function setNextBlockTimestamp(ctx: ChainContext, seconds: number): Promise<void> {
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new RangeError('seconds must be a non-negative integer');
  await assertDevChain(ctx, 'setNextBlockTimestamp()');
  await ctx.client.request({ method: 'evm_setNextBlockTimestamp' as never, params: [seconds] as never });
}

/** Sets the chain's clock to `seconds` (Unix time): blocks after it are mined at the time from there. */
export async function setChainTime(ctx: ChainContext, seconds: number): Promise<void> {
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new RangeError('seconds must be a non-negative integer');
  await assertDevChain(ctx, 'setTime()');
  await ctx.client.request({ method: 'evm_setTime' as never, params: [seconds] as never });
}
