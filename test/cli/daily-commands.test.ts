/**
 * The commands an admin uses every day, against a real engine and anvil:
 * certificate list (with the spec's filters) and download, revoke (by certificate, by credential
 * and engine; never without a yes), jobs issue-now and jobs tag, one help text per command.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, Page } from '../../common/wire-types.js';
import { runCli } from '../../main/cli/run.js';

process.env.PROOFDESK_PASSPHRASE = 'daily commands tests';

async function cli(argv: string[], answer?: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  const ask = answer === undefined ? undefined : async (q: string) => (asked.push(q), answer);
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), ask });
  return { code, out: out.join('\n'), err: [...asked, ...err].join('\n') };
}

let data: string;
let certificates: Certificate[];

function list(...filters: string[]): Promise<Page<Certificate>> {
  return cli(['certificate', 'list', '--json', '--data', data, ...filters]).then((r) => JSON.parse(r.out) as Page<Certificate>);
}

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-daily-'));
  expect((await cli(['partner', 'add', '--name', 'Uni', '--data', data])).code).toBe(0);
  const files = ['ada', 'grace', 'alan'].map((name) => {
    const file = join(data, `${name}.txt`);
    writeFileSync(file, `${name}, BSc`);
    return file;
  });
  const issued = await cli(['issue', ...files, '--tag', 'cs2026', '--now', '--out', join(data, 'issued'), '--data', data]);
  expect(issued.code, issued.err).toBe(0);
  certificates = (await list()).items;
  expect(certificates).toHaveLength(3);
}, 120_000);
afterAll(() => rmSync(data, { recursive: true, force: true }));

describe('daily commands', () => {
  it('certificate list filters as the spec does', async () => {
    const [first] = certificates;
    expect((await list('--uid', first!.certificate.uid)).items.map((c) => c.certificate.uid)).toEqual([first!.certificate.uid]);
    expect((await list('--credential', first!.certificate.credential.uid)).total_items).toBe(1);
    expect((await list('--and-credential-tags', 'cs2026')).total_items).toBe(3);
    expect((await list('--and-credential-tags', 'other')).total_items).toBe(0);
    expect((await list('--issued-from', '2000-01-01', '--issued-until', '2000-01-02')).total_items).toBe(0);
    expect((await list('--verification-status', 'ok')).total_items).toBe(0);
    const table = await cli(['certificate', 'list', '--data', data]);
    expect(table.out).toContain('page 1 of 1, 3 certificates');
    const bad = await cli(['certificate', 'list', '--verification-status', 'great', '--data', data]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('invalid_value');
  });

  it('certificate download writes each proof as DIR/UID.proof.json, and nothing at all when one uid is wrong', async () => {
    const out = join(data, 'downloads');
    const uids = certificates.slice(0, 2).map((c) => c.certificate.uid);
    const wrong = await cli(['certificate', 'download', uids[0]!, '01234567-0123-7123-8123-0123456789ab', '--out', out, '--data', data]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('missing_certificate');
    expect(existsSync(out)).toBe(false);
    const done = await cli(['certificate', 'download', ...uids, '--out', out, '--data', data]);
    expect(done.code, done.err).toBe(0);
    expect(readdirSync(out).sort()).toEqual(uids.map((u) => `${u}.proof.json`).sort());
    const proof = JSON.parse(readFileSync(join(out, `${uids[0]}.proof.json`), 'utf8'));
    expect(proof.certificate.uid).toBe(uids[0]);
    const verified = await cli(['verify', join(out, `${uids[0]}.proof.json`), '--data', data]);
    expect(verified.out).toContain('Result: ok');
  }, 60_000);

  it('certificate download --format vc|both writes DIR/UID.vc.json; verify takes a folder mixing proofs, credentials and other files', async () => {
    const out = join(data, 'wallet');
    const uids = certificates.slice(0, 2).map((c) => c.certificate.uid);
    const bad = await cli(['certificate', 'download', uids[0]!, '--out', out, '--format', 'pdf', '--data', data]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--format must be proof, vc or both');
    const vcOnly = await cli(['certificate', 'download', uids[0]!, '--out', out, '--format', 'vc', '--data', data]);
    expect(vcOnly.code, vcOnly.err).toBe(0);
    expect(readdirSync(out)).toEqual([`${uids[0]}.vc.json`]);
    const both = await cli(['certificate', 'download', ...uids, '--out', out, '--format', 'both', '--data', data]);
    expect(both.code, both.err).toBe(0);
    expect(readdirSync(out).sort()).toEqual(uids.flatMap((u) => [`${u}.proof.json`, `${u}.vc.json`]).sort());
    const credential = JSON.parse(readFileSync(join(out, `${uids[0]}.vc.json`), 'utf8'));
    expect(credential).toMatchObject({ id: `urn:uuid:${uids[0]}`, type: ['VerifiableCredential', 'OpenBadgeCredential'] });

    const one = await cli(['verify', join(out, `${uids[1]}.vc.json`), '--data', data]);
    expect(one.out).toContain('Result: ok');
    expect(one.code).toBe(0);

    writeFileSync(join(out, 'z-unknown-context.vc.json'), JSON.stringify({ ...credential, '@context': [...credential['@context'], 'https://example.org/unknown'] }));
    writeFileSync(join(out, 'z-neither.json'), JSON.stringify({ hello: 'world' }));
    const batch = await cli(['verify', out, '--json', '--data', data]);
    expect(batch.code).toBe(1);
    const report = JSON.parse(batch.out) as { total: number; counts: Record<string, number>; proofs: { path: string; certificate_uid: string; result: string; reason: string }[] };
    expect(report.total).toBe(6);
    expect(report.counts).toEqual({ ok: 4, error: 1, unreadable: 1 });
    const byName = new Map(report.proofs.map((r) => [r.path.split('/').pop(), r]));
    expect(byName.get(`${uids[0]}.vc.json`)).toMatchObject({ result: 'ok', certificate_uid: uids[0] });
    expect(byName.get('z-unknown-context.vc.json')).toMatchObject({ result: 'error', reason: expect.stringContaining('"https://example.org/unknown", which is not bundled') });
    expect(byName.get('z-neither.json')!.result).toBe('unreadable');
  }, 60_000);

  it('revoke asks first, refuses without a terminal and without --yes, and revokes by certificate or by credential and engine', async () => {
    const [a, b] = certificates;
    const refused = await cli(['revoke', a!.certificate.uid, '--data', data]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('confirm with --yes');
    const declined = await cli(['revoke', a!.certificate.uid, '--data', data], 'no');
    expect(declined.code).toBe(1);
    expect(declined.err).toContain('cannot be undone');
    expect((await list('--uid', a!.certificate.uid)).items[0]!.revoked_date).toBeNull();

    const yes = await cli(['revoke', a!.certificate.uid, '--yes', '--data', data]);
    expect(yes.code, yes.err).toBe(0);
    expect(yes.out).toMatch(/^Revoked certificate .* at \d{4}-/);
    expect((await list('--uid', a!.certificate.uid)).items[0]!.revoked_date).not.toBeNull();

    const byCredential = await cli(['revoke', '--credential', b!.certificate.credential.uid, '--engine', 'local', '--data', data], 'yes');
    expect(byCredential.code, byCredential.err).toBe(0);
    expect((await list('--uid', b!.certificate.uid)).items[0]!.revoked_date).not.toBeNull();
    expect((await cli(['revoke', '--credential', b!.certificate.credential.uid, '--data', data])).code).toBe(2); // --engine missing
  }, 120_000);

  it('jobs tag and jobs issue-now', async () => {
    const jobUid = (JSON.parse((await cli(['jobs', 'list', '--json', '--data', data])).out) as Page<{ uid: string }>).items[0]!.uid;
    expect((await cli(['jobs', 'tag', jobUid, '--tag', 'spring', '--data', data])).code).toBe(0);
    expect(JSON.parse((await cli(['jobs', 'list', '--and-tags', 'spring', '--json', '--data', data])).out).total_items).toBe(1);

    const created = JSON.parse((await cli(['credential', 'create', '--title', 'Late diploma', '--meta', 'n=1', '--data', data])).out) as { uid: string };
    expect((await cli(['credential', 'schedule', created.uid, '--data', data])).code).toBe(0);
    const now = await cli(['jobs', 'issue-now', '--engine', 'local', '--json', '--data', data]);
    expect(now.code, now.err).toBe(0);
    expect(JSON.parse(now.out)).toMatchObject({ status: 'finished', chain: 'local' });
    const none = await cli(['jobs', 'issue-now', '--engine', 'local', '--data', data]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('missing_job');
  }, 120_000);

  it('has one help text per command, with an example', async () => {
    for (const command of ['partner', 'credential', 'certificate', 'revoke', 'jobs', 'issue', 'verify', 'watch', 'serve']) {
      const help = await cli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toMatch(new RegExp(`^Usage:\\n${command} `));
      expect(help.out).toMatch(new RegExp(`\\nExample:\\n  proofdesk ${command} `));
    }
    expect((await cli(['help', 'revoke'])).out).toContain('proofdesk revoke');
  });
});
