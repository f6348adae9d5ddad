/**
 * The local dev chain process: start, persistence across stop/start and crashes, one anvil per
 * directory, no leftovers, and no anvil outliving the process that started it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ChainClient, ChainError, dumpStateViaRpc, encodeIssue, findRunningAnvil, resolveAnvilBinary, type AnvilNode } from '../../main/chain/index.js';
import { isProcessAlive } from '../../main/chain/anvil-lock.js';
import { anvilStatePaths } from '../../main/chain/anvil-state-file.js';
import { deployRegistry, fundedKey, makeStateDir, randomBytes32, send, startNode, stopAllNodes } from './chain-fixture.js';
import { childArgs } from '../support/ts-child.js';

afterAll(stopAllNodes);

async function connect(node: AnvilNode): Promise<ChainClient> {
  return ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId, timeoutMs: 5000 });
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills anvil the hard way (a crash: no final dump), then lets stop() clean up. */
async function crash(node: AnvilNode): Promise<void> {
  process.kill(node.pid, 'SIGKILL');
  await node.exited;
  await node.stop();
}

describe('startAnvil', () => {
  it('starts on 127.0.0.1 and a free port, answers, and stops leaving nothing running', async () => {
    const stateDir = makeStateDir();
    const started = Date.now();
    const node = await startNode({ stateDir });
    const startMs = Date.now() - started;
    expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node).toMatchObject({ chainId: 31337, stateOrigin: 'new' });
    expect(startMs).toBeLessThan(5000);
    const paths = anvilStatePaths(stateDir);
    expect(existsSync(paths.lockFile)).toBe(true);

    const chain = await connect(node);
    expect(await chain.blockNumber()).toBe(0n);
    // No unlocked dev accounts: nothing can be sent from keys anvil holds, only from the Partners' own.
    const accounts = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }) });
    expect(((await accounts.json()) as { result: unknown }).result).toEqual([]);

    await node.stop();
    await node.stop(); // idempotent
    expect(isProcessAlive(node.pid)).toBe(false);
    expect(existsSync(paths.lockFile)).toBe(false);
    expect(existsSync(paths.cacheDir)).toBe(false);
    expect(existsSync(paths.stateFile)).toBe(true);
    expect(existsSync(paths.snapshotFile)).toBe(true);
  });

  it('keeps blocks, transactions, contracts and balances across stop and start, and continues the chain', async () => {
    const stateDir = makeStateDir();
    let node = await startNode({ stateDir });
    let chain = await connect(node);
    const partner = await fundedKey(chain);
    const signingKey = randomBytes32();
    const registry = await deployRegistry(chain, partner.key, signingKey);
    const root = randomBytes32();
    const { tx, receipt } = await send(chain, partner.key, { to: registry, data: encodeIssue(root) });
    const issuedAt = await chain.issuedAt(registry, root);
    const balance = await chain.balanceOf(partner.address);
    const height = await chain.blockNumber();
    const genesis = await chain.genesisHash();
    await node.stop();

    node = await startNode({ stateDir });
    // From anvil's exit dump, or from our snapshot when that dump was unusable (seen once under
    // heavy load): either way nothing may be missing, which is what the checks below assert.
    expect(['loaded', 'restored']).toContain(node.stateOrigin);
    chain = await connect(node);
    expect(await chain.blockNumber()).toBe(height);
    // The same chain for the proofs that name it by its genesis block.
    expect(await chain.genesisHash()).toBe(genesis);
    expect(await chain.getReceipt(tx.hash)).toEqual(receipt);
    expect(await chain.isKnown(tx.hash)).toBe(true);
    expect(await chain.readRegistry(registry)).toEqual({ owner: partner.address, signingKey });
    expect(await chain.isIssued(registry, root)).toBe(true);
    expect(await chain.issuedAt(registry, root)).toBe(issuedAt);
    expect(await chain.balanceOf(partner.address)).toBe(balance);
    // Re-broadcasting the stored transaction after a restart is still a no-op success.
    expect(await chain.broadcast(tx.raw)).toBe(tx.hash);

    const next = await send(chain, partner.key, { to: registry, data: encodeIssue(randomBytes32()) });
    expect(next.tx.nonce).toBe(tx.nonce + 1);
    expect(next.receipt.blockNumber).toBe(height + 1n);
    expect(await chain.confirmations(tx.hash)).toBe(2);
  });

  it('loses at most a snapshot interval when anvil crashes', async () => {
    const stateDir = makeStateDir();
    let node = await startNode({ stateDir, snapshotIntervalMs: 200 });
    let chain = await connect(node);
    const partner = await fundedKey(chain);
    const registry = await deployRegistry(chain, partner.key);
    const root = randomBytes32();
    await send(chain, partner.key, { to: registry, data: encodeIssue(root) });
    await new Promise((r) => setTimeout(r, 600));
    await crash(node);

    node = await startNode({ stateDir });
    expect(node.stateOrigin).toBe('restored');
    chain = await connect(node);
    expect(await chain.isIssued(registry, root)).toBe(true);
  });

  it('snapshots only when the chain changed', async () => {
    const stateDir = makeStateDir();
    const { snapshotFile } = anvilStatePaths(stateDir);
    const node = await startNode({ stateDir, snapshotIntervalMs: 100 });
    const chain = await connect(node);
    await chain.mine(1);
    await waitFor(() => existsSync(snapshotFile), 2000, 'the first snapshot');
    const first = statSync(snapshotFile).mtimeMs;
    await new Promise((r) => setTimeout(r, 500));
    expect(statSync(snapshotFile).mtimeMs).toBe(first);
    await chain.mine(1);
    await waitFor(() => statSync(snapshotFile).mtimeMs !== first, 2000, 'a new snapshot');
    // A dump through the RPC is a complete state anvil can load: the Windows stop path relies on it.
    await dumpStateViaRpc(node.rpcUrl, snapshotFile);
    await crash(node);
    const again = await startNode({ stateDir });
    expect(await (await connect(again)).blockNumber()).toBe(2n);
  });

  it('falls back to the snapshot when the state file is damaged, and starts anew (keeping the damage) without one', async () => {
    const stateDir = makeStateDir();
    const paths = anvilStatePaths(stateDir);
    let node = await startNode({ stateDir });
    let chain = await connect(node);
    const partner = await fundedKey(chain);
    const registry = await deployRegistry(chain, partner.key);
    await node.stop();

    writeFileSync(paths.stateFile, '{"block":{"number":"0x'); // a dump cut short
    node = await startNode({ stateDir });
    expect(node.stateOrigin).toBe('restored');
    chain = await connect(node);
    expect((await chain.readRegistry(registry)).owner).toBe(partner.address);
    await node.stop();

    writeFileSync(paths.stateFile, '');
    writeFileSync(paths.snapshotFile, 'garbage');
    node = await startNode({ stateDir });
    expect(node.stateOrigin).toBe('reset');
    expect(await (await connect(node)).blockNumber()).toBe(0n);
    expect(readdirSync(stateDir).some((f) => f.startsWith('state.json.damaged-'))).toBe(true);
  });

  it('mines on an interval when blockTime is given, so confirmations accrue by themselves', async () => {
    const node = await startNode({ blockTime: 1 });
    const chain = await connect(node);
    const partner = await fundedKey(chain);
    const nonce = await chain.nextNonce(partner.address);
    const tx = await chain.signTransaction(partner.key, { to: partner.address, data: '0x', nonce });
    await chain.broadcast(tx.raw);
    await waitFor(async () => (await chain.confirmations(tx.hash)) >= 2, 5000, 'two confirmations');
  });

  it('spills no per-block state to disk, even past 500 blocks', async () => {
    const stateDir = makeStateDir();
    const node = await startNode({ stateDir });
    const chain = await connect(node);
    const globalTmp = join(homedir(), '.foundry', 'anvil', 'tmp');
    const before = existsSync(globalTmp) ? readdirSync(globalTmp).length : 0;
    await chain.mine(600);
    expect(await chain.blockNumber()).toBe(600n);
    expect(existsSync(anvilStatePaths(stateDir).cacheDir) ? readdirSync(anvilStatePaths(stateDir).cacheDir) : []).toEqual([]);
    expect(existsSync(globalTmp) ? readdirSync(globalTmp).length : 0).toBe(before);
  });
});

describe('one anvil per state directory', () => {
  it('refuses a second start on a directory this process already runs', async () => {
    const stateDir = makeStateDir();
    await startNode({ stateDir });
    await expect(startNode({ stateDir })).rejects.toThrow(/already runs the local chain/);
    const racing = makeStateDir();
    const results = await Promise.allSettled([startNode({ stateDir: racing }), startNode({ stateDir: racing })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // findRunningAnvil is for chains run by other processes.
    expect(findRunningAnvil(stateDir)).toBeUndefined();
  });

  it('stops an anvil orphaned by a dead owner before starting anew', async () => {
    const stateDir = makeStateDir();
    const paths = anvilStatePaths(stateDir);
    const orphan = spawn(resolveAnvilBinary(), ['--port', '0', '--quiet', '--state', paths.stateFile], { stdio: 'ignore' });
    const deadOwner = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(paths.lockFile, JSON.stringify({ pid: orphan.pid, ownerPid: deadOwner, rpcUrl: 'http://127.0.0.1:0', startedAt: new Date().toISOString() }));
    await waitFor(() => existsSync(`/proc/${orphan.pid}`) || process.platform !== 'linux', 2000, 'the orphan');

    const node = await startNode({ stateDir });
    expect(isProcessAlive(orphan.pid!)).toBe(false);
    expect(await (await connect(node)).blockNumber()).toBe(0n);
  });

  it('does not outlive the process that started it, even when that process is SIGKILLed', async () => {
    if (process.platform === 'win32') return;
    const stateDir = makeStateDir();
    const script = fileURLToPath(new URL('./anvil-child.ts', import.meta.url));
    const parent = spawn(process.execPath, [...childArgs(script), stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: parent.stdout! }).once('line', resolve);
        parent.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
      });
      const { pid, rpcUrl } = JSON.parse(line) as { pid: number; rpcUrl: string };
      expect(isProcessAlive(pid)).toBe(true);
      // Another process runs it: findRunningAnvil says where, and startAnvil refuses.
      expect(findRunningAnvil(stateDir)).toMatchObject({ pid, rpcUrl, ownerPid: parent.pid });
      await expect(startNode({ stateDir })).rejects.toThrow(/already running/);
      parent.kill('SIGKILL');
      await waitFor(() => !isProcessAlive(pid), 5000, 'anvil to die with its parent');
      // It was stopped with SIGTERM, so it dumped its state on the way out.
      expect(existsSync(anvilStatePaths(stateDir).stateFile)).toBe(true);
      // The next start takes over the stale lock.
      const node = await startNode({ stateDir });
      expect(node.stateOrigin).toBe('loaded');
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('explains a failed start with anvil\u2019s own output', async () => {
    const error = await startNode({ binary: process.execPath, startTimeoutMs: 3000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainError);
    expect((error as Error).message).toMatch(/did not start: anvil exited/);
    expect((error as Error).message).toMatch(/bad option|--host/);
  });
});
