/**
 * Verify view figures, on a real engine and its local chain (the chain
 * steps are really asked: nothing offline): 10,000 proofs of metadata-only credentials issued
 * in one job, then
 * - Electron's way: main is handed the folder's path and verifies it (`verify:start`) until the
 *   run is done;
 * - in Chromium through the web bridge: the folder dropped on the Verify view (a real drop event
 *   with a DataTransfer; in the browser that includes uploading the 10,000 files) until the view
 *   says all 10,000 are verified, with the longest renderer task meanwhile (a PerformanceObserver
 *   for `longtask` entries in the page), split into the upload (until the page calls
 *   verify:start) and verifying into the table;
 * - the desktop app's own path end to end, in Chromium through the web bridge with a stand-in
 *   for Electron's preload (`window.proofdeskFiles` of kind 'paths' answering the dropped
 *   folder's path, so nothing is uploaded): the folder dropped on the Verify view until it says
 *   all are verified, and the longest renderer task meanwhile.
 *
 * `npm run bench -- verify-ui` runs it alone (or `npx tsx bench/verify-ui.bench.ts`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TaskInfo } from '../common/tasks.js';
import { createAppContext } from '../main/app/app-context.js';
import { createIpcHandlers } from '../main/app/ipc-handlers.js';
import { startWebBridge } from '../main/app/web-bridge.js';
import { Engine } from '../main/engine/index.js';
import { MemorySecretStore } from '../main/secrets/index.js';
import { fireDrop, prepareDrop } from './browser-drop.js';
import { issueProofFolder } from './proof-folder.js';
import { benchDir, timed, type BenchResult } from './measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env['PROOFDESK_CHROMIUM'] ?? '/usr/bin/chromium';
const PROOFS = Number(process.env['PROOFDESK_BENCH_VERIFY_PROOFS'] ?? 10_000);

export async function verifyUiBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  if (!existsSync(CHROMIUM)) {
    log(`verify-ui: skipped, no Chromium at ${CHROMIUM}`);
    return [];
  }
  const dir = benchDir('proofdesk-bench-verify-ui-');
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false, secrets: new MemorySecretStore(), issuing: { onError: () => undefined } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    log('verify-ui: building the renderer...');
    execFileSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', join(dir, 'out'), '--logLevel', 'error'], { cwd: ROOT, stdio: 'ignore' });
    const added = await engine.addPartner({ name: 'Bench University', issuingIntervalSeconds: 3600 });
    const service = engine.serviceFor(added.partner_id);
    log(`verify-ui: issuing ${PROOFS} credentials on the local chain...`);
    const folder = join(dir, 'proofs');
    await issueProofFolder(engine, service, folder, PROOFS);

    const ctx = createAppContext({ engine, partner: { id: added.partner_id, name: added.name } });
    const handlers = createIpcHandlers(ctx);
    const bridge = await startWebBridge({ handlers, events: ctx.events, rendererDir: join(dir, 'out', 'renderer') });
    const results: BenchResult[] = [];
    try {
      log(`verify-ui: verifying ${PROOFS} proofs, Electron path (main)...`);
      const electron = await timed(async () => {
        const { summary, task } = await handlers['verify:start']([folder]);
        await new Promise<TaskInfo>((resolve) => {
          const off = ctx.events.subscribe((event) => {
            if (event.type === 'task' && event.task.id === task.id && event.task.state !== 'running') {
              off();
              resolve(event.task);
            }
          });
        });
        return handlers['verify:summary'](summary.run_id);
      });
      if (electron.result.counts.ok !== PROOFS) throw new Error(`Electron path: ${electron.result.counts.ok} of ${PROOFS} ok (${JSON.stringify(electron.result.counts)})`);
      results.push({ name: `verify ${PROOFS.toLocaleString('en-US')} dropped proofs (chain asked): Electron path (main)`, value: PROOFS / (electron.ms / 1000), unit: 'proofs/s', target: { value: 5000, better: 'higher' } });

      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      await page.goto(bridge.url);
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Verify', exact: true }).click();
      await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
      // The files as a drop carries them, in a DataTransfer filled before measuring (bench/browser-drop.ts).
      await prepareDrop(page, folder);
      await page.evaluate(`(() => {
        window.__longest = 0;
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask' });
      })()`);
      await page.evaluate(pageClock(PROOFS));
      log(`verify-ui: dropping ${PROOFS} proofs in Chromium...`);
      // Where the time goes: the upload (drop → the page asks main to verify), then verifying
      // into the table (verify:start → the view says all are verified).
      let started = 0;
      let uploads = 0;
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith('/upload/')) uploads++;
        if (path === `/ipc/${encodeURIComponent('verify:start')}`) started = performance.now();
      });
      const droppedAt = performance.now();
      const dropped = await timed(async () => {
        await fireDrop(page);
        await page.getByText(`${PROOFS.toLocaleString('en-US')} proofs verified`, { exact: true }).waitFor({ timeout: 300_000 });
      });
      const shownMs = await dropToShown(page);
      const okText = await page.getByTestId('verify-count-ok').textContent();
      if (okText !== `ok ${PROOFS.toLocaleString('en-US')}`) throw new Error(`browser: ${okText}`);
      const longest = (await page.evaluate('window.__longest')) as number;
      // No target here: this is the web bridge's path (`npm run ui:browser`, where Electron cannot
      // run), which must upload every file; the desktop app's path is the preload stand-in below.
      // Chromium alone spends seconds of CPU reading 10,000 dropped File objects on 2 cores.
      results.push({ name: `verify ${PROOFS.toLocaleString('en-US')} dropped proofs: web bridge end to end (upload + verify + table)`, value: PROOFS / (shownMs / 1000), unit: 'proofs/s', notes: ['the bridge uploads every file; not the desktop path'] });
      results.push({ name: `  the same as Playwright's wait saw it (it polls every 500 ms)`, value: PROOFS / (dropped.ms / 1000), unit: 'proofs/s' });
      results.push({ name: `  of which the upload (${uploads} requests), until verify:start`, value: started - droppedAt, unit: 'ms' });
      results.push({ name: `  of which verifying into the table, from verify:start`, value: droppedAt + shownMs - started, unit: 'ms' });
      results.push({ name: `verify ${PROOFS.toLocaleString('en-US')} dropped proofs, web bridge: longest renderer task meanwhile`, value: longest, unit: 'ms', target: { value: 100, better: 'lower' } });
      await context.close();

      results.push(...(await preloadStandIn(browser, bridge.url, folder, log)));
    } finally {
      await bridge.close();
    }
    return results;
  } finally {
    await browser.close();
    await engine.close();
  }
}

/**
 * In the page: the drop's time (a capturing listener on the window) and the time the view first
 * says all are verified (a MutationObserver on the summary's status, stamped at the next
 * animation frame, the frame that shows it), both on the page's clock. Playwright's wait polls
 * every 500 ms once it has waited a while, so its end would add up to half a second to a
 * two-second figure: the figure is taken from these marks, the wait only says when to read them.
 */
export function pageClock(proofs: number): string {
  return `(() => {
    window.__dropAt = 0;
    window.__shownAt = 0;
    window.addEventListener('drop', () => { if (!window.__dropAt) window.__dropAt = performance.now(); }, { capture: true });
    const want = ${JSON.stringify(`${proofs.toLocaleString('en-US')} proofs verified`)};
    let seen = false;
    new MutationObserver(() => {
      if (seen) return;
      const status = document.querySelector('[data-testid="verify-progress"]');
      if (!status || status.textContent !== want) return;
      seen = true;
      requestAnimationFrame((at) => { window.__shownAt = at; });
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`;
}

/** The marks of pageClock: from the drop to the frame showing "N proofs verified", in ms. */
export async function dropToShown(page: Page): Promise<number> {
  await page.waitForFunction('window.__shownAt > 0');
  const [dropAt, shownAt] = (await page.evaluate('[window.__dropAt, window.__shownAt]')) as [number, number];
  if (!(dropAt > 0) || !(shownAt > dropAt)) throw new Error(`the page's marks are not in order: drop ${dropAt}, shown ${shownAt}`);
  return shownAt - dropAt;
}

/**
 * The page script of the preload stand-in: the bridge's script defines window.proofdeskFiles
 * (not writable), so its definition is skipped for the stand-in's, which answers the folder's
 * path for the dropped folder (as Electron's webUtils.getPathForFile does).
 */
function preloadStandInScript(folder: string): string {
  return `(() => {
    const define = Object.defineProperty;
    const standIn = Object.freeze({ kind: 'paths', pathOf: (file) => (file.name === ${JSON.stringify(basename(folder))} ? ${JSON.stringify(folder)} : '') });
    define(window, 'proofdeskFiles', { value: standIn, enumerable: true });
    Object.defineProperty = function (target, key, descriptor) {
      return target === window && key === 'proofdeskFiles' ? target : define(target, key, descriptor);
    };
    document.addEventListener('DOMContentLoaded', () => { Object.defineProperty = define; }, { once: true });
  })()`;
}

/**
 * A page of the bridge at `url` with the preload stand-in in place, on the Verify view, a drop
 * of the folder ready to fire (bench/browser-drop.ts), the longest task observed and the page's
 * clock set to stamp the drop and the frame showing all PROOFS verified.
 */
export async function openPreloadStandIn(browser: Browser, url: string, folder: string, proofs: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  await context.addInitScript(preloadStandInScript(folder));
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Verify', exact: true }).click();
  await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
  if ((await page.evaluate('window.proofdeskFiles.kind')) !== 'paths') throw new Error('the preload stand-in is not in place');
  await page.evaluate(`(() => {
    window.__benchDrop = new DataTransfer();
    window.__benchDrop.items.add(new File([], ${JSON.stringify(basename(folder))}));
    window.__longest = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask' });
  })()`);
  await page.evaluate(pageClock(proofs));
  return { context, page };
}

/**
 * The desktop app's own path, in Chromium through the web bridge: `window.proofdeskFiles` is a
 * stand-in for Electron's preload (preload/file-paths.ts), `kind: 'paths'`, answering the
 * dropped folder's path, so nothing is uploaded; the folder (one File, as a folder dropped in
 * Electron is) is dropped on the Verify view until it says all are verified.
 */
async function preloadStandIn(browser: Browser, url: string, folder: string, log: (line: string) => void): Promise<BenchResult[]> {
  const { context, page } = await openPreloadStandIn(browser, url, folder, PROOFS);
  try {
    log(`verify-ui: dropping the folder of ${PROOFS} proofs in Chromium, preload stand-in (paths)...`);
    const dropped = await timed(async () => {
      await fireDrop(page);
      await page.getByText(`${PROOFS.toLocaleString('en-US')} proofs verified`, { exact: true }).waitFor({ timeout: 300_000 });
    });
    const shownMs = await dropToShown(page);
    const okText = await page.getByTestId('verify-count-ok').textContent();
    if (okText !== `ok ${PROOFS.toLocaleString('en-US')}`) throw new Error(`preload stand-in: ${okText}`);
    const longest = (await page.evaluate('window.__longest')) as number;
    return [
      { name: `verify ${PROOFS.toLocaleString('en-US')} dropped proofs (chain asked): desktop path in Chromium, preload stand-in (folder's path) end to end into the table`, value: PROOFS / (shownMs / 1000), unit: 'proofs/s', target: { value: 5000, better: 'higher' } },
      { name: `  the same as Playwright's wait saw it (it polls every 500 ms)`, value: PROOFS / (dropped.ms / 1000), unit: 'proofs/s' },
      { name: `verify ${PROOFS.toLocaleString('en-US')} dropped proofs, preload stand-in: longest renderer task meanwhile`, value: longest, unit: 'ms', target: { value: 100, better: 'lower' } },
    ];
  } finally {
    await context.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const r of await verifyUiBenchmarks((line) => process.stderr.write(`${line}\n`))) console.log(`${r.name}: ${r.value.toFixed(0)} ${r.unit} (target ${r.target?.better === 'higher' ? '>=' : '<='} ${r.target?.value})`);
}
