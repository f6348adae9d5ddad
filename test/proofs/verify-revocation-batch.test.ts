/**
 * The per-leaf revocation reads of many proofs (verify-revocation-batch via chainReaderFor), on a
 * real anvil behind a real loopback HTTP proxy that counts what reaches the node: many reads of
 * one registry are answered from its logs (one eth_getLogs, eth_call only for the hashes the
 * logs name); without usable logs (refused, capped, pruned) the reads of one turn go out as a
 * few JSON-RPC batches instead of one request each; either way they answer exactly what the
 * single read answers, and still answer (one by one) through a node that refuses batches.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toFunctionSelector, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainClient, encodeRevoke } from '../../main/chain/index.js';
import { RegistryNotFoundError } from '../../main/chain/errors.js';
import { chainReaderFor } from '../../main/engine/proofs/verify-chain-reader.js';
import { deployRegistry, fundedKey, randomBytes32, send, startNode, stopAllNodes } from '../chain/chain-fixture.js';

interface Proxy {
  url: string;
  /** HTTP requests that carried at least one revokedAt eth_call. */
  revocationRequests: number;
  /** revokedAt eth_calls seen, in batches or alone. */
  revocationCalls: number;
  refuseBatches: boolean;
  /** eth_getLogs requests seen. */
  logRequests: number;
  /** eth_getLogs answered with an error (as a node capping log ranges does). */
  refuseLogs: boolean;
  /** eth_getLogs answered without the registry's oldest log (as a node that pruned old logs does). */
  pruneOldLogs: boolean;
  /** eth_blockNumber answered as a public network's head (tens of millions of blocks). */
  longChain: boolean;
  server: Server;
}

const REVOKED_AT = toFunctionSelector('function revokedAt(bytes32)');

let node: { rpcUrl: string; chainId: number };
let direct: ChainClient;
let registry: Address;
const revoked: Hex[] = [randomBytes32(), randomBytes32()];
let proxy: Proxy;

async function startProxy(target: string): Promise<Proxy> {
  const state = { revocationRequests: 0, revocationCalls: 0, refuseBatches: false, logRequests: 0, refuseLogs: false, pruneOldLogs: false, longChain: false } as Proxy;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const parsed = JSON.parse(body.toString('utf8')) as { method?: string; params?: [{ data?: string }] } | { method?: string; params?: [{ data?: string }] }[];
      const calls = (Array.isArray(parsed) ? parsed : [parsed]).filter((c) => c.method === 'eth_call' && c.params?.[0]?.data?.startsWith(REVOKED_AT));
      if (calls.length > 0) {
        state.revocationRequests++;
        state.revocationCalls += calls.length;
      }
      if (!Array.isArray(parsed) && parsed.method === 'eth_blockNumber' && state.longChain) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: (parsed as { id?: unknown }).id, result: '0x1406f40' }));
        return;
      }
      if (!Array.isArray(parsed) && parsed.method === 'eth_getLogs') {
        state.logRequests++;
        if (state.refuseLogs) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: (parsed as { id?: unknown }).id, error: { code: -32005, message: 'query exceeds max block range 10000' } }));
          return;
        }
        if (state.pruneOldLogs) {
          void fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
            const json = (await answer.json()) as { result: unknown[] };
            json.result = json.result.slice(1);
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(json));
          });
          return;
        }
      }
      if (Array.isArray(parsed) && state.refuseBatches) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not served here' } }));
        return;
      }
      const forward = httpRequest(target, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
        answer.pipe(res);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.server = server;
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

beforeAll(async () => {
  node = await startNode();
  direct = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId, timeoutMs: 10_000 });
  const partner = await fundedKey(direct);
  registry = await deployRegistry(direct, partner.key);
  for (const hash of revoked) await send(direct, partner.key, { to: registry, data: encodeRevoke(hash) });
  proxy = await startProxy(node.rpcUrl);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.server.close(resolve));
  await stopAllNodes();
});

function resetCounts(): void {
  proxy.revocationRequests = 0;
  proxy.revocationCalls = 0;
  proxy.logRequests = 0;
}

/** 1,000 hashes of one registry, the two revoked ones among them (at 137 and 871), read at once. */
async function readMany(): Promise<{ values: bigint[]; expected: bigint[] }> {
  const client = await ChainClient.connect({ rpcUrl: proxy.url, chainId: node.chainId, timeoutMs: 10_000 });
  const reader = chainReaderFor(client);
  const hashes = Array.from({ length: 1_000 }, () => randomBytes32());
  hashes[137] = revoked[0]!;
  hashes[871] = revoked[1]!;
  resetCounts();
  const values = await Promise.all(hashes.map((h) => reader.revokedAt(registry, h)));
  const expected = await Promise.all(hashes.map((h) => direct.revokedAt(registry, h)));
  return { values, expected };
}

describe('revocation reads of many proofs', () => {
  it('of one registry are answered from its logs: one eth_getLogs, eth_call only for the revoked, each the time the single read answers', async () => {
    const { values, expected } = await readMany();
    expect(values).toEqual(expected);
    expect(values[137]).toBeGreaterThan(0n);
    expect(values[871]).toBeGreaterThan(0n);
    expect(values.filter((v) => v > 0n)).toHaveLength(2);
    expect(proxy.logRequests).toBe(1);
    expect(proxy.revocationCalls).toBe(2);
  });

  // Each way the logs cannot be trusted: the batched eth_calls answer instead, the same answers.
  // Pruned logs must never give "not revoked" from incomplete history; a long chain (a public
  // network) is not scanned from block 0.
  const fallbacks: { when: string; flag: 'refuseLogs' | 'pruneOldLogs' | 'longChain'; logRequests: number }[] = [
    { when: 'eth_getLogs is refused (range capped)', flag: 'refuseLogs', logRequests: 1 },
    { when: 'logs pruned (no SigningKeySet in them)', flag: 'pruneOldLogs', logRequests: 1 },
    { when: 'a long chain (no scan from block 0)', flag: 'longChain', logRequests: 0 },
  ];

  it.each(fallbacks)('fall back to JSON-RPC batches of eth_call when $when, with the same answers', async ({ flag, logRequests }) => {
    proxy[flag] = true;
    try {
      const { values, expected } = await readMany();
      expect(values).toEqual(expected);
      expect(values.filter((v) => v > 0n)).toHaveLength(2);
      expect(proxy.logRequests).toBe(logRequests);
      expect(proxy.revocationCalls).toBe(1_000);
      // 1,000 reads in batches of at most 100: ten requests, not 1,000.
      expect(proxy.revocationRequests).toBeLessThanOrEqual(10);
    } finally {
      proxy[flag] = false;
    }
  });

  it('once its logs are read, a later read of the registry is answered from them at once (no wait for the next batch); a revoked hash is still asked', async () => {
    const client = await ChainClient.connect({ rpcUrl: proxy.url, chainId: node.chainId, timeoutMs: 10_000 });
    const reader = chainReaderFor(client);
    await Promise.all(Array.from({ length: 100 }, () => reader.revokedAt(registry, randomBytes32())));
    resetCounts();
    let answered: bigint | undefined;
    void reader.revokedAt(registry, randomBytes32()).then((value) => (answered = value));
    // A few turns of the microtask queue, no timer: the answer is already known.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(answered).toBe(0n);
    expect(await reader.revokedAt(registry, revoked[1]!)).toBe(await direct.revokedAt(registry, revoked[1]!));
    expect(proxy.logRequests).toBe(0);
    expect(proxy.revocationCalls).toBe(1);
  });

  it('a few reads go out as one JSON-RPC batch (no logs read) and answer what the single read answers', async () => {
    const client = await ChainClient.connect({ rpcUrl: proxy.url, chainId: node.chainId, timeoutMs: 10_000 });
    const reader = chainReaderFor(client);
    const hashes = [...Array.from({ length: 30 }, () => randomBytes32()), ...revoked];
    resetCounts();
    const values = await Promise.all(hashes.map((h) => reader.revokedAt(registry, h)));
    expect(values).toEqual(await Promise.all(hashes.map((h) => direct.revokedAt(registry, h))));
    expect(values.filter((v) => v > 0n)).toHaveLength(2);
    expect(proxy.logRequests).toBe(0);
    expect(proxy.revocationCalls).toBe(32);
    expect(proxy.revocationRequests).toBe(1);
  });

  it('still answers each read, one by one, through a node that refuses batches', async () => {
    proxy.refuseBatches = true;
    try {
      const client = await ChainClient.connect({ rpcUrl: proxy.url, chainId: node.chainId, timeoutMs: 10_000 });
      const reader = chainReaderFor(client);
      const hashes = [randomBytes32(), revoked[0]!, randomBytes32(), revoked[1]!];
      const values = await Promise.all(hashes.map((h) => reader.revokedAt(registry, h)));
      expect(values).toEqual(await Promise.all(hashes.map((h) => direct.revokedAt(registry, h))));
      expect(values[1]).toBeGreaterThan(0n);
      expect(values[0]).toBe(0n);
    } finally {
      proxy.refuseBatches = false;
    }
  });

  it('fails as the single read does at an address without a registry', async () => {
    const client = await ChainClient.connect({ rpcUrl: proxy.url, chainId: node.chainId, timeoutMs: 10_000 });
    const reader = chainReaderFor(client);
    const nowhere = '0x000000000000000000000000000000000000dEaD' as Address;
    const errors = await Promise.all([randomBytes32(), randomBytes32()].map((h) => reader.revokedAt(nowhere, h).catch((e: unknown) => e)));
    for (const error of errors) expect(error).toBeInstanceOf(RegistryNotFoundError);
  });
});
