/**
 * The Verify view's main side on a real engine, the real local chain (anvil), real files in
 * a temp dir and the real task runner: a dropped mix of proofs and originals verifies to
 * ok / failed / expired / revoked / error, originals are matched by name and by hash, an
 * original without its proof is named ("Which credential is this?"), the user's endpoint is
 * used and a dead one leaves the chain steps pending (never ok), and the audit report lists it all.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyRow } from '../../common/ipc/verify.js';
import type { TaskInfo } from '../../common/tasks.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { createAppContext, type AppContext } from '../../main/app/app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge } from '../../main/app/web-bridge.js';
import { addIssuingPartner, issueNowAndFinish, makeTempDir, openIssuingEngine, sleep, type IssuingFixture, type IssuingPartner } from '../support/issuing-fixture.js';

let fixture: IssuingFixture;
let partner: IssuingPartner;
let ctx: AppContext;
let handlers: IpcHandlers;
let drop: string;
const uids: Record<string, string> = {};
let expiresAt = 0;

function finished(taskId: string): Promise<TaskInfo> {
  return new Promise((resolve) => {
    const off = ctx.events.subscribe((event) => {
      if (event.type === 'task' && event.task.id === taskId && event.task.state !== 'running') {
        off();
        resolve(event.task);
      }
    });
  });
}

async function verify(paths: string[]) {
  const { summary, task } = await handlers['verify:start'](paths);
  const end = await finished(task.id);
  expect(end.state).toBe('done');
  const page = await handlers['verify:rows'](summary.run_id, { offset: 0, limit: 1000, failures_only: false });
  const byName = Object.fromEntries(page.rows.map((r) => [r.name, r])) as Record<string, VerifyRow>;
  return { runId: summary.run_id, rows: page.rows, byName, summary: await handlers['verify:summary'](summary.run_id) };
}

beforeAll(async () => {
  fixture = openIssuingEngine();
  partner = await addIssuingPartner(fixture.engine, 'University A');
  ctx = createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } });
  handlers = createIpcHandlers(ctx);
  const work = makeTempDir('proofdesk-verify-src-');
  const file = (name: string, text: string) => {
    const path = join(work, name);
    writeFileSync(path, text);
    return path;
  };
  const s = partner.service;
  const diploma = await s.createAndScheduleCredential('local', { file: { path: file('diploma.pdf', 'the diploma of Ada') }, credential_details: { title: 'Diploma Ada', metadata: { holder: 'Ada' } } });
  const other = await s.createAndScheduleCredential('local', { file: { path: file('transcript.pdf', 'the transcript of Bob') }, credential_details: { title: 'Transcript Bob', metadata: { holder: 'Bob' } } });
  const meta = await s.createAndScheduleCredential('local', { credential_details: { title: 'Badge Cy', metadata: { holder: 'Cy' } } });
  const revoked = await s.createAndScheduleCredential('local', { credential_details: { title: 'Revoked Di', metadata: { holder: 'Di' } } });
  expiresAt = Date.now() + 6000;
  const expiring = await s.createAndScheduleCredential('local', { credential_details: { title: 'Expiring Ed', metadata: { holder: 'Ed' }, expiry_date: new Date(expiresAt).toISOString() } });
  await issueNowAndFinish(fixture.engine, s, 'local');
  const certOf = async (uid: string) => (await s.listCertificates({ credential_uid: uid, per_page: 0 })).items[0]!.certificate.uid;
  for (const [k, c] of Object.entries({ diploma, other, meta, revoked, expiring })) uids[k] = await certOf(c.uid);
  await s.revokeCertificate(uids.revoked!);

  drop = makeTempDir('proofdesk-verify-drop-');
  const put = async (name: string, uid: string, change?: (p: ProofFile) => void) => {
    const proof = JSON.parse(await s.downloadCertificate(uid)) as ProofFile;
    change?.(proof);
    writeFileSync(join(drop, name), JSON.stringify(proof));
  };
  await put('diploma.pdf.proof.json', uids.diploma!);
  writeFileSync(join(drop, 'diploma.pdf'), 'the diploma of Ada'); // matched by name
  await put(`${uids.other}.proof.json`, uids.other!);
  writeFileSync(join(drop, 'scan-of-bob.pdf'), 'the transcript of Bob'); // matched by hash
  await put('wrong.pdf.proof.json', uids.diploma!);
  writeFileSync(join(drop, 'wrong.pdf'), 'not the diploma'); // the wrong original
  await put('tampered.proof.json', uids.meta!, (p) => (p.certificate.credential.title = 'Badge Cy (edited)'));
  await put('revoked.proof.json', uids.revoked!);
  await put('expired.proof.json', uids.expiring!);
  writeFileSync(join(drop, 'garbage.proof.json'), '\u0000not json at all');
  mkdirSync(join(drop, 'folder'));
  await put('folder/badge.proof.json', uids.meta!);
  writeFileSync(join(drop, 'lonely-diploma.pdf'), 'the diploma of Ada'); // Ada's diploma, its proofs matched by name to others
  writeFileSync(join(drop, 'unknown.txt'), 'nobody issued this');
  // The expiry must have passed by the time the drop is verified.
  while (Date.now() <= expiresAt + 500) await sleep(200);
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

describe('verify handlers', () => {
  it('verifies a dropped mix: each proof its result, the failing step with a reason, counts', async () => {
    const { rows, byName, summary, runId } = await verify([drop]);
    const name = (n: string) => `${drop.split('/').pop()}/${n}`;
    expect(rows).toHaveLength(8);
    expect(byName[name('diploma.pdf.proof.json')]).toMatchObject({ result: 'ok', original: name('diploma.pdf'), matched_by: 'name', title: 'Diploma Ada', issuer: 'University A' });
    expect(byName[name(`${uids.other}.proof.json`)]).toMatchObject({ result: 'ok', matched_by: 'hash' });
    expect(byName[name('wrong.pdf.proof.json')]).toMatchObject({ result: 'failed', original: name('wrong.pdf'), step: 'Checking file integrity' });
    expect(byName[name('wrong.pdf.proof.json')]!.reason).toMatch(/not the file/);
    expect(byName[name('tampered.proof.json')]).toMatchObject({ result: 'failed', step: 'Checking certificate integrity' });
    expect(byName[name('revoked.proof.json')]).toMatchObject({ result: 'revoked', step: 'Checking revocation date' });
    expect(byName[name('expired.proof.json')]).toMatchObject({ result: 'expired', step: 'Checking expiry date' });
    expect(byName[name('garbage.proof.json')]).toMatchObject({ result: 'error' });
    expect(byName[name('garbage.proof.json')]!.reason).toMatch(/^Not a proof file: it is not JSON \(/);
    expect(byName[name('garbage.proof.json')]!.reason).not.toContain(drop);
    expect(byName[name('folder/badge.proof.json')]).toMatchObject({ result: 'ok' });
    expect(summary.counts).toEqual({ ok: 3, pending: 0, expired: 1, revoked: 1, failed: 2, error: 1 });
    expect(summary.state).toBe('done');

    const failures = await handlers['verify:rows'](runId, { offset: 0, limit: 100, failures_only: true });
    expect(failures.total).toBe(5);
    expect(failures.rows.every((r) => r.result !== 'ok')).toBe(true);

    const detail = await handlers['verify:detail'](runId, byName[name('diploma.pdf.proof.json')]!.index);
    expect(Object.values(detail.result!.verification).map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed', 'passed']);
    expect(detail.steps.map((s) => s.reason)).toEqual(Array(6).fill('Passed.'));
    expect(detail.credential).toMatchObject({ title: 'Diploma Ada', metadata: { holder: 'Ada' }, issuer_name: 'University A', engine: 'local' });
    expect(detail.credential!.transaction_id).toMatch(/^0x[0-9a-f]{64}$/);
    const garbage = await handlers['verify:detail'](runId, byName[name('garbage.proof.json')]!.index);
    expect(garbage.result).toBeNull();

    // Originals without a proof: one the engine knows, one it does not.
    expect(summary.unmatched_originals.map((o) => o.name).sort()).toEqual([name('lonely-diploma.pdf'), name('unknown.txt')]);
    const which = await handlers['verify:whichCredential'](runId, name('lonely-diploma.pdf'));
    expect(which).toEqual([{ certificate_uid: uids.diploma, title: 'Diploma Ada', result: 'ok' }]);
    await expect(handlers['verify:whichCredential'](runId, name('unknown.txt'))).rejects.toMatchObject({ id: 'missing_certificate' });

    const csv = await handlers['verify:report'](runId, 'csv');
    expect(csv.file_name).toMatch(/^verification-report-.*\.csv$/);
    expect(csv.content).toContain('# app_version,');
    expect(csv.content).toMatch(/# chain_endpoints,local: the local chain of /);
    expect(csv.content).toContain(`${name('wrong.pdf.proof.json')},${name('wrong.pdf')},${uids.diploma},Diploma Ada,University A,local,failed,Checking file integrity,`);
    expect(csv.content.trim().split('\r\n')).toHaveLength(8 + 8);
    const html = await handlers['verify:report'](runId, 'html');
    expect(html.content).toContain('<h1>Proofdesk verification report</h1>');
    expect(html.content).toContain('<td>revoked</td>');
    expect(html.content).toContain('<dt>Chain endpoints</dt><dd>local: the local chain of ');
  }, 60_000);

  it('verifies a proof of the local chain right after it was issued (the app owns that chain in its own process)', async () => {
    const s = partner.service;
    const fresh = await s.createAndScheduleCredential('local', { credential_details: { title: 'Fresh Fay', metadata: { holder: 'Fay' } } });
    await issueNowAndFinish(fixture.engine, s, 'local');
    const uid = (await s.listCertificates({ credential_uid: fresh.uid, per_page: 0 })).items[0]!.certificate.uid;
    const dir = makeTempDir('proofdesk-verify-fresh-');
    writeFileSync(join(dir, 'fresh.proof.json'), await s.downloadCertificate(uid));
    const { byName } = await verify([join(dir, 'fresh.proof.json')]);
    expect(byName['fresh.proof.json']).toMatchObject({ result: 'ok', title: 'Fresh Fay' });
  }, 60_000);

  it('asks the user’s endpoint for an engine; a dead one leaves the chain steps pending, never ok', async () => {
    expect(await handlers['verify:endpoints']()).toEqual([]);
    expect(await handlers['verify:setEndpoint']('local', 'http://127.0.0.1:9')).toEqual([{ engine: 'local', rpc_url: 'http://127.0.0.1:9' }]);
    expect(JSON.parse(readFileSync(join(fixture.dataDir, 'verify-endpoints.json'), 'utf8'))).toEqual({ local: 'http://127.0.0.1:9' });
    const { byName, runId, summary } = await verify([join(drop, 'diploma.pdf.proof.json')]);
    const row = byName['diploma.pdf.proof.json']!;
    expect(row.result).toBe('pending');
    const detail = await handlers['verify:detail'](runId, row.index);
    const v = detail.result!.verification;
    expect([v.certificate.status, v.issuer.status, v.file.status, v.expiry.status]).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(v.blockchain.status).toBe('pending');
    expect(v.revocation.status).toBe('pending');
    expect(String(v.blockchain.description.reason)).not.toBe('');
    expect(summary.endpoints).toEqual([{ engine: 'local', endpoint: 'http://127.0.0.1:9' }]);
    expect(await handlers['verify:setEndpoint']('local', null)).toEqual([]);
    await expect(invokeIpcHandler(handlers, 'verify:setEndpoint', ['local', 'ftp://x'])).rejects.toMatchObject({ id: 'invalid_value' });
    expect(await handlers['verify:endpoints']()).toEqual([]);
  }, 60_000);

  it('a cancelled run keeps the rows it verified and says it was cancelled', async () => {
    const many = makeTempDir('proofdesk-verify-many-');
    const text = await partner.service.downloadCertificate(uids.meta!);
    for (let i = 0; i < 400; i++) writeFileSync(join(many, `p${i}.proof.json`), text);
    const { summary, task } = await handlers['verify:start']([many]);
    expect(task.label).toBe('Verifying proof files');
    const end = finished(task.id);
    await handlers['tasks:cancel'](task.id);
    expect((await end).state).toBe('cancelled');
    const after = await handlers['verify:summary'](summary.run_id);
    expect(after.state).toBe('cancelled');
    expect(after.done).toBeLessThan(400);
    const page = await handlers['verify:rows'](summary.run_id, { offset: 0, limit: 1000, failures_only: false });
    expect(page.total).toBe(after.done);
  }, 60_000);

  it('a folder uploaded through the browser bridge is verified from the bytes it received, not read back from its files', async () => {
    const renderer = makeTempDir('proofdesk-verify-renderer-');
    writeFileSync(join(renderer, 'index.html'), '<html><head></head><body></body></html>');
    const bridge = await startWebBridge({ handlers, rendererDir: renderer, uploadsParent: makeTempDir('proofdesk-verify-uploads-') });
    try {
      const text = await partner.service.downloadCertificate(uids.meta!);
      const body = new FormData();
      for (let i = 0; i < 80; i++) body.append(encodeURIComponent(`proofs/p${i}.proof.json`), new Blob([text]), `p${i}.proof.json`);
      const response = await fetch(new URL('/upload/3f0c2a1e-9b41-4c55-8a2e-6f1d2c3b4a5e', bridge.url), { method: 'POST', body });
      const { tops } = (await response.json()) as { tops: string[] };
      // The files on disk are not what verifying reads: garbage there changes nothing.
      for (let i = 0; i < 80; i++) writeFileSync(join(tops[0]!, `p${i}.proof.json`), 'not what was uploaded');
      const { rows } = await verify([tops[0]!]);
      expect(rows).toHaveLength(80);
      expect(new Set(rows.map((r) => r.result))).toEqual(new Set(['ok']));
    } finally {
      await bridge.close();
    }
  }, 60_000);
});
