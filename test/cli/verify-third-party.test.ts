/**
 * `verify DIR` on a folder mixing Proofdesk proof files, Proofdesk's own credentials and other
 * issuers' credentials (signed here with Digital Bazaar's libraries), through the real CLI on a
 * real engine and the local chain: one row each with its outcome, error rows saying why, the
 * batch going on past them; and enough credentials for the worker threads, each suite checked there.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_POOL_FROM } from '../../main/engine/proofs/verify-many.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { signedOpenBadge, signedVc11, type Json } from '../support/third-party-credentials.js';

process.env.PROOFDESK_PASSPHRASE = 'verify third-party tests';

interface Row {
  path: string;
  certificate_uid: string;
  result: string;
  step: string;
  reason: string;
}

let data: string;
let ours: string;
const VALID = { validFrom: '2025-01-01T00:00:00Z', validUntil: '2099-01-01T00:00:00Z' };

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-verify-third-party-'));
  expect((await cliInProcess('partner', 'add', '--name', 'Uni', '--data', data)).code).toBe(0);
  const file = join(data, 'ada.txt');
  writeFileSync(file, 'Ada, BSc in Chemistry');
  ours = join(data, 'ours');
  const issued = await cliInProcess('issue', file, '--format', 'both', '--now', '--out', ours, '--data', data);
  expect(issued.code, issued.err).toBe(0);
}, 120_000);
afterAll(() => rmSync(data, { recursive: true, force: true }));

async function verifyDir(dir: string): Promise<{ code: number; counts: Record<string, number>; rows: Map<string, Row> }> {
  const run = await cliInProcess('verify', dir, '--json', '--data', data);
  const report = JSON.parse(run.out) as { counts: Record<string, number>; proofs: Row[] };
  return { code: run.code, counts: report.counts, rows: new Map(report.proofs.map((r) => [r.path.slice(dir.length + 1), r])) };
}

describe('verify DIR with other issuers’ credentials', () => {
  it('one row per file: proof files, our credentials and third-party credentials each with their outcome, error rows saying why', async () => {
    const dir = join(data, 'mixed');
    cpSync(ours, dir, { recursive: true });
    const jcs = await signedOpenBadge('eddsa-jcs-2022', VALID);
    const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value));
    write('other-rdfc.vc.json', await signedOpenBadge('eddsa-rdfc-2022', VALID));
    write('other-jcs.vc.json', jcs);
    write('other-jcs-forged.vc.json', { ...jcs, name: 'A better badge' });
    write('other-jcs-expired.vc.json', await signedOpenBadge('eddsa-jcs-2022', { validFrom: '2020-01-01T00:00:00Z', validUntil: '2021-01-01T00:00:00Z' }));
    write('other-2020.vc.json', await signedVc11({ issuanceDate: '2025-01-01T00:00:00Z' }));
    write('other-unknown-suite.vc.json', { ...jcs, proof: { ...(jcs.proof as Json), cryptosuite: 'bbs-2023' } });
    write('other-unknown-context.vc.json', { ...jcs, '@context': [...(jcs['@context'] as unknown[]), 'https://academy.example/v1'] });
    write('students.json', { students: ['Ada', 'Cy'] });
    writeFileSync(join(dir, 'not-json.vc.json'), '{"@context": ["https://www.w3.org/ns/credentials/v2"], ');

    const { code, counts, rows } = await verifyDir(dir);
    expect(code).toBe(1);
    const outcome = (name: string) => rows.get(name)?.result;
    expect(outcome('ada.txt.proof.json')).toBe('ok');
    expect(outcome('ada.txt.vc.json')).toBe('ok');
    expect(outcome('other-rdfc.vc.json')).toBe('ok');
    expect(outcome('other-jcs.vc.json')).toBe('ok');
    expect(outcome('other-2020.vc.json')).toBe('ok');
    expect(rows.get('ada.txt.vc.json')!.reason).toBe('');
    expect(rows.get('other-jcs.vc.json')).toMatchObject({ step: '', reason: expect.stringMatching(/^Passed where they apply\. Not anchored by Proofdesk: this credential has no anchor proof/) });
    expect(rows.get('other-jcs-forged.vc.json')).toMatchObject({ result: 'failed', step: 'Checking certificate integrity', reason: expect.stringContaining('its eddsa-jcs-2022 proof does not hold') });
    expect(rows.get('other-jcs-expired.vc.json')).toMatchObject({ result: 'expired', step: 'Checking expiry date' });
    expect(rows.get('other-unknown-suite.vc.json')).toMatchObject({ result: 'error', reason: expect.stringContaining('secured with DataIntegrityProof with cryptosuite "bbs-2023"') });
    expect(rows.get('other-unknown-context.vc.json')).toMatchObject({ result: 'error', reason: expect.stringContaining('"https://academy.example/v1", which is not bundled') });
    expect(outcome('not-json.vc.json')).toBe('unreadable');
    expect(rows.get('not-json.vc.json')!.reason).not.toBe('');
    expect(rows.get('students.json')).toMatchObject({ result: 'unreadable', reason: 'Not a valid proof file: format is missing' });
    expect(rows.size).toBe(11);
    expect(counts).toEqual({ ok: 5, failed: 1, expired: 1, error: 2, unreadable: 2 });
  });

  it(`a run of ${OFFLINE_POOL_FROM} or more checks every suite on the worker threads, each credential with its own outcome`, async () => {
    const dir = join(data, 'many');
    mkdirSync(dir);
    const kinds = { rdfc: await signedOpenBadge('eddsa-rdfc-2022', VALID), jcs: await signedOpenBadge('eddsa-jcs-2022', VALID), v11: await signedVc11({ issuanceDate: '2025-01-01T00:00:00Z' }) };
    const copies = Math.ceil(OFFLINE_POOL_FROM / 3);
    for (const [kind, credential] of Object.entries(kinds)) {
      for (let i = 0; i < copies; i++) writeFileSync(join(dir, `${kind}-${String(i).padStart(2, '0')}.vc.json`), JSON.stringify(credential));
      writeFileSync(join(dir, `${kind}-forged.vc.json`), JSON.stringify({ ...credential, id: 'urn:uuid:00000000-0000-4000-8000-000000000000' }));
    }
    const { counts, rows } = await verifyDir(dir);
    expect(counts).toEqual({ ok: 3 * copies, failed: 3 });
    for (const kind of Object.keys(kinds)) expect(rows.get(`${kind}-forged.vc.json`)!.result).toBe('failed');
  }, 120_000);
});
