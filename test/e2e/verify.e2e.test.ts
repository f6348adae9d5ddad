/**
 * The Verify view end to end in Debian's Chromium through the web bridge: credentials issued on the local chain in setup, then a real DataTransfer drop of a mix —
 * ok (with its original), tampered, revoked, expired, wrong original, garbage, an original
 * alone — and of a folder of 1,000 proofs. Row results, counts, the failures filter, a row's six
 * steps, "Which credential is this?", and the audit report's contents; screenshots in
 * build/screenshots/verify-*.png; axe-core finds no serious or critical violation.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { issueNowAndFinish, makeTempDir, removeTempDirs, sleep } from '../support/issuing-fixture.js';
import { taskEnded } from '../support/task-ended.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seriousA11yProblems, type Workspace } from './shell-harness.js';
import { dropFiles } from './drop-files.js';
import { cellUnder, rowTextsLedBy } from './grid-cell.js';
import { silentlyCutCells } from './cut-cells.js';

let work: string;
let workspace: Workspace;
let browser: Browser;
let mix: string;
let folder: string;
const uids: Record<string, string> = {};

async function openVerify(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Verify', exact: true }).click();
}

async function rowTexts(page: Page): Promise<string[]> {
  // Led by the Result column, wherever the admin has put it.
  return rowTextsLedBy(page.getByRole('grid', { name: 'Verification results' }), 'Result');
}

async function counts(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const s of ['ok', 'pending', 'expired', 'revoked', 'failed', 'error']) out[s] = (await page.getByTestId(`verify-count-${s}`).textContent()) ?? '';
  return out;
}

beforeAll(async () => {
  work = makeTempDir('proofdesk-e2e-verify-');
  const rendererDir = builtRenderer();
  workspace = await openWorkspace(rendererDir, { name: 'Acme University' });
  const s = workspace.engine.serviceFor(workspace.partner.id);
  const src = join(work, 'src');
  mkdirSync(src);
  writeFileSync(join(src, 'diploma.pdf'), 'the diploma of Ada');
  const diploma = await s.createAndScheduleCredential('local', { file: { path: join(src, 'diploma.pdf') }, credential_details: { title: 'Diploma of Ada', metadata: { holder: 'Ada', grade: 'A' } } });
  const badge = await s.createAndScheduleCredential('local', { credential_details: { title: 'Badge of Cy', metadata: { holder: 'Cy' } } });
  const revoked = await s.createAndScheduleCredential('local', { credential_details: { title: 'Revoked Di', metadata: { holder: 'Di' } } });
  const expiresAt = Date.now() + 6000;
  const expiring = await s.createAndScheduleCredential('local', { credential_details: { title: 'Expiring Ed', metadata: { holder: 'Ed' }, expiry_date: new Date(expiresAt).toISOString() } });
  // The folder of 1,000: metadata-only credentials issued in bulk, in one job.
  const bulk = await s.createCredentials(Array.from({ length: 1000 }, (_, i) => ({ title: `Bulk ${i + 1}`, metadata: { n: i + 1 } })));
  await s.scheduleCredentials({ engine: 'local', credentials: bulk.map((c) => c.uid) });
  await issueNowAndFinish(workspace.engine, s, 'local');
  const certOf = async (uid: string) => (await s.listCertificates({ credential_uid: uid, per_page: 0 })).items[0]!.certificate.uid;
  for (const [k, c] of Object.entries({ diploma, badge, revoked, expiring })) uids[k] = await certOf(c.uid);
  await s.revokeCertificate(uids.revoked!);

  mix = join(work, 'mix');
  mkdirSync(mix);
  const put = async (name: string, uid: string, change?: (p: ProofFile) => void) => {
    const proof = JSON.parse(await s.downloadCertificate(uid)) as ProofFile;
    change?.(proof);
    writeFileSync(join(mix, name), JSON.stringify(proof, null, 2));
  };
  await put('diploma.pdf.proof.json', uids.diploma!);
  writeFileSync(join(mix, 'diploma.pdf'), 'the diploma of Ada');
  await put('badge.proof.json', uids.badge!);
  await put('tampered.proof.json', uids.badge!, (p) => (p.certificate.credential.metadata = { holder: 'Mallory' }));
  await put('revoked.proof.json', uids.revoked!);
  await put('expired.proof.json', uids.expiring!);
  await put('wrong.pdf.proof.json', uids.diploma!);
  writeFileSync(join(mix, 'wrong.pdf'), 'a forged diploma');
  writeFileSync(join(mix, 'garbage.proof.json'), 'PK\u0003\u0004 this is a zip, not a proof');
  writeFileSync(join(mix, 'copy of my diploma.pdf'), 'the diploma of Ada');

  folder = join(work, 'thousand');
  mkdirSync(folder);
  const bulkCerts = (await s.listCertificates({ per_page: 0 })).items.filter((c) => c.certificate.credential.title.startsWith('Bulk '));
  expect(bulkCerts).toHaveLength(1000);
  for (const c of bulkCerts) writeFileSync(join(folder, `${c.certificate.uid}.proof.json`), await s.downloadCertificate(c.certificate.uid));

  browser = await launchChromium();
  while (Date.now() <= expiresAt + 500) await sleep(200);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
  removeTempDirs();
});

describe('Verify view', () => {
  it('verifies a dropped mix, shows each result, the steps, which credential an original is, and the audit report', async () => {
    const { page, problems } = await openPage(browser, workspace);
    const context = page.context();
    await openVerify(page);
    await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
    await screenshot(page, 'verify', '0-empty');

    const names = ['diploma.pdf.proof.json', 'diploma.pdf', 'badge.proof.json', 'tampered.proof.json', 'revoked.proof.json', 'expired.proof.json', 'wrong.pdf.proof.json', 'wrong.pdf', 'garbage.proof.json', 'copy of my diploma.pdf'];
    await dropFiles(page, names.map((n) => join(mix, n)), false);
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 30_000 }).toBe('7 proofs verified');
    expect(await counts(page)).toEqual({ ok: 'ok 2', pending: 'pending 0', expired: 'expired 1', revoked: 'revoked 1', failed: 'failed 2', error: 'error 1' });
    const rows = await rowTexts(page);
    const row = (name: string) => rows.find((r) => r.includes(name)) ?? '';
    expect(row('diploma.pdf.proof.json')).toMatch(/^ok.*Diploma of Ada.*Acme University.*diploma\.pdf \(by name\)/);
    expect(row('badge.proof.json')).toMatch(/^ok/);
    expect(row('tampered.proof.json')).toMatch(/^failed.*Checking certificate integrity/);
    expect(row('revoked.proof.json')).toMatch(/^revoked.*Checking revocation date/);
    expect(row('expired.proof.json')).toMatch(/^expired.*Checking expiry date/);
    expect(row('wrong.pdf.proof.json')).toMatch(/^failed.*Checking file integrity/);
    expect(row('garbage.proof.json')).toMatch(/^error.*Not a proof file/);
    await screenshot(page, 'verify', '1-mix');
    expect(await seriousA11yProblems(page)).toEqual([]);
    // A long reason is cut to "…" with the whole of it as the cell's title, never cut silently.
    expect(await silentlyCutCells(page)).toEqual([]);

    // A row's detail: the six steps with reasons, what the credential says.
    await page.getByRole('row').filter({ hasText: 'diploma.pdf.proof.json' }).click();
    const detail = page.getByRole('complementary', { name: 'Verification detail' });
    await detail.waitFor();
    const detailText = (await detail.textContent()) ?? '';
    for (const step of ['Checking certificate integrity: passed', 'Checking certificate is anchored to the blockchain: passed', 'Checking issuer authenticity: passed', 'Checking file integrity: passed', 'Checking expiry date: passed', 'Checking revocation date: passed']) {
      expect(detailText).toContain(step);
    }
    expect(detailText).toContain('Diploma of Ada');
    expect(detailText).toContain('grade');
    expect(detailText).toContain('Acme University');
    expect(detailText).toMatch(/0x[0-9a-f]{64}/);
    // The chain by its name, its ids on hover.
    const chain = detail.getByRole('definition').filter({ hasText: /^Local chain$/ });
    expect(await chain.getAttribute('title')).toBe('Engine local, chain id 31337');
    await screenshot(page, 'verify', '2-detail');
    expect(await seriousA11yProblems(page)).toEqual([]);

    // The failures only.
    await page.getByRole('button', { name: /^Show only failures/ }).click();
    await expect.poll(async () => (await rowTexts(page)).filter((r) => /^(ok|failed|expired|revoked|error|pending)/.test(r)).length).toBe(5);
    expect((await rowTexts(page)).some((r) => r.startsWith('ok'))).toBe(false);
    await screenshot(page, 'verify', '3-failures');

    // An original dropped without its proof: which credential is it?
    await page.getByRole('button', { name: 'Which credential is copy of my diploma.pdf?' }).click();
    const originals = page.getByRole('region', { name: 'Files without a proof' });
    await expect.poll(async () => originals.textContent()).toContain('Diploma of Ada: ok');
    // By its title; the proof's uid on hover.
    expect(await originals.getByText('Diploma of Ada', { exact: true }).getAttribute('title')).toBe(uids.diploma);
    await screenshot(page, 'verify', '4-which-credential');

    // The audit report.
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download report (CSV)' }).click();
    const csv = readFileSync((await (await csvDownload).path())!, 'utf8');
    expect(csv).toMatch(/^# Proofdesk verification report\r\n# app_version,\d+\.\d+\.\d+\r\n# report_time,/);
    expect(csv).toMatch(/# chain_endpoints,local: the local chain of .*data/);
    expect(csv).toContain('proof,original,certificate_uid,title,issuer,engine,result,failing_step,reason');
    expect(csv).toContain(`wrong.pdf.proof.json,wrong.pdf,${uids.diploma},Diploma of Ada,Acme University,local,failed,Checking file integrity,`);
    expect(csv).toContain(`revoked.proof.json,,${uids.revoked},Revoked Di,Acme University,local,revoked,Checking revocation date,`);
    expect(csv.trim().split('\r\n')).toHaveLength(8 + 7);
    const htmlDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download printable report (HTML)' }).click();
    const htmlPath = (await (await htmlDownload).path())!;
    const html = readFileSync(htmlPath, 'utf8');
    expect(html).toContain('<h1>Proofdesk verification report</h1>');
    expect(html).toContain('<td>expired</td>');
    const report = await context.newPage();
    await report.setContent(html);
    await screenshot(report, 'verify', '5-printable-report');
    await report.close();
    expect(problems).toEqual([]);
  }, 120_000);

  it('verifies proof files and a folder chosen with the file dialogs, the same as a drop', async () => {
    const { page, problems } = await openPage(browser, workspace, { fileChoosers: true });
    await openVerify(page);
    const files = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose proof files', exact: true }).click();
    const fileChooser = await files;
    expect(fileChooser.isMultiple()).toBe(true);
    await fileChooser.setFiles([join(mix, 'badge.proof.json'), join(mix, 'revoked.proof.json')]);
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 30_000 }).toBe('2 proofs verified');
    expect(await counts(page)).toMatchObject({ ok: 'ok 1', revoked: 'revoked 1' });

    const folderChosen = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a folder', exact: true }).click();
    await (await folderChosen).setFiles(mix);
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 30_000 }).toBe('7 proofs verified');
    expect(await counts(page)).toEqual({ ok: 'ok 2', pending: 'pending 0', expired: 'expired 1', revoked: 'revoked 1', failed: 'failed 2', error: 'error 1' });
    expect(problems).toEqual([]);
  }, 60_000);

  it('shows the results of a run that ended before verify:start answered (its task events came first)', async () => {
    const { page, problems } = await openPage(browser, workspace);
    // A loaded machine, made deterministic: main's answer to verify:start is held back until the
    // run is over, so every task event of the run reaches the page (over /events) before the
    // page knows the run's task id. The view must still end with the run's results.
    await page.route(
      (url) => url.pathname === `/ipc/${encodeURIComponent('verify:start')}`,
      async (route) => {
        const response = await route.fetch();
        const { task } = (await response.json()) as { task: { id: string } };
        await taskEnded(workspace.context.events, workspace.context.tasks, task.id);
        await route.fulfill({ response });
      },
    );
    await openVerify(page);
    await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
    await dropFiles(page, ['badge.proof.json', 'revoked.proof.json', 'tampered.proof.json'].map((n) => join(mix, n)), false);
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 20_000 }).toBe('3 proofs verified');
    expect(await counts(page)).toEqual({ ok: 'ok 1', pending: 'pending 0', expired: 'expired 0', revoked: 'revoked 1', failed: 'failed 1', error: 'error 0' });
    expect(problems).toEqual([]);
  }, 60_000);

  it('lets the results grid be arranged: the proof file pinned, a column hidden and one moved, remembered after a reload', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openVerify(page);
    await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
    await dropFiles(page, ['diploma.pdf.proof.json', 'badge.proof.json', 'revoked.proof.json', 'tampered.proof.json', 'garbage.proof.json'].map((n) => join(mix, n)), false);
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 30_000 }).toBe('5 proofs verified');
    const grid = page.getByRole('grid', { name: 'Verification results' });
    const headers = () => grid.getByRole('columnheader').evaluateAll((cells) => cells.map((c) => (c.textContent ?? '').trim()));
    expect(await headers()).toEqual(['Proof file', 'Result', 'Credential', 'Issuer', 'Original', 'Why']);

    // The proof file names the row: it cannot be hidden.
    await grid.getByRole('columnheader', { name: 'Proof file' }).click({ button: 'right' });
    expect(await page.getByRole('menu', { name: 'Column Proof file' }).getByRole('menuitem', { name: 'Hide column' }).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    await grid.getByRole('columnheader', { name: 'Issuer' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Issuer' }).getByRole('menuitem', { name: 'Hide column' }).click();
    await grid.getByRole('columnheader', { name: 'Why' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Column Why' }).getByRole('menuitem', { name: 'Move left' }).click();
    await expect.poll(headers).toEqual(['Proof file', 'Result', 'Credential', 'Why', 'Original']);
    expect((await rowTexts(page)).find((r) => r.includes('revoked.proof.json'))).toMatch(/^revoked.*Revoked Di.*Checking revocation date/);

    // Beside the detail panel and scrolled sideways to its end, the pinned proof file and result stay in view.
    const tampered = grid.getByRole('row').filter({ hasText: 'tampered.proof.json' });
    await tampered.click();
    await page.getByRole('complementary', { name: 'Verification detail' }).waitFor();
    // The toolbar keeps to one line beside the panel: the report buttons show their icons, named as before.
    const toolbarLines = () =>
      page.locator('.verify-view > .toolbar').first().evaluate((el) => {
        const centres = [...el.children].filter((c) => c.getClientRects().length > 0).map((c) => c.getBoundingClientRect()).map((b) => b.top + b.height / 2);
        return centres.filter((c, i) => centres.slice(0, i).every((d) => Math.abs(c - d) > 8)).length;
      });
    await expect.poll(toolbarLines).toBe(1);
    expect(await page.getByRole('button', { name: 'Download printable report (HTML)' }).getAttribute('title')).toBe('Download printable report (HTML)');
    await grid.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    const frame = (await grid.boundingBox())!;
    for (const header of ['Proof file', 'Result']) {
      const box = (await (await cellUnder(grid, tampered, header)).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(frame.x - 1);
      expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
    }
    expect(await silentlyCutCells(page)).toEqual([]);
    expect(await seriousA11yProblems(page)).toEqual([]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, 'verify', `columns-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Remembered: after a reload the Verify view keeps its own arrangement, and the Columns dialog shows it.
    await page.reload();
    await openVerify(page);
    await expect.poll(headers).toEqual(['Proof file', 'Result', 'Credential', 'Why', 'Original']);
    await page.getByRole('button', { name: 'Columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    expect(await dialog.getByRole('checkbox', { name: 'Show Issuer' }).isChecked()).toBe(false);
    expect(await dialog.getByRole('checkbox', { name: 'Pin Proof file' }).isDisabled()).toBe(true);
    expect(await seriousA11yProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(problems).toEqual([]);
  }, 60_000);

  it('the switch "Check revocation status lists online" is off at first, and main keeps what the user sets', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await openVerify(page);
    const network = () => page.getByRole('checkbox', { name: 'Check revocation status lists online' });
    await network().waitFor();
    expect(await network().isChecked()).toBe(false);
    await network().check();
    // Read back from main: a reloaded page shows main's setting, not what the page last showed.
    await expect.poll(async () => {
      await page.reload();
      await openVerify(page);
      return network().isChecked();
    }, { timeout: 20_000 }).toBe(true);
    await network().uncheck();
    await expect.poll(async () => {
      await page.reload();
      await openVerify(page);
      return network().isChecked();
    }, { timeout: 20_000 }).toBe(false);
    expect(problems).toEqual([]);
  }, 60_000);

  it('verifies a dropped folder of 1,000 proofs into the table', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await openVerify(page);
    await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
    // The upload of the 1,000 proofs: four requests of 250 (the one upload staging uses too), and
    // not one File.size read by the page
    // (each costs it a synchronous stat of the file; 10,000 of them took seconds of the window).
    const uploads: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).pathname.startsWith('/upload/') && uploads.push(r.headers()['content-type'] ?? '')));
    await page.evaluate(`(() => {
      window.__sizeReads = 0;
      const size = Object.getOwnPropertyDescriptor(Blob.prototype, 'size');
      Object.defineProperty(Blob.prototype, 'size', { configurable: true, get() { if (this instanceof File) window.__sizeReads++; return size.get.call(this); } });
    })()`);
    await dropFiles(page, folder, true);
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 60_000 }).toBe('1,000 proofs verified');
    expect(uploads.length).toBeLessThanOrEqual(4);
    expect(await page.evaluate('window.__sizeReads')).toBe(0);
    expect(await counts(page)).toEqual({ ok: 'ok 1,000', pending: 'pending 0', expired: 'expired 0', revoked: 'revoked 0', failed: 'failed 0', error: 'error 0' });
    expect((await rowTexts(page)).filter((r) => r.startsWith('ok')).length).toBeGreaterThan(5);
    await screenshot(page, 'verify', '6-thousand');
    expect(await seriousA11yProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});
