/**
 * Bringing records in, end to end in Debian's Chromium through the web bridge, on a real
 * engine (and, for revoking, the local chain): a real drop of files and of a folder, staging
 * with sidecars and checks as you type, Create and schedule with per-row results (CSV import:
 * csv-import.e2e.test.ts); the detail panel with its record tree, Add to record,
 * verify now, the proof download and revoke. Screenshots go to build/screenshots/; axe-core
 * finds no serious or critical violation on any of these views.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Partner } from '../../common/wire-types.js';
import { createAppContext, type AppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import type { EmbeddedService } from '../../main/engine/index.js';
import { addIssuingPartner, makeTempDir, openIssuingEngine, removeTempDirs, tickUntil, type IssuingFixture } from '../support/issuing-fixture.js';
import { silentlyCutCells, silentlyCutFields } from './cut-cells.js';
import { dropFiles } from './drop-files.js';
import { builtRenderer, seriousA11yProblems } from './shell-harness.js';
import { valuesWhenSaid } from './values-when.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = process.env['PROOFDESK_CHROMIUM'] ?? '/usr/bin/chromium';
const SHOTS = join(ROOT, 'build', 'screenshots');

let work: string;
let rendererDir: string;
let fixture: IssuingFixture;
let partner: Partner;
let service: EmbeddedService;
let ctx: AppContext;
let bridge: WebBridge;
let browser: Browser;
/** Where the bridge keeps the browser's uploads (its private folder is made inside). */
let uploadsParent: string;

async function shot(page: Page, test: string, step: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${test}-${step}.png`), fullPage: true });
}

/** No serious or critical accessibility violation on what the page shows now. */
async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousA11yProblems(page)).toEqual([]);
}

async function openApp(): Promise<{ page: Page; problems: string[] }> {
  // A context of its own: axe-core needs one (and each test starts from a clean page).
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await page.getByRole('grid', { name: 'Credentials' }).or(page.getByRole('table', { name: 'Credentials' })).first().waitFor();
  return { page, problems };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  mkdirSync(SHOTS, { recursive: true });
  work = makeTempDir('proofdesk-e2e-staging-');
  rendererDir = builtRenderer();

  fixture = openIssuingEngine({ dataDir: join(work, 'data') });
  mkdirSync(fixture.dataDir, { recursive: true });
  const added = await addIssuingPartner(fixture.engine, 'Acme University');
  partner = { id: added.id, name: added.name };
  service = added.service;
  ctx = createAppContext({ engine: fixture.engine, partner });
  uploadsParent = join(work, 'uploads');
  mkdirSync(uploadsParent, { recursive: true });
  bridge = await startWebBridge({ handlers: createIpcHandlers(ctx), events: ctx.events, rendererDir, uploadsParent });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await fixture?.close();
  removeTempDirs();
});

describe('drag files in', () => {
  it('stages a dropped folder and dropped files, checks rows as you type, creates and schedules them with per-row results', async () => {
    const { page, problems } = await openApp();
    const files = join(work, 'drop');
    const folder = join(files, 'diplomas');
    mkdirSync(join(folder, 'msc'), { recursive: true });
    writeFileSync(join(folder, 'alice.pdf'), 'diploma of alice');
    writeFileSync(join(folder, 'alice.pdf.json'), JSON.stringify({ title: 'Diploma of Alice', tags: ['diploma'], metadata: { grade: 'A' } }));
    writeFileSync(join(folder, 'msc', 'bob.pdf'), 'diploma of bob');
    writeFileSync(join(folder, 'carol.pdf.crdownload'), 'half a download');
    writeFileSync(join(folder, 'dave.pdf'), 'diploma of dave');
    writeFileSync(join(folder, 'dave.pdf.json'), '{"title": "Diploma of Dave", "expiry_date": "yesterday"}');
    writeFileSync(join(files, 'loose-1.pdf'), 'loose one');
    writeFileSync(join(files, 'loose-2.pdf'), 'loose two');

    await expect.poll(() => page.getByRole('region', { name: 'Drop files to add' }).isVisible()).toBe(true);
    await dropFiles(page, folder, true);
    const staging = page.getByRole('region', { name: 'Staging' });
    await staging.getByRole('textbox', { name: 'Title of alice.pdf' }).waitFor();
    await dropFiles(page, [join(files, 'loose-1.pdf'), join(files, 'loose-2.pdf')], false);
    await staging.getByRole('textbox', { name: 'Title of loose-2.pdf' }).waitFor();

    // The sidecar was applied; the partial download was left out with the reason.
    expect(await staging.getByRole('textbox', { name: 'Title of alice.pdf' }).inputValue()).toBe('Diploma of Alice');
    expect(await staging.getByRole('textbox', { name: 'Tags of alice.pdf' }).inputValue()).toBe('diploma');
    // With no sidecar, the title is the file's name made readable.
    expect(await staging.getByRole('textbox', { name: 'Title of msc/bob.pdf' }).inputValue()).toBe('Bob');
    await staging.getByText('1 item left out').click();
    await expect.poll(() => staging.textContent()).toContain('carol.pdf.crdownload');

    // Checked as you type: a bad tag shows the spec's id at once.
    const bobTags = staging.getByRole('textbox', { name: 'Tags of msc/bob.pdf' });
    await bobTags.fill('ok-tag, no!');
    await expect.poll(() => staging.textContent()).toContain('invalid_tag');
    // Metadata in the grid, with the keyboard.
    await staging.getByRole('button', { name: /^Metadata of loose-1.pdf/ }).click();
    const newField = staging.getByRole('textbox', { name: 'New metadata field of loose-1.pdf' });
    await newField.fill('student');
    await newField.press('Enter');
    await staging.getByRole('textbox', { name: 'Value of student' }).fill('Dana');
    await shot(page, 'staging', '1-staged');
    await expectAccessible(page);

    await staging.getByRole('button', { name: 'Create and schedule' }).click();
    // Bob fails alone with the spec's id, and Dave with his broken sidecar's; the others are created and scheduled.
    await expect.poll(() => staging.getByRole('button', { name: 'Open' }).count(), { timeout: 20_000 }).toBe(3);
    // The outcome as it happened, in staging and in the toast: never "done" when rows failed.
    await expect.poll(() => staging.getByText('5 rows · 3 created, 2 failed').count()).toBe(1);
    const toasts = page.locator('.toasts');
    await expect.poll(() => toasts.textContent()).toContain('Credentials from staging: 3 created, 2 failed');
    expect(await toasts.textContent()).not.toContain('done');
    const alerts = (await staging.getByRole('alert').allTextContents()).join(' | ');
    expect(alerts).toContain('invalid_tag');
    expect(alerts).toContain('invalid_expiry_date');
    expect(alerts).toContain('dave.pdf.json');
    await shot(page, 'staging', '2-created');

    const all = (await service.listCredentials({ per_page: 0 })).items;
    expect(all.map((c) => c.title).sort()).toEqual(['Diploma of Alice', 'Loose 1', 'Loose 2']);
    expect(all.find((c) => c.title === 'Loose 1')!.metadata).toEqual({ student: 'Dana' });
    const jobs = await service.listJobs({ status: 'scheduled' });
    expect((await service.listJobCredentials(jobs.items[0]!.uid, { per_page: 0 })).total_items).toBe(3);
    expect((await service.listFiles({ per_page: 1 })).total_items).toBe(3);

    // Fixed and tried again: only the failed row is sent.
    await bobTags.fill('ok-tag');
    await staging.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => staging.getByRole('button', { name: 'Open' }).count(), { timeout: 20_000 }).toBe(4);
    expect((await service.listCredentials({ per_page: 1 })).total_items).toBe(4);

    // The same content again is flagged with the credential that holds it.
    await staging.getByRole('button', { name: 'Clear all' }).click();
    await staging.getByText('5 rows cleared from staging.').waitFor();
    await dropFiles(page, [join(files, 'loose-1.pdf')], false);
    await expect.poll(() => staging.textContent()).toContain('Already uploaded');
    await shot(page, 'staging', '3-duplicate');
    expect(problems).toEqual([]);
  });
});

/** The upload batches on disk: one folder per drop, inside the bridge's private folder. */
function uploadBatches(): string[] {
  return readdirSync(uploadsParent).flatMap((root) => readdirSync(join(uploadsParent, root)).map((batch) => `${root}/${batch}`));
}

describe('a drop of 1,000 files', () => {
  it('uploads them in a few requests and stages them all; Cancel while adding stages nothing and leaves nothing on disk', async () => {
    const { page, problems } = await openApp();
    const folder = join(work, 'thousand');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 1000; i++) writeFileSync(join(folder, `diploma-${String(i).padStart(4, '0')}.pdf`), `diploma number ${i}`);
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/upload/')) uploads.push(request.url());
    });

    await dropFiles(page, folder, true);
    const staging = page.getByRole('region', { name: 'Staging' });
    await staging.getByText('1,000 rows').waitFor({ timeout: 60_000 });
    // Many files to a request (each request of the page costs it and the bridge dearly).
    expect(uploads.length).toBeGreaterThan(0);
    expect(uploads.length).toBeLessThanOrEqual(4);
    // The grid is virtualized: the first rows are rendered, the last are not (yet).
    expect(await staging.getByRole('textbox', { name: 'Title of diploma-0000.pdf' }).count()).toBe(1);
    expect(await staging.getByRole('textbox', { name: 'Title of diploma-0999.pdf' }).count()).toBe(0);
    expect(await staging.getByRole('grid', { name: 'Staged files' }).getAttribute('aria-rowcount')).toBe('1001');
    await shot(page, 'staging-drop', '1-thousand-staged');
    await staging.getByRole('button', { name: 'Clear all' }).click();

    // Cancel while the files are on their way: the first request lands on disk, the rest are held.
    const before = uploadBatches();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    await page.route('**/upload/**', async (route) => {
      if (route.request().method() !== 'POST' || first) {
        first = false;
        return route.continue();
      }
      await held;
      await route.abort().catch(() => undefined);
    });
    const landed = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/upload/'));
    await dropFiles(page, folder, true);
    expect((await landed).status()).toBe(200);
    expect(uploadBatches().length).toBe(before.length + 1);
    const adding = page.getByRole('progressbar', { name: 'Adding files' });
    await adding.waitFor();
    await shot(page, 'staging-drop', '2-adding');
    await expectAccessible(page);
    await staging.getByRole('button', { name: 'Cancel' }).click();
    release();
    await adding.waitFor({ state: 'detached' });
    await expect.poll(() => uploadBatches(), { timeout: 10_000 }).toEqual(before);
    expect(await page.getByRole('region', { name: 'Staging' }).count()).toBe(0);
    await page.unroute('**/upload/**');
    expect(problems).toEqual([]);
  });
});

/** Pastes text into the focused field as a person does: the text on the clipboard, then Ctrl+V (a real paste event). */
async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);
  await page.keyboard.press('Control+V');
}

/** Which element has the focus, by its accessible name (aria-label). */
function focusedName(page: Page): Promise<string | null> {
  return page.evaluate(`document.activeElement && document.activeElement.getAttribute('aria-label')`) as Promise<string | null>;
}

describe('staging as a spreadsheet', () => {
  it('fills 1,000 titles and tags from a pasted spreadsheet block, selects and fills down by keyboard and mouse, and undoes Clear all', async () => {
    const { page, problems } = await openApp();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const folder = join(work, 'sheet');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 1000; i++) writeFileSync(join(folder, `diploma-${String(i).padStart(4, '0')}.pdf`), `diploma ${i}`);
    await dropFiles(page, folder, true);
    const staging = page.getByRole('region', { name: 'Staging' });
    await staging.getByText('1,000 rows').waitFor({ timeout: 60_000 });
    const grid = staging.getByRole('grid', { name: 'Staged files' });
    const title = (n: number) => staging.getByRole('textbox', { name: `Title of diploma-${String(n).padStart(4, '0')}.pdf` });
    const tags = (n: number) => staging.getByRole('textbox', { name: `Tags of diploma-${String(n).padStart(4, '0')}.pdf` });

    // Readable titles and real sizes.
    expect(await title(0).inputValue()).toBe('Diploma 0000');
    expect(await title(0).locator('xpath=ancestor::*[@role="row"][1]').textContent()).toContain('9 bytes');

    // A block of 1,000 rows × 2 columns from a spreadsheet, pasted at the first title.
    const block = Array.from({ length: 1000 }, (_, i) => `Student ${i}\tdiploma, spring-2027`).join('\r\n') + '\r\n';
    await title(0).click();
    const pasted = await valuesWhenSaid(page, '2,000 cells pasted', ['Title of diploma-0000.pdf', 'Tags of diploma-0000.pdf', 'Tags of diploma-0009.pdf']);
    await pasteText(page, block);
    // The status line says it when the cells show it, not a frame before.
    expect(await pasted()).toEqual(['Student 0', 'diploma, spring-2027', 'diploma, spring-2027']);
    expect(await title(0).inputValue()).toBe('Student 0');
    expect(await tags(0).inputValue()).toBe('diploma, spring-2027');
    // The grid stays virtualized: a few dozen rows in the page for 1,000 staged.
    expect(await grid.getByRole('row').count()).toBeLessThan(60);

    // Keyboard only: arrows move between rows, Shift+arrows select, Ctrl+D fills down.
    await title(0).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('Title of diploma-0001.pdf');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await staging.getByText('3 rows selected').waitFor();
    await expect.poll(() => focusedName(page)).toBe('Title of diploma-0003.pdf');
    await page.keyboard.press('Control+D');
    await staging.getByText('2 cells filled').waitFor();
    expect(await title(2).inputValue()).toBe('Student 1');
    expect(await title(3).inputValue()).toBe('Student 1');
    expect(await title(4).inputValue()).toBe('Student 4');
    // A value typed once, then Ctrl+Enter: every selected row takes it.
    await tags(5).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('honours');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => tags(7).inputValue()).toBe('honours');
    expect(await tags(6).inputValue()).toBe('honours');
    expect(await tags(8).inputValue()).toBe('diploma, spring-2027');
    // Arrows reach rows far below the screen: the grid scrolls to them.
    await title(8).focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('Title of diploma-0038.pdf');
    expect(await title(38).inputValue()).toBe('Student 38');

    // The mouse: ctrl-click picks rows, shift-click on the row checkboxes takes a range, the buttons act.
    await title(40).click();
    await title(43).click({ modifiers: ['Control'] });
    await staging.getByText('2 rows selected').waitFor();
    await staging.getByRole('button', { name: 'Apply to selected rows' }).click();
    expect(await title(40).inputValue()).toBe('Student 43');
    expect(await title(41).inputValue()).toBe('Student 41');
    await staging.getByRole('checkbox', { name: 'Select diploma-0044.pdf' }).click();
    await staging.getByRole('checkbox', { name: 'Select diploma-0047.pdf' }).click({ modifiers: ['Shift'] });
    await staging.getByText('4 rows selected').waitFor();
    expect(await staging.getByRole('checkbox', { name: 'Select diploma-0046.pdf' }).isChecked()).toBe(true);
    await staging.getByRole('button', { name: 'Fill down' }).click();
    expect(await title(47).inputValue()).toBe('Student 44');
    expect(await tags(47).inputValue()).toBe('diploma, spring-2027');
    // One value pasted over a selection goes into every selected cell.
    await title(50).click();
    await title(52).click({ modifiers: ['Shift'] });
    await staging.getByText('3 rows selected').waitFor();
    await page.evaluate(`navigator.clipboard.writeText('Diploma in Law')`);
    await page.keyboard.press('Control+V');
    await expect.poll(() => title(52).inputValue()).toBe('Diploma in Law');
    expect(await title(51).inputValue()).toBe('Diploma in Law');
    await shot(page, 'staging-sheet', '1-pasted-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'staging-sheet', '2-pasted-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectAccessible(page);

    // Clear all clears at once; Undo brings back every row with its edits.
    await staging.getByRole('button', { name: 'Clear all' }).click();
    await staging.getByText('1,000 rows cleared from staging.').waitFor();
    expect(await staging.getByRole('grid').count()).toBe(0);
    await shot(page, 'staging-sheet', '3-cleared');
    await staging.getByRole('button', { name: 'Undo' }).click();
    await staging.getByText('1,000 rows').waitFor();
    expect(await title(0).inputValue()).toBe('Student 0');
    expect(await title(3).inputValue()).toBe('Student 1');
    expect(problems).toEqual([]);
  }, 180_000);
});

describe('staging layout', () => {
  for (const [locale, theme] of [
    ['en-US', 'light'],
    ['de-DE', 'dark'],
    ['de-DE', 'light'],
  ] as const) {
    it(`at 1280×800 (${locale}, ${theme}) keeps the records table in view and cuts nothing silently`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, colorScheme: theme });
      const page = await context.newPage();
      await page.goto(bridge.url);
      const records = page.getByRole('grid').first();
      await records.waitFor();
      const folder = join(work, `layout-${locale}-${theme}`);
      mkdirSync(join(folder, 'a-folder-with-a-rather-long-name-for-the-cohort-of-2027'), { recursive: true });
      for (let i = 0; i < 30; i++) writeFileSync(join(folder, 'a-folder-with-a-rather-long-name-for-the-cohort-of-2027', `diploma-of-a-student-with-a-long-name-${i}.pdf`), `layout ${i}`);
      await dropFiles(page, folder, true);
      const staging = page.locator('section.staging');
      await staging.getByText(/30/).first().waitFor({ timeout: 30_000 });
      const table = page.locator('.data-table').first();
      await shot(page, 'staging-layout', `${locale}-${theme}`);
      const [tableBox, stagingBox] = [await table.boundingBox(), await staging.boundingBox()];
      // The staging pane takes less than half of the window; the table keeps 12rem (a header and five rows).
      expect(tableBox!.height).toBeGreaterThanOrEqual(168);
      expect(stagingBox!.height).toBeLessThan(400);
      expect(await silentlyCutCells(page)).toEqual([]);
      expect(await silentlyCutFields(page)).toEqual([]);
      await context.close();
    });
  }
});

describe('detail panel', () => {
  it('shows a record as a tree, adds to it, verifies, downloads the proof and revokes after a confirmation', async () => {
    const { page, problems } = await openApp();
    const first = await service.createCredential({ title: 'Diploma of Ivy', metadata: { student: 'Ivy' }, tags: ['diploma'] });
    const job = await service.scheduleCredentials({ engine: 'local', credentials: [first.uid] });
    await service.issueJobNow({ engine: 'local' });
    await tickUntil(fixture.engine, service, job.uid, 'finished', 200);

    // Opened from the records table with the keyboard: find the row, Enter.
    await page.getByRole('searchbox', { name: 'Search records' }).fill('Ivy');
    const row = page.getByRole('row', { name: /Diploma of Ivy/ });
    const panel = page.getByRole('complementary', { name: 'Credential detail' });
    const heading = panel.getByRole('heading', { name: 'Diploma of Ivy' });
    // The table re-renders while the search narrows it: select the row again until Enter opens it.
    await expect
      .poll(async () => {
        await row.click();
        await page.keyboard.press('Enter');
        return heading.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        );
      }, { timeout: 30_000 })
      .toBe(true);
    await expect.poll(() => panel.getByRole('table', { name: 'Certificates' }).textContent()).toContain('issued');

    await panel.getByRole('button', { name: 'Verify now' }).click();
    await expect.poll(() => panel.getByRole('list', { name: 'Verification steps' }).textContent(), { timeout: 20_000 }).toContain('Checking revocation date');
    expect(await panel.textContent()).toContain('Result: ok');

    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download proof' }).click();
    const proof = await download;
    expect(proof.suggestedFilename()).toBe('Diploma of Ivy.proof.json');
    expect(JSON.parse(readFileSync((await proof.path())!, 'utf8'))).toBeTypeOf('object');

    // Add to record: a new credential linked to this one, made in staging.
    await panel.getByRole('button', { name: 'Add to record' }).click();
    const staging = page.getByRole('region', { name: 'Staging' });
    const title = staging.getByRole('textbox', { name: 'Title of Addition to Diploma of Ivy' });
    await title.fill('Transcript of Ivy');
    await staging.getByRole('button', { name: /^Metadata of Transcript of Ivy/ }).click();
    const field = staging.getByRole('textbox', { name: 'New metadata field of Transcript of Ivy' });
    await field.fill('grade');
    await field.press('Enter');
    await staging.getByRole('textbox', { name: 'Value of grade' }).fill('A+');
    // A file added now joins the record too.
    const scan = join(work, 'ivy-scan.pdf');
    writeFileSync(scan, 'scan of the diploma of ivy');
    await dropFiles(page, [scan], false);
    const scanLinks = staging.getByRole('textbox', { name: 'Linked records of ivy-scan.pdf' });
    await scanLinks.waitFor();
    expect(await scanLinks.inputValue()).toBe(first.uid);
    await staging.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => staging.getByRole('button', { name: 'Open' }).count(), { timeout: 20_000 }).toBe(2);
    await staging.getByRole('row').filter({ has: page.getByRole('textbox', { name: 'Title of Transcript of Ivy' }) }).getByRole('button', { name: 'Open' }).click();
    await panel.getByRole('heading', { name: 'Transcript of Ivy' }).waitFor();
    const tree = panel.getByRole('navigation', { name: 'Record' });
    await expect.poll(() => tree.textContent()).toContain('This record holds 3 credentials');
    expect(await tree.textContent()).toContain('Ivy scan');
    await shot(page, 'detail', '1-record');
    await expectAccessible(page);

    // Navigate the tree back to the diploma, and revoke it.
    await tree.getByRole('button', { name: 'Diploma of Ivy' }).click();
    await panel.getByRole('heading', { name: 'Diploma of Ivy' }).waitFor();
    await panel.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke certificate' });
    expect(await confirm.textContent()).toContain('cannot be undone');
    await shot(page, 'detail', '2-confirm-revoke');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Revoke' }).press('Enter');
    await expect.poll(() => panel.getByRole('table', { name: 'Certificates' }).textContent(), { timeout: 30_000 }).toContain('revoked');
    const certificates = await service.listCertificates({ credential_uid: first.uid });
    expect(certificates.items[0]!.revoked_date).not.toBeNull();
    await shot(page, 'detail', '3-revoked');
    expect(problems).toEqual([]);
  });
});
