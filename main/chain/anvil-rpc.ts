/** A bare JSON-RPC call to the local anvil, for the process plumbing that runs before (or beside) a ChainClient. */
import { ChainError } from './errors.js';

/** Calls `method` on `rpcUrl` and returns its result; throws on a transport failure, a timeout or an RPC error. */
export async function anvilRpc(rpcUrl: string, method: string, timeoutMs: number, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error || body.result === undefined) throw new ChainError(`${method} failed: ${body.error?.message ?? 'no result'}`);
  return body.result;
}
