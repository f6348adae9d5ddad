import { BaseError, HttpRequestError, RpcRequestError, TimeoutError, encodeErrorResult, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { BelowBaseFeeError, ChainError, ChainUnreachableError, FeeAboveCapError, InsufficientFundsError, RateLimitedError, ReplacementUnderpricedError, TransactionRevertedError } from './errors.js';
import { revertReason, toChainError } from './normalize-error.js';

const ctx = { rpcUrl: 'http://127.0.0.1:8545' };

function rpcError(code: number, message: string, data?: string): RpcRequestError {
  return new RpcRequestError({ body: {}, error: { code, message, data }, url: ctx.rpcUrl });
}

describe('toChainError', () => {
  it('maps transport failures to ChainUnreachableError, keeping the cause', () => {
    const refused = new HttpRequestError({ url: ctx.rpcUrl, details: 'fetch failed', cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const error = toChainError(refused, ctx);
    expect(error).toBeInstanceOf(ChainUnreachableError);
    expect(error.cause).toBe(refused);
    expect(toChainError(new TimeoutError({ body: {}, url: ctx.rpcUrl }), ctx)).toBeInstanceOf(ChainUnreachableError);
    expect(toChainError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), ctx)).toBeInstanceOf(ChainUnreachableError);
  });

  it('recognises the node messages for an account that cannot pay', () => {
    for (const message of ['Insufficient funds for gas * price + value', 'insufficient funds for gas * price + value: balance 0', 'sender doesn\'t have enough funds to send tx']) {
      const error = toChainError(rpcError(-32003, message), { ...ctx, from: '0x0000000000000000000000000000000000000001' });
      expect(error).toBeInstanceOf(InsufficientFundsError);
      expect((error as InsufficientFundsError).address).toBe('0x0000000000000000000000000000000000000001');
    }
  });

  it('decodes revert reasons from revert data or from the message', () => {
    const data = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['already issued'] });
    const fromData = toChainError(rpcError(3, 'execution reverted', data), ctx);
    expect(fromData).toBeInstanceOf(TransactionRevertedError);
    expect((fromData as TransactionRevertedError).reason).toBe('already issued');
    expect(revertReason(rpcError(-32000, 'execution reverted: not owner'))).toBe('not owner');
    expect((toChainError(rpcError(-32000, 'execution reverted'), ctx) as TransactionRevertedError).reason).toBeUndefined();
  });

  it('wraps anything else in a ChainError and passes ChainErrors through', () => {
    const odd = toChainError(new BaseError('something odd'), ctx);
    expect(odd.constructor).toBe(ChainError);
    expect(odd.cause).toBeInstanceOf(BaseError);
    const own = new InsufficientFundsError(undefined);
    expect(toChainError(own, ctx)).toBe(own);
    expect(toChainError('a string', ctx)).toBeInstanceOf(ChainError);
  });
});

describe('toChainError: the failures a sender waits out, by name', () => {
  it('below base fee, from the messages of geth and anvil', () => {
    for (const message of ['max fee per gas less than block base fee: address 0x1, maxFeePerGas: 1 baseFee: 2', 'max fee per gas less than block base fee']) {
      expect(toChainError(rpcError(-32000, message), ctx)).toMatchObject({ name: 'BelowBaseFeeError', code: 'below_base_fee' });
    }
    expect(toChainError(rpcError(-32000, 'max fee per gas less than block base fee'), ctx)).toBeInstanceOf(BelowBaseFeeError);
  });

  it('a pending competitor at the nonce: replacement underpriced', () => {
    const error = toChainError(rpcError(-32000, 'replacement transaction underpriced'), { ...ctx, hash: `0x${'ab'.repeat(32)}` });
    expect(error).toBeInstanceOf(ReplacementUnderpricedError);
    expect(error).toMatchObject({ code: 'replacement_underpriced', hash: `0x${'ab'.repeat(32)}` });
  });

  it('rate limited: HTTP 429 with Retry-After in seconds or as a date, and JSON-RPC -32005', () => {
    const limited = (retryAfter?: string) =>
      new HttpRequestError({ url: ctx.rpcUrl, status: 429, details: 'Too Many Requests', headers: new Headers(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) });
    expect(toChainError(limited('3'), ctx)).toMatchObject({ name: 'RateLimitedError', code: 'rate_limited', retryAfterMs: 3000 });
    expect(toChainError(limited(), ctx)).toMatchObject({ code: 'rate_limited', retryAfterMs: undefined });
    const later = (toChainError(limited(new Date(Date.now() + 60_000).toUTCString()), ctx) as RateLimitedError).retryAfterMs!;
    expect(later).toBeGreaterThan(55_000);
    expect(later).toBeLessThanOrEqual(60_000);
    expect(toChainError(rpcError(-32005, 'daily request count exceeded, request rate limited'), ctx)).toBeInstanceOf(RateLimitedError);
    // Any other HTTP error status is still "unreachable".
    expect(toChainError(new HttpRequestError({ url: ctx.rpcUrl, status: 502, details: 'Bad Gateway' }), ctx)).toBeInstanceOf(ChainUnreachableError);
  });

  it('says how much an account needs and what the fee cap waits for', () => {
    const funds = new InsufficientFundsError('0x0000000000000000000000000000000000000001', { needed: 2_000_000_000_000_000n, balance: 1000n });
    expect(funds.shortMessage).toBe(
      'Account 0x0000000000000000000000000000000000000001 has insufficient funds to pay for the transaction: it needs 0.002 (2000000000000000 wei) (gas × max fee) and holds 0.000000000000001 (1000 wei)',
    );
    expect(new FeeAboveCapError(50_000_000_000n, 81_500_000_000n).shortMessage).toBe('waiting for fees below 50 gwei (now 81.5)');
  });
});

describe('ChainError', () => {
  it('has a stable name and code per class, and a short message without details', () => {
    const error = new ChainUnreachableError('http://x', { details: 'fetch failed' });
    expect(error).toMatchObject({ name: 'ChainUnreachableError', code: 'chain_unreachable', details: 'fetch failed', rpcUrl: 'http://x' });
    expect(error.shortMessage).toBe('Chain RPC endpoint http://x is unreachable');
    expect(error.message).toContain('fetch failed');
    expect(error).toBeInstanceOf(ChainError);
  });
});
