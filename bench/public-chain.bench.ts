/**
 * RPC load of issuing on a public-like chain: anvil mining a block every 2 s as Base Sepolia
 * (chain id 84532; the engine learns its block time from the chain), behind a loopback proxy that
 * counts requests, with the scheduler ticking every 250 ms as the CLI does. Finality is a depth
 * of 3 blocks (Base Sepolia's default, the `finalized` tag, would wait for anvil's finalized
 * block, 64 blocks behind its head). The figures: the requests
 * per block a job's transaction waited, from sent to `finished` (3 confirmations), and all the
 * requests of a job from scheduled to finished. The first job (registry deployment, connection,
 * reconciliation) is not counted.
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
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([{ id: 'base-sepolia', rpc_url: proxy.url, chain_id: CHAIN_ID, finality: 'confirmations', confirmations: 3, environment: 'live' }]));
  const engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { scheduler: true, tickMs: 250, onError: () => undefined } });
  try {
    const chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: CHAIN_ID });
    const partner = await engine.addPartner({ name: 'Bench Polytechnic', issuingIntervalSeconds: 1 });
    await rpc(node.rpcUrl, 'anvil_setBalance', [partner.address, numberToHex(parseEther('10'))]);
    const service = engine.serviceFor(partner.partner_id);

    const issueOne = async (n: number) => {
      const credentials = await service.createCredentials([{ title: `Bench ${n}`, metadata: { n } }]);
      const job = await service.scheduleCredentials({ engine: 'base-sepolia', credentials: credentials.map((c) => c.uid) });
      const start = { requests: proxy.methods.length, block: await chain.blockNumber() };
      let sent: { requests: number; block: bigint } | undefined;
      for (;;) {
        const current = await service.getJob(job.uid);
        if (current.status === 'finished') break;
        if (current.status === 'failed') throw new Error(`bench job failed: ${current.failure_reason}`);
        if (!sent && current.transaction) sent = { requests: proxy.methods.length, block: await chain.blockNumber() };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const end = { requests: proxy.methods.length, block: await chain.blockNumber() };
      sent ??= end;
      const methods = new Map<string, number>();
      for (const m of proxy.methods.slice(start.requests)) methods.set(m, (methods.get(m) ?? 0) + 1);
      return {
        requests: end.requests - start.requests,
        waitingRequests: end.requests - sent.requests,
        blocksWaited: Number(end.block - sent.block),
        methods: [...methods].map(([m, c]) => `${m} ${c}`).join(', '),
      };
    };

    log(`public-like chain (${BLOCK_TIME_S} s blocks, 3 confirmations): a first job to deploy the registry...`);
    await issueOne(0);
    let requests = 0;
    let waitingRequests = 0;
    let blocksWaited = 0;
    for (let n = 1; n <= JOBS; n++) {
      const one = await issueOne(n);
      log(`  job ${n}: ${one.requests} RPC requests, ${one.waitingRequests} of them over the ${one.blocksWaited} blocks its transaction waited (${one.methods})`);
      requests += one.requests;
      waitingRequests += one.waitingRequests;
      blocksWaited += one.blocksWaited;
    }
    return [
      {
        name: `RPC requests per block waited, from sent to finished, on a ${BLOCK_TIME_S} s block chain (scheduler tick 250 ms)`,
        value: waitingRequests / Math.max(1, blocksWaited),
        unit: 'requests/block',
        target: { value: 2, better: 'lower' },
      },
      { name: `RPC requests per finished job on a ${BLOCK_TIME_S} s block chain, 3 confirmations (funds check, signing, waiting)`, value: requests / JOBS, unit: 'requests' },
    ];
  } finally {
    await engine.close();
    await proxy.close();
    await node.stop();
  }
}
