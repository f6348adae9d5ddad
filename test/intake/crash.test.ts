/**
 * Exactly once across crashes, with real processes: `proofdesk watch` (a CLI child process,
 * test/cli/cli-child.ts) is SIGKILLed by the intake's fault points
 * at four different moments of a 500-file run — after files were journaled as uploading,
 * right after credentials were created (before the journal knew), after a round of proofs was
 * written under temporary names (none renamed), and after proofs were written and journaled
 * (before the originals were moved) — and restarted each time, with files added while it was
 * down. In the end every valid file is issued exactly once (credentials and certificates
 * counted through the service), every invalid one is in failed/ with its reason, identical
 * content in duplicate/, and nothing is left behind. The last run is stopped with SIGTERM.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../main/engine/index.js';
import { FOLDER_FAULT_ENV } from '../../main/intake/index.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import { filesUnder, readJson, removeTempDirs, tempDir, waitFor } from './helpers.js';
import { endedWithin as ended, startCliChild, type CliRun } from '../cli/cli-child.js';

const PASSPHRASE = 'ingest crash passphrase';

function cli(args: string[], env: Record<string, string> = {}): CliRun {
  return startCliChild(args, { ...process.env, [PASSPHRASE_ENV]: PASSPHRASE, [FOLDER_FAULT_ENV]: '', ...env });
}

function write(root: string, rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

afterAll(() => {
  if (!process.env.PROOFDESK_KEEP_TEST_DIRS) removeTempDirs();
});

describe('watch, killed and restarted', () => {
  it('issues every valid file exactly once across four SIGKILLs, files everything else, leaves nothing behind', async () => {
    const base = tempDir();
    if (process.env.PROOFDESK_KEEP_TEST_DIRS) console.log('test dir', base);
    const data = join(base, 'data');
    const inbox = join(base, 'inbox');
    mkdirSync(inbox);

    const added = await ended(cli(['partner', 'add', '--name', 'Crash-Prone College', '--issuing-interval', '1s', '--data', data]), 60_000);
    expect(added.code, added.stderr).toBe(0);
    const partnerId = (JSON.parse(added.stdout) as { partner_id: string }).partner_id;

    // 500 files: 480 valid (some with a sidecar, some with a manifest row), 15 invalid, 5 identical copies.
    const valid = new Set<string>();
    const manifest = ['file,title,tags,meta.n'];
    for (let i = 0; i < 480; i++) {
      const rel = `valid/${i % 7}/${i % 3}/file-${i}.txt`;
      write(inbox, rel, `valid file ${i}\n`);
      valid.add(rel);
      if (i % 50 === 0) write(inbox, `${rel}.json`, JSON.stringify({ title: `Titled ${i}`, metadata: { sidecar: true } }));
      else if (i < 40) manifest.push(`${rel},Manifest ${i},from-manifest,${i}`);
    }
    const invalid = new Map<string, RegExp>();
    for (let i = 0; i < 5; i++) {
      write(inbox, `invalid/empty-${i}.txt`, '');
      invalid.set(`invalid/empty-${i}.txt`, /empty/);
      write(inbox, `invalid/badjson-${i}.txt`, `bad sidecar ${i}`);
      write(inbox, `invalid/badjson-${i}.txt.json`, '{"title": "x",}');
      invalid.set(`invalid/badjson-${i}.txt`, /^sidecar invalid\/badjson-\d\.txt\.json, line 1, column 15: not valid JSON/);
      write(inbox, `invalid/badrow-${i}.txt`, `bad row ${i}`);
      manifest.push(`invalid/badrow-${i}.txt,Bad row,x,${i}`);
      invalid.set(`invalid/badrow-${i}.txt`, new RegExp(`^manifest\\.csv line ${manifest.length}, column "tags": Invalid tag "x"`));
      write(inbox, `copies/copy-${i}.txt`, `valid file ${101 + i}\n`); // no sidecar, no manifest row
    }
    write(inbox, 'manifest.csv', `${manifest.join('\n')}\n`);
    const addLate = (batch: string, count: number) => {
      for (let j = 0; j < count; j++) {
        const rel = `${batch}/file-${j}.txt`;
        write(inbox, rel, `${batch} file ${j}\n`);
        valid.add(rel);
      }
    };

    const watchArgs = ['watch', inbox, '--data', data, '--stable', '200ms', '--tag', 'hot-folder'];
    const runs: string[] = [];
    for (const [fault, late] of [
      ['after-uploading:120', 'late-1'],
      ['after-create:100', 'late-2'],
      ['proofs-unrenamed:1', 'late-3'],
      ['after-issued:40', 'late-4'],
    ] as const) {
      const result = await ended(cli(watchArgs, { [FOLDER_FAULT_ENV]: fault }), 90_000);
      expect(result.signal, `${fault}: ${result.stderr}`).toBe('SIGKILL');
      runs.push(`--- ${fault}\n${result.stderr}`);
      addLate(late, 20); // arrive while nothing watches
    }
    write(inbox, 'copies/late-copy.txt', 'late-2 file 3\n');
    // After each kill the next run looked for the credentials of files sent but not recorded;
    // after the kill right behind create-and-schedule, it found ones that had been made.
    const resumed = runs.map((r) => /resumed \d+ file\(s\) sent before the last stop: (\d+) credential\(s\) found made/.exec(r));
    expect(resumed[2], runs[2]).not.toBeNull();
    expect(Number(resumed[2]![1]), runs[2]).toBeGreaterThan(0);

    const last = cli(watchArgs);
    const proofs = join(inbox, 'proofs');
    let output = '';
    last.child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await waitFor(
        'every valid file issued and moved',
        () => filesUnder(proofs).length === valid.size && filesUnder(inbox).filter((p) => !/^(done|failed|duplicate|proofs)\//.test(p)).length === 1,
        120_000,
        250,
      );
    } catch (error) {
      const left = filesUnder(inbox).filter((p) => !/^(done|failed|duplicate|proofs)\//.test(p));
      throw new Error(`${runs.map((r) => r.slice(-1500)).join('\n')}\n${(error as Error).message}: ${filesUnder(proofs).length} proofs of ${valid.size}; left: ${left.slice(0, 20).join(', ')}\n${output.slice(-3000)}`);
    }
    last.child.kill('SIGTERM');
    const stopped = await ended(last, 30_000);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toMatch(/SIGTERM: stopping/);
    expect(stopped.stderr).toMatch(/stopped\. seen \d+ · in progress 0 · waiting for job 0/);

    // Nothing left behind but the manifest (it may name files still to come).
    expect(filesUnder(inbox).filter((p) => !/^(done|failed|duplicate|proofs)\//.test(p))).toEqual(['manifest.csv']);
    const done = filesUnder(join(inbox, 'done')).filter((p) => !p.endsWith('.json'));
    const duplicates = filesUnder(join(inbox, 'duplicate')).filter((p) => !p.endsWith('.duplicate.json'));
    expect(duplicates).toHaveLength(6);
    // Of each identical pair, one was issued and the other filed as a duplicate.
    expect([...done, ...duplicates].sort()).toEqual([...valid, ...[0, 1, 2, 3, 4].map((i) => `copies/copy-${i}.txt`), 'copies/late-copy.txt'].sort());
    expect(filesUnder(proofs)).toEqual(done.map((p) => `${p}.proof.json`).sort());
    for (const p of duplicates) expect(readJson(join(inbox, 'duplicate', `${p}.duplicate.json`))).toMatchObject({ id: 'duplicate' });

    // Every invalid file in failed/ with its reason (and its sidecar beside it).
    const failed = filesUnder(join(inbox, 'failed'));
    expect(failed.filter((p) => !p.endsWith('.json')).sort()).toEqual([...invalid.keys()].sort());
    for (const [rel, reason] of invalid) {
      const note = readJson<{ id: string; message: string; when: string }>(join(inbox, 'failed', `${rel}.error.json`));
      expect(note.message, rel).toMatch(reason);
      expect(Number.isNaN(Date.parse(note.when))).toBe(false);
    }
    expect(failed.filter((p) => p.endsWith('.txt.json'))).toHaveLength(5);

    // Exactly once, counted through the service.
    const engine = Engine.open({ dataDir: data, sweepIntervalMs: false, secrets: await openSecretStore({ dataDir: data, env: { [PASSPHRASE_ENV]: PASSPHRASE } }) });
    try {
      const service = engine.serviceFor(partnerId);
      const credentials = (await service.listCredentials({ per_page: 0 })).items;
      const paths = credentials.map((c) => (c.metadata.ingest as { path: string }).path);
      expect(credentials).toHaveLength(done.length);
      expect(new Set(paths).size).toBe(paths.length);
      expect(paths.sort()).toEqual([...done].sort());
      const certificates = (await service.listCertificates({ per_page: 0 })).items;
      expect(certificates).toHaveLength(done.length);
      expect(new Set(certificates.map((c) => c.certificate.credential.uid))).toEqual(new Set(credentials.map((c) => c.uid)));
      const titled = credentials.find((c) => (c.metadata.ingest as { path: string }).path === 'valid/1/2/file-50.txt')!;
      expect(titled).toMatchObject({ title: 'Titled 50', metadata: { sidecar: true }, tags: ['hot-folder'] });
      const listed = credentials.find((c) => (c.metadata.ingest as { path: string }).path === 'valid/1/1/file-1.txt')!;
      expect(listed).toMatchObject({ title: 'Manifest 1', metadata: { n: '1' }, tags: ['hot-folder', 'from-manifest'] });
    } finally {
      await engine.close();
    }

    // A proof file the watcher wrote verifies with the CLI.
    const rel = 'late-2/file-7.txt';
    expect(existsSync(join(inbox, 'done', rel))).toBe(true);
    const verified = await ended(cli(['verify', join(proofs, `${rel}.proof.json`), '--file', join(inbox, 'done', rel), '--data', data]), 60_000);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/Result: ok/);
  }, 240_000);
});
