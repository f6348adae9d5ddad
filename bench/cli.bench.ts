/**
 * The built command line (out/cli): one `verify` call's wall time as a user sees it (process
 * start included), and `verify DIR` over thousands of proof files in one process.
 * Offline, so that the figure is the CLI's and not a chain's.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildPayload, leafOf } from '../main/engine/proofs/certificate-payload.js';
import { generateSigningKey, loadPrivateKey, signMessage, verifySignature } from '../main/engine/proofs/ed25519.js';
import { buildMerkleTree, merklePath, merkleRoot } from '../main/engine/proofs/merkle-tree.js';
import { PROOF_FORMAT, type ProofFile } from '../main/engine/proofs/proof-file.js';
import { endedChildrenCpuMs } from './machine.js';
import { benchDir, percentile, timed, type BenchResult } from './measure.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'out/cli/index.js');
const PROOFS = 20_000;
const CALLS = 7;

/** `count` well-formed proof files of one job (anchored nowhere: the chain steps stay pending offline). */
export function writeProofs(dir: string, count = PROOFS): void {
  const signing = generateSigningKey();
  const key = loadPrivateKey(signing.privateKeyPkcs8);
  const partner = { id: randomUUID(), name: 'Bench University', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' };
  const payloads = Array.from({ length: count }, (_, i) =>
    buildPayload(randomUUID(), partner, { uid: randomUUID(), title: `Diploma ${i}`, metadata: { student: `Student ${i}`, n: i }, files: [], credentials: [], upload_date: '2026-01-01T00:00:00.000Z', tags: [], expiry_date: null }, { id: 'local', chain_id: 31337 }),
  );
  const leaves = payloads.map((p) => leafOf(p));
  const tree = buildMerkleTree(leaves);
  const root = merkleRoot(tree).toString('hex');
  payloads.forEach((certificate, i) => {
    const proof: ProofFile = {
      format: PROOF_FORMAT,
      certificate,
      issued_date: '2026-01-02T03:04:05.000Z',
      hash_function: 'SHA-256',
      leaf: leaves[i]!.toString('hex'),
      merkle_path: merklePath(tree, i).map((h) => h.toString('hex')),
      root,
      chain: { engine: 'local', chain_id: 31337, transaction_id: `0x${'ab'.repeat(32)}`, registry_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', explorer_tx_url: null },
      issuer: { public_key: signing.publicKeyHex, signature_scheme: 'Ed25519', signature: signMessage(key, leaves[i]!).toString('hex') },
    };
    writeFileSync(join(dir, `${String(i).padStart(6, '0')}.proof.json`), JSON.stringify(proof, null, 2));
  });
}

/** Runs the built CLI; its exit code is not the point (an offline result is pending, exit 1). */
function run(args: string[], env: NodeJS.ProcessEnv): string {
  try {
    return execFileSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

export async function cliBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-cli-');
  const env = { PROOFDESK_DATA: join(dir, 'data') };
  try {
    log('building the CLI (out/cli)...');
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { stdio: 'ignore' });
    const proofs = join(dir, 'proofs');
    mkdirSync(proofs);
    log(`writing ${PROOFS} proof files...`);
    writeProofs(proofs);
    const one = join(proofs, '000000.proof.json');

    log(`timing ${CALLS} single \`verify --offline\` calls and \`node -e 0\`...`);
    const calls: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      calls.push((await timed(() => run(['verify', one, '--offline'], env))).ms);
      bare.push((await timed(() => execFileSync(process.execPath, ['-e', '0']))).ms);
    }

    // The machine's own pace, to read the rate against: one thread checking Ed25519 signatures.
    const signing = generateSigningKey();
    const message = Buffer.alloc(32, 7);
    const signature = signMessage(loadPrivateKey(signing.privateKeyPkcs8), message);
    const checks = await timed(() => {
      for (let i = 0; i < 5_000; i++) verifySignature(signing.publicKeyHex, message, signature);
    });

    log(`verifying ${PROOFS} proofs in one \`verify DIR --offline\`...`);
    const cpuBefore = endedChildrenCpuMs();
    const batch = await timed(() => run(['verify', proofs, '--offline', '--json', '--report', join(dir, 'report.csv')], env));
    const cpuAfter = endedChildrenCpuMs();
    const summary = JSON.parse(batch.result) as { total: number; seconds: number };
    if (summary.total !== PROOFS) throw new Error(`verify DIR saw ${summary.total} proofs, not ${PROOFS}`);
    return [
      { name: 'CLI: one `verify --offline` call, wall time (median)', value: percentile(calls, 50), unit: 'ms', target: { value: 1000, better: 'lower' } },
      { name: 'CLI: node -e 0 on this machine, for comparison (median)', value: percentile(bare, 50), unit: 'ms' },
      { name: `CLI: verify DIR --offline, ${PROOFS} proofs, in-process rate`, value: summary.total / summary.seconds, unit: 'proofs/s', target: { value: 8000, better: 'higher' } },
      { name: `CLI: verify DIR --offline, ${PROOFS} proofs, wall time incl. start and report`, value: batch.ms, unit: 'ms' },
      // The process's CPU (all threads, start included): what a proof costs whatever the load; two cores allow 2,000,000 / this proofs/s.
      ...(cpuBefore !== undefined && cpuAfter !== undefined
        ? [{ name: `CLI: verify DIR --offline, ${PROOFS} proofs, CPU per proof (all threads, start included)`, value: ((cpuAfter - cpuBefore) * 1000) / PROOFS, unit: 'µs', notes: [`2-core ceiling ${Math.round((2000 * PROOFS) / (cpuAfter - cpuBefore))}/s`] }]
        : []),
      { name: 'CLI: Ed25519 signature checks on one thread, for comparison', value: 5_000 / (checks.ms / 1000), unit: 'checks/s' },
    ];
  } finally {
  }
}
