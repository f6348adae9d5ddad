/**
 * Verifying many proofs of one batch (verify-many.ts) on a real anvil, behind a real loopback
 * proxy that can refuse eth_getLogs: what the proofs share on chain is asked once per run
 * (VerifyOptions.share), the revocations of their leaves come from the registry's logs or, when
 * the node refuses them, from batched eth_calls, and either way every proof's result is the one
 * verifyProof gives it alone — a revoked leaf among 1,000 included, with its revocation time.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from '../../common/wire-types.js';
import { ChainClient, encodeRevoke } from '../../main/chain/index.js';
import { openVerifyingRun } from '../../main/engine/proofs/verify-many.js';
import { checksOf } from '../../main/engine/proofs/verify-offline.js';
import { offlineChecksOf, verifyChecked, verifyProof, type ChainReader, type VerifyOptions } from '../../main/engine/proofs/verify-proof.js';
import { chainReaderFor } from '../../main/engine/proofs/verify-chain-reader.js';
import { send, startNode, stopAllNodes } from '../chain/chain-fixture.js';
import { copyProof, issueBatch, makeCredential, makePartner, optionsFor, type IssuedBatch, type Partner } from './proof-fixture.js';

const NOW = () => new Date('2027-01-01T00:00:00Z');
const COUNT = 1_000;
const REVOKED = 613;

let direct: ChainClient;
let partner: Partner;
let batch: IssuedBatch;
let proxy: { url: string; server: Server; refuseLogs: boolean; logRequests: number };

beforeAll(async () => {
  const node = await startNode();
  direct = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId, timeoutMs: 10_000 });
  partner = await makePartner(direct);
  batch = await issueBatch(direct, partner, Array.from({ length: COUNT }, (_, i) => makeCredential({ title: `Credential ${i}`, files: [] })));
  await send(direct, partner.account.key, { to: partner.registry, data: encodeRevoke(`0x${batch.leaves[REVOKED]!.toString('hex')}`) });
  const state = { refuseLogs: false, logRequests: 0 } as typeof proxy;
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const parsed = JSON.parse(body.toString('utf8')) as { id?: unknown; method?: string };
      if (!Array.isArray(parsed) && parsed.method === 'eth_getLogs') {
        state.logRequests++;
        if (state.refuseLogs) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: parsed.id, error: { code: -32601, message: 'the method eth_getLogs does not exist/is not available' } }));
          return;
        }
      }
      const forward = httpRequest(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
        answer.pipe(res);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  proxy = state;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.server.close(resolve));
  await stopAllNodes();
});

/** Every proof of the batch verified in one run through the proxy, by index. */
async function verifyAllInOneRun(): Promise<VerificationResult[]> {
  const client = await ChainClient.connect({ rpcUrl: proxy.url, chainId: direct.chainId, timeoutMs: 10_000 });
  const run = openVerifyingRun(optionsFor(client, { now: NOW }), COUNT);
  const results: VerificationResult[] = [];
  try {
    const outcome = run.checkAll(batch.proofs.map((p, i) => ({ path: `p${i}.proof.json`, bytes: Buffer.from(JSON.stringify(p)) })));
    await run.each(COUNT, async (i) => {
      const o = await outcome(i);
      if (o.kind !== 'checked') throw new Error(`proof ${i}: ${o.kind}`);
      results[i] = await verifyChecked(o.core, checksOf(o), run.options);
    });
  } finally {
    await run.close();
  }
  return results;
}

/** verifyProof of proof `i` alone, asking the node directly. */
function alone(i: number): Promise<VerificationResult> {
  return verifyProof(batch.proofs[i], optionsFor(direct, { now: NOW }));
}

async function expectAsAlone(results: VerificationResult[]): Promise<void> {
  expect(results.filter((r) => r.result.status === 'ok')).toHaveLength(COUNT - 1);
  const revoked = results[REVOKED]!;
  expect(revoked.result.status).toBe('revoked');
  expect(revoked.verification.revocation.description).toMatchObject({ is_revoked: true });
  expect(revoked.verification.revocation.description.revocation_date).toMatch(/^\d{4}-\d\d-\d\dT/);
  for (const i of [0, 1, REVOKED - 1, REVOKED, REVOKED + 1, COUNT - 1]) expect(results[i]).toEqual(await alone(i));
}

describe('verifying many proofs of one batch on a real chain', () => {
  it('a revoked leaf among 1,000, from the registry’s logs: each result that of the proof alone (revocation time included)', async () => {
    proxy.logRequests = 0;
    const results = await verifyAllInOneRun();
    expect(proxy.logRequests).toBe(1);
    await expectAsAlone(results);
  }, 120_000);

  it('a revoked leaf among 1,000 through a node refusing eth_getLogs (batched eth_calls): the same results', async () => {
    proxy.refuseLogs = true;
    proxy.logRequests = 0;
    try {
      const results = await verifyAllInOneRun();
      expect(proxy.logRequests).toBe(1);
      await expectAsAlone(results);
    } finally {
      proxy.refuseLogs = false;
    }
  }, 120_000);
});

describe('what the proofs of one batch share on chain (VerifyOptions.share)', () => {
  /** A reader over the node that counts its reads, and fails getReceipt when told to. */
  function countingReader(failReceipt: boolean): { reader: ChainReader; counts: Record<string, number> } {
    const inner = chainReaderFor(direct);
    const counts: Record<string, number> = {};
    const count = <T>(name: string, read: () => Promise<T>) => {
      counts[name] = (counts[name] ?? 0) + 1;
      return read();
    };
    const reader: ChainReader = {
      ...inner,
      readRegistry: (a) => count('readRegistry', () => inner.readRegistry(a)),
      getTransaction: (h) => count('getTransaction', () => inner.getTransaction(h)),
      getReceipt: (h) => count('getReceipt', () => (failReceipt ? Promise.reject(new Error('the node answered garbage')) : inner.getReceipt(h))),
    };
    return { reader, counts };
  }

  function sharing(): VerifyOptions['share'] {
    const memo = new Map<string, Promise<unknown>>();
    return <T>(key: string, compute: () => Promise<T>) => {
      let value = memo.get(key) as Promise<T> | undefined;
      if (!value) memo.set(key, (value = compute()));
      return value;
    };
  }

  it('asks the registry, receipt and transaction once for 50 proofs of one batch, each result that of the proof alone', async () => {
    const { reader, counts } = countingReader(false);
    const options = optionsFor(reader, { now: NOW, share: sharing() });
    const results = await Promise.all(batch.proofs.slice(0, 50).map((p) => verifyChecked(p, offlineChecksOf(p), options)));
    expect(counts).toEqual({ readRegistry: 1, getReceipt: 1, getTransaction: 1 });
    for (const i of [0, 49]) expect(results[i]).toEqual(await alone(i));
  });

  it('proofs that differ in what the shared reads depend on (the chain they name) do not share them', async () => {
    const genesis = (await direct.genesisHash()).toLowerCase();
    const here = copyProof(batch.proofs[0]!);
    here.chain.genesis_hash = genesis;
    const elsewhere = copyProof(batch.proofs[1]!);
    elsewhere.chain.genesis_hash = `0x${'cd'.repeat(32)}`;
    const options = optionsFor(direct, { now: NOW, share: sharing() });
    const [ok, other] = await Promise.all([here, elsewhere].map((p) => verifyChecked(p, offlineChecksOf(p), options)));
    expect(ok!.result.status).toBe('ok');
    expect(other!.result.status).toBe('pending');
    expect(other).toEqual(await verifyProof(elsewhere, optionsFor(direct, { now: NOW })));
    expect(ok).toEqual(await verifyProof(here, optionsFor(direct, { now: NOW })));
  });

  it('a read that throws midway gives each sharing proof the error result it gets alone (the root found so far included)', async () => {
    const { reader } = countingReader(true);
    const shared = optionsFor(reader, { now: NOW, share: sharing() });
    const results = await Promise.all(batch.proofs.slice(0, 5).map((p) => verifyChecked(p, offlineChecksOf(p), shared)));
    const single = await verifyProof(batch.proofs[3], optionsFor(countingReader(true).reader, { now: NOW }));
    expect(single.verification.blockchain.status).toBe('error');
    expect(single.verification.blockchain.description.actual_root).toBe(batch.proofs[3]!.root);
    expect(results[3]).toEqual(single);
  });
});
