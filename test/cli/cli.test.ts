import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { Engine } from '../../main/engine/index.js';
import { isProcessAlive } from '../../main/chain/index.js';
import { LOCK_FILE_NAME, readLock } from '../../main/chain/anvil-lock.js';

/** Runs the CLI in-process, capturing what it prints and its exit code. */
// Partners' keys go to an encrypted file in the data directory (no keychain on a test machine).
process.env.PROOFDESK_PASSPHRASE = 'cli tests passphrase';

let data: string;
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-cli-'));
});
afterEach(() => rmSync(data, { recursive: true, force: true }));

describe('npm run cli (a real child process)', () => {
  it('partner add prints one JSON object with the client credentials, as DESIGN.md promises', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'cli', '--', 'partner', 'add', '--name', 'Uni', '--issuing-interval', '5m', '--data', data], {
      cwd: join(import.meta.dirname, '../..'),
    });
    const printed = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(printed).sort()).toEqual(['client_id', 'client_secret', 'name', 'partner_id', 'realm']);
    expect(printed.name).toBe('Uni');
    expect(printed.client_secret!.length).toBeGreaterThanOrEqual(40);
    const list = await cli('partner', 'list', '--json', '--data', data);
    expect(JSON.parse(list.out)).toMatchObject([{ id: printed.partner_id, name: 'Uni', client_id: printed.client_id, issuing_interval_seconds: 300 }]);
    // The secret is shown once and never stored in the clear.
    expect(list.out).not.toContain(printed.client_secret);
  });
});

describe('cli commands', () => {
  it('creates, lists, tags, schedules and unschedules credentials', async () => {
    expect((await cli('partner', 'add', '--name', 'Uni', '--data', data)).code).toBe(0);
    const file = join(data, 'diploma.txt');
    writeFileSync(file, 'Ada Lovelace, BSc');
    const created = await cli('credential', 'create', '--title', 'BSc', '--meta', 'student=Ada', '--meta', 'grade=1.3', '--file', file, '--tag', 'cs2026', '--data', data);
    expect(created.code).toBe(0);
    const credential = JSON.parse(created.out);
    expect(credential).toMatchObject({ title: 'BSc', metadata: { student: 'Ada', grade: 1.3 }, tags: ['cs2026'], files: [{ file_type: 'text/plain' }] });

    const again = await cli('credential', 'create', '--title', 'Second', '--meta', 'n=2', '--file', file, '--data', data);
    expect(again.code).toBe(0); // the same file again is reused, not refused

    const tagged = await cli('credential', 'tag', credential.uid, '--tag', 'honours', '--data', data);
    expect(tagged.code).toBe(0);
    const listed = await cli('credential', 'list', '--and-tags', 'cs2026,honours', '--json', '--data', data);
    expect(JSON.parse(listed.out)).toMatchObject({ total_items: 1, items: [{ uid: credential.uid, tags: ['cs2026', 'honours'] }] });
    const table = await cli('credential', 'list', '--data', data);
    expect(table.out).toContain('page 1 of 1, 2 credentials');

    const scheduled = await cli('credential', 'schedule', credential.uid, '--json', '--data', data);
    expect(JSON.parse(scheduled.out)).toMatchObject({ chain: 'local', status: 'scheduled' });
    const jobs = await cli('jobs', 'list', '--status', 'scheduled', '--json', '--data', data);
    expect(JSON.parse(jobs.out).total_items).toBe(1);

    const untagged = await cli('credential', 'untag', credential.uid, '--tag', 'honours', '--data', data);
    expect(untagged.code).toBe(0);
    const unscheduled = await cli('credential', 'unschedule', credential.uid, '--data', data);
    expect(JSON.parse(unscheduled.out)).toEqual({ credential_uid: credential.uid, engine: 'local', credential_deleted: true });
    expect((await cli('credential', 'show', credential.uid, '--data', data)).code).toBe(1);
  });

  it('answers a refused call with the spec error id on stderr and exit code 1, changing nothing', async () => {
    await cli('partner', 'add', '--name', 'Uni', '--data', data);
    const file = join(data, 'a.txt');
    writeFileSync(file, 'a');
    const bad = await cli('credential', 'create', '--title', 'X', '--file', file, '--tag', 'no', '--data', data);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^error invalid_tag \(400\): /);
    // Checked before anything was uploaded: no file record, no credential.
    const engine = Engine.open({ dataDir: data, sweepIntervalMs: false });
    try {
      const service = engine.serviceFor(engine.partners.list()[0]!.id);
      expect((await service.listFiles()).total_items).toBe(0);
      expect((await service.listCredentials()).total_items).toBe(0);
    } finally {
      await engine.close();
    }
    const wrongEngine = await cli('credential', 'schedule', '00000000-0000-7000-8000-000000000000', '--engine', 'nope', '--data', data);
    expect(wrongEngine.err).toMatch(/^error wrong_blockchain_engine \(422\)/);
  });

  it('answers wrong usage with exit code 2 and says what to do', async () => {
    expect((await cli('frobnicate')).code).toBe(2);
    const noPartner = await cli('credential', 'list', '--data', data);
    expect(noPartner.code).toBe(2);
    expect(noPartner.err).toContain('partner add --name NAME');
    const unknownFlag = await cli('credential', 'list', '--bogus', '--data', data);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.err).toContain("'--bogus'");
    const badInterval = await cli('partner', 'add', '--name', 'X', '--issuing-interval', 'soon', '--data', data);
    expect(badInterval.code).toBe(1);
    expect(badInterval.err).toContain('invalid_value');
    expect((await cli('help')).out).toContain('partner add --name NAME');
  });

  it('needs --partner when a data directory holds several Partners, by id or name', async () => {
    await cli('partner', 'add', '--name', 'Uni A', '--data', data);
    await cli('partner', 'add', '--name', 'Uni B', '--data', data);
    const ambiguous = await cli('credential', 'list', '--data', data);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain('--partner');
    const created = await cli('credential', 'create', '--title', 'T', '--meta', 'a=1', '--partner', 'Uni B', '--data', data);
    expect(created.code).toBe(0);
    expect(JSON.parse((await cli('credential', 'list', '--json', '--partner', 'Uni A', '--data', data)).out).total_items).toBe(0);
    expect(JSON.parse((await cli('credential', 'list', '--json', '--partner', 'Uni B', '--data', data)).out).total_items).toBe(1);
    const set = await cli('partner', 'set', 'Uni B', '--issuing-interval', '30s', '--data', data);
    expect(set.out).toBe('Uni B: issuing interval 30s');
  });

  it("sets a Partner's request limits for a live server, lists them, and refuses a bad value changing nothing", async () => {
    await cli('partner', 'add', '--name', 'Uni L', '--data', data);
    const set = await cli('partner', 'set', 'Uni L', '--requests-per-second', '10', '--requests-per-day', '5000', '--data', data);
    expect(set.out).toBe('Uni L: issuing interval 1d; request limits 10/s, 5000/day');
    const bad = await cli('partner', 'set', 'Uni L', '--requests-per-second', '0', '--data', data);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--requests-per-second takes a whole number of at least 1, or none');
    const listed = JSON.parse((await cli('partner', 'list', '--json', '--data', data)).out) as { name: string; requests_per_second: number | null; requests_per_day: number | null }[];
    expect(listed.find((p) => p.name === 'Uni L')).toMatchObject({ requests_per_second: 10, requests_per_day: 5000 });
    const cleared = await cli('partner', 'set', 'Uni L', '--requests-per-day', 'none', '--data', data);
    expect(cleared.out).toBe('Uni L: issuing interval 1d; request limits 10/s');
    expect((await cli('partner', 'list', '--data', data)).out).toMatch(/Uni L .* 10\/s /);
  });
});

describe('issue and verify (real anvil)', () => {
  it('issues files at once, writes a proof per file, and verify says ok only for the right file and with the chain', async () => {
    await cli('partner', 'add', '--name', 'Uni', '--data', data);
    const ada = join(data, 'ada.txt');
    const grace = join(data, 'grace.txt');
    writeFileSync(ada, 'Ada Lovelace, BSc');
    writeFileSync(grace, 'Grace Hopper, PhD');
    const out = join(data, 'proofs');
    const issued = await cli('issue', ada, grace, '--tag', 'cs2026', '--now', '--out', out, '--json', '--data', data);
    expect(issued.code, issued.err).toBe(0);
    expect(issued.err).toContain(': finished');
    const result = JSON.parse(issued.out) as { proofs: { file: string; proof: string }[] };
    expect(result.proofs.map((p) => p.proof)).toEqual([join(out, 'ada.txt.proof.json'), join(out, 'grace.txt.proof.json')]);

    const ok = await cli('verify', join(out, 'ada.txt.proof.json'), '--file', ada, '--data', data);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('Result: ok');
    const wrongFile = await cli('verify', join(out, 'ada.txt.proof.json'), '--file', grace, '--data', data);
    expect(wrongFile.code).toBe(1);
    expect(wrongFile.out).toMatch(/Checking file integrity: failed[\s\S]*Result: failed/);
    const offline = await cli('verify', join(out, 'grace.txt.proof.json'), '--offline', '--json', '--data', data);
    expect(offline.code).toBe(1);
    expect(JSON.parse(offline.out).result.status).toBe('pending');
  });

  it('refuses what it cannot issue before uploading anything', async () => {
    await cli('partner', 'add', '--name', 'Uni', '--data', data);
    const missing = await cli('issue', join(data, 'nope.pdf'), '--data', data);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('Not a file');
    const file = join(data, 'a.txt');
    writeFileSync(file, 'a');
    const badEngine = await cli('issue', file, '--engine', 'mainnet', '--data', data);
    expect(badEngine.code).toBe(1);
    expect(badEngine.err).toMatch(/^error wrong_blockchain_engine \(422\)/);
    const notProof = await cli('verify', file, '--data', data);
    expect(notProof.code).toBe(1);
    expect(notProof.err).toContain('invalid_value');
  });

  it('issue --now refused by the engine after the local chain was started early: it fails and leaves no chain running', async () => {
    await cli('partner', 'add', '--name', 'Uni', '--data', data);
    const file = join(data, 'a.txt');
    writeFileSync(file, 'a');
    const refused = await cli('issue', file, '--now', '--link', '0190d6c4-7a1b-7c2d-8e3f-123456789abc', '--data', data);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('0190d6c4-7a1b-7c2d-8e3f-123456789abc');
    // The chain --now started while the file was read came up (its log is there) and was stopped with the command.
    const chain = join(data, 'chain', 'local');
    expect(existsSync(join(chain, 'anvil.log'))).toBe(true);
    const lock = readLock(join(chain, LOCK_FILE_NAME));
    expect(lock === undefined || !isProcessAlive(lock.pid)).toBe(true);
  });
});
