/**
 * Settings › Engines through the IPC handlers, on a real engine in a temporary data directory and
 * a second anvil on loopback: an EVM chain added is written to DATA/engines.json as the engine
 * reads it (a reopened engine knows it) and is usable at once; a bad or duplicate configuration
 * is refused with the reason and nothing written; the connection test says connected, wrong
 * chain id, or unreachable, in sentences a person can act on.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../common/errors.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { Engine, ENGINES_FILE } from '../../main/engine/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { makeTempDir } from '../support/engine-fixture.js';
import { startSecondChain, type SecondChain } from '../support/issuing-fixture.js';

let chain: SecondChain;
let dir: string;
let engine: Engine;
let handlers: IpcHandlers;

beforeAll(async () => {
  chain = await startSecondChain(31339);
  dir = makeTempDir('proofdesk-engines-');
  engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { scheduler: false } });
  handlers = createIpcHandlers(createAppContext({ engine, partner: null }));
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await chain?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<{ id: string; message: string }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { id: error.id, message: error.message };
}

describe('Settings › Engines', () => {
  it('tests a connection: connected, wrong chain id, unreachable', async () => {
    const ok = await invokeIpcHandler(handlers, 'settings:testEngine', [chain.rpcUrl, 31339]);
    expect(ok).toMatchObject({ ok: true });
    expect(ok.message).toMatch(/^Connected: chain 31339, at block \d+\.$/);
    const wrong = await invokeIpcHandler(handlers, 'settings:testEngine', [chain.rpcUrl, 11155111]);
    expect(wrong).toEqual({ ok: false, message: `The node at ${chain.rpcUrl} is on chain 31339, not 11155111: correct the chain id, or use the RPC URL of chain 11155111.` });
    const down = await invokeIpcHandler(handlers, 'settings:testEngine', ['http://127.0.0.1:9', 31339]);
    expect(down).toMatchObject({ ok: false });
    expect(down.message).toMatch(/^Nothing answers at http:\/\/127\.0\.0\.1:9: check the address/);
  });

  it('adds an EVM chain to engines.json as the engine reads it, usable at once', async () => {
    const added = { ...chain.engine('second'), explorer_tx_url: 'https://explorer.example/tx/{tx}' };
    const list = await invokeIpcHandler(handlers, 'settings:addEngine', [added]);
    expect(list.map((e) => e.id)).toEqual(['local', 'second']);
    const path = join(engine.dataDir, ENGINES_FILE);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual([added]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // Usable at once: the engine's chain client for it answers.
    expect(await (await engine.issuing.ctx.chains.client('second')).blockNumber()).toBeGreaterThanOrEqual(0n);
    // And at the next start.
    const again = Engine.open({ dataDir: engine.dataDir, sweepIntervalMs: false, issuing: { scheduler: false } });
    try {
      expect(again.catalog.find('second')).toEqual(added);
    } finally {
      await again.close();
    }
  });

  it('refuses a duplicate id or a bad configuration with the reason, writing nothing', async () => {
    const path = join(engine.dataDir, ENGINES_FILE);
    const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const duplicate = await refusal(invokeIpcHandler(handlers, 'settings:addEngine', [chain.engine('second')]));
    expect(duplicate).toMatchObject({ id: 'invalid_value' });
    expect(duplicate.message).toMatch(/already an engine named second/);
    const badUrl = await refusal(invokeIpcHandler(handlers, 'settings:addEngine', [{ ...chain.engine('third'), rpc_url: 'ftp://x' }]));
    expect(badUrl.message).toMatch(/rpc_url must be an http\(s\) URL/);
    const badId = await refusal(invokeIpcHandler(handlers, 'settings:addEngine', [{ ...chain.engine('Third Chain') }]));
    expect(badId.message).toMatch(/lowercase letters/);
    const local = await refusal(invokeIpcHandler(handlers, 'settings:addEngine', [{ ...chain.engine('local') }]));
    expect(local.message).toMatch(/built in/);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});
