/**
 * Engine part 2 benchmarks on a real anvil: issuing 100,000 credentials in one job end to end
 * (in a process of its own: its peak RSS, and its bytes on disk per credential),
 * exporting their proof files, and verifying the proofs offline (the steps that need no chain).
 * Issuing is compared with its limit measured in the same process: SHA-256 and an Ed25519
 * signature of the very payloads the job signed, in a tight loop on one thread.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Engine } from '../main/engine/index.js';
import { payloadText } from '../main/engine/proofs/payload-codec.js';
import { verifyProof } from '../main/engine/proofs/verify-proof.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { observeMachine, type MachineWindow } from './machine.js';
import { describeDiskByTable } from './disk-by-table.js';
import type { IssuingJobFigures } from './issuing-job.js';
import { benchDir, repeatUntilStable, repeatedFigure, timed, type BenchResult, type Repeated } from './measure.js';

/** PROOFDESK_BENCH_ISSUING_COUNT: a smaller job, to try the benchmark out quickly. */
const COUNT = Number(process.env.PROOFDESK_BENCH_ISSUING_COUNT ?? 100_000);
const BATCH = 10_000;
/** Payloads per round of the hash + sign limit, and proof files per round of offline verification. */
const LIMIT_ROUND = 5_000;
const VERIFY_ROUND = 20_000;

/** The libsodium calls the limit makes (sodium-native has no types of its own). */
interface Sodium {
  crypto_sign_SECRETKEYBYTES: number;
  crypto_sign_PUBLICKEYBYTES: number;
  crypto_sign_BYTES: number;
  crypto_sign_keypair(publicKey: Buffer, secretKey: Buffer): void;
  crypto_sign_detached(signature: Buffer, message: Buffer, secretKey: Buffer): void;
}

/**
 * SHA-256 of each payload and the Ed25519 signature of the digest, as the signer's workers do,
 * with the same library they sign with (libsodium): the fastest one thread is known to go.
 */
function hashAndSign(payloads: string[]): number {
  const sodium = createRequire(import.meta.url)('sodium-native') as Sodium;
  const secretKey = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_keypair(Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES), secretKey);
  const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
  const { ms } = timedSync(() => {
    for (const payload of payloads) sodium.crypto_sign_detached(signature, createHash('sha256').update(payload).digest(), secretKey);
  });
  return payloads.length / (ms / 1000);
}

function timedSync(fn: () => void): { ms: number } {
  const start = process.hrtime.bigint();
  fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** The canonical payloads of a job's certificates, as the signer hashed and signed them, in leaf order. */
export function jobPayloads(db: { prepare(sql: string): { all(...params: unknown[]): unknown[] } }, jobUid: string): string[] {
  const rows = db
    .prepare('SELECT c.payload, p.payload_dictionary AS dictionary FROM certificates c JOIN jobs j ON j.id = c.job_id JOIN job_proof_parts p ON p.job_id = j.id WHERE j.uid = ? ORDER BY c.leaf_index')
    .all(jobUid) as { payload: Buffer; dictionary: Buffer }[];
  return rows.map((r) => payloadText(r.payload, r.dictionary));
}

/** The limit: SHA-256 + Ed25519 of the payloads on one thread, payloads/s, repeated until stable (rounds of LIMIT_ROUND). */
export function hashAndSignLimit(payloads: string[]): Promise<Repeated> {
  return repeatUntilStable((round) => {
    const start = (round * LIMIT_ROUND) % payloads.length;
    return hashAndSign(payloads.slice(start, start + LIMIT_ROUND));
  });
}

let jobBuilt = false;

/** The issuing job bundled as the CLI is (scripts/build-bench-job.mjs), built once per benchmark run. */
function issuingJobEntry(): string {
  const root = join(import.meta.dirname, '..');
  if (!jobBuilt) execFileSync(process.execPath, [join(root, 'scripts/build-bench-job.mjs')], { stdio: 'ignore' });
  jobBuilt = true;
  return join(root, 'out/bench/issuing-job.js');
}

/**
 * Creates, schedules and issues one job of `count` credentials in a child process (see
 * issuing-job.ts, run bundled as the CLI is; `extra`: its options).
 */
export function issueJobInChild(count: number, dataDir: string, extra: string[] = []): Promise<IssuingJobFigures> {
  const entry = issuingJobEntry();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, String(count), dataDir, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as IssuingJobFigures) : reject(new Error(`the issuing job's process ended with code ${code}`))));
  });
}

/** Rows for one job's figures: rate, peak RSS and bytes on disk per credential beyond its metadata. */
export function jobRows(figures: IssuingJobFigures, machine: MachineWindow, limit?: number): BenchResult[] {
  const rate = figures.count / (figures.ms / 1000);
  const label = figures.count.toLocaleString('en-US');
  return [
    {
      name: `issue ${label} credentials end to end (create → finished)`,
      value: rate,
      unit: 'credentials/s',
      target: { value: 10_000, better: 'higher' },
      machine,
      ...(limit ? { ratio: { value: rate / limit, against: '1-thread hash+sign limit' } } : {}),
      notes: ['too long to repeat', `${(figures.ms / 1000).toFixed(1)} s`],
    },
    { name: `issuing ${label}, peak RSS (own process, maxrss)`, value: figures.peakRssMiB, unit: 'MiB', target: { value: 1024, better: 'lower' }, machine },
    {
      name: `disk per credential beyond its metadata (${label})`,
      value: (figures.databaseBytes - figures.metadataBytes) / figures.count,
      unit: 'bytes',
      target: { value: 2048, better: 'lower' },
      machine,
      notes: [
        `database + WAL after checkpoint ${(figures.databaseBytes / 1024 / 1024).toFixed(0)} MiB, metadata ${(figures.metadataBytes / figures.count).toFixed(0)} B/credential`,
        `B/credential by table with its indexes: ${describeDiskByTable(figures.tables, figures.count)}`,
      ],
    },
  ];
}

/** `npm run bench -- --only million`: one job of 1,000,000 credentials, its time, peak RSS and disk. */
export async function millionBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(os.tmpdir(), 'proofdesk-bench-million-'));
  try {
    log('issuing 1,000,000 credentials in one job, end to end, in a child process...');
    const window = observeMachine();
    const figures = await issueJobInChild(1_000_000, join(dir, 'data'));
    return jobRows(figures, window.end());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function issuingBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-issuing-');
  const dataDir = join(dir, 'data');
  let engine: Engine | undefined;
  const results: BenchResult[] = [];
  try {
    log(`issuing ${COUNT} credentials in one job, end to end, in a child process...`);
    const issuing = observeMachine();
    const figures = await issueJobInChild(COUNT, dataDir);
    const issuingWindow = issuing.end();
    engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: new MemorySecretStore() });
    const service = engine.serviceFor(figures.partnerId);
    const issued = { result: { uid: figures.jobUid } };
    const certificates = await service.listJobCertificates(issued.result.uid, { per_page: 1 });
    if (certificates.total_items !== COUNT) throw new Error(`expected ${COUNT} certificates, found ${certificates.total_items}`);

    log(`the limit: SHA-256 + Ed25519 of the job's own payloads, one thread (rounds of ${LIMIT_ROUND})...`);
    const payloads = jobPayloads(engine.issuing.ctx.db, issued.result.uid);
    if (payloads.length !== COUNT) throw new Error(`expected ${COUNT} payloads, found ${payloads.length}`);
    const limit = await hashAndSignLimit(payloads);
    results.push(...jobRows(figures, issuingWindow, limit.value));
    results.push({ name: 'limit: SHA-256 + Ed25519 of the same payloads, 1 thread', ...repeatedFigure(limit), unit: 'payloads/s', notes: [`${os.availableParallelism()} signer threads in the engine`] });

    log(`exporting ${COUNT} proof files...`);
    const out = join(dir, 'proofs');
    mkdirSync(out);
    const exporting = observeMachine();
    const exported = await timed(async () => {
      for (let page = 1; ; page++) {
        const items = (await service.listJobCertificates(issued.result.uid, { per_page: BATCH, page })).items;
        if (items.length === 0) break;
        for (const item of items) writeFileSync(join(out, `${item.certificate.uid}.proof.json`), await service.downloadCertificate(item.certificate.uid));
      }
    });
    results.push({ name: 'export proof files to disk', value: COUNT / (exported.ms / 1000), unit: 'proofs/s', machine: exporting.end(), notes: ['writes every file once'] });

    log(`verifying ${COUNT} proof files offline...`);
    const options = { ...engine.issuing.verifyOptions(), chainFor: () => undefined };
    const files = readdirSync(out);
    // Rounds over successive slices of the files, starting over once all were verified.
    const verified = await repeatUntilStable(async (round) => {
      const start = (round * VERIFY_ROUND) % files.length;
      const slice = files.slice(start, start + VERIFY_ROUND);
      const { ms } = await timed(async () => {
        for (const file of slice) {
          const result = await verifyProof(JSON.parse(readFileSync(join(out, file), 'utf8')), options);
          // Offline, the chain steps wait: every other step must have passed.
          if (result.result.status !== 'pending' || result.verification.issuer.status !== 'passed') throw new Error(`${file}: ${result.result.status}`);
        }
      });
      return slice.length / (ms / 1000);
    });
    results.push({ name: 'verify proof files offline', ...repeatedFigure(verified), unit: 'proofs/s', target: { value: 5_000, better: 'higher' } });
    return results;
  } finally {
    await engine?.close();
  }
}
