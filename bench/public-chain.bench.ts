/**
 * RPC load of issuing on a public-like chain: anvil mining a block every 2 s as Base Sepolia
 * (chain id 84532, whose block time the engine knows), behind a loopback proxy that counts
 * requests, with the scheduler ticking every 250 ms as the CLI does. The figure is the requests
 * per block a job waited, from its start to `finished` (3 confirmations); the first job (registry
 * deployment, connection, reconciliation) is not counted.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberToHex, parseEther } from 'viem';
import { ChainClient, startAnvil } from '../main/chain/index.js';
import { ENGINES_FILE, Engine } from '../main/engine/index.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { rpc, startRpcProxy } from '../test/chain/chain-fixture.js';
import { benchDir, type BenchResult } from './measure.js';

const CHAIN_ID = 84532;
const BLOCK_TIME_S = 2;
const JOBS = 3;

export async function publicChainBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const node = await startAnvil({ stateDir: benchDir('proofdesk-bench-public-chain-'), chainId: CHAIN_ID, blockTime: BLOCK_TIME_S });
  const proxy = await startRpcProxy(node.rpcUrl);
  const dataDir = benchDir('proofdesk-bench-public-chain-data-');
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([{ id: 'base-sepolia', rpc_url: proxy.url, chain_id: CHAIN_ID, confirmations: 3, environment: 'live' }]));
  const engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { scheduler: true, tickMs: 250, onError: () => undefined } });
  try {
    const chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: CHAIN_ID });
    const partner = await engine.addPartner({ name: 'Bench Polytechnic', issuingIntervalSeconds: 1 });
    await rpc(node.rpcUrl, 'anvil_setBalance', [partner.address, numberToHex(parseEther('10'))]);
    const service = engine.serviceFor(partner.partner_id);

    const issueOne = async (n: number) => {
      const credentials = await service.createCredentials([{ title: `Bench ${n}`, metadata: { n } }]);
      const job = await service.scheduleCredentials({ engine: 'base-sepolia', credentials: credentials.map((c) => c.uid) });
      const requestsBefore = proxy.methods.length;
      const blockBefore = await chain.blockNumber();
      for (;;) {
        const current = await service.getJob(job.uid);
        if (current.status === 'finished') break;
        if (current.status === 'failed') throw new Error(`bench job failed: ${current.failure_reason}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return { requests: proxy.methods.length - requestsBefore, blocks: Number((await chain.blockNumber()) - blockBefore) };
    };

    log(`public-like chain (${BLOCK_TIME_S} s blocks, 3 confirmations): a first job to deploy the registry...`);
    await issueOne(0);
    let requests = 0;
    let blocks = 0;
    for (let n = 1; n <= JOBS; n++) {
      const one = await issueOne(n);
      log(`  job ${n}: ${one.requests} RPC requests over ${one.blocks} blocks`);
      requests += one.requests;
      blocks += one.blocks;
    }
    return [
      { name: `RPC requests per block waited, issuing on a ${BLOCK_TIME_S} s block chain (scheduler tick 250 ms)`, value: requests / Math.max(1, blocks), unit: 'requests/block', target: { value: 2, better: 'lower' } },
      { name: `RPC requests per finished job on a ${BLOCK_TIME_S} s block chain, 3 confirmations`, value: requests / JOBS, unit: 'requests' },
    ];
  } finally {
    await engine.close();
    await proxy.close();
    await node.stop();
  }
}
