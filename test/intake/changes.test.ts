/**
 * Files that change after they were taken, failed files put back, and side effects that keep
 * failing: real folders, the real engine on the local chain.
 */
import { existsSync, readFileSync, renameSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedService, Engine } from '../../main/engine/index.js';
import type { FolderIntake, WatchFolderOptions } from '../../main/intake/index.js';
import { certificatesOf as certificateCount, credentialsOf as credentialsTagged, filesUnder, openEngine, readJson, removeTempDirs, sha256Hex, tempDir, waitFor, watchInbox } from './helpers.js';

let engine: Engine;
/** Issues every second. */
let fast: EmbeddedService;
/** Issues every 8 seconds: a scheduled file waits long enough to change before it is issued. */
let slow: EmbeddedService;
let dataDir: string;
const running: FolderIntake[] = [];

beforeAll(async () => {
  dataDir = join(tempDir(), 'data');
  engine = await openEngine(dataDir);
  fast = engine.serviceFor((await engine.addPartner({ name: 'Fast Issuer', issuingIntervalSeconds: 1 })).partner_id);
  slow = engine.serviceFor((await engine.addPartner({ name: 'Slow Issuer', issuingIntervalSeconds: 8 })).partner_id);
});

afterAll(async () => {
  for (const intake of running) await intake.stop();
  await engine?.close();
  removeTempDirs();
});

function watchFolder(service: EmbeddedService, tag: string, folder: Partial<WatchFolderOptions> = {}, retryBaseMs?: number) {
  return watchInbox(running, { service, dataDir, tag, folder, target: `partner:${tag}`, retryBaseMs });
}

const HALF = 'the first half of a diploma, written before the writer paused;';
const FULL = `${HALF} and the second half, written after a pause longer than the stable time.\n`;

describe('a file that changes after it was taken', () => {
  it('before its credential is issued: the credential is withdrawn and the finished file is what is issued', async () => {
    const { root, intake, events } = await watchFolder(slow, 'changed-early');
    writeFileSync(join(root, 'diploma.txt'), HALF);
    // The writer pauses longer than the stable time: the half file is taken and scheduled.
    await waitFor('the half file to wait for its job', () => intake.progress().waitingForJob === 1, 20_000, 20);
    appendFileSync(join(root, 'diploma.txt'), FULL.slice(HALF.length));
    await waitFor('diploma.txt in done/', () => existsSync(join(root, 'done', 'diploma.txt')), 40_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 20_000);
    expect(readFileSync(join(root, 'done', 'diploma.txt'), 'utf8')).toBe(FULL);
    const credentials = await credentialsTagged(slow, 'changed-early');
    expect(credentials.map((c) => c.files[0]!.file_hash)).toEqual([sha256Hex(FULL)]);
    expect(await certificateCount(slow, 'changed-early')).toBe(1);
    expect(events.some((e) => e.type === 'warning' && e.message.includes('changed after it was taken'))).toBe(true);
    expect(filesUnder(join(root, 'proofs'))).toEqual(['diploma.txt.proof.json']);
  });

  it('after its credential was issued: not filed as issued; the proof is marked superseded and the new content is issued as a new file', async () => {
    const { root, intake, events } = await watchFolder(fast, 'changed-late');
    writeFileSync(join(root, 'diploma.txt'), HALF);
    await waitFor('the half file to wait for its job', () => intake.progress().waitingForJob === 1, 20_000, 20);
    // Held while the engine issues the half file, so the change lands between issuing and filing.
    intake.pause();
    appendFileSync(join(root, 'diploma.txt'), FULL.slice(HALF.length));
    await waitFor('the half file issued', async () => (await certificateCount(fast, 'changed-late')) === 1, 20_000);
    intake.resume();
    await waitFor('the finished file in done/', () => filesUnder(join(root, 'done')).length === 1, 40_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 20_000);
    const [done] = filesUnder(join(root, 'done'));
    expect(readFileSync(join(root, 'done', done!), 'utf8')).toBe(FULL);
    const hashes = (await credentialsTagged(fast, 'changed-late')).map((c) => c.files[0]!.file_hash).sort();
    expect(hashes).toEqual([sha256Hex(HALF), sha256Hex(FULL)].sort());
    const proofs = filesUnder(join(root, 'proofs'));
    const note = proofs.find((p) => p.endsWith('.superseded.json'));
    expect(note).toBeDefined();
    expect(readJson(join(root, 'proofs', note!))).toMatchObject({ id: 'superseded', sha256: sha256Hex(HALF), file: 'diploma.txt' });
    expect(proofs.filter((p) => p.endsWith('.proof.json'))).toHaveLength(2);
    expect(events.some((e) => e.type === 'warning' && e.message.includes('superseded'))).toBe(true);
  });
});

describe('failed files', () => {
  it('a failed file put back (by hand, or with retry()) and issued: its failed/NAME.error.json is removed', async () => {
    const { root, intake } = await watchFolder(fast, 'retried');
    // The sidecars are settled before their files come: last changed a minute ago.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    for (const [name, title] of [['a.txt.json', 42], ['b.txt.json', 43]] as const) {
      writeFileSync(join(root, name), `{"title": ${title}}`);
      utimesSync(join(root, name), aMinuteAgo, aMinuteAgo);
    }
    writeFileSync(join(root, 'a.txt'), 'file a');
    writeFileSync(join(root, 'b.txt'), 'file b');
    await waitFor('both failed', () => filesUnder(join(root, 'failed')).length === 6, 20_000);
    expect(filesUnder(join(root, 'failed'))).toEqual(['a.txt', 'a.txt.error.json', 'a.txt.json', 'b.txt', 'b.txt.error.json', 'b.txt.json']);
    // By hand: the sidecar fixed and the file moved back.
    writeFileSync(join(root, 'failed', 'a.txt.json'), '{"title": "Fixed A"}');
    renameSync(join(root, 'failed', 'a.txt.json'), join(root, 'a.txt.json'));
    renameSync(join(root, 'failed', 'a.txt'), join(root, 'a.txt'));
    await waitFor('a.txt issued', () => existsSync(join(root, 'done', 'a.txt')), 30_000);
    await waitFor('its note removed', () => !existsSync(join(root, 'failed', 'a.txt.error.json')), 5_000);
    // With the API: listed with its reason, put back, and issued.
    const failed = intake.failedFiles().find((f) => f.path === 'b.txt');
    expect(failed).toMatchObject({ id: 'invalid_value', message: expect.stringContaining('title'), failed_path: join(root, 'failed', 'b.txt') });
    writeFileSync(join(root, 'failed', 'b.txt.json'), '{"title": "Fixed B"}');
    expect(await intake.retry(failed!)).toBe(join(root, 'b.txt'));
    await waitFor('b.txt issued', () => existsSync(join(root, 'done', 'b.txt')), 30_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 20_000);
    expect(filesUnder(join(root, 'failed'))).toEqual([]);
    expect(intake.failedFiles()).toEqual([]);
    expect((await credentialsTagged(fast, 'retried')).map((c) => c.title).sort()).toEqual(['Fixed A', 'Fixed B']);
  });

  it('a proof that cannot be written is tried a bounded number of times, then the file goes to failed/ with the reason', async () => {
    const outFile = join(tempDir(), 'not-a-folder');
    writeFileSync(outFile, 'the output folder is a file: no proof can be written below it');
    const { root, intake, events } = await watchFolder(fast, 'unwritable', { outDir: outFile }, 20);
    writeFileSync(join(root, 'x.txt'), 'a file whose proof cannot be written');
    await waitFor('x.txt in failed/', () => existsSync(join(root, 'failed', 'x.txt.error.json')), 40_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 20_000);
    const note = readJson(join(root, 'failed', 'x.txt.error.json'));
    expect(note).toMatchObject({ message: expect.stringMatching(/^Its proof could not be written: gave up after 5 tries \((ENOTDIR|EEXIST)/) });
    expect(note.message).toContain('was issued');
    expect(events.filter((e) => e.type === 'warning' && e.message.includes('will try again')).length).toBeLessThanOrEqual(5);
  });
});
