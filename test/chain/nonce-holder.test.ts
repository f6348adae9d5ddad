/**
 * Which mined transaction holds a nonce, asked of a real anvil by block number: found from any
 * block the search starts at, null for a nonce not mined, and a known transaction's signed bytes
 * rebuilt exactly. Also the registry's issuing transaction of a root, and issuedAt as of a block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainClient, encodeIssue, type AnvilNode, type Hex } from '../../main/chain/index.js';
import { deployRegistry, fundedKey, randomBytes32, send, startNode, stopAllNodes, type FundedKey } from './chain-fixture.js';

let node: AnvilNode;
let chain: ChainClient;
let account: FundedKey;
/** Per nonce of `account`: its transaction's hash, signed bytes and block. */
const sent: { hash: Hex; raw: Hex; block: bigint }[] = [];

beforeAll(async () => {
  node = await startNode();
  chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId, devChainIds: [node.chainId] });
  account = await fundedKey(chain);
  // Nonces 0-4, with empty blocks of other heights between them.
  for (let nonce = 0; nonce < 5; nonce++) {
    await chain.mine(nonce + 1);
    const { tx, receipt } = await send(chain, account.key, { to: account.address, data: '0x' });
    sent.push({ hash: tx.hash, raw: tx.raw, block: receipt.blockNumber });
  }
  await chain.mine(3);
});

afterAll(stopAllNodes);

describe('minedByNonce', () => {
  it('finds the mined transaction of each nonce, whichever block the search starts at', async () => {
    const head = await chain.blockNumber();
    for (const [nonce, expected] of sent.entries()) {
      for (const near of [undefined, 0n, 1n, expected.block - 1n, expected.block, expected.block + 1n, head]) {
        const holder = await chain.minedByNonce(account.address, nonce, head, near);
        expect(holder, `nonce ${nonce} from block ${near}`).toMatchObject({ hash: expected.hash, blockNumber: expected.block });
      }
    }
  });

  it('is null for a nonce not mined at the block asked about', async () => {
    expect(await chain.minedByNonce(account.address, 5, await chain.blockNumber())).toBeNull();
    // As of the block before nonce 3's, nonce 3 was not mined yet.
    expect(await chain.minedByNonce(account.address, 3, sent[3]!.block - 1n)).toBeNull();
  });

  it('rebuilds a known transaction\'s signed bytes exactly, and says null for an unknown hash', async () => {
    for (const { hash, raw } of sent) expect(await chain.signedBytesOf(hash)).toBe(raw);
    expect(await chain.signedBytesOf(randomBytes32())).toBeNull();
  });
});

describe('a root on the registry, as of a block', () => {
  it('issuedAt before and after the issuing block, and the issuing transaction from the Issued log', async () => {
    const owner = await fundedKey(chain);
    const registry = await deployRegistry(chain, owner.key);
    const root = randomBytes32();
    const { tx, receipt } = await send(chain, owner.key, { to: registry, data: encodeIssue(root) });
    expect(await chain.issuedAt(registry, root, receipt.blockNumber - 1n)).toBe(0n);
    expect(await chain.issuedAt(registry, root, receipt.blockNumber)).toBeGreaterThan(0n);
    expect(await chain.issuingTransaction(registry, root, 0n, await chain.blockNumber())).toBe(tx.hash);
    expect(await chain.issuingTransaction(registry, randomBytes32(), 0n, await chain.blockNumber())).toBeNull();
  });
});
