/**
 * Where the CPU of checking a proof offline goes, step by step, on this one thread: the steps a
 * verify worker (main/engine/proofs/verify-offline.ts) runs for each file of `verify DIR`, then
 * the message that carries a batch's outcomes to the main thread and the six steps there, each
 * timed over the same proofs. Not registered in run.ts:
 * `npx tsx bench/verify-offline-steps.ts [COUNT]` (default 5,000 proofs of one job, the `cli`
 * benchmark's). Prints CPU µs per proof, the best and the median of ROUNDS rounds (the best is
 * the least disturbed by other work on the machine).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { leafOf } from '../main/engine/proofs/certificate-payload.js';
import { verifySignature } from '../main/engine/proofs/ed25519.js';
import { MerklePairMemo } from '../main/engine/proofs/merkle-tree.js';
import type { ProofFile } from '../main/engine/proofs/proof-file.js';
import { OFFLINE_BATCH } from '../main/engine/proofs/verify-many.js';
import { checkOffline, checksOf, type OfflineOutcome } from '../main/engine/proofs/verify-offline.js';
import { verifyChecked } from '../main/engine/proofs/verify-proof.js';
import { validateProofFile } from '../main/engine/proofs/verify-proof-shape.js';
import { parseProofText } from '../main/engine/proofs/verify-read-proof.js';
import { writeProofs } from './cli.bench.js';
import { benchDir } from './measure.js';

const COUNT = Number(process.argv[2] ?? 5_000);
const ROUNDS = 7;

const dir = benchDir('proofdesk-bench-verify-steps-');
writeProofs(dir, COUNT);
const paths = readdirSync(dir).sort().map((name) => join(dir, name));
const samples = new Map<string, number[]>();

/** Runs `work` over all the proofs and records its CPU time per proof under `step`. */
async function step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  const start = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(start);
  samples.set(name, [...(samples.get(name) ?? []), (used.user + used.system) / COUNT]);
  return result;
}

/** The worker's memo lives for one batch: a fresh one every OFFLINE_BATCH proofs, as there. */
function batchMemos(): (i: number) => MerklePairMemo {
  let memo = new MerklePairMemo();
  return (i) => (i % OFFLINE_BATCH === 0 ? (memo = new MerklePairMemo()) : memo);
}

const offline = { chainFor: () => ({ reason: 'not checked: --offline' }) };
for (let round = 0; round < ROUNDS; round++) {
  await step('worker: file read (open, fstat, read, close)', () => paths.map((p) => readFileSync(p)));
  const bytes = paths.map((p) => readFileSync(p));
  const parsed = await step('worker: JSON parse', () => bytes.map((b, i) => parseProofText(b, paths[i]!)));
  const proofs: ProofFile[] = await step('worker: shape check', () => parsed.map((p) => validateProofFile(p)));
  await step('worker: leaf (canonical JSON, SHA-256)', () => proofs.map((p) => leafOf(p.certificate)));
  const memoOf = batchMemos();
  await step('worker: Merkle path (pair memo per batch)', () => proofs.map((p, i) => memoOf(i).rootFromHexPath(p.leaf, p.merkle_path, true)));
  await step('worker: Ed25519 signature (libsodium)', () => proofs.map((p) => verifySignature(p.issuer.public_key, Buffer.from(p.leaf, 'hex'), Buffer.from(p.issuer.signature, 'hex'))));
  const memoOf2 = batchMemos();
  const outcomes: OfflineOutcome[] = await step('worker: all of checkOffline', () => paths.map((path, i) => checkOffline({ path }, memoOf2(i))));
  const batches: Buffer[] = [];
  await step('worker: outcomes serialized for the message', () => {
    for (let at = 0; at < COUNT; at += OFFLINE_BATCH) batches.push(serialize(outcomes.slice(at, at + OFFLINE_BATCH)));
  });
  await step('main: outcomes deserialized', () => batches.map((b) => deserialize(b)));
  await step('main: the six steps (verifyChecked, chains offline)', async () => {
    for (const o of outcomes) if (o.kind === 'checked') await verifyChecked(o.core, checksOf(o), offline);
  });
}

const width = Math.max(...[...samples.keys()].map((k) => k.length));
console.log(`${COUNT} proofs of one job, CPU µs per proof on one thread, best / median of ${ROUNDS} rounds:`);
for (const [name, values] of samples) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`  ${name.padEnd(width)}  ${sorted[0]!.toFixed(1).padStart(6)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1).padStart(6)}`);
}
