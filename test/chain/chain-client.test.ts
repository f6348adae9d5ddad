/**
 * ChainClient against a real anvil: the registry's life cycle, the sign-store-broadcast flow the
 * engine relies on, and the error classes callers branch on.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { parseEther, parseTransaction, zeroAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChainClient,
  ChainError,
  ChainMismatchError,
  ChainUnreachableError,
  InsufficientFundsError,
  NonceConflictError,
  RegistryNotFoundError,
  TransactionRevertedError,
  accountFromPrivateKey,
  encodeDeploy,
  encodeIssue,
  encodeRevoke,
  generatePrivateKey,
  resolveAnvilBinary,
  type AnvilNode,
} from '../../main/chain/index.js';
import { findFreePort } from '../../main/chain/free-port.js';
import { deployRegistry, fundedKey, randomBytes32, rpc, send, startNode, stopAllNodes, waitForReceipt, type FundedKey } from './chain-fixture.js';

let node: AnvilNode;
let chain: ChainClient;
let partner: FundedKey;
let signingKey: Hex;
let registry: Address;

beforeAll(async () => {
  node = await startNode();
  chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId, timeoutMs: 5000 });
  partner = await fundedKey(chain);
  signingKey = randomBytes32();
  registry = await deployRegistry(chain, partner.key, signingKey);
});

afterAll(stopAllNodes);

describe('registry', () => {
  it('binds the signing key to the deploying account', async () => {
    expect(await chain.readRegistry(registry)).toEqual({ owner: partner.address, signingKey });
  });

  it('issues a root once, records the block time, and reverts a second issue', async () => {
    const root = randomBytes32();
    expect(await chain.isIssued(registry, root)).toBe(false);
    expect(await chain.issuedAt(registry, root)).toBe(0n);

    const { receipt } = await send(chain, partner.key, { to: registry, data: encodeIssue(root) });
    expect(receipt.status).toBe('success');
    expect(await chain.isIssued(registry, root)).toBe(true);
    const block = await chain.blockTimestamp(receipt.blockNumber);
    expect(await chain.issuedAt(registry, root)).toBe(BigInt(block.getTime() / 1000));

    // Signing estimates gas, and the estimate already reverts: nothing is signed or sent.
    const nonce = await chain.nextNonce(partner.address);
    const error = await chain.signTransaction(partner.key, { to: registry, data: encodeIssue(root), nonce }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionRevertedError);
    expect((error as TransactionRevertedError).reason).toBe('already issued');

    // With an explicit gas limit it is signed and mined, and the receipt says reverted.
    const { receipt: again } = await send(chain, partner.key, { to: registry, data: encodeIssue(root), gas: 100_000n });
    expect(again.status).toBe('reverted');
  });

  it('revokes a hash once', async () => {
    const leaf = randomBytes32();
    expect(await chain.isRevoked(registry, leaf)).toBe(false);
    const { receipt } = await send(chain, partner.key, { to: registry, data: encodeRevoke(leaf) });
    expect(receipt.status).toBe('success');
    expect(await chain.isRevoked(registry, leaf)).toBe(true);
    expect(await chain.revokedAt(registry, leaf)).toBe(BigInt((await chain.blockTimestamp(receipt.blockNumber)).getTime() / 1000));

    const nonce = await chain.nextNonce(partner.address);
    const error = await chain.signTransaction(partner.key, { to: registry, data: encodeRevoke(leaf), nonce }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionRevertedError);
    expect((error as TransactionRevertedError).reason).toBe('already revoked');
  });

  it('lets no one but the owner issue or revoke', async () => {
    const stranger = await fundedKey(chain);
    const nonce = await chain.nextNonce(stranger.address);
    const error = await chain.signTransaction(stranger.key, { to: registry, data: encodeIssue(randomBytes32()), nonce }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionRevertedError);
    expect((error as TransactionRevertedError).reason).toBe('not owner');

    const root = randomBytes32();
    const { receipt } = await send(chain, stranger.key, { to: registry, data: encodeIssue(root), gas: 100_000n });
    expect(receipt.status).toBe('reverted');
    expect(await chain.isIssued(registry, root)).toBe(false);
    const { receipt: revoke } = await send(chain, stranger.key, { to: registry, data: encodeRevoke(root), gas: 100_000n });
    expect(revoke.status).toBe('reverted');
  });

  it('says RegistryNotFoundError for an address without a registry', async () => {
    await expect(chain.readRegistry(partner.address)).rejects.toBeInstanceOf(RegistryNotFoundError);
    await expect(chain.isIssued(zeroAddress, randomBytes32())).rejects.toBeInstanceOf(RegistryNotFoundError);
  });

  it('refuses malformed roots and keys before any call', () => {
    expect(() => encodeIssue('0x1234')).toThrow(TypeError);
    expect(() => encodeDeploy('0xzz' as Hex)).toThrow(TypeError);
  });
});

describe('sign, store, broadcast', () => {
  it('signs offline, broadcasts idempotently, and counts confirmations as blocks come', async () => {
    const root = randomBytes32();
    const nonce = await chain.nextNonce(partner.address);
    const signed = await chain.signTransaction(partner.key, { to: registry, data: encodeIssue(root), nonce });
    expect(signed).toMatchObject({ nonce, from: partner.address });
    expect(signed.hash).toMatch(/^0x[0-9a-f]{64}$/);

    // Signing sent nothing.
    expect(await chain.isKnown(signed.hash)).toBe(false);
    expect(await chain.getReceipt(signed.hash)).toBeNull();
    expect(await chain.confirmations(signed.hash)).toBe(0);
    expect(await chain.nextNonce(partner.address)).toBe(nonce);

    expect(await chain.broadcast(signed.raw)).toBe(signed.hash);
    // Again, now that it is mined: "nonce too low" for this very transaction is success.
    expect(await chain.broadcast(signed.raw)).toBe(signed.hash);
    expect(await chain.isKnown(signed.hash)).toBe(true);

    const receipt = await waitForReceipt(chain, signed.hash);
    expect(receipt).toMatchObject({ status: 'success', contractAddress: null });
    expect(await chain.getTransaction(signed.hash)).toEqual({ from: partner.address, to: registry, input: encodeIssue(root), nonce, blockNumber: receipt.blockNumber });
    expect(await chain.getTransaction(randomBytes32())).toBeNull();
    expect(await chain.confirmations(signed.hash)).toBe(1);
    await chain.mine(3);
    expect(await chain.confirmations(signed.hash)).toBe(4);
    expect(await chain.isIssued(registry, root)).toBe(true);
  });

  it('reports the deployed address in a creation receipt', async () => {
    const owner = await fundedKey(chain);
    const { receipt, tx } = await send(chain, owner.key, { data: encodeDeploy(randomBytes32()) });
    expect(receipt.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(tx.from).toBe(owner.address);
    expect((await chain.readRegistry(receipt.contractAddress!)).owner).toBe(owner.address);
  });

  it('throws NonceConflictError when another transaction took the nonce', async () => {
    const nonce = await chain.nextNonce(partner.address);
    const first = await chain.signTransaction(partner.key, { to: registry, data: encodeIssue(randomBytes32()), nonce });
    const second = await chain.signTransaction(partner.key, { to: registry, data: encodeIssue(randomBytes32()), nonce });
    await chain.broadcast(first.raw);
    await waitForReceipt(chain, first.hash);
    const error = await chain.broadcast(second.raw).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NonceConflictError);
    expect(error).toMatchObject({ hash: second.hash, nonce, from: partner.address, code: 'nonce_conflict' });
  });

  it('refuses to sign from an account that cannot pay gas × max fee, naming the amount', async () => {
    const key = generatePrivateKey();
    const { address } = accountFromPrivateKey(key);
    await chain.fund(address, 1000n);
    const error = await chain.signTransaction(key, { data: encodeDeploy(randomBytes32()), nonce: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error).toMatchObject({ address, code: 'insufficient_funds', balance: 1000n });
    const needed = (error as InsufficientFundsError).needed!;
    expect(needed).toBeGreaterThan(1000n);
    expect((error as Error).message).toContain(`${needed} wei`);
    const cost = await chain.estimateCost(address, [{ data: encodeDeploy(randomBytes32()) }]);
    expect(cost.balance).toBe(1000n);
    expect(cost.needed).toBeGreaterThan(1000n);
  });

  it('throws InsufficientFundsError when broadcasting from an account drained after signing', async () => {
    const { key, address } = await fundedKey(chain);
    const signed = await chain.signTransaction(key, { data: encodeDeploy(randomBytes32()), nonce: 0 });
    await rpc(node.rpcUrl, 'anvil_setBalance', [address, '0x0']);
    const error = await chain.broadcast(signed.raw).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error).toMatchObject({ address, code: 'insufficient_funds' });
    expect(await chain.isKnown(signed.hash)).toBe(false);
  });

  it('signs legacy transactions on a chain without a base fee (pre-London)', async () => {
    const port = await findFreePort();
    const legacy = spawn(resolveAnvilBinary(), ['--port', String(port), '--quiet', '--hardfork', 'berlin'], { stdio: 'ignore' });
    try {
      let client: ChainClient | undefined;
      for (let i = 0; !client; i++) {
        client = await ChainClient.connect({ rpcUrl: `http://127.0.0.1:${port}`, chainId: 31337, timeoutMs: 1000 }).catch((e: unknown) => {
          if (i > 100) throw e;
          return new Promise<undefined>((r) => setTimeout(() => r(undefined), 50));
        });
      }
      const owner = await fundedKey(client);
      const registry = await deployRegistry(client, owner.key);
      const root = randomBytes32();
      const { tx, receipt } = await send(client, owner.key, { to: registry, data: encodeIssue(root) });
      expect(parseTransaction(tx.raw).type).toBe('legacy');
      expect(receipt.status).toBe('success');
      expect(await client.isIssued(registry, root)).toBe(true);
    } finally {
      legacy.kill('SIGKILL');
    }
  });

  it('funds and reads balances on the dev chain', async () => {
    const { address } = accountFromPrivateKey(generatePrivateKey());
    expect(await chain.balanceOf(address)).toBe(0n);
    expect(await chain.fund(address, parseEther('2'))).toBe(parseEther('2'));
    expect(await chain.fund(address, parseEther('1'))).toBe(parseEther('3'));
    expect(await chain.balanceOf(address)).toBe(parseEther('3'));
  });
});

describe('connection errors', () => {
  it('refuses a node that serves another chain', async () => {
    await expect(ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: 1 })).rejects.toBeInstanceOf(ChainMismatchError);
  });

  it('refuses dev-only calls on a chain that is not the dev chain', async () => {
    const other = await startNode({ chainId: 4242 });
    const client = await ChainClient.connect({ rpcUrl: other.rpcUrl, chainId: 4242 });
    const error = await client.fund(partner.address, 1n).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainError);
    expect((error as Error).message).toMatch(/only available on the local dev chain/);
    await expect(client.mine()).rejects.toBeInstanceOf(ChainError);
  });

  it('throws ChainUnreachableError within the timeout once the node is stopped', async () => {
    const doomed = await startNode();
    const client = await ChainClient.connect({ rpcUrl: doomed.rpcUrl, chainId: doomed.chainId, timeoutMs: 2000 });
    const { key } = await fundedKey(client);
    const signed = await client.signTransaction(key, { data: encodeDeploy(randomBytes32()), nonce: 0, gas: 500_000n });
    await doomed.stop();

    const started = Date.now();
    await expect(client.nextNonce(partner.address)).rejects.toBeInstanceOf(ChainUnreachableError);
    await expect(client.broadcast(signed.raw)).rejects.toBeInstanceOf(ChainUnreachableError);
    await expect(client.isIssued(registry, randomBytes32())).rejects.toBeInstanceOf(ChainUnreachableError);
    await expect(ChainClient.connect({ rpcUrl: doomed.rpcUrl, chainId: doomed.chainId, timeoutMs: 2000 })).rejects.toBeInstanceOf(ChainUnreachableError);
    expect(Date.now() - started).toBeLessThan(4 * 2000);
  });

  it('throws ChainUnreachableError when the endpoint accepts but never answers', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      const error = await ChainClient.connect({ rpcUrl: `http://127.0.0.1:${port}`, chainId: 31337, timeoutMs: 600 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChainUnreachableError);
      expect((error as ChainUnreachableError).code).toBe('chain_unreachable');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.close();
    }
  });

  it('keeps raw viem errors inside: causes are chained, the class is ours', async () => {
    const error = await ChainClient.connect({ rpcUrl: 'http://127.0.0.1:9', chainId: 31337, timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainUnreachableError);
    expect((error as Error).cause).toBeDefined();
    await expect(ChainClient.connect({ rpcUrl: 'ftp://example.org', chainId: 1 })).rejects.toBeInstanceOf(ChainError);
  });
});
