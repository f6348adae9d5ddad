import { BaseError, HttpRequestError, RpcRequestError, TimeoutError, encodeErrorResult, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { ChainError, ChainUnreachableError, InsufficientFundsError, TransactionRevertedError } from './errors.js';
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

describe('ChainError', () => {
  it('has a stable name and code per class, and a short message without details', () => {
    const error = new ChainUnreachableError('http://x', { details: 'fetch failed' });
    expect(error).toMatchObject({ name: 'ChainUnreachableError', code: 'chain_unreachable', details: 'fetch failed', rpcUrl: 'http://x' });
    expect(error.shortMessage).toBe('Chain RPC endpoint http://x is unreachable');
    expect(error.message).toContain('fetch failed');
    expect(error).toBeInstanceOf(ChainError);
  });
});
