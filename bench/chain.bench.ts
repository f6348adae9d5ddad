/**
 * What it costs to make the local chain durable before a transaction counts as mined: one
 * anvil_dumpState + write + fsync + rename + directory fsync (persistAnvilState), on a fresh
 * chain and on one with 1,000 more blocks of issue-sized transactions.
 */
import { ChainClient, generatePrivateKey, accountFromPrivateKey, persistAnvilState, startAnvil, encodeDeploy } from '../main/chain/index.js';
import { benchDir, percentile, timed, type BenchResult } from './measure.js';

async function dumpCost(rpcUrl: string, stateDir: string, samples: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push((await timed(() => persistAnvilState(rpcUrl, stateDir))).ms);
  return percentile(times, 50);
}

export async function chainBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const stateDir = benchDir('proofdesk-bench-chain-');
  const node = await startAnvil({ stateDir });
  try {
    const chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId });
    log('durable local chain state: dump + fsync on a fresh chain...');
    const fresh = await dumpCost(node.rpcUrl, stateDir, 20);
    const key = generatePrivateKey();
    const { address } = accountFromPrivateKey(key);
    await chain.fund(address, 10n ** 21n);
    log('... and after 1,000 more blocks with a transaction each');
    for (let nonce = 0; nonce < 1000; nonce++) {
      const tx = await chain.signTransaction(key, { data: encodeDeploy(`0x${nonce.toString(16).padStart(64, '0')}`), nonce, gas: 400_000n });
      await chain.broadcast(tx.raw);
    }
    const grown = await dumpCost(node.rpcUrl, stateDir, 20);
    return [
      { name: 'durable local chain state before "mined" (fresh chain), median', value: fresh, unit: 'ms' },
      { name: 'durable local chain state before "mined" (1,000 tx blocks), median', value: grown, unit: 'ms' },
    ];
  } finally {
    await node.stop();
  }
}
