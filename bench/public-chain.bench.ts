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
import { numberToHex, parseEther, parseGwei } from 'viem';
import { ChainClient, startAnvil } from '../main/chain/index.js';
import { ENGINES_FILE, Engine, type EmbeddedService } from '../main/engine/index.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { rpc, startRpcProxy } from '../test/chain/chain-fixture.js';
import { benchDir, type BenchResult } from './measure.js';

const CHAIN_ID = 84532;
const BLOCK_TIME_S = 2;
const JOBS = 3;
/** The engine's fee cap, and the base fee of the spike above it. */
const FEE_CAP_GWEI = 50;
const SPIKE_GWEI = 100;
const SPIKES = 3;

/**
 * Holds the chain's base fee at SPIKE_GWEI (above the cap) while a job becomes due and says it
 * waits for fees, then lets it fall: returns the seconds and blocks from the first block below the
 * cap to the job finished. The chain is asked directly, not through the counting proxy.
 */
async function spikeThenFinish(rpcUrl: string, chain: ChainClient, service: EmbeddedService, n: number): Promise<{ seconds: number; blocks: number }> {
  const cap = parseGwei(String(FEE_CAP_GWEI));
  let holding = true;
  const holder = (async () => {
    let seen = -1n;
    while (holding) {
      const head = await chain.blockNumber();
      if (head !== seen) {
        await rpc(rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei(String(SPIKE_GWEI)))]);
        seen = head;
      }
      await sleep(100);
    }
  })();
  while (((await chain.head()).baseFeePerGas ?? 0n) <= cap) await sleep(100);
  const credentials = await service.createCredentials([{ title: `Spike ${n}`, metadata: { n } }]);
  const job = await service.scheduleCredentials({ engine: 'base-sepolia', credentials: credentials.map((c) => c.uid) });
  while (!(await service.getJob(job.uid)).waiting?.startsWith('waiting for fees below')) await sleep(100);
  // It waits a few blocks more, as it would through a real spike.
  const waitingFrom = await chain.blockNumber();
  while ((await chain.blockNumber()) < waitingFrom + 2n) await sleep(100);
  holding = false;
  await holder;
  await rpc(rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('1'))]);
  let head = await chain.head();
  while ((head.baseFeePerGas ?? 0n) > cap) {
    await sleep(50);
    head = await chain.head();
  }
  const end = { at: performance.now(), block: head.number };
  for (;;) {
    const current = await service.getJob(job.uid);
    if (current.status === 'finished') break;
    if (current.status === 'failed') throw new Error(`bench job failed: ${current.failure_reason}`);
    await sleep(50);
  }
  return { seconds: (performance.now() - end.at) / 1000, blocks: Number((await chain.blockNumber()) - end.block) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "method count, ..." of a list of JSON-RPC methods, most frequent first. */
function countMethods(methods: string[]): string {
  const counts = new Map<string, number>();
  for (const m of methods) counts.set(m, (counts.get(m) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([m, c]) => `${m} ${c}`)
    .join(', ');
}

export async function publicChainBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const node = await startAnvil({ stateDir: benchDir('proofdesk-bench-public-chain-'), chainId: CHAIN_ID, blockTime: BLOCK_TIME_S });
  const proxy = await startRpcProxy(node.rpcUrl);
  const dataDir = benchDir('proofdesk-bench-public-chain-data-');
  writeFileSync(join(dataDir, ENGINES_FILE), JSON.stringify([{ id: 'base-sepolia', rpc_url: proxy.url, chain_id: CHAIN_ID, finality: 'confirmations', confirmations: 3, fee_cap_gwei: FEE_CAP_GWEI, environment: 'live' }]));
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
        // Sent: from the broadcast on (the job shows its transaction once stored, a moment before).
        const broadcast = proxy.methods.indexOf('eth_sendRawTransaction', start.requests);
        if (!sent && current.transaction && broadcast >= 0) sent = { requests: broadcast + 1, block: await chain.blockNumber() };
        await sleep(100);
      }
      const end = { requests: proxy.methods.length, block: await chain.blockNumber() };
      sent ??= end;
      return {
        requests: end.requests - start.requests,
        waitingRequests: end.requests - sent.requests,
        blocksWaited: Number(end.block - sent.block),
        methods: countMethods(proxy.calls.slice(start.requests)),
        waitingMethods: countMethods(proxy.calls.slice(sent.requests, end.requests)),
      };
    };

    log(`public-like chain (${BLOCK_TIME_S} s blocks, 3 confirmations): a first job to deploy the registry...`);
    await issueOne(0);
    let requests = 0;
    let waitingRequests = 0;
    let blocksWaited = 0;
    for (let n = 1; n <= JOBS; n++) {
      const one = await issueOne(n);
      log(`  job ${n}: ${one.requests} RPC requests (${one.methods}), ${one.waitingRequests} of them over the ${one.blocksWaited} blocks its transaction waited (${one.waitingMethods})`);
      requests += one.requests;
      waitingRequests += one.waitingRequests;
      blocksWaited += one.blocksWaited;
    }
    // A fee spike above the cap: the due job waits (scheduled, "waiting for fees below 50 gwei");
    // the spike ends (the first block below the cap); how long until the job is finished.
    const afterSpike: { seconds: number; blocks: number }[] = [];
    for (let n = 1; n <= SPIKES; n++) {
      const one = await spikeThenFinish(node.rpcUrl, chain, service, n);
      log(`  fee spike ${n}: the job finished ${one.seconds.toFixed(1)} s (${one.blocks} blocks) after the first block below the cap`);
      afterSpike.push(one);
    }
    const median = [...afterSpike].sort((a, b) => a.seconds - b.seconds)[Math.floor(afterSpike.length / 2)]!;
    return [
      {
        name: `RPC requests per block waited, from sent to finished, on a ${BLOCK_TIME_S} s block chain (scheduler tick 250 ms)`,
        value: waitingRequests / Math.max(1, blocksWaited),
        unit: 'requests/block',
        target: { value: 2, better: 'lower' },
      },
      { name: `RPC requests per finished job on a ${BLOCK_TIME_S} s block chain, 3 confirmations (funds check, signing, waiting)`, value: requests / JOBS, unit: 'requests' },
      {
        name: `time from a fee spike's end (the first block below the ${FEE_CAP_GWEI} gwei cap) to the job finished, ${BLOCK_TIME_S} s blocks, 3 confirmations`,
        value: median.seconds,
        unit: 's',
        notes: [`median of ${SPIKES}: ${afterSpike.map((a) => `${a.seconds.toFixed(1)} s / ${a.blocks} blocks`).join(', ')}`],
      },
    ];
  } finally {
    await engine.close();
    await proxy.close();
    await node.stop();
  }
}
