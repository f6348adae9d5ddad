/**
 * Drag-in figures of issue 9 (item 12), measured in Chromium through the web bridge on a real
 * engine: 1,000 files of 10 KB dropped as a folder (a real drop event with a DataTransfer) until
 * the staging list shows all 1,000 rows; then `Create and schedule` until every row says it was
 * created. In the browser the drop includes uploading the files to the bridge; the Electron
 * window hands main the folder's path instead, measured here too (the same staging call).
 *
 * `npm run bench` runs it with the rest; `npx tsx bench/staging-ui.bench.ts` runs it alone.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createAppContext } from '../main/app/app-context.js';
import { createIpcHandlers } from '../main/app/ipc-handlers.js';
import { startWebBridge } from '../main/app/web-bridge.js';
import { Engine } from '../main/engine/index.js';
import { timed, type BenchResult } from './measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env['PROOFDESK_CHROMIUM'] ?? '/usr/bin/chromium';
const FILES = 1_000;

function writeFolder(dir: string, prefix: string): string {
  const folder = join(dir, prefix);
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `${prefix}-${String(i).padStart(4, '0')}.pdf`), randomBytes(10 * 1024));
  return folder;
}

export async function stagingUiBenchmarks(log: (line: string) => void): Promise<BenchResult[]> {
  if (!existsSync(CHROMIUM)) {
    log(`staging-ui: skipped, no Chromium at ${CHROMIUM}`);
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'proofdesk-bench-staging-ui-'));
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    log('staging-ui: building the renderer...');
    execFileSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', join(dir, 'out'), '--logLevel', 'error'], { cwd: ROOT, stdio: 'ignore' });
    const added = engine.partners.add({ name: 'Bench University' });
    const ctx = createAppContext({ engine, partner: { id: added.partner_id, name: added.name } });
    const handlers = createIpcHandlers(ctx);
    const bridge = await startWebBridge({ handlers, events: ctx.events, rendererDir: join(dir, 'out', 'renderer') });
    const results: BenchResult[] = [];
    try {
      // Electron's way: main gets the dropped folder's path and stages it.
      const electronFolder = writeFolder(dir, 'electron');
      const electron = await timed(() => handlers['staging:addPaths']([electronFolder]));
      if (electron.result.rows.length !== FILES) throw new Error(`staged ${electron.result.rows.length} of ${FILES}`);
      results.push({ name: 'drop 1,000 files (10 KB): staged, Electron path (main)', value: electron.ms, unit: 'ms', target: { value: 1000, better: 'lower' } });

      const folder = writeFolder(dir, 'diplomas');
      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      await page.goto(bridge.url);
      await page.getByRole('region', { name: 'Drop files to add' }).waitFor();
      // The files as a drop carries them: read from disk into File objects first (not timed).
      await page.evaluate(`(() => { const i = document.createElement('input'); i.type = 'file'; i.id = 'bench-src'; i.setAttribute('webkitdirectory', ''); i.hidden = true; document.body.append(i); })()`);
      await page.setInputFiles('#bench-src', folder);
      const staging = page.getByRole('region', { name: 'Staging' });
      log('staging-ui: dropping 1,000 files in Chromium...');
      const dropped = await timed(async () => {
        await page.evaluate(`(() => {
          const data = new DataTransfer();
          for (const f of document.getElementById('bench-src').files) data.items.add(f);
          const target = document.querySelector('main') || document.body;
          for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        })()`);
        await staging.getByText(`${FILES.toLocaleString('en-US')} rows`, { exact: false }).waitFor({ timeout: 60_000 });
      });
      results.push({ name: 'drop 1,000 files (10 KB): staged, browser (upload + stage + render)', value: dropped.ms, unit: 'ms', target: { value: 1000, better: 'lower' } });

      const created = await timed(async () => {
        await staging.getByRole('button', { name: 'Create and schedule' }).click();
        await staging.getByText(`${FILES.toLocaleString('en-US')} created`, { exact: false }).waitFor({ timeout: 120_000 });
      });
      const jobs = await engine.serviceFor(added.partner_id).listJobs({ status: 'scheduled' });
      const inJob = (await engine.serviceFor(added.partner_id).listJobCredentials(jobs.items[0]!.uid, { per_page: 1 })).total_items;
      if (inJob !== FILES) throw new Error(`${inJob} of ${FILES} credentials scheduled`);
      results.push({ name: 'drop 1,000 files (10 KB): created and scheduled, browser', value: created.ms, unit: 'ms', target: { value: 1500, better: 'lower' } });
      await context.close();
    } finally {
      await bridge.close();
    }
    return results;
  } finally {
    await browser.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const r of await stagingUiBenchmarks((line) => process.stderr.write(`${line}\n`))) console.log(`${r.name}: ${r.value.toFixed(0)} ${r.unit} (target <= ${r.target?.value})`);
}
