/**
 * `npm run torture -- --public-chain`: issuing on a chain that behaves like a public one, under
 * fire. anvil runs as Sepolia (chain id 11155111) mining a block every `--block-time` seconds; the
 * engine `sepolia` has finality by 3 confirmations, a fee cap of 50 gwei and replacement after 2
 * blocks. Batches of files are issued with `issue --engine sepolia --now`, SIGKILLed at random and
 * run again to the end, while a chaos loop injects at random:
 *
 * - `anvil_reorg` of depth 1–4, re-including the replaced blocks' transactions (each at its old
 *   place or a later one) or dropping them from some nonce on;
 * - `evm_snapshot`, then `evm_revert` to it a few blocks later (deeper than finality at times);
 * - base fee spikes (`anvil_setNextBlockBaseFeePerGas`, held 1–4 blocks) below and above the cap;
 * - `anvil_dropTransaction` of the account's pending transaction.
 *
 * Every proof written is verified when it appears, one proof per job after each reorg and revert,
 * and all of them at the end. After the chaos stops and the chain settles, the invariants: no
 * genuine proof ever verified `failed` (and every one is `ok` at the end); no root anchored twice
 * (the registries' `Issued` events); no credential lost (each is certified in exactly one finished
 * job, or still scheduled); every job finished; one issue transaction per finished job.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberToHex, parseEther, parseGwei, toEventSelector } from 'viem';
import { ChainClient, startAnvil, type Address, type Hex } from '../main/chain/index.js';
import { VerifyChains } from '../main/engine/proofs/verify-chains.js';
import { ENGINES_FILE, Engine } from '../main/engine/index.js';
import type { ProofFile } from '../main/engine/proofs/proof-file.js';
import { verifyProof } from '../main/engine/proofs/verify-proof.js';
import { openSecretStore } from '../main/secrets/index.js';
import { killAtRandom, killGroup, newDataDir, seededRandom, sleep, startCli, writeInputs } from './torture-support.js';

const SEPOLIA = 11155111;
const ENGINE = 'sepolia';
const CONFIRMATIONS = 3;
const FEE_CAP_GWEI = 50;
const MAX_REORG_DEPTH = 4;
/** A batch's last `issue` run must end within this (a fee spike above the cap holds it a few blocks). */
const BATCH_TIMEOUT_MS = 240_000;
/** After the chaos stops, the engine has this long to bring every job to `finished`. */
const SETTLE_TIMEOUT_MS = 180_000;
const ISSUED_TOPIC = toEventSelector('Issued(bytes32)');

export interface PublicChainTortureOptions {
  /** Keep going until this many reorganisations (anvil_reorg) were injected... */
  reorgs: number;
  /** ...and this many base fee spikes. */
  spikes: number;
  /** SIGKILLs of `issue` over the whole run (0 to 2 per batch until spent). */
  kills: number;
  killsPerBatch: number;
  blockTimeS: number;
  /** Files per batch (one job each). */
  files: number;
  seed: number;
  keep: boolean;
  log: (line: string) => void;
}

export interface PublicChainTortureResult {
  batches: number;
  reorgs: number;
  reincluded: number;
  droppedByReorg: number;
  snapshots: number;
  reverts: number;
  spikesBelowCap: number;
  spikesAboveCap: number;
  drops: number;
  kills: number;
  proofs: number;
  verifications: { ok: number; pending: number; failed: number };
  violations: number;
}

async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** Every proof file seen in the batches' output folder, verified when first seen, after chain events, and at the end. */
class ProofLedger {
  readonly proofs = new Map<string, { proof: ProofFile; content: string }>();
  readonly tally = { ok: 0, pending: 0, failed: 0 };
  private readonly chains: VerifyChains;

  constructor(
    dataDir: string,
    private readonly outDir: string,
    private readonly inDir: string,
    private readonly violations: string[],
  ) {
    this.chains = new VerifyChains({ dataDir });
  }

  /** Reads proof files not seen before and verifies each at once. */
  async scan(): Promise<void> {
    if (!existsSync(this.outDir)) return;
    for (const name of readdirSync(this.outDir)) {
      if (!name.endsWith('.proof.json') || this.proofs.has(name)) continue;
      const input = join(this.inDir, name.slice(0, -'.proof.json'.length));
      const entry = { proof: JSON.parse(readFileSync(join(this.outDir, name), 'utf8')) as ProofFile, content: sha256(readFileSync(input)) };
      this.proofs.set(name, entry);
      await this.verify(name, 'when written');
    }
  }

  /** One proof per anchoring root (they share their transaction): what the chain says of each job now. */
  async verifyEachJob(when: string, random: () => number): Promise<void> {
    const byRoot = new Map<string, string[]>();
    for (const [name, { proof }] of this.proofs) byRoot.set(proof.root, [...(byRoot.get(proof.root) ?? []), name]);
    for (const names of byRoot.values()) await this.verify(names[Math.floor(random() * names.length)]!, when);
  }

  /** Every proof; returns how many were not `ok`. */
  async verifyAll(when: string): Promise<number> {
    let notOk = 0;
    for (const name of this.proofs.keys()) if ((await this.verify(name, when)) !== 'ok') notOk++;
    return notOk;
  }

  private async verify(name: string, when: string): Promise<string> {
    const { proof, content } = this.proofs.get(name)!;
    const result = await verifyProof(proof, this.chains.verifyOptions(content));
    const status = result.result.status;
    if (status === 'ok' || status === 'pending' || status === 'failed') this.tally[status]++;
    if (status === 'failed' || status === 'error') {
      const step = Object.entries(result.verification).find(([, s]) => s.status === 'failed' || s.status === 'error');
      this.violations.push(`proof ${name} verified ${status} ${when}: ${step ? `${step[0]}: ${JSON.stringify(step[1].description)}` : ''}`);
    }
    return status;
  }

  close(): Promise<void> {
    return this.chains.close();
  }
}

/** Injects reorganisations, rollbacks, fee spikes and dropped transactions into the chain at random. */
class Chaos {
  readonly counts = { reorgs: 0, reincluded: 0, droppedByReorg: 0, snapshots: 0, reverts: 0, spikesBelowCap: 0, spikesAboveCap: 0, drops: 0, errors: 0 };
  private snapshot: { id: Hex; block: bigint } | undefined;
  private stopped = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly chain: ChainClient,
    private readonly account: Address,
    private readonly blockMs: number,
    private readonly random: () => number,
    private readonly afterChainEvent: (what: string) => Promise<void>,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      await sleep(this.blockMs * (0.5 + this.random() * 1.5));
      if (this.stopped) break;
      const pick = this.random();
      try {
        if (pick < 0.35) {
          const depth = await this.withMiningPaused(() => this.reorg());
          if (depth > 0) await this.afterChainEvent(`after a reorg of depth ${depth}`);
        } else if (pick < 0.55) {
          if (await this.withMiningPaused(() => this.snapshotOrRevert())) await this.afterChainEvent('after evm_revert');
        } else if (pick < 0.85) {
          await this.spike();
        } else {
          await this.drop();
        }
      } catch (error) {
        // An injection anvil refused (a block mined in between, say) is not the engine's fault.
        this.counts.errors++;
        if (this.counts.errors <= 5) this.log(`    (injection refused: ${(error as Error).message.slice(0, 200)})`);
      }
    }
  }

  /**
   * Runs a rewrite of the chain with anvil's interval mining paused: a block mined by anvil in the
   * middle of its own anvil_reorg or evm_revert left its block store inconsistent (a later nonce
   * mined without the earlier one, blocks missing), which no real chain does.
   */
  private async withMiningPaused<T>(rewrite: () => Promise<T>): Promise<T> {
    await rpc(this.url, 'evm_setIntervalMining', [0]);
    try {
      return await rewrite();
    } finally {
      await rpc(this.url, 'evm_setIntervalMining', [this.blockMs / 1000]);
    }
  }

  /**
   * Replaces the last 1–4 blocks — mostly reaching back to the account's latest transaction when
   * one is that recent. Per sender, in nonce order, the transactions are re-included (each in its
   * old block of the range or a later one) up to a random cut, and the rest dropped: a later
   * nonce cannot be mined without the earlier ones. Returns the depth, or 0 when nothing was done.
   */
  private async reorg(): Promise<number> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const head = await this.chain.blockNumber();
      if (head <= BigInt(MAX_REORG_DEPTH) + 1n) return 0;
      // The last MAX_REORG_DEPTH blocks' transactions, by distance from the head (0: the head).
      const recent: { hash: Hex; from: string; nonce: number; back: number }[] = [];
      for (let back = 0; back < MAX_REORG_DEPTH; back++) {
        const block = await rpc<{ transactions: { hash: Hex; from: string; nonce: Hex }[] }>(this.url, 'eth_getBlockByNumber', [numberToHex(head - BigInt(back)), true]);
        for (const tx of block.transactions) recent.push({ hash: tx.hash, from: tx.from.toLowerCase(), nonce: Number(tx.nonce), back });
      }
      let depth = 1 + Math.floor(this.random() * MAX_REORG_DEPTH);
      const ours = recent.find((tx) => tx.from === this.account.toLowerCase());
      if (ours && this.random() < 0.75) depth = Math.max(depth, ours.back + 1);
      const senders = new Map<string, { hash: Hex; nonce: number; offset: number }[]>();
      for (const tx of recent.filter((t) => t.back < depth)) senders.set(tx.from, [...(senders.get(tx.from) ?? []), { hash: tx.hash, nonce: tx.nonce, offset: depth - 1 - tx.back }]);
      const list: [Hex, number][] = [];
      let found = 0;
      let reincluded = 0;
      for (const txs of senders.values()) {
        txs.sort((a, b) => a.nonce - b.nonce);
        const cut = this.random() < 0.5 ? txs.length : Math.floor(this.random() * txs.length);
        let earliest = 0;
        for (const tx of txs.slice(0, cut)) {
          const offset = Math.min(depth - 1, Math.max(earliest, tx.offset + Math.floor(this.random() * 2)));
          list.push([await rpc<Hex>(this.url, 'eth_getRawTransactionByHash', [tx.hash]), offset]);
          earliest = offset;
        }
        found += txs.length;
        reincluded += cut;
      }
      // A block mined while the list was made shifts the range: make it again.
      if ((await this.chain.blockNumber()) !== head) continue;
      await rpc(this.url, 'anvil_reorg', [depth, list]);
      // anvil forgets the snapshots taken before a reorganisation.
      this.snapshot = undefined;
      this.counts.reorgs++;
      this.counts.reincluded += reincluded;
      this.counts.droppedByReorg += found - reincluded;
      return depth;
    }
    return 0;
  }

  /** Takes a snapshot, or reverts to the one taken 1–8 blocks ago. Returns whether it reverted. */
  private async snapshotOrRevert(): Promise<boolean> {
    const head = await this.chain.blockNumber();
    if (this.snapshot && head > this.snapshot.block && head - this.snapshot.block <= 8n) {
      await rpc(this.url, 'evm_revert', [this.snapshot.id]);
      this.snapshot = undefined;
      this.counts.reverts++;
      return true;
    }
    this.snapshot = { id: await rpc<Hex>(this.url, 'evm_snapshot'), block: head };
    this.counts.snapshots++;
    return false;
  }

  /** Holds the base fee at a spike below or above the cap for 1–4 blocks (dropping a pending transaction now and then), then lets it fall. */
  private async spike(): Promise<void> {
    const above = this.random() < 0.5;
    const gwei = above ? FEE_CAP_GWEI * (1.2 + this.random() * 1.3) : FEE_CAP_GWEI * (0.2 + this.random() * 0.7);
    const blocks = 1 + Math.floor(this.random() * 4);
    if (above) this.counts.spikesAboveCap++;
    else this.counts.spikesBelowCap++;
    for (let b = 0; b < blocks && !this.stopped; b++) {
      await rpc(this.url, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei(gwei.toFixed(3)))]);
      await this.nextBlock();
      if (this.random() < 0.3) await this.drop();
    }
    await rpc(this.url, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei((1 + this.random() * 4).toFixed(3)))]);
  }

  /** Drops the account's pending transaction from the node's pool, if it has one. */
  private async drop(): Promise<void> {
    const pool = await rpc<{ pending: Record<string, Record<string, { hash: Hex }>>; queued: Record<string, Record<string, { hash: Hex }>> }>(this.url, 'txpool_content');
    const ours = [pool.pending, pool.queued].flatMap((group) => Object.entries(group).filter(([from]) => from.toLowerCase() === this.account.toLowerCase()).flatMap(([, byNonce]) => Object.values(byNonce)));
    if (ours.length === 0) return;
    await rpc(this.url, 'anvil_dropTransaction', [ours[Math.floor(this.random() * ours.length)]!.hash]);
    this.counts.drops++;
  }

  private async nextBlock(): Promise<void> {
    const from = await this.chain.blockNumber();
    const until = Date.now() + this.blockMs * 10;
    while ((await this.chain.blockNumber()) === from && Date.now() < until) await sleep(Math.max(50, this.blockMs / 10));
  }
}

/** Runs the public-chain torture; prints a line per batch and a summary; returns the counts. */
export async function runPublicChainTorture(o: PublicChainTortureOptions): Promise<PublicChainTortureResult> {
  const random = seededRandom(o.seed);
  const violations: string[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'proofdesk-torture-chain-'));
  const node = await startAnvil({ stateDir, chainId: SEPOLIA, blockTime: o.blockTimeS });
  const chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: SEPOLIA, devChainIds: [SEPOLIA] });
  const { dataDir, partnerId, address } = await newDataDir(3600);
  const inDir = join(dataDir, 'in');
  const outDir = join(dataDir, 'out');
  writeFileSync(
    join(dataDir, ENGINES_FILE),
    JSON.stringify([
      { id: ENGINE, rpc_url: node.rpcUrl, chain_id: SEPOLIA, finality: 'confirmations', confirmations: CONFIRMATIONS, fee_cap_gwei: FEE_CAP_GWEI, replace_after_blocks: 2, environment: 'demo' },
    ]),
  );
  await chain.fund(address as Address, parseEther('100'));
  const ledger = new ProofLedger(dataDir, outDir, inDir, violations);
  const chaos = new Chaos(node.rpcUrl, chain, address as Address, o.blockTimeS * 1000, random, (when) => ledger.verifyEachJob(when, random), o.log);
  o.log(
    `torture --public-chain: anvil as Sepolia (${o.blockTimeS} s blocks), ${CONFIRMATIONS} confirmations, fee cap ${FEE_CAP_GWEI} gwei; until ${o.reorgs} reorgs and ${o.spikes} fee spikes, ${o.kills} kills, ${o.files} files per batch, seed ${o.seed}`,
  );
  const started = Date.now();
  let batches = 0;
  let kills = 0;
  const spikes = () => chaos.counts.spikesBelowCap + chaos.counts.spikesAboveCap;
  chaos.start();
  try {
    for (; chaos.counts.reorgs < o.reorgs || spikes() < o.spikes; batches++) {
      const batchStarted = Date.now();
      const files = writeInputs(inDir, o.files, `p${batches}`);
      const argv = ['issue', ...files, '--engine', ENGINE, '--now', '--out', outDir, '--data', dataDir];
      const toKill = Math.min(o.kills - kills, Math.floor(random() * (o.killsPerBatch + 1)));
      for (let k = 0; k < toKill; k++) if (await killAtRandom(startCli(argv), 6000, random)) kills++;
      const final = startCli(argv);
      const timer = setTimeout(() => killGroup(final.pid), BATCH_TIMEOUT_MS);
      const end = await final.exited;
      clearTimeout(timer);
      if (end.code !== 0) violations.push(`batch ${batches}: the last issue run ended with ${end.code ?? end.signal}: ${final.output().slice(-800)}`);
      await ledger.scan();
      o.log(
        `#${batches}: ${o.files} files, ${toKill} kill(s) tried (${Math.round((Date.now() - batchStarted) / 1000)} s); so far ${chaos.counts.reorgs} reorgs, ${spikes()} spikes, ${chaos.counts.reverts} reverts, ${chaos.counts.drops} drops, ${violations.length} violation(s)`,
      );
      if (end.code !== 0) break;
    }
  } finally {
    await chaos.stop();
  }

  // The chain calms down: fees low, blocks keep coming. The engine follows every job to final.
  await rpc(node.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('1'))]);
  await settleAndCheck(dataDir, partnerId, address as Address, chain, violations, o.log);
  const notOk = await ledger.verifyAll('at the end');
  if (notOk > 0) violations.push(`${notOk} proof(s) not ok at the end`);
  await ledger.close();
  await node.stop();
  if (!o.keep) {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }

  const c = chaos.counts;
  const result: PublicChainTortureResult = {
    batches,
    reorgs: c.reorgs,
    reincluded: c.reincluded,
    droppedByReorg: c.droppedByReorg,
    snapshots: c.snapshots,
    reverts: c.reverts,
    spikesBelowCap: c.spikesBelowCap,
    spikesAboveCap: c.spikesAboveCap,
    drops: c.drops,
    kills,
    proofs: ledger.proofs.size,
    verifications: ledger.tally,
    violations: violations.length,
  };
  for (const v of violations) o.log(`    VIOLATION: ${v}`);
  o.log(
    `total: ${batches} batches, ${result.proofs} proofs, ${result.reorgs} reorgs (${result.reincluded} transactions re-included, ${result.droppedByReorg} dropped), ${result.reverts} reverts (${result.snapshots} snapshots), ` +
      `${result.spikesBelowCap + result.spikesAboveCap} fee spikes (${result.spikesBelowCap} below the cap, ${result.spikesAboveCap} above), ${result.drops} drops, ${result.kills} kills, ` +
      `verifications ${result.verifications.ok} ok / ${result.verifications.pending} pending / ${result.verifications.failed} failed, ${c.errors} injections refused, ` +
      `${result.violations} violations (${Math.round((Date.now() - started) / 1000)} s, seed ${o.seed})`,
  );
  return result;
}

/**
 * Runs the engine's rounds (the scheduler's, explicit) until every job is finished and stays so
 * for a finality depth of new blocks, then checks the invariants through the service and the chain.
 */
async function settleAndCheck(dataDir: string, partnerId: string, address: Address, chain: ChainClient, violations: string[], log: (line: string) => void): Promise<void> {
  const engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: await openSecretStore({ dataDir }), issuing: { onError: () => undefined, onNotice: () => undefined } });
  try {
    const service = engine.serviceFor(partnerId);
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let settledAt: bigint | undefined;
    for (;;) {
      await engine.issuing.tick();
      const jobs = (await service.listJobs({ per_page: 0 })).items;
      const head = await chain.blockNumber();
      if (jobs.every((j) => j.status === 'finished')) {
        settledAt ??= head;
        if (head - settledAt > BigInt(CONFIRMATIONS)) break;
      } else {
        settledAt = undefined;
      }
      if (Date.now() > deadline) {
        const open = jobs.filter((j) => j.status !== 'finished');
        violations.push(`${open.length} job(s) not finished ${SETTLE_TIMEOUT_MS / 1000} s after the chaos stopped: ${open.map((j) => `${j.uid} ${j.status}${j.waiting ? ` (${j.waiting})` : ''}${j.failure_reason ? ` (${j.failure_reason})` : ''}`).join('; ')}`);
        break;
      }
      await sleep(250);
    }

    // No credential lost: each is certified in exactly one finished job, or still scheduled.
    const jobs = (await service.listJobs({ per_page: 0 })).items;
    const certified = new Map<string, number>();
    const scheduled = new Set<string>();
    const roots = new Set<string>();
    for (const job of jobs) {
      if (job.status === 'finished') {
        for (const c of (await service.listJobCertificates(job.uid, { per_page: 0 })).items) certified.set(c.certificate.credential.uid, (certified.get(c.certificate.credential.uid) ?? 0) + 1);
        const root = engine.issuing.ctx.db.prepare('SELECT root FROM jobs WHERE uid = ?').pluck().get(job.uid) as string | null;
        if (root) roots.add(root.toLowerCase());
      } else if (job.status === 'scheduled') {
        for (const c of (await service.listJobCredentials(job.uid, { per_page: 0 })).items) scheduled.add(c.uid);
      } else {
        violations.push(`job ${job.uid} ended ${job.status}${job.failure_reason ? `: ${job.failure_reason}` : ''}`);
      }
    }
    const credentials = (await service.listCredentials({ per_page: 0 })).items;
    for (const c of credentials) {
      const n = certified.get(c.uid) ?? 0;
      if (n > 1) violations.push(`credential ${c.uid} certified in ${n} finished jobs`);
      if (n === 0 && !scheduled.has(c.uid)) violations.push(`credential ${c.uid} lost: in no finished job and not scheduled`);
    }

    // No root anchored twice, and each finished job's root anchored once (the registries' events).
    const logs = await rpc<{ topics: Hex[] }[]>(chain.rpcUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [ISSUED_TOPIC] }]);
    const anchored = new Map<string, number>();
    for (const entry of logs) anchored.set(entry.topics[1]!.toLowerCase(), (anchored.get(entry.topics[1]!.toLowerCase()) ?? 0) + 1);
    for (const [root, n] of anchored) if (n > 1) violations.push(`root ${root} anchored ${n} times`);
    for (const root of roots) if (!anchored.has(root)) violations.push(`the root ${root} of a finished job is not anchored on the chain`);

    // One issue transaction per finished job: the account's mined nonce count is 1 deployment + the finished jobs.
    const finished = jobs.filter((j) => j.status === 'finished').length;
    const mined = await chain.minedNonce(address);
    if (mined !== 1 + finished) violations.push(`the account has ${mined} mined transactions, expected 1 deployment + ${finished} finished job(s)`);
    log(`settled: ${jobs.length} jobs (${finished} finished), ${credentials.length} credentials, ${anchored.size} roots anchored`);
  } catch (error) {
    violations.push(`checking failed: ${(error as Error).message}`);
  } finally {
    await engine.close();
  }
}
