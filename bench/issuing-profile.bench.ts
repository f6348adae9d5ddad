/**
 * Where the time of issuing goes: one job each of 1,000, 10,000 and 100,000 transcript-sized
 * credentials (issuing-job.ts, a process of its own, bundled as the CLI is, local anvil),
 * create → finished, with the engine's stages timed (main/engine/stage-timing.ts). Each stage
 * as µs per credential, of wall time and of its thread's CPU time (what it costs whatever else
 * the machine runs), and as a share of the process's wall time, from its start to `finished`.
 * The main thread's stages and the fixed costs add up to the wall time with `other`; the signer
 * threads' stages (sign, compress, their start) run beside them, so their shares overlap and are
 * summed over threads.
 *
 * In the same run, each size's create → finished rate is set beside the limit (SHA-256 +
 * Ed25519 of that job's own payloads on one thread) and the peer (OpenAttestation's
 * wrapDocuments of as many same-size documents, open-attestation.ts; a size above 10,000 is
 * stopped after PROOFDESK_BENCH_OA_MAX_S and its figure is then a bound, said to be).
 *
 * `npm run bench -- --only issuing-profile`; PROOFDESK_BENCH_PROFILE_COUNTS=1000,10000 for others.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { hashAndSignLimit, issueJobInChild, jobPayloads } from './issuing.bench.js';
import { observeMachine } from './machine.js';
import { benchDir, repeatedFigure, type BenchResult } from './measure.js';
import { openAttestationRates, type PeerFigure } from './open-attestation.js';
import { JOB_STAGES, SIGNER_STAGES, profileOf as profileRows, profileResults, profileTable, stageMeanings, type ProfileRow, type StageDef } from './profile-tables.js';
import type { StageTime } from '../main/engine/stage-timing.js';

const COUNTS = (process.env['PROOFDESK_BENCH_PROFILE_COUNTS'] ?? '1000,10000,100000').split(',').map(Number);

/** The rows of the profile, in the order a job goes through them. */
const STAGES: StageDef[] = [
  { name: 'process start', means: "node's start and the imports (the job bundled as the CLI is), until the job code runs", fixed: true },
  { name: 'engine open', means: 'database opened and migrated, the engine built', fixed: true },
  { name: 'chain start', means: 'anvil started and connected', fixed: true },
  { name: 'bench input', means: "the bench making the credentials' bodies (not the engine)" },
  { name: 'validate', means: 'createCredentials: each body checked against the spec' },
  { name: 'insert', means: 'createCredentials: rows, queued for the search index, tags, activity, one transaction per call' },
  { name: 'index (replayed)', means: "off the path: the FTS5 index of the job's credentials, as a search or the background indexer writes it afterwards", afterwards: true },
  { name: 'schedule', means: 'scheduleCredentials: checks, job rows, activity, the job read back' },
  { name: 'chain checks', means: 'keys, balance and fees asked of the chain before start' },
  ...JOB_STAGES,
  { name: 'confirmation', means: 'receipt, chain state persisted, job finished' },
  { name: 'other', means: "the rest of the wall time on the main thread (adding the bench's Partner: its secret's scrypt, its keys; calls, events, GC)" },
  ...SIGNER_STAGES,
];

/** Per stage: µs per credential (wall and CPU) and share of wall; `other` is what the main-thread stages leave. */
export function profileOf(stages: Record<string, StageTime>, count: number): ProfileRow[] {
  return profileRows(STAGES, stages, count);
}

/** The peer's figure as a note: documents/s, and its time or where it was stopped. */
function peerNote(peer: PeerFigure): string {
  const rate = Math.round(peer.perSecond).toLocaleString('en-US');
  return peer.stopped
    ? `OpenAttestation wrapDocuments < ${rate}/s (stopped after ${(peer.ms / 1000).toFixed(0)} s, PROOFDESK_BENCH_OA_MAX_S)`
    : `OpenAttestation wrapDocuments ${rate}/s, ${(peer.ms / 1000).toFixed(2)} s`;
}

export async function issuingProfileBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = benchDir('proofdesk-bench-issuing-profile-');
  const results: BenchResult[] = [];
  const tables: string[] = [];
  const peers: string[] = [];
  log(`OpenAttestation wrapDocuments of ${COUNTS.map((c) => c.toLocaleString('en-US')).join(' / ')} same-size documents, a process each...`);
  const peerWindow = observeMachine();
  const peerFigures = await openAttestationRates(COUNTS);
  const peerMachine = peerWindow.end();
  for (const count of COUNTS) {
    const label = count.toLocaleString('en-US');
    log(`issuing profile: ${label} credentials in one job, stages timed, in a child process...`);
    const window = observeMachine();
    const figures = await issueJobInChild(count, join(dir, `data-${count}`), ['profile']);
    const machine = window.end();
    const stages = figures.stages!;
    const rows = profileOf(stages, count);
    const wall = stages['wall']!;
    results.push({
      name: `issuing profile ${label}: wall, process start → finished`,
      value: wall.ms,
      unit: 'ms',
      machine,
      notes: [`${Math.round(count / (wall.ms / 1000))} credentials/s`, `process CPU ${(wall.cpuMs / 1000).toFixed(1)} s (all threads)`],
    });
    results.push(...profileResults(`issuing profile ${label}`, rows, 'µs/credential', machine));

    // In the same run: the limit (SHA-256 + Ed25519 of the job's own payloads, one thread) and
    // the peer (OpenAttestation's wrapDocuments of as many documents of the same size, above).
    log(`issuing profile ${label}: the limit, SHA-256 + Ed25519 of the job's payloads on 1 thread...`);
    const db = new Database(join(dir, `data-${count}`, 'proofdesk.sqlite'), { readonly: true });
    const payloads = jobPayloads(db, figures.jobUid);
    db.close();
    if (payloads.length !== count) throw new Error(`expected ${count} payloads, found ${payloads.length}`);
    const limit = await hashAndSignLimit(payloads);
    const peer = peerFigures.get(count)!;
    const rate = count / (figures.ms / 1000);
    results.push({
      name: `issuing profile ${label}: Proofdesk create → finished`,
      value: rate,
      unit: 'credentials/s',
      machine,
      ratio: { value: rate / limit.value, against: '1-thread hash+sign limit' },
      notes: [`${peer.stopped ? '> ' : ''}${(rate / peer.perSecond).toFixed(2)}× OpenAttestation wrapDocuments`, `${(figures.ms / 1000).toFixed(2)} s`],
    });
    results.push({ name: `issuing profile ${label}: OpenAttestation wrapDocuments, same-size documents`, value: peer.perSecond, unit: 'documents/s', machine: peerMachine, notes: [peerNote(peer)] });
    results.push({ name: `issuing profile ${label}: limit, SHA-256 + Ed25519 of the job's payloads, 1 thread`, ...repeatedFigure(limit), unit: 'payloads/s' });
    peers.push(
      `${label}: Proofdesk ${Math.round(rate).toLocaleString('en-US')}/s create → finished (${(figures.ms / 1000).toFixed(2)} s), ` +
        `${(rate / limit.value).toFixed(2)}× the limit (${Math.round(limit.value).toLocaleString('en-US')}/s), ${peer.stopped ? '> ' : ''}${(rate / peer.perSecond).toFixed(2)}× ${peerNote(peer)}`,
    );
    tables.push(`${label} credentials: wall ${(wall.ms / 1000).toFixed(2)} s, process CPU ${(wall.cpuMs / 1000).toFixed(2)} s, load ${machine.start.load1.toFixed(1)}→${machine.end.load1.toFixed(1)}`);
    tables.push(...profileTable(rows, 'cred'));
  }
  log(['issuing profile (µs per credential, share of wall time):', ...tables].join('\n'));
  log(stageMeanings(STAGES));
  log(['issuing against the limit and OpenAttestation, same run:', ...peers.map((p) => `  ${p}`)].join('\n'));
  return results;
}
