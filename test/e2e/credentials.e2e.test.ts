/**
 * Verifiable Credentials in the app end to end, in Chromium through the web bridge on a real
 * engine and the local chain: a real drop on the Verify view mixing proof files, Proofdesk's own
 * credentials and other issuers' credentials (signed here with Digital Bazaar's libraries), each
 * row with its outcome and the third-party rows' "Why" saying why the Proofdesk-only steps do not
 * apply; and the job export dialog's format, "Both" writing NAME.proof.json and NAME.vc.json and
 * offered again next time. Screenshots in both themes in build/screenshots/credentials-*.png;
 * axe-core finds no serious or critical violation.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueNowAndFinish, makeTempDir, removeTempDirs } from '../support/issuing-fixture.js';
import { signedOpenBadge, signedVc11 } from '../support/third-party-credentials.js';
import { dropFiles } from './drop-files.js';
import { rowTextsLedBy } from './grid-cell.js';
import { builtRenderer, launchChromium, openPage, openWorkspace, screenshot, seriousA11yProblems, type Workspace } from './shell-harness.js';

let work: string;
let workspace: Workspace;
let browser: Browser;
let mix: string;

async function rowTexts(page: Page): Promise<string[]> {
  // Led by the Result column, wherever the admin has put it.
  return rowTextsLedBy(page.getByRole('grid', { name: 'Verification results' }), 'Result');
}

async function screenshots(page: Page, step: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, 'credentials', `${step}-light`);
  expect(await seriousA11yProblems(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'credentials', `${step}-dark`);
  expect(await seriousA11yProblems(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  work = makeTempDir('proofdesk-e2e-credentials-');
  workspace = await openWorkspace(builtRenderer(), { name: 'Acme University' });
  const s = workspace.engine.serviceFor(workspace.partner.id);
  const src = join(work, 'src');
  mkdirSync(src);
  writeFileSync(join(src, 'diploma.pdf'), 'the diploma of Ada');
  const diploma = await s.createAndScheduleCredential('local', { file: { path: join(src, 'diploma.pdf') }, credential_details: { title: 'Diploma of Ada', metadata: { holder: 'Ada' } } });
  const badge = await s.createAndScheduleCredential('local', { credential_details: { title: 'Badge of Cy', metadata: { holder: 'Cy' } } });
  await issueNowAndFinish(workspace.engine, s, 'local');
  const certOf = async (uid: string) => (await s.listCertificates({ credential_uid: uid, per_page: 0 })).items[0]!.certificate.uid;

  mix = join(work, 'mix');
  mkdirSync(mix);
  const valid = { validFrom: '2025-01-01T00:00:00Z', validUntil: '2099-01-01T00:00:00Z' };
  writeFileSync(join(mix, 'diploma.pdf.proof.json'), await s.downloadCertificate(await certOf(diploma.uid)));
  writeFileSync(join(mix, 'diploma.pdf'), 'the diploma of Ada');
  const ours = JSON.parse(await s.downloadCertificateVc(await certOf(badge.uid))) as Record<string, unknown>;
  writeFileSync(join(mix, 'badge.vc.json'), JSON.stringify(ours));
  writeFileSync(join(mix, 'badge-edited.vc.json'), JSON.stringify({ ...ours, name: 'Badge of Mallory' }));
  writeFileSync(join(mix, 'other-academy.vc.json'), JSON.stringify(await signedOpenBadge('eddsa-jcs-2022', valid)));
  writeFileSync(join(mix, 'alumni-2020.vc.json'), JSON.stringify(await signedVc11({ issuanceDate: '2025-01-01T00:00:00Z' })));
  const foreign = await signedOpenBadge('eddsa-rdfc-2022', valid);
  writeFileSync(join(mix, 'other-forged.vc.json'), JSON.stringify({ ...foreign, name: 'A better badge' }));
  writeFileSync(join(mix, 'students.json'), JSON.stringify({ students: ['Ada', 'Cy'] }));
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await workspace?.close();
  removeTempDirs();
});

describe('Verifiable Credentials in the app', () => {
  it('the Verify view shows a mixed drop of proof files, our credentials and other issuers’ credentials, each with its outcome', async () => {
    const { page, problems } = await openPage(browser, workspace);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByRole('region', { name: 'Drop proof files to verify' }).waitFor();
    const names = readdirSync(mix);
    await dropFiles(page, names.map((n) => join(mix, n)));
    await expect.poll(() => page.getByTestId('verify-progress').textContent(), { timeout: 30_000 }).toBe('7 proofs verified');
    const rows = await rowTexts(page);
    const row = (name: string) => rows.find((r) => r.includes(name)) ?? '';
    expect(row('diploma.pdf.proof.json')).toMatch(/^ok.*Diploma of Ada.*All six steps passed/);
    expect(row('badge.vc.json')).toMatch(/^ok.*Badge of Cy.*All six steps passed/);
    expect(row('badge-edited.vc.json')).toMatch(/^failed.*Checking certificate integrity/);
    expect(row('other-academy.vc.json')).toMatch(/^ok.*Open Badge of another academy.*Another Academy.*Passed where they apply\. Not anchored by Proofdesk: this credential has no anchor proof/);
    expect(row('alumni-2020.vc.json')).toMatch(/^ok.*did:key:z6Mk.*Not anchored by Proofdesk/);
    expect(row('other-forged.vc.json')).toMatch(/^failed.*Checking certificate integrity.*eddsa-rdfc-2022 proof does not hold/);
    // Without @context it is read as a proof file, and the row names what a proof file lacks.
    expect(row('students.json')).toMatch(/^error.*Not a valid proof file: format is missing/);
    await screenshots(page, 'verify-mix');

    // The third-party row's steps: what applied passed, the rest say why not.
    await page.getByRole('row').filter({ hasText: 'other-academy.vc.json' }).click();
    const detail = page.getByRole('complementary', { name: 'Verification detail' });
    await detail.waitFor();
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain('Checking certificate integrity: passed');
    expect(text).toContain('Checking issuer authenticity: passed');
    expect(text).toContain('Checking expiry date: passed');
    expect(text).toMatch(/Checking certificate is anchored to the blockchain: not checkedNot anchored by Proofdesk/);
    expect(text).toMatch(/Checking revocation date: not checkedNot revocable on a Proofdesk chain/);
    await screenshots(page, 'verify-third-party-detail');
    expect(problems).toEqual([]);
  }, 120_000);

  it('the job export dialog offers the format: "Both" writes NAME.proof.json and NAME.vc.json, and is offered again next time', async () => {
    const folder = join(work, 'export');
    mkdirSync(folder);
    const { page, problems } = await openPage(browser, workspace);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    // The status, case-sensitive: the header row has a "Finished" column.
    const job = page.getByRole('grid', { name: 'Jobs' }).getByRole('row').filter({ hasText: /finished/ });
    await expect.poll(() => job.count()).toBe(1);
    await job.click();
    const detail = page.getByRole('complementary', { name: 'Job detail' });
    await detail.getByRole('button', { name: 'Export proofs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export proofs' });
    const format = dialog.getByRole('group', { name: 'Format' });
    expect(await format.getByRole('radio', { name: 'Proof file' }).isChecked()).toBe(true);
    await format.getByRole('radio', { name: 'Both' }).check();
    await dialog.getByRole('textbox', { name: 'Folder' }).fill(folder);
    await screenshots(page, 'export-format');
    await dialog.getByRole('button', { name: 'Export' }).click();
    // Files are written under a hidden temporary name and renamed when complete.
    const finished = () => readdirSync(folder).filter((n) => !n.startsWith('.'));
    await expect.poll(() => finished().length, { timeout: 20_000 }).toBe(4);
    const written = finished();
    for (const title of ['Badge of Cy', 'Diploma of Ada']) {
      const proof = written.find((n) => n.startsWith(`${title} `) && n.endsWith('.proof.json'))!;
      const uid = /([0-9a-f-]{36})\.proof\.json$/.exec(proof)![1];
      expect(written).toContain(proof.replace(/\.proof\.json$/, '.vc.json'));
      const vc = JSON.parse(readFileSync(join(folder, proof.replace(/\.proof\.json$/, '.vc.json')), 'utf8')) as { type: string[]; id: string; name: string };
      expect(vc).toMatchObject({ type: ['VerifiableCredential', 'OpenBadgeCredential'], id: `urn:uuid:${uid}`, name: title });
    }

    // The last choice is offered again, also in a new window of the same app.
    await detail.getByRole('button', { name: 'Export proofs' }).click();
    expect(await page.getByRole('dialog', { name: 'Export proofs' }).getByRole('radio', { name: 'Both' }).isChecked()).toBe(true);
    await page.reload();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Jobs' }).click();
    await page.getByRole('grid', { name: 'Jobs' }).getByRole('row').filter({ hasText: /finished/ }).click();
    await page.getByRole('complementary', { name: 'Job detail' }).getByRole('button', { name: 'Export proofs' }).click();
    expect(await page.getByRole('dialog', { name: 'Export proofs' }).getByRole('radio', { name: 'Both' }).isChecked()).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);
});
