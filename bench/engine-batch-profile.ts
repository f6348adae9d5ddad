/**
 * Profiling aid for the engine's batched create-and-schedule (not a registered benchmark): calls
 * `createAndScheduleMany` with N prepared files of 10 KB (BENCH_BATCH_COUNT, default 10,000) in
 * batches of 500 as the intake does, with metadata as the watched folder sends it, once without
 * and once with a tag (BENCH_BATCH_TAGS=0/1 runs one only). Prints per file: the main thread's
 * CPU of the calls, the CPU of the engine's synchronous write part alone, and SQLite statements
 * run (COUNT_CALLS=0: not counted). PROFILE_OUT=path.cpuprofile writes a main-thread profile.
 * `npx tsx bench/engine-batch-profile.ts`
 */
import fs, { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import Database from 'better-sqlite3';
import type { CreateAndScheduleRequest } from '../common/requests.js';
import { createAndScheduleMany } from '../main/engine/create-and-schedule-many.js';
import { openEngineWithPartner } from '../test/support/engine-fixture.js';

const COUNT = Number(process.env['BENCH_BATCH_COUNT'] ?? 10_000);
const BATCH = 500;
const SIZE = 10 * 1024;
const COUNT_CALLS = process.env['COUNT_CALLS'] !== '0';

let statements = 0;
let counting = false;
if (COUNT_CALLS) {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = proto[name]!;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (counting) statements++;
      return original.apply(this, args);
    };
  }
  probe.close();
}

/**
 * CPU of the engine's synchronous write transactions (outermost only), ms: better-sqlite3's
 * transaction wrapper is wrapped before the engine opens, so every runner it makes is timed.
 */
let writeCpu = 0;
let depth = 0;
{
  const proto = Database.prototype as unknown as { transaction: (fn: (...a: unknown[]) => unknown) => unknown };
  const transaction = proto.transaction;
  proto.transaction = function (this: unknown, fn) {
    return transaction.call(this, (...a: unknown[]) => {
      if (depth++ > 0) {
        try {
          return fn(...a);
        } finally {
          depth--;
        }
      }
      const u = process.cpuUsage();
      try {
        return fn(...a);
      } finally {
        depth--;
        const d = process.cpuUsage(u);
        writeCpu += (d.user + d.system) / 1000;
      }
    });
  };
}

/** Bytes this process has had written to the disk so far (/proc/self/io write_bytes). */
function writeBytes(): number {
  return Number(/write_bytes: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))![1]);
}

/** The main thread's CPU time so far, ms (utime + stime of /proc/self/task/<pid>). */
function mainThreadCpu(): number {
  const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function requests(from: number, withTags: boolean): CreateAndScheduleRequest[] {
  const filler = 'x'.repeat(SIZE);
  return Array.from({ length: BATCH }, (_, k) => {
    const i = from + k;
    const data = Buffer.from(`Diploma no. ${i} ${withTags}\n${filler}`.slice(0, SIZE));
    const name = `diploma-${i}.txt`;
    return {
      file: { data, name },
      credential_details: {
        title: name,
        metadata: { ingest: { sha256: 'x'.repeat(64), path: `inbox/${name}` } },
        tags: withTags ? ['bench-watch'] : [],
        ignore_duplicate: 'false',
      },
    };
  });
}

async function run(withTags: boolean, session: Session | undefined): Promise<void> {
  const { fixture, scope } = openEngineWithPartner();
  try {
    const batches = Array.from({ length: Math.ceil(COUNT / BATCH) }, (_, b) => requests(b * BATCH, withTags));
    writeCpu = 0;
    if (session) await session.post('Profiler.start');
    statements = 0;
    counting = true;
    const cpu0 = mainThreadCpu();
    const bytes0 = writeBytes();
    const wall0 = performance.now();
    let created = 0;
    for (const batch of batches) for (const o of await createAndScheduleMany(scope, 'local', batch)) if (o.credential) created++;
    const wall = performance.now() - wall0;
    const cpu = mainThreadCpu() - cpu0;
    const written = writeBytes() - bytes0;
    counting = false;
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${process.env['PROFILE_OUT']!.replace(/\.cpuprofile$/, '')}-${withTags ? 'tags' : 'notags'}.cpuprofile`, JSON.stringify(profile));
    }
    if (created !== COUNT) throw new Error(`created ${created} of ${COUNT}`);
    const per = (n: number) => (n / COUNT).toFixed(3);
    console.log(
      `${withTags ? 'with a tag' : 'no tags   '}: ${COUNT} files, wall ${(wall / 1000).toFixed(2)} s, main-thread CPU ${per(cpu)} ms/file, ` +
        `write transaction ${per(writeCpu)} ms/file${COUNT_CALLS ? `, ${per(statements)} statements/file` : ''}, ${(written / COUNT / 1024).toFixed(1)} KiB written/file`,
    );
  } finally {
    await fixture.close();
  }
}

const session = process.env['PROFILE_OUT'] ? new Session() : undefined;
session?.connect();
if (session) await session.post('Profiler.enable');
const which = process.env['BENCH_BATCH_TAGS'];
if (which !== '1') await run(false, session);
if (which !== '0') await run(true, session);
