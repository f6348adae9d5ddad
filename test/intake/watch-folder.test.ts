/**
 * The watched-folder intake on real folders, with the real engine issuing on the local chain
 * (anvil) at a one-second issuing interval: bulk drops in nested folders, a large file written
 * slowly, files renamed in, deleted early, empty and unreadable, bad sidecars and manifest rows,
 * and identical content.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statfsSync, symlinkSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Credential } from '../../common/wire-types.js';
import type { EmbeddedService, Engine } from '../../main/engine/index.js';
import { FolderIntake, type WatchFolderOptions } from '../../main/intake/index.js';
import { certificatesOf, credentialsOf, filesUnder, readJson, sha256Hex, sleep, tempDir, waitFor, watchInbox, usePartner } from './helpers.js';

let engine: Engine;
let service: EmbeddedService;
let dataDir: string;
const running: FolderIntake[] = [];
usePartner('Hot Folder University', { running, opened: (opened) => ({ engine, service, dataDir } = opened) });

/** A watched folder of its own (its credentials carry `tag`), with a fast intake on it. */
function watchFolder(tag: string, options: Partial<WatchFolderOptions> & { stableMs?: number } = {}) {
  const { stableMs = 300, ...folder } = options;
  return watchInbox(running, { service, dataDir, tag, folder, stableMs, rescanMs: 2_000 });
}

function credentialsTagged(tag: string): Promise<Credential[]> {
  return credentialsOf(service, tag);
}

function certificateCount(tag: string): Promise<number> {
  return certificatesOf(service, tag);
}

/** Waits until the intake has nothing left to do. */
function settled(intake: FolderIntake, timeoutMs = 60_000): Promise<true> {
  return waitFor('the intake to finish', () => intake.pending() === 0, timeoutMs, 100);
}

describe('watched folder', () => {
  it('1,000 files dropped at once in nested folders: each issued exactly once, proofs written, originals in done/', async () => {
    const { root, intake } = await watchFolder('bulk-1000');
    const expected: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const rel = `year-${i % 4}/class-${i % 10}/diploma-${i}.txt`;
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), `Diploma number ${i} for student ${i}\n`);
      expected.push(rel);
    }
    expected.sort();
    await waitFor('1,000 originals in done/', () => filesUnder(join(root, 'done')).length === 1000, 90_000);
    await settled(intake);

    expect(filesUnder(join(root, 'done'))).toEqual(expected);
    expect(filesUnder(join(root, 'proofs'))).toEqual(expected.map((p) => `${p}.proof.json`));
    expect(filesUnder(root).filter((p) => !p.startsWith('done/') && !p.startsWith('proofs/'))).toEqual([]);
    const credentials = await credentialsTagged('bulk-1000');
    expect(credentials).toHaveLength(1000);
    expect(new Set(credentials.map((c) => (c.metadata.ingest as { path: string }).path)).size).toBe(1000);
    expect(await certificateCount('bulk-1000')).toBe(1000);
    expect(intake.progress()).toMatchObject({ issued: 1000, failed: 0, duplicates: 0, waitingForJob: 0 });

    // A proof file verifies against the original it was written for.
    const rel = expected[123]!;
    const proof = readJson<{ certificate: { credential: { files: { file_hash: string }[] } } }>(join(root, 'proofs', `${rel}.proof.json`));
    expect(proof.certificate.credential.files[0]!.file_hash).toBe(sha256Hex(readFileSync(join(root, 'done', rel))));
    const result = await service.verifyProofFile({ path: join(root, 'proofs', `${rel}.proof.json`) });
    expect(result.result.status).toBe('ok');
  });

  it('a 1 GiB file written slowly over ~10 s is taken once complete: what was issued is the final file', async () => {
    const free = statfsSync(tempDir()).bavail * statfsSync(tempDir()).bsize;
    expect(free, 'needs ~3 GiB free in the temp dir').toBeGreaterThan(3 * 2 ** 30);
    const { root, intake } = await watchFolder('large-file', { stableMs: 1_500 });
    const path = join(root, 'recording.bin');
    const chunk = randomBytes(16 * 2 ** 20);
    const hash = createHash('sha256');
    const fd = openSync(path, 'w');
    const started = Date.now();
    try {
      for (let i = 0; i < 64; i++) {
        chunk.writeUInt32BE(i, 0); // every chunk different: real bytes, not a sparse file
        writeSync(fd, chunk);
        hash.update(chunk);
        await sleep(150);
      }
    } finally {
      closeSync(fd);
    }
    const written = Date.now() - started;
    expect(written).toBeGreaterThan(9_000);
    const finalHash = hash.digest('hex');
    await waitFor('the large file in done/', () => existsSync(join(root, 'done', 'recording.bin')), 120_000, 250);
    await settled(intake);
    const credentials = await credentialsTagged('large-file');
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.files[0]!.file_hash).toBe(finalHash);
    expect(await certificateCount('large-file')).toBe(1);
    rmSync(join(root, 'done', 'recording.bin'));
  }, 180_000);

  it('files renamed in (single files, a whole folder, a finished download) are taken; partial downloads are not', async () => {
    const { root, intake } = await watchFolder('renamed-in');
    const staging = tempDir();
    writeFileSync(join(staging, 'moved.txt'), 'moved in by rename');
    mkdirSync(join(staging, 'batch'));
    for (let i = 0; i < 5; i++) writeFileSync(join(staging, 'batch', `b${i}.txt`), `batch file ${i}`);
    renameSync(join(staging, 'moved.txt'), join(root, 'moved.txt'));
    renameSync(join(staging, 'batch'), join(root, 'batch'));
    // A browser writes NAME.crdownload, then renames it when the download is complete.
    writeFileSync(join(root, 'report.pdf.crdownload'), 'half a rep');
    writeFileSync(join(root, 'left.part'), 'never finished');
    writeFileSync(join(root, '.hidden'), 'not for issuing');
    writeFileSync(join(root, '~$lock.docx'), 'office lock file');
    await sleep(600);
    writeFileSync(join(root, 'report.pdf.crdownload'), 'half a report, now complete');
    renameSync(join(root, 'report.pdf.crdownload'), join(root, 'report.pdf'));

    await waitFor('7 files in done/', () => filesUnder(join(root, 'done')).length === 7, 30_000);
    await settled(intake);
    expect(filesUnder(join(root, 'done'))).toEqual(['batch/b0.txt', 'batch/b1.txt', 'batch/b2.txt', 'batch/b3.txt', 'batch/b4.txt', 'moved.txt', 'report.pdf']);
    expect(filesUnder(root).filter((p) => !p.startsWith('done/') && !p.startsWith('proofs/'))).toEqual(['.hidden', 'left.part', '~$lock.docx']);
    const credentials = await credentialsTagged('renamed-in');
    expect(credentials).toHaveLength(7);
    const report = credentials.find((c) => c.title === 'report.pdf')!;
    expect(report.files[0]!.file_hash).toBe(sha256Hex('half a report, now complete'));
    expect(await certificateCount('renamed-in')).toBe(7);
  });

  it('a file deleted before it is taken leaves no trace; empty and unreadable files go to failed/ with the reason', async () => {
    const { root, intake, events } = await watchFolder('odd-files', { stableMs: 1_000 });
    writeFileSync(join(root, 'gone.txt'), 'deleted before it settles');
    await waitFor('the intake to see gone.txt', () => intake.progress().seen >= 1, 10_000, 10);
    unlinkSync(join(root, 'gone.txt'));
    writeFileSync(join(root, 'empty.txt'), '');
    // As root, chmod 000 does not stop a read: unreadable entries are made another way. A named
    // pipe cannot be read as a file (opening it would block), and a link pointing at itself
    // fails every open with ELOOP.
    execFileSync('mkfifo', [join(root, 'pipe.pdf')]);
    symlinkSync('loop.pdf', join(root, 'loop.pdf'));
    writeFileSync(join(root, 'fine.txt'), 'an ordinary file');

    await waitFor('3 failed', () => filesUnder(join(root, 'failed')).length === 5, 30_000);
    await waitFor('fine.txt in done/', () => existsSync(join(root, 'done', 'fine.txt')), 30_000);
    await settled(intake);
    // A link is never moved (docs/intake.md): its note is in failed/, the link stays where it is.
    expect(filesUnder(join(root, 'failed'))).toEqual(['empty.txt', 'empty.txt.error.json', 'loop.pdf.error.json', 'pipe.pdf', 'pipe.pdf.error.json']);
    expect(readJson(join(root, 'failed', 'empty.txt.error.json'))).toMatchObject({ id: 'invalid_value', message: expect.stringContaining('empty'), when: expect.any(String) });
    expect(readJson(join(root, 'failed', 'pipe.pdf.error.json'))).toMatchObject({ id: 'no_file_on_payload', message: expect.stringContaining('named pipe') });
    expect(readJson(join(root, 'failed', 'loop.pdf.error.json'))).toMatchObject({ id: 'no_file_on_payload', message: expect.stringContaining('symbolic link') });
    expect(filesUnder(root).filter((p) => !p.startsWith('failed/') && !p.startsWith('done/') && !p.startsWith('proofs/'))).toEqual(['loop.pdf']);
    expect((await credentialsTagged('odd-files')).map((c) => c.title)).toEqual(['fine.txt']);
    expect(events.filter((e) => e.type === 'failed').map((e) => (e as { path: string }).path).sort()).toEqual(['empty.txt', 'loop.pdf', 'pipe.pdf']);
  });

  it('sidecars and manifest rows give the metadata; a malformed one fails only its file, naming the line and field', async () => {
    const { root, intake } = await watchFolder('with-meta', { metadata: { issuer: 'Registry', programme: 'default' } });
    mkdirSync(join(root, 'cohort'));
    writeFileSync(join(root, 'cohort', 'manifest.csv'), [
      'file,title,tags,expiry_date,meta.student,meta.grade',
      'ada.pdf,"Diploma, Ada",honours;cs-2026,2031-01-01,Ada Lovelace,A',
      'bad-tag.pdf,Bad tag,x,,Bea,B',
      'bad-date.pdf,Bad date,,2026-13-01,Cy,C',
      'wide.pdf,Too wide,,,Dee,D,surplus',
      'sub/nested.pdf,Nested,,,Eve,E',
    ].join('\n'));
    for (const name of ['ada.pdf', 'bad-tag.pdf', 'bad-date.pdf', 'wide.pdf', 'unlisted.pdf']) writeFileSync(join(root, 'cohort', name), `content of ${name}`);
    mkdirSync(join(root, 'cohort', 'sub'));
    writeFileSync(join(root, 'cohort', 'sub', 'nested.pdf'), 'nested content');
    writeFileSync(join(root, 'side.pdf'), 'side content');
    writeFileSync(join(root, 'side.pdf.json'), JSON.stringify({ title: 'Side', metadata: { programme: 'Physics' }, tags: ['sidecar'] }, null, 2));
    writeFileSync(join(root, 'broken.pdf'), 'broken content');
    writeFileSync(join(root, 'broken.pdf.json'), '{\n  "title": "Broken",\n  "tags": ["ok-tag",]\n}\n');
    writeFileSync(join(root, 'badfield.pdf'), 'badfield content');
    writeFileSync(join(root, 'badfield.pdf.json'), '{\n  "title": "X",\n  "expiry_date": "soon"\n}\n');

    await waitFor('everything filed', () => filesUnder(join(root, 'done')).length + filesUnder(join(root, 'failed')).length >= 14, 30_000);
    await settled(intake);
    expect(filesUnder(join(root, 'done'))).toEqual(['cohort/ada.pdf', 'cohort/sub/nested.pdf', 'cohort/unlisted.pdf', 'side.pdf', 'side.pdf.json']);
    expect(filesUnder(join(root, 'failed'))).toEqual([
      'badfield.pdf',
      'badfield.pdf.error.json',
      'badfield.pdf.json',
      'broken.pdf',
      'broken.pdf.error.json',
      'broken.pdf.json',
      'cohort/bad-date.pdf',
      'cohort/bad-date.pdf.error.json',
      'cohort/bad-tag.pdf',
      'cohort/bad-tag.pdf.error.json',
      'cohort/wide.pdf',
      'cohort/wide.pdf.error.json',
    ]);
    const reason = (name: string) => readJson<{ id: string; message: string }>(join(root, 'failed', `${name}.error.json`));
    expect(reason('broken.pdf')).toMatchObject({ id: 'no_json', message: expect.stringMatching(/^sidecar broken\.pdf\.json, line 3, column \d+: not valid JSON/) });
    expect(reason('badfield.pdf')).toMatchObject({ id: 'invalid_expiry_date', message: expect.stringContaining('sidecar badfield.pdf.json, line 3, field "expiry_date"') });
    expect(reason('cohort/bad-tag.pdf')).toMatchObject({ id: 'invalid_tag', message: expect.stringContaining('cohort/manifest.csv line 3, column "tags"') });
    expect(reason('cohort/bad-date.pdf')).toMatchObject({ id: 'invalid_expiry_date', message: expect.stringContaining('cohort/manifest.csv line 4, column "expiry_date"') });
    expect(reason('cohort/wide.pdf').message).toBe('cohort/manifest.csv line 5: 7 fields, but the header has 6');
    expect(filesUnder(root).filter((p) => !/^(done|failed|proofs)\//.test(p))).toEqual(['cohort/manifest.csv']);

    const byTitle = new Map((await credentialsTagged('with-meta')).map((c) => [c.title, c]));
    expect([...byTitle.keys()].sort()).toEqual(['Diploma, Ada', 'Nested', 'Side', 'unlisted.pdf']);
    expect(byTitle.get('Diploma, Ada')).toMatchObject({
      tags: ['with-meta', 'honours', 'cs-2026'],
      expiry_date: '2031-01-01T00:00:00.000Z',
      metadata: { issuer: 'Registry', programme: 'default', student: 'Ada Lovelace', grade: 'A', ingest: { path: 'cohort/ada.pdf', sha256: sha256Hex('content of ada.pdf') } },
    });
    expect(byTitle.get('Side')).toMatchObject({ tags: ['with-meta', 'sidecar'], metadata: { issuer: 'Registry', programme: 'Physics' } });
    expect(byTitle.get('unlisted.pdf')!.metadata).toEqual({ issuer: 'Registry', programme: 'default', ingest: { path: 'cohort/unlisted.pdf', sha256: sha256Hex('content of unlisted.pdf') } });
  });

  it('the same content twice goes to duplicate/ with a note instead of being issued again, unless the folder allows duplicates', async () => {
    const { root, intake } = await watchFolder('dupes');
    writeFileSync(join(root, 'original.txt'), 'the very same bytes');
    writeFileSync(join(root, 'copy.txt'), 'the very same bytes');
    await waitFor('one issued, one duplicate', () => filesUnder(join(root, 'done')).length === 1 && filesUnder(join(root, 'duplicate')).length === 2, 30_000);
    await settled(intake);
    const [kept] = filesUnder(join(root, 'done'));
    const other = kept === 'original.txt' ? 'copy.txt' : 'original.txt';
    expect(filesUnder(join(root, 'duplicate'))).toEqual([other, `${other}.duplicate.json`]);
    const credentials = await credentialsTagged('dupes');
    expect(credentials).toHaveLength(1);
    expect(readJson(join(root, 'duplicate', `${other}.duplicate.json`))).toMatchObject({
      id: 'duplicate',
      sha256: sha256Hex('the very same bytes'),
      duplicate_of: { path: kept, credential_uid: credentials[0]!.uid },
    });

    // Dropped again later, after the first was issued: still a duplicate.
    writeFileSync(join(root, 'again.txt'), 'the very same bytes');
    await waitFor('the late copy filed', () => existsSync(join(root, 'duplicate', 'again.txt.duplicate.json')), 30_000);
    expect(readJson(join(root, 'duplicate', 'again.txt.duplicate.json'))).toMatchObject({ duplicate_of: { moved_to: join(root, 'done', kept!) } });
    expect(await credentialsTagged('dupes')).toHaveLength(1);

    // A folder that allows duplicates issues the same content again.
    const lenient = await watchFolder('dupes-ok', { allowDuplicates: true });
    writeFileSync(join(lenient.root, 'one.txt'), 'the very same bytes');
    writeFileSync(join(lenient.root, 'two.txt'), 'the very same bytes');
    await waitFor('both issued', () => filesUnder(join(lenient.root, 'done')).length === 2, 30_000);
    await settled(lenient.intake);
    expect(await credentialsTagged('dupes-ok')).toHaveLength(2);
  });

  it('stopped gracefully mid-run and started again: nothing lost, nothing twice; a second watcher of the same folder is refused', async () => {
    const root = join(tempDir(), 'inbox');
    mkdirSync(root);
    const options = { service, dataDir, folders: [{ path: root, tags: ['restarted'] }], target: 'partner:test', stableMs: 200, jobPollMs: 200 };
    const first = await FolderIntake.start(options);
    await expect(FolderIntake.start(options)).rejects.toThrow(/already watched by process/);
    for (let i = 0; i < 300; i++) writeFileSync(join(root, `file-${i}.txt`), `restart file ${i}`);
    await waitFor('some files scheduled', () => first.progress().waitingForJob >= 50, 30_000, 10);
    await first.stop();
    const stoppedAt = first.progress();
    expect(stoppedAt.issued).toBeLessThan(300);
    for (let i = 300; i < 320; i++) writeFileSync(join(root, `file-${i}.txt`), `restart file ${i}`);

    const second = await FolderIntake.start(options);
    running.push(second);
    await waitFor('320 originals in done/', () => filesUnder(join(root, 'done')).length === 320, 60_000);
    await settled(second);
    expect(await credentialsTagged('restarted')).toHaveLength(320);
    expect(await certificateCount('restarted')).toBe(320);
    expect(filesUnder(join(root, 'proofs'))).toHaveLength(320);
  });

  it('a failed job releases its credentials: they are scheduled into the next job and each file is still issued once', async () => {
    const rpcUrl = (await engine.issuing.ctx.chains.client('local')).rpcUrl;
    const rpc = async <T = unknown>(method: string, params: unknown[]): Promise<T> => {
      const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      const body = (await response.json()) as { result: T; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result;
    };
    const { root, intake, events } = await watchFolder('job-fails');
    // One file issued first, so that the Partner's registry contract is there.
    writeFileSync(join(root, 'first.txt'), 'issued before the failure');
    await waitFor('the first file issued', () => existsSync(join(root, 'done', 'first.txt')), 30_000);
    const db = engine.issuing.ctx.db;
    const registry = db.prepare("SELECT address FROM registries WHERE engine = 'local'").pluck().get() as string;
    const code = await rpc<string>('eth_getCode', [registry, 'latest']);
    // The job's transaction is held in the pool, the registry made to revert, and then it is
    // mined: the engine itself finds the transaction reverted and fails the job.
    await rpc('evm_setAutomine', [false]);
    try {
      for (let i = 0; i < 5; i++) writeFileSync(join(root, `f${i}.txt`), `job fails ${i}`);
      const credentials = await waitFor('5 more credentials', async () => {
        const list = await credentialsTagged('job-fails');
        return list.length === 6 ? list.filter((c) => c.title !== 'first.txt') : undefined;
      });
      const job = await waitFor('their job started', async () => (await service.listJobs({ uid: credentials[0]!.uid, status: 'started' })).items[0], 20_000);
      await waitFor('its transaction sent', () => db.prepare('SELECT t.state FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx WHERE j.uid = ?').pluck().get(job.uid) === 'sent', 20_000);
      await rpc('anvil_setCode', [registry, '0x60006000fd']); // PUSH1 0, PUSH1 0, REVERT
      await rpc('evm_mine', []);
      await waitFor('the job failed', async () => (await service.getJob(job.uid)).status === 'failed', 20_000);
    } finally {
      await rpc('anvil_setCode', [registry, code]);
      await rpc('evm_setAutomine', [true]);
    }
    await waitFor('6 originals in done/', () => filesUnder(join(root, 'done')).length === 6, 60_000);
    await settled(intake);
    expect(events.filter((e) => e.type === 'job-failed')).toHaveLength(1);
    expect(await credentialsTagged('job-fails')).toHaveLength(6);
    expect(await certificateCount('job-fails')).toBe(6);
    expect(filesUnder(join(root, 'proofs'))).toHaveLength(6);
    const proof = join(root, 'proofs', 'f3.txt.proof.json');
    expect((await service.verifyProofFile({ path: proof })).result.status).toBe('ok');
  });
});
