/**
 * Profiling aid for the Verify view's desktop path (not a registered benchmark): issues N proofs
 * (PROOFDESK_BENCH_VERIFY_PROOFS, default 10,000) on a real engine and its local chain once, then
 * RUNS times (default 3) verifies the folder (a) in main alone (`verify:start` with its path)
 * and (b) dropped on the Verify view in Chromium through the web bridge with the preload stand-in
 * of verify-ui.bench.ts (kind 'paths'). For each: wall time per phase (walk, first and last
 * offline batch back, chain requests, the task's end, the view's "N proofs verified"), CPU per
 * thread of this process (main, the proof-checking workers, libuv), of anvil and of each Chromium
 * process, the events sent to the window (how many, how big) and the bridge's requests.
 * PROFILE_OUT=dir writes a main-thread .cpuprofile per run. COLD=1 closes the shared pool
 * before each run (the first drop after 30 s idle); DRAG_MS=300 drags the files over the window
 * that long before the drop. `npx tsx bench/verify-profile.ts`
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { TaskInfo } from '../common/tasks.js';
import { createAppContext } from '../main/app/app-context.js';
import { collectDrop } from '../main/app/handlers/verify-drop.js';
import { createIpcHandlers } from '../main/app/ipc-handlers.js';
import { startWebBridge } from '../main/app/web-bridge.js';
import { Engine } from '../main/engine/index.js';
import { OfflinePool } from '../main/engine/proofs/verify-offline-pool.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { fireDrop } from './browser-drop.js';
import { dropToShown, openPreloadStandIn } from './verify-ui.bench.js';
import { issueProofFolder } from './proof-folder.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROOFS = Number(process.env['PROOFDESK_BENCH_VERIFY_PROOFS'] ?? 10_000);
const RUNS = Number(process.env['RUNS'] ?? 3);
const MODES = (process.env['MODES'] ?? 'main,desktop').split(',');
const PROFILE_OUT = process.env['PROFILE_OUT'];
const COLD = process.env['COLD'] === '1';
const DRAG_MS = Number(process.env['DRAG_MS'] ?? 0);

/** CPU ms per thread of a process (utime + stime), by "tid name". */
function threadCpu(pid: number | 'self'): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${tid} ${name}`, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // gone
    }
  }
  return out;
}

/** Every descendant process of this one: pid → a short label (anvil, chromium --type=renderer, ...). */
function descendants(): Map<number, string> {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const out = new Map<number, string>();
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  for (const pid of parent.keys()) {
    if (!mine(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
      const type = cmd.find((a) => a.startsWith('--type='));
      const utility = cmd.find((a) => a.startsWith('--utility-sub-type='));
      out.set(pid, `${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}${type ? ` ${type.slice(7)}` : ''}${utility ? ` ${utility.slice(19)}` : ''}`);
    } catch {
      // gone
    }
  }
  return out;
}

function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

interface Sample {
  threads: Map<string, number>;
  children: Map<number, { label: string; ms: number }>;
}
function sample(): Sample {
  const children = new Map<number, { label: string; ms: number }>();
  for (const [pid, label] of descendants()) children.set(pid, { label, ms: processCpu(pid) });
  return { threads: threadCpu('self'), children };
}
function cpuReport(before: Sample, after: Sample): string[] {
  const lines: string[] = [];
  const byName = new Map<string, number>();
  for (const [thread, ms] of after.threads) {
    const d = ms - (before.threads.get(thread) ?? 0);
    if (d <= 0) continue;
    const [tid, ...name] = thread.split(' ');
    const label = Number(tid) === process.pid ? 'main thread' : name.join(' ');
    byName.set(label, (byName.get(label) ?? 0) + d);
    if (d >= 30) lines.push(`    thread ${thread}${Number(tid) === process.pid ? ' (main)' : ''}: ${d} ms`);
  }
  lines.push(`    this process by thread name: ${[...byName].map(([n, ms]) => `${n} ${ms}`).join(', ')}`);
  const byLabel = new Map<string, number>();
  for (const [pid, { label, ms }] of after.children) {
    const d = ms - (before.children.get(pid)?.ms ?? 0);
    byLabel.set(label, (byLabel.get(label) ?? 0) + d);
  }
  lines.push(`    children: ${[...byLabel].filter(([, ms]) => ms > 0).map(([l, ms]) => `${l} ${ms}`).join(', ')}`);
  return lines;
}

// Phase marks: the offline batches (OfflinePool.check) and the chain's HTTP requests (fetch).
const marks = { t0: 0, firstCheck: 0, firstBack: 0, lastBack: 0, checks: 0, fetches: 0, fetchFirst: 0, fetchLast: 0, fetchBytesOut: 0 };
const now = () => performance.now() - marks.t0;
const originalCheck = OfflinePool.prototype.check;
OfflinePool.prototype.check = function (this: OfflinePool, inputs) {
  if (marks.checks++ === 0) marks.firstCheck = now();
  return originalCheck.call(this, inputs).then((outcomes) => {
    if (!marks.firstBack) marks.firstBack = now();
    marks.lastBack = now();
    return outcomes;
  });
};
const originalFetch = globalThis.fetch;
globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
  if (marks.fetches++ === 0) marks.fetchFirst = now();
  if (typeof init?.body === 'string') marks.fetchBytesOut += init.body.length;
  const answer = await originalFetch(input, init);
  marks.fetchLast = now();
  return answer;
}) as typeof fetch;

const dir = mkdtempSync(join(tmpdir(), 'proofdesk-verify-profile-'));
const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { onError: () => undefined } });
const browser = MODES.includes('desktop') ? await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] }) : undefined;
try {
  const out = join(dir, 'out');
  if (browser) execFileSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', out, '--logLevel', 'error'], { cwd: ROOT, stdio: 'ignore' });
  const added = await engine.addPartner({ name: 'Bench University', issuingIntervalSeconds: 3600 });
  const service = engine.serviceFor(added.partner_id);
  const folder = join(dir, 'proofs');
  await issueProofFolder(engine, service, folder, PROOFS);
  if (process.env['SAVE_PROOFS']) execFileSync('cp', ['-r', folder, process.env['SAVE_PROOFS']]);
  execFileSync('sync');

  const ctx = createAppContext({ engine, partner: { id: added.partner_id, name: added.name } });
  const handlers = createIpcHandlers(ctx);
  const bridge = browser ? await startWebBridge({ handlers, events: ctx.events, rendererDir: join(out, 'renderer') }) : undefined;
  let events = 0;
  let eventBytes = 0;
  ctx.events.subscribe((event) => {
    events++;
    eventBytes += JSON.stringify(event).length;
  });
  const walk = collectDrop([folder]);
  const walkStart = performance.now();
  collectDrop([folder]);
  console.log(`walk alone (collectDrop, warm cache): ${(performance.now() - walkStart).toFixed(0)} ms for ${walk.proofs.length} proofs`);

  // STRACE_GO=file: waits for that file before the runs (attach `strace -f -c -p PID` meanwhile).
  const go = process.env['STRACE_GO'];
  if (go) {
    console.log(`pid ${process.pid}: waiting for ${go}`);
    while (!existsSync(go)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (let run = 1; run <= RUNS; run++) {
    for (const mode of MODES) {
      if (COLD) {
        // The shared pool is module state: a fresh drop after 30 s idle starts it again.
        const { borrowOfflinePool } = await import('../main/engine/proofs/verify-offline-pool.js');
        const b = borrowOfflinePool();
        b.release();
        await b.pool.close();
        (b.pool as unknown as { failure: Error }).failure = new Error('closed for the profile');
      }
      const session = PROFILE_OUT ? new Session() : undefined;
      if (session) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 500 });
        await session.post('Profiler.start');
      }
      Object.assign(marks, { firstCheck: 0, firstBack: 0, lastBack: 0, checks: 0, fetches: 0, fetchFirst: 0, fetchLast: 0, fetchBytesOut: 0 });
      events = 0;
      eventBytes = 0;
      const load = loadavg()[0]!.toFixed(2);
      let taskEnd = 0;
      let shown = 0;
      let startCalled = 0;
      const requests = new Map<string, number>();
      let closeContext: (() => Promise<void>) | undefined;
      let before: Sample;
      if (mode === 'main') {
        before = sample();
        marks.t0 = performance.now();
        const { task } = await handlers['verify:start']([folder]);
        await new Promise<TaskInfo>((resolve) => {
          const off = ctx.events.subscribe((event) => {
            if (event.type === 'task' && event.task.id === task.id && event.task.state !== 'running') {
              off();
              resolve(event.task);
            }
          });
        });
        taskEnd = now();
      } else {
        const { context, page } = await openPreloadStandIn(browser!, bridge!.url, folder, PROOFS);
        page.on('request', (r) => {
          const path = decodeURIComponent(new URL(r.url()).pathname);
          requests.set(path, (requests.get(path) ?? 0) + 1);
          if (path === '/ipc/verify:start') startCalled = now();
        });
        const off = ctx.events.subscribe((event) => {
          if (event.type === 'task' && event.task.kind === 'verify' && event.task.state !== 'running') taskEnd = now();
        });
        const cdp = PROFILE_OUT ? await context.newCDPSession(page) : undefined;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
          await cdp.send('Profiler.start');
        }
        if (DRAG_MS > 0) {
          // A person's drag: files over the window DRAG_MS before they are dropped.
          await page.evaluate(`(() => {
            const target = document.querySelector('main') || document.body;
            target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: window.__benchDrop, bubbles: true, cancelable: true }));
          })()`);
          await new Promise((resolve) => setTimeout(resolve, DRAG_MS));
        }
        before = sample();
        marks.t0 = performance.now();
        await fireDrop(page);
        await page.getByText(`${PROOFS.toLocaleString('en-US')} proofs verified`, { exact: true }).waitFor({ timeout: 300_000 });
        const playwrightSaw = now();
        shown = await dropToShown(page);
        console.log(`  Playwright's wait ended at ${playwrightSaw.toFixed(0)} ms`);
        off();
        const longest = (await page.evaluate('window.__longest')) as number;
        console.log(`  longest renderer task: ${longest} ms`);
        if (cdp) {
          const { profile } = await cdp.send('Profiler.stop');
          mkdirSync(PROFILE_OUT!, { recursive: true });
          writeFileSync(join(PROFILE_OUT!, `renderer-${run}.cpuprofile`), JSON.stringify(profile));
        }
        closeContext = () => context.close();
      }
      const wall = mode === 'main' ? taskEnd : shown;
      const after = sample();
      if (session) {
        const { profile } = await session.post('Profiler.stop');
        mkdirSync(PROFILE_OUT!, { recursive: true });
        writeFileSync(join(PROFILE_OUT!, `${mode}-${run}.cpuprofile`), JSON.stringify(profile));
        session.disconnect();
      }
      console.log(`${mode} run ${run} (load ${load}): ${wall.toFixed(0)} ms = ${(PROOFS / (wall / 1000)).toFixed(0)} proofs/s`);
      if (mode === 'desktop') console.log(`  verify:start requested at ${startCalled.toFixed(0)} ms; task done at ${taskEnd.toFixed(0)}; view shows it at ${shown.toFixed(0)}`);
      console.log(`  offline batches: ${marks.checks}, first sent ${marks.firstCheck.toFixed(0)}, first back ${marks.firstBack.toFixed(0)}, last back ${marks.lastBack.toFixed(0)} ms`);
      console.log(`  chain requests (fetch): ${marks.fetches}, ${marks.fetchBytesOut} bytes out, first ${marks.fetchFirst.toFixed(0)}, last answered ${marks.fetchLast.toFixed(0)} ms`);
      console.log(`  events to the window: ${events}, ${eventBytes} bytes`);
      if (requests.size) console.log(`  bridge requests: ${[...requests].map(([p, n]) => `${p} ${n}`).join(', ')}`);
      for (const line of cpuReport(before, after)) console.log(line);
      await closeContext?.();
    }
  }
  if (go) console.log('runs done');
  await bridge?.close();
} finally {
  await browser?.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
