/**
 * Drag-in figures, measured in Chromium through the web bridge on a real
 * engine: 1,000 files of 10 KB dropped as a folder (a real drop event with a DataTransfer) until
 * the staging list shows all 1,000 rows; then `Create and schedule` until every row says it was
 * created. In the browser the drop includes uploading the files to the bridge; the Electron
 * window hands main the folder's path instead, measured here too (the same staging call).
 * The DataTransfer is filled before the clock starts (bench/browser-drop.ts): its 1,000
 * `items.add` calls are the benchmark's doing, not the app's.
 *
 * Between the two, the staged grid itself: a 1,000 × 2 block pasted from a spreadsheet (a real
 * Ctrl+V of the clipboard) until the grid says the cells are pasted, and the frames while the
 * grid is scrolled from top to bottom in 40 jumps, one a frame (each jump renders rows anew).
 *
 * Then the upload alone at Verify's scale: 10,000 proof-sized files dropped on the Verify view
 * until the bridge has answered each file's upload, with the CPU main and Chromium used for it.
 *
 * Each figure is the median of RUNS drops (a fresh folder each), with the load beside it; the
 * renderer's own cost of each phase is shown too (Chromium's TaskDuration and longest task).
 *
 * `npm run bench -- --only staging-ui` runs it alone (or `npx tsx bench/staging-ui.bench.ts`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession, type Page, type Response } from 'playwright-core';
import { createAppContext } from '../main/app/app-context.js';
import { createIpcHandlers } from '../main/app/ipc-handlers.js';
import { startWebBridge } from '../main/app/web-bridge.js';
import { Engine } from '../main/engine/index.js';
import { fireDrop, prepareDrop } from './browser-drop.js';
import { observeMachine, processCpuMs } from './machine.js';
import { benchDir, convergence, timed, type BenchResult } from './measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env['PROOFDESK_CHROMIUM'] ?? '/usr/bin/chromium';
const FILES = 1_000;
/** Proof-sized files of the upload figure (a Verify drop of 10,000 proofs). */
const UPLOAD_FILES = 10_000;
const RUNS = Number(process.env['PROOFDESK_BENCH_STAGING_RUNS'] ?? 3);

function writeFolder(dir: string, prefix: string): string {
  const folder = join(dir, prefix);
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `${prefix}-${String(i).padStart(4, '0')}.pdf`), randomBytes(10 * 1024));
  return folder;
}

/** The renderer's busy time (Chromium's TaskDuration, ms) so far, and its longest task since `watchLongTasks`. */
async function rendererCost(cdp: CDPSession, page: Page): Promise<{ busyMs: number; longestMs: number }> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const busyMs = 1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN);
  return { busyMs, longestMs: (await page.evaluate('window.__longest ?? 0')) as number };
}

async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__longest = 0;
    window.__observer?.disconnect();
    window.__observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); });
    window.__observer.observe({ type: 'longtask' });
  })()`);
}

/**
 * CPU time (ms) used so far by this process (the bridge, main's handlers and the engine) and
 * by Chromium with all its child processes: a figure the machine's load does not stretch.
 */
function cpuSoFar(): { main: number; chromium: number } {
  const used = process.cpuUsage();
  // Chromium's processes: descendants of this one (Playwright started the browser) named chrom*.
  const procs = new Map<number, { parent: number; name: string }>();
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      procs.set(Number(pid), { parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), name });
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let at = procs.get(pid)?.parent, hops = 0; at !== undefined && at > 1 && hops < 10; at = procs.get(at)?.parent, hops++) if (at === process.pid) return true;
    return false;
  };
  let chromium = 0;
  for (const [pid, { name }] of procs) if (/chrom/i.test(name) && ours(pid)) chromium += processCpuMs(pid) ?? 0;
  return { main: (used.user + used.system) / 1000, chromium };
}

/** The median of the runs, with how many and how far apart they were. */
function figure(samples: number[]): Pick<BenchResult, 'value' | 'repeat'> {
  const state = convergence(samples, { window: samples.length, minRuns: samples.length, tolerance: 0.1 });
  return { value: state.value, repeat: { runs: samples.length, spread: state.spread, converged: state.converged } };
}

export async function stagingUiBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  if (!existsSync(CHROMIUM)) {
    log(`staging-ui: skipped, no Chromium at ${CHROMIUM}`);
    return [];
  }
  const dir = benchDir('proofdesk-bench-staging-ui-');
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    log('staging-ui: building the renderer...');
    execFileSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', join(dir, 'out'), '--logLevel', 'error'], { cwd: ROOT, stdio: 'ignore' });
    const added = engine.partners.add({ name: 'Bench University' });
    const service = engine.serviceFor(added.partner_id);
    const ctx = createAppContext({ engine, partner: { id: added.partner_id, name: added.name } });
    const handlers = createIpcHandlers(ctx);
    const bridge = await startWebBridge({ handlers, events: ctx.events, rendererDir: join(dir, 'out', 'renderer'), uploadsParent: dir });
    try {
      // Electron's way: main gets the dropped folder's path and stages it.
      const electronMachine = observeMachine();
      const electron: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const folder = writeFolder(dir, `electron${run}`);
        const staged = await timed(() => handlers['staging:addPaths']([folder]));
        if (staged.result.rows.length !== FILES) throw new Error(`staged ${staged.result.rows.length} of ${FILES}`);
        electron.push(staged.ms);
      }
      const electronWindow = electronMachine.end();

      const browsing = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      await browsing.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await browsing.newPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      await page.goto(bridge.url);
      await page.getByRole('region', { name: 'Drop files to add' }).waitFor();
      const staging = page.getByRole('region', { name: 'Staging' });
      const droppedCpuMain: number[] = [];
      const droppedCpuChromium: number[] = [];
      const dropped: number[] = [];
      const droppedBusy: number[] = [];
      const droppedLongest: number[] = [];
      const pasted: number[] = [];
      const frameMedian: number[] = [];
      const frameP95: number[] = [];
      const created: number[] = [];
      const createdBusy: number[] = [];
      const createdLongest: number[] = [];
      const dropMachine = observeMachine();
      for (let run = 0; run < RUNS; run++) {
        const folder = writeFolder(dir, `diplomas${run}`);
        await prepareDrop(page, folder);
        await watchLongTasks(page);
        const before = await rendererCost(cdp, page);
        const cpuBefore = cpuSoFar();
        log(`staging-ui: dropping ${FILES} files in Chromium (run ${run + 1} of ${RUNS})...`);
        const drop = await timed(async () => {
          await fireDrop(page);
          // The grid's row count (the text "1,000 rows" is also in the notice left by Clear all).
          await page.locator(`[role=grid][aria-label="Staged files"][aria-rowcount="${FILES + 1}"]`).waitFor({ timeout: 60_000 });
        });
        const cpuAfter = cpuSoFar();
        const afterDrop = await rendererCost(cdp, page);
        droppedCpuMain.push(cpuAfter.main - cpuBefore.main);
        droppedCpuChromium.push(cpuAfter.chromium - cpuBefore.chromium);
        dropped.push(drop.ms);
        droppedBusy.push(afterDrop.busyMs - before.busyMs);
        droppedLongest.push(afterDrop.longestMs);

        await staging.getByRole('textbox', { name: `Title of diplomas${run}-0000.pdf` }).click();
        const block = Array.from({ length: FILES }, (_, i) => `Student ${i}\tdiploma`).join('\n');
        await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(block)})`);
        const paste = await timed(async () => {
          await page.keyboard.press('Control+V');
          await staging.getByText(`${(2 * FILES).toLocaleString('en-US')} cells pasted`).waitFor();
        });
        pasted.push(paste.ms);
        const frames = (await page.evaluate(`new Promise((done) => {
          const box = document.querySelector('.staging-scroll');
          const times = [];
          let last = performance.now();
          let step = 0;
          const tick = () => {
            const now = performance.now();
            times.push(now - last);
            last = now;
            box.scrollTop = (box.scrollHeight / 40) * step++;
            if (step <= 41) requestAnimationFrame(tick); else done(times.slice(2).sort((a, b) => a - b));
          };
          requestAnimationFrame(tick);
        })`)) as number[];
        frameMedian.push(frames[Math.floor(frames.length / 2)]!);
        frameP95.push(frames[Math.floor(frames.length * 0.95)]!);

        await watchLongTasks(page);
        const make = await timed(async () => {
          await staging.getByRole('button', { name: 'Create and schedule' }).click();
          await staging.getByText(`${FILES.toLocaleString('en-US')} created`, { exact: false }).waitFor({ timeout: 120_000 });
        });
        const afterCreate = await rendererCost(cdp, page);
        created.push(make.ms);
        createdBusy.push(afterCreate.busyMs - afterDrop.busyMs);
        createdLongest.push(afterCreate.longestMs);
        const jobs = await service.listJobs({ status: 'scheduled' });
        const inJob = (await service.listJobCredentials(jobs.items[0]!.uid, { per_page: 1 })).total_items;
        if (inJob !== FILES * (run + 1)) throw new Error(`${inJob} of ${FILES * (run + 1)} credentials scheduled`);
        await staging.getByRole('button', { name: 'Clear all' }).click();
        await staging.getByText('cleared from staging').waitFor();
        log(`staging-ui: run ${run + 1}: staged ${drop.ms.toFixed(0)} ms, pasted ${paste.ms.toFixed(0)} ms, created and scheduled ${make.ms.toFixed(0)} ms`);
      }
      const machine = dropMachine.end();

      // The upload alone, at Verify's scale: 10,000 proof-sized files (2.5 KB) dropped on the
      // Verify view (read into the drop first, not timed), until the bridge has answered every
      // file's upload (the verification that follows is not timed; it is awaited before the next run).
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Verify', exact: true }).click();
      await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
      const uploadMachine = observeMachine();
      const uploaded: number[] = [];
      const uploadCpuMain: number[] = [];
      const uploadCpuChromium: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const folder = join(dir, `proofs${run}`);
        mkdirSync(folder);
        for (let i = 0; i < UPLOAD_FILES; i++) writeFileSync(join(folder, `p-${String(i).padStart(5, '0')}.proof.json`), JSON.stringify({ n: i, proof: randomBytes(1200).toString('hex') }));
        await prepareDrop(page, folder);
        let answered = 0;
        let allAnswered = () => {};
        const all = new Promise<void>((resolve) => (allAnswered = resolve));
        const onResponse = (response: Response) => {
          if (response.request().method() !== 'POST' || !new URL(response.url()).pathname.startsWith('/upload/')) return;
          void response.json().then(({ tops }: { tops: string[] }) => {
            answered += tops.length;
            if (answered >= UPLOAD_FILES) allAnswered();
          });
        };
        page.on('response', onResponse);
        const cpuBefore = cpuSoFar();
        log(`staging-ui: uploading ${UPLOAD_FILES} files in Chromium (run ${run + 1} of ${RUNS})...`);
        const upload = await timed(async () => {
          await fireDrop(page);
          await all;
        });
        const cpuAfter = cpuSoFar();
        page.off('response', onResponse);
        uploaded.push(upload.ms);
        uploadCpuMain.push(cpuAfter.main - cpuBefore.main);
        uploadCpuChromium.push(cpuAfter.chromium - cpuBefore.chromium);
        log(`staging-ui: run ${run + 1}: uploaded ${UPLOAD_FILES} files in ${upload.ms.toFixed(0)} ms`);
        await page.getByText(`${UPLOAD_FILES.toLocaleString('en-US')} proofs verified`, { exact: true }).waitFor({ timeout: 300_000 });
      }
      const uploadWindow = uploadMachine.end();
      await page.context().close();
      const ms = { unit: 'ms' };
      const staged = { target: { value: 1000, better: 'lower' as const } };
      return [
        { name: 'drop 1,000 files (10 KB): staged, Electron path (main)', ...figure(electron), ...ms, ...staged, machine: electronWindow },
        { name: 'drop 1,000 files (10 KB): staged, browser (upload + stage + render)', ...figure(dropped), ...ms, ...staged, machine },
        { name: '  renderer busy meanwhile (TaskDuration)', ...figure(droppedBusy), ...ms, machine },
        { name: '  renderer longest task meanwhile', ...figure(droppedLongest), ...ms, machine },
        { name: '  CPU used: bridge + main (this process)', ...figure(droppedCpuMain), ...ms, machine },
        { name: '  CPU used: Chromium (all its processes)', ...figure(droppedCpuChromium), ...ms, machine },
        { name: 'staging grid: paste 1,000 rows × 2 columns (Ctrl+V to "2,000 cells pasted")', ...figure(pasted), ...ms, target: { value: 500, better: 'lower' }, machine },
        { name: 'staging grid: frame while scrolling 1,000 rows, median', ...figure(frameMedian), ...ms, target: { value: 50, better: 'lower' }, machine },
        { name: 'staging grid: frame while scrolling 1,000 rows, 95th percentile', ...figure(frameP95), ...ms, machine },
        { name: 'drop 1,000 files (10 KB): created and scheduled, browser', ...figure(created), ...ms, target: { value: 1500, better: 'lower' }, machine },
        { name: '  renderer busy meanwhile (TaskDuration)', ...figure(createdBusy), ...ms, machine },
        { name: '  renderer longest task meanwhile', ...figure(createdLongest), ...ms, machine },
        { name: 'upload 10,000 files (2.5 KB), browser (a drop on Verify, until every file is answered)', ...figure(uploaded), ...ms, target: { value: 1000, better: 'lower' }, machine: uploadWindow },
        { name: '  CPU used: bridge + main (this process)', ...figure(uploadCpuMain), ...ms, machine: uploadWindow },
        { name: '  CPU used: Chromium (all its processes)', ...figure(uploadCpuChromium), ...ms, machine: uploadWindow },
      ];
    } finally {
      await bridge.close();
    }
  } finally {
    await browser.close();
    await engine.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const r of await stagingUiBenchmarks((line) => process.stderr.write(`${line}\n`))) console.log(`${r.name}: ${r.value.toFixed(0)} ${r.unit} (target <= ${r.target?.value})`);
}
