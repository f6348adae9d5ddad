/**
 * `npm run torture -- [--kills N] [--files N] [--modes issue,watch] [--seed S]`: SIGKILLs the
 * whole process group of `issue --now` and `watch` at random moments, again and again, then lets
 * a last run finish, and checks the invariants through the service after each scenario:
 *
 * - each distinct content is issued exactly once (one certificate per content hash);
 * - watch: every dropped file ends in done/, duplicate/ or failed/ (with its .error.json reason);
 * - one proof per issued file, and every proof verifies `ok` against its original;
 * - exactly one issue transaction per finished job on chain (the account's mined nonce count is
 *   1 deployment + the finished jobs), and no job is left started or unconfirmed.
 *
 * Not part of `npm test` (it runs for minutes). Data directories are temporary. Prints one line
 * per scenario and a summary: kills, files, violations. Exit 1 when any invariant broke.
 *
 * `--public-chain [--reorgs N] [--spikes N] [--block-time S] [--kills N] [--files N]`: the same
 * kills while a chain run as Sepolia is reorganised, rolled back and fee-spiked under the jobs
 * (scripts/torture-public-chain.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../main/engine/index.js';
import type { ProofFile } from '../main/engine/proofs/proof-file.js';
import { verifyProof } from '../main/engine/proofs/verify-proof.js';
import { runPublicChainTorture } from './torture-public-chain.js';
import { killAtRandom as killChildAtRandom, killGroup, newDataDir, seededRandom, sleep, startCli, writeInputs, type Child } from './torture-support.js';

const PASSPHRASE = 'torture passphrase';
process.env.PROOFDESK_PASSPHRASE = PASSPHRASE;

const { values } = parseArgs({
  options: {
    kills: { type: 'string' },
    files: { type: 'string' },
    modes: { type: 'string', default: 'issue,watch' },
    'kills-per-scenario': { type: 'string', default: '4' },
    seed: { type: 'string' },
    keep: { type: 'boolean' },
    'public-chain': { type: 'boolean' },
    reorgs: { type: 'string', default: '50' },
    spikes: { type: 'string', default: '20' },
    'block-time': { type: 'string', default: '1' },
  },
});
const totalKills = Number(values.kills ?? 100);
const filesPerScenario = Number(values.files ?? 12);
const killsPerScenario = Number(values['kills-per-scenario']);
const modes = values.modes!.split(',') as ('issue' | 'watch')[];

const firstSeed = Number(values.seed ?? Date.now() % 1_000_000);
const random = seededRandom(firstSeed);

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Kills the group at a random moment; returns whether the kill landed before the run ended. */
function killAtRandom(child: Child, maxMs: number): Promise<boolean> {
  return killChildAtRandom(child, maxMs, random);
}

interface Checked {
  violations: string[];
}

/** The invariants, through the service of the data directory. */
async function checkInvariants(
  dataDir: string,
  partnerId: string,
  address: string,
  inputs: { file: string; content: string }[],
  proofFor: (file: string) => string | undefined,
): Promise<Checked> {
  const violations: string[] = [];
  const engine = Engine.open({ dataDir, sweepIntervalMs: false });
  try {
    const service = engine.serviceFor(partnerId);
    const certificates = (await service.listCertificates({ per_page: 0 })).items;
    const perContent = new Map<string, number>();
    for (const c of certificates) for (const f of c.certificate.credential.files) perContent.set(f.file_hash, (perContent.get(f.file_hash) ?? 0) + 1);
    const contents = new Set(inputs.map((i) => i.content));
    for (const content of contents) {
      const n = perContent.get(content) ?? 0;
      if (n !== 1) violations.push(`content ${content.slice(0, 12)}… issued ${n} times`);
    }
    for (const [content, n] of perContent) if (!contents.has(content)) violations.push(`unknown content ${content.slice(0, 12)}… issued ${n} times`);
    const options = (hash: string) => engine.issuing.verifyOptions(hash);
    for (const input of inputs) {
      const proofPath = proofFor(input.file);
      if (!proofPath) continue;
      if (!existsSync(proofPath)) {
        violations.push(`no proof for ${input.file}`);
        continue;
      }
      const result = await verifyProof(JSON.parse(readFileSync(proofPath, 'utf8')) as ProofFile, options(input.content));
      if (result.result.status !== 'ok') violations.push(`proof ${proofPath}: ${result.result.status}`);
    }
    const jobs = (await service.listJobs({ per_page: 0 })).items;
    const stuck = jobs.filter((j) => j.status === 'started' || j.status === 'unconfirmed');
    if (stuck.length > 0) violations.push(`${stuck.length} job(s) left ${stuck.map((j) => j.status).join(', ')}`);
    const finished = jobs.filter((j) => j.status === 'finished').length;
    const chain = await engine.issuing.ctx.chains.client('local');
    const mined = await chain.minedNonce(address as `0x${string}`);
    if (mined !== 1 + finished) violations.push(`account has ${mined} mined transactions, expected 1 deployment + ${finished} finished job(s)`);
  } catch (error) {
    violations.push(`checking failed: ${(error as Error).message}`);
  } finally {
    await engine.close();
  }
  return { violations };
}

/** issue --now, killed `kills` times at random, then run to the end. */
async function issueScenario(index: number, kills: number): Promise<{ kills: number; files: number; violations: string[] }> {
  const { dataDir, partnerId, address } = await newDataDir(3600);
  const files = writeInputs(join(dataDir, 'in'), filesPerScenario, `i${index}`);
  const out = join(dataDir, 'out');
  const argv = ['issue', ...files, '--now', '--out', out, '--data', dataDir];
  let landed = 0;
  for (let k = 0; k < kills; k++) if (await killAtRandom(startCli(argv), 6000)) landed++;
  const final = startCli(argv);
  const timer = setTimeout(() => killGroup(final.pid), 180_000);
  const end = await final.exited;
  clearTimeout(timer);
  const violations: string[] = [];
  // Content uploaded in an earlier, killed run is skipped only when the journal did not know it:
  // a non-zero exit is a violation, as is a run that never ends.
  if (end.code !== 0) violations.push(`the final issue run ended with ${end.code ?? end.signal}: ${final.output().slice(-600)}`);
  const inputs = files.map((file) => ({ file, content: sha256(readFileSync(file)) }));
  const checked = await checkInvariants(dataDir, partnerId, address, inputs, (file) => join(out, `${file.split('/').pop()}.proof.json`));
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  return { kills: landed, files: files.length, violations: [...violations, ...checked.violations] };
}

/** Files of a watched folder still waiting in its root (not in done/, failed/, duplicate/, proofs/). */
function waiting(dir: string): string[] {
  return readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile() && !name.startsWith('.'));
}

/** watch, killed `kills` times at random while files arrive, then run until the folder is empty. */
async function watchScenario(index: number, kills: number): Promise<{ kills: number; files: number; violations: string[] }> {
  const { dataDir, partnerId, address } = await newDataDir(2);
  const dir = join(dataDir, 'watched');
  mkdirSync(dir);
  const argv = ['watch', dir, '--data', dataDir, '--stable', '300ms'];
  const staging = join(dataDir, 'staging');
  const files = writeInputs(staging, filesPerScenario, `w${index}`);
  const inputs = files.map((file) => ({ file: join(dir, file.split('/').pop()!), content: sha256(readFileSync(file)) }));
  // Files arrive in batches between the kills (written elsewhere, then renamed in: complete at once).
  const batches = kills + 1;
  let next = 0;
  const dropBatch = (b: number) => {
    const until = Math.round(((b + 1) * files.length) / batches);
    for (; next < until; next++) writeFileSync(inputs[next]!.file, readFileSync(files[next]!));
  };
  let landed = 0;
  for (let k = 0; k < kills; k++) {
    dropBatch(k);
    if (await killAtRandom(startCli(argv), 8000)) landed++;
  }
  dropBatch(kills);
  const final = startCli(argv);
  const violations: string[] = [];
  const deadline = Date.now() + 180_000;
  while (waiting(dir).length > 0 && Date.now() < deadline) await sleep(500);
  if (waiting(dir).length > 0) violations.push(`still waiting in the folder after 180 s: ${waiting(dir).join(', ')}`);
  await sleep(1000);
  killGroup(final.pid, 'SIGINT');
  const stopped = await Promise.race([final.exited.then(() => true), sleep(20_000).then(() => false)]);
  if (!stopped) {
    violations.push('watch did not stop within 20 s of Ctrl-C');
    killGroup(final.pid);
    await final.exited;
  }
  // Where each file ended up.
  const place = (name: string): string | undefined => ['done', 'duplicate', 'failed'].find((sub) => existsSync(join(dir, sub, name)));
  for (const input of inputs) {
    const name = input.file.split('/').pop()!;
    const where = place(name);
    if (!where) violations.push(`${name} is in none of done/, duplicate/, failed/`);
    if (where === 'failed' && !existsSync(join(dir, 'failed', `${name}.error.json`))) violations.push(`${name} failed without a reason`);
    if (where === 'failed') violations.push(`${name} failed: ${existsSync(join(dir, 'failed', `${name}.error.json`)) ? readFileSync(join(dir, 'failed', `${name}.error.json`), 'utf8').slice(0, 200) : '?'}`);
  }
  const issuedInputs = inputs.filter((i) => place(i.file.split('/').pop()!) === 'done');
  const proofs = join(dir, 'proofs');
  const checked = await checkInvariants(dataDir, partnerId, address, issuedInputs, (file) => join(proofs, `${relative(dir, file)}.proof.json`));
  // Content that went only to duplicate/ must still have been issued once (from its first copy).
  const issuedContents = new Set(issuedInputs.map((i) => i.content));
  for (const input of inputs) if (!issuedContents.has(input.content)) violations.push(`content of ${input.file} was never issued (no copy in done/)`);
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  return { kills: landed, files: files.length, violations: [...violations, ...checked.violations] };
}

if (values['public-chain']) {
  const result = await runPublicChainTorture({
    reorgs: Number(values.reorgs),
    spikes: Number(values.spikes),
    kills: Number(values.kills ?? 10),
    blockTimeS: Number(values['block-time']),
    files: Number(values.files ?? 6),
    killsPerBatch: Math.min(killsPerScenario, 2),
    seed: firstSeed,
    keep: values.keep === true,
    log,
  });
  process.exitCode = result.violations > 0 ? 1 : 0;
} else {
  await killAndCheck();
}

/** The kill mode: scenario after scenario of `issue` and `watch` killed at random. */
async function killAndCheck(): Promise<void> {
  const totals = { scenarios: 0, kills: 0, files: 0, violations: 0 };
  const byMode: Record<string, { kills: number; files: number; violations: number; scenarios: number }> = {};
  log(`torture: ${totalKills} kills over ${modes.join(' and ')}, ${filesPerScenario} files and up to ${killsPerScenario} kills per scenario, seed ${firstSeed}`);
  for (let index = 0; totals.kills < totalKills; index++) {
    const mode = modes[index % modes.length]!;
    const kills = Math.min(killsPerScenario, Math.max(1, totalKills - totals.kills));
    const started = Date.now();
    const result = mode === 'issue' ? await issueScenario(index, kills) : await watchScenario(index, kills);
    totals.scenarios++;
    totals.kills += result.kills;
    totals.files += result.files;
    totals.violations += result.violations.length;
    const m = (byMode[mode] ??= { kills: 0, files: 0, violations: 0, scenarios: 0 });
    m.scenarios++;
    m.kills += result.kills;
    m.files += result.files;
    m.violations += result.violations.length;
    log(`#${index} ${mode}: ${result.kills} kill(s) landed, ${result.files} files, ${result.violations.length} violation(s) (${Math.round((Date.now() - started) / 1000)} s)`);
    for (const v of result.violations) log(`    VIOLATION: ${v}`);
  }
  for (const [mode, m] of Object.entries(byMode)) log(`${mode}: ${m.scenarios} scenarios, ${m.kills} kills, ${m.files} files, ${m.violations} violations`);
  log(`total: ${totals.scenarios} scenarios, ${totals.kills} kills, ${totals.files} files, ${totals.violations} violations (seed ${firstSeed})`);
  process.exitCode = totals.violations > 0 ? 1 : 0;
}
