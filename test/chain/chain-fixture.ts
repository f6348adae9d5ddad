/**
 * Real anvil nodes for the chain tests: each on its own temporary state directory, all stopped
 * and removed by stopAllNodes() (call it in afterAll).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther, type Address, type Hex } from 'viem';
import { accountFromPrivateKey, encodeDeploy, generatePrivateKey, startAnvil, type AnvilNode, type ChainClient, type StartAnvilParameters } from '../../main/chain/index.js';

const nodes = new Set<AnvilNode>();
const dirs = new Set<string>();

/** A new empty directory under the system temp dir, removed by stopAllNodes(). */
export function makeStateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-chain-'));
  dirs.add(dir);
  return dir;
}

/** Starts anvil on `stateDir` (default: a new temp dir); stopped by stopAllNodes(). */
export async function startNode(params: Partial<StartAnvilParameters> = {}): Promise<AnvilNode> {
  const node = await startAnvil({ stateDir: params.stateDir ?? makeStateDir(), ...params });
  nodes.add(node);
  return node;
}

/** Stops every node started here and removes every temp dir. */
export async function stopAllNodes(): Promise<void> {
  await Promise.all([...nodes].map((n) => n.stop()));
  nodes.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** 32 random bytes as hex: a root, a leaf, an Ed25519 public key stand-in. */
export function randomBytes32(): Hex {
  return `0x${randomBytes(32).toString('hex')}`;
}

export interface FundedKey {
  key: Hex;
  address: Address;
}

/** A fresh private key whose account holds `ether` (default 1 ETH) on the dev chain. */
export async function fundedKey(chain: ChainClient, ether = '1'): Promise<FundedKey> {
  const key = generatePrivateKey();
  const { address } = accountFromPrivateKey(key);
  await chain.fund(address, parseEther(ether));
  return { key, address };
}

/** Signs, broadcasts and waits for the receipt (automine) of one transaction from `key`. */
export async function send(chain: ChainClient, key: Hex, request: { to?: Address; data: Hex; gas?: bigint }) {
  const { address } = accountFromPrivateKey(key);
  const nonce = await chain.nextNonce(address);
  const tx = await chain.signTransaction(key, { ...request, nonce });
  await chain.broadcast(tx.raw);
  const receipt = await waitForReceipt(chain, tx.hash);
  return { tx, receipt };
}

/** Polls for a receipt until `timeoutMs`. */
export async function waitForReceipt(chain: ChainClient, hash: Hex, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await chain.getReceipt(hash);
    if (receipt) return receipt;
    if (Date.now() > until) throw new Error(`no receipt for ${hash} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Deploys a registry from `key` binding `signingKey`; returns its address. */
export async function deployRegistry(chain: ChainClient, key: Hex, signingKey: Hex = randomBytes32()): Promise<Address> {
  const { receipt } = await send(chain, key, { data: encodeDeploy(signingKey) });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('registry deployment failed');
  return receipt.contractAddress;
}

/** One raw JSON-RPC call (anvil's test methods: anvil_setBalance, evm_setAutomine, ...); throws the node's error. */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export interface RpcProxy {
  /** The proxy's URL, to configure instead of the node's. */
  url: string;
  /** JSON-RPC requests received (answered or not), in order, by method. */
  methods: string[];
  /** The same requests, a block read named with the block it asks for: `eth_getBlockByNumber(latest)`, `eth_getBlockByNumber(number)`. */
  calls: string[];
  /** pass: forward to the node; limited: answer HTTP 429 with Retry-After; down: reset the connection. */
  mode: 'pass' | 'limited' | 'down';
  /** Retry-After of a 429, in seconds. */
  retryAfterS: number;
  /** In `limited` mode, how many requests get a 429 before the proxy passes again (Infinity: all). */
  limitedFor: number;
  /**
   * In `pass` mode, answers a single call itself when it returns a JSON-RPC outcome (`{ result }`
   * or `{ error }`) instead of undefined: a node that refuses a method, or does not know a transaction.
   */
  intercept?: ((call: { method: string; params: unknown[] }) => { result: unknown } | { error: { code: number; message: string } } | undefined) | undefined;
  close(): Promise<void>;
}

/** The proxy's own answer to a single call its `intercept` takes, as the response body; undefined to forward it. */
function answerItself(proxy: RpcProxy, body: string): string | undefined {
  if (!proxy.intercept) return undefined;
  let call: { id?: unknown; method?: string; params?: unknown[] };
  try {
    call = JSON.parse(body) as typeof call;
  } catch {
    return undefined;
  }
  if (Array.isArray(call) || typeof call.method !== 'string') return undefined;
  const outcome = proxy.intercept({ method: call.method, params: call.params ?? [] });
  return outcome === undefined ? undefined : JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, ...outcome });
}

/** A loopback HTTP proxy in front of a node that counts requests and can refuse or drop them. */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const { createServer: createHttpServer } = await import('node:http');
  const proxy: RpcProxy = { url: '', methods: [], calls: [], mode: 'pass', retryAfterS: 1, limitedFor: Infinity, close: async () => undefined };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const parsed = JSON.parse(body) as { method?: string; params?: unknown[] } | { method?: string; params?: unknown[] }[];
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          proxy.methods.push(String(call.method));
          const block = call.method === 'eth_getBlockByNumber' ? call.params?.[0] : undefined;
          proxy.calls.push(typeof block === 'string' ? `${call.method}(${block.startsWith('0x') ? 'number' : block})` : String(call.method));
        }
      } catch {
        proxy.methods.push('?');
        proxy.calls.push('?');
      }
      if (proxy.mode === 'down') {
        req.socket.destroy();
        return;
      }
      if (proxy.mode === 'limited' && proxy.limitedFor > 0) {
        proxy.limitedFor--;
        res.writeHead(429, { 'retry-after': String(proxy.retryAfterS), 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'rate limited' } }));
        return;
      }
      const own = answerItself(proxy, body);
      if (own !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(own);
        return;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
