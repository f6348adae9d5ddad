/**
 * `issue --format proof|vc|both` through the real CLI against a real engine and anvil: the
 * Verifiable Credential FILE.vc.json written beside or instead of FILE.proof.json, each one
 * verifying with `verify` (a folder of many on worker threads too), and a wrong format refused
 * before anything is sent.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/run.js';

process.env.PROOFDESK_PASSPHRASE = 'issue formats tests';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let data: string;

function files(...names: string[]): string[] {
  return names.map((name) => {
    const file = join(data, `${name}.txt`);
    writeFileSync(file, `${name}, BSc in Chemistry`);
    return file;
  });
}

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-issue-formats-'));
  expect((await cli(['partner', 'add', '--name', 'Uni', '--data', data])).code).toBe(0);
}, 120_000);
afterAll(() => rmSync(data, { recursive: true, force: true }));

describe('issue --format', () => {
  it('refuses a format it does not know, and issues nothing', async () => {
    const bad = await cli(['issue', ...files('marie'), '--format', 'pdf', '--now', '--data', data]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--format must be proof, vc or both');
    expect((await cli(['certificate', 'list', '--json', '--data', data])).out).toContain('"total_items": 0');
  });

  it('both: FILE.proof.json and FILE.vc.json for each file, the credential naming its certificate and verifying', async () => {
    const out = join(data, 'both');
    const issued = await cli(['issue', ...files('ada', 'grace'), '--format', 'both', '--now', '--out', out, '--json', '--data', data]);
    expect(issued.code, issued.err).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['ada.txt.proof.json', 'ada.txt.vc.json', 'grace.txt.proof.json', 'grace.txt.vc.json']);
    const report = JSON.parse(issued.out) as { proofs: { file: string; certificate_uid: string; proof: string; vc?: string }[] };
    for (const written of report.proofs) {
      expect(written.vc).toBe(written.proof.replace(/\.proof\.json$/, '.vc.json'));
      const credential = JSON.parse(readFileSync(written.vc!, 'utf8')) as { id: string };
      expect(credential.id).toBe(`urn:uuid:${written.certificate_uid}`);
      const proof = JSON.parse(readFileSync(written.proof, 'utf8')) as { certificate: { uid: string } };
      expect(proof.certificate.uid).toBe(written.certificate_uid);
    }
    const verified = await cli(['verify', out, '--json', '--data', data]);
    expect(verified.code, verified.out).toBe(0);
    expect(JSON.parse(verified.out)).toMatchObject({ total: 4, counts: { ok: 4 } });
  });

  it('verify DIR of 71 credentials (a run large enough for the worker threads): each genuine one ok, a changed one failed', async () => {
    const many = join(data, 'many');
    mkdirSync(many);
    const credential = readFileSync(join(data, 'both', 'ada.txt.vc.json'), 'utf8');
    for (let i = 0; i < 70; i++) writeFileSync(join(many, `copy-${String(i).padStart(2, '0')}.vc.json`), credential);
    const changed = JSON.parse(credential) as { name: string };
    writeFileSync(join(many, 'changed.vc.json'), JSON.stringify({ ...changed, name: `${changed.name} (honours)` }));
    const verified = await cli(['verify', many, '--json', '--data', data]);
    expect(verified.code).toBe(1);
    const report = JSON.parse(verified.out) as { total: number; counts: Record<string, number>; proofs: { path: string; result: string }[] };
    expect(report.total).toBe(71);
    expect(report.counts).toEqual({ ok: 70, failed: 1 });
    expect(report.proofs.find((r) => r.result === 'failed')!.path).toBe(join(many, 'changed.vc.json'));
  });

  it('vc: only FILE.vc.json, beside the file without --out', async () => {
    const [alan] = files('alan');
    const issued = await cli(['issue', alan!, '--format', 'vc', '--now', '--data', data]);
    expect(issued.code, issued.err).toBe(0);
    expect(issued.out).toBe(join(data, 'alan.txt.vc.json'));
    expect(existsSync(join(data, 'alan.txt.proof.json'))).toBe(false);
    const verified = await cli(['verify', join(data, 'alan.txt.vc.json'), '--data', data]);
    expect(verified.out).toContain('Result: ok');
  });
});
