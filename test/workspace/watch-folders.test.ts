/**
 * The app's watch folders (main/workspace/watch-folders): real folders, the real engine on the
 * local chain, the real intake and journal the CLI uses, and the CLI itself in a child process.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import { Engine, ManualClock } from '../../main/engine/index.js';
import { FolderIntake } from '../../main/intake/index.js';
import { OWNER_STALE_MS } from '../../main/intake/journal.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import { WATCH_FOLDERS_FILE, writeWatchFolders } from '../../main/workspace/watch-folders/watch-folder-list.js';
import { WatchFolderManager } from '../../main/workspace/watch-folders/watch-folder-manager.js';
import { cliArgs } from '../cli/cli-child.js';
import { filesUnder, REPO_ROOT, removeTempDirs, tempDir, waitFor } from '../intake/helpers.js';

let engine: Engine;
let dataDir: string;
let partnerId: string;
const managers: WatchFolderManager[] = [];
const changes: WatchFolderStatus[] = [];
/** The CLI in a child process opens the same encrypted key file. */
const PASSPHRASE = 'watch folders passphrase';
const CHILD_ENV = (): NodeJS.ProcessEnv => ({ ...process.env, PROOFDESK_DATA: dataDir, [PASSPHRASE_ENV]: PASSPHRASE });

function manager(): WatchFolderManager {
  const m = new WatchFolderManager({
    dataDir,
    serviceFor: (id) => engine.serviceFor(id),
    activePartner: () => partnerId,
    onChange: (s) => changes.push(s),
    intake: { stableMs: 200, rescanMs: 500, jobPollMs: 200 },
  });
  managers.push(m);
  return m;
}

function inbox(): string {
  const dir = join(tempDir(), 'inbox');
  mkdirSync(dir);
  return dir;
}

beforeAll(async () => {
  dataDir = join(tempDir(), 'data');
  engine = Engine.open({ dataDir, sweepIntervalMs: false, secrets: await openSecretStore({ dataDir, env: { [PASSPHRASE_ENV]: PASSPHRASE } }), issuing: { scheduler: true, tickMs: 100, onError: () => undefined } });
  partnerId = (await engine.addPartner({ name: 'Watch Issuer', issuingIntervalSeconds: 1 })).partner_id;
  await engine.issuing.ctx.chains.client('local');
}, 60_000);

afterAll(async () => {
  for (const m of managers) await m.stopAll();
  await engine?.close();
  removeTempDirs();
});

describe('watch folders in the app', () => {
  it('issues files dropped into an added folder, with live counts; the list is saved 0600 and watched again at start', async () => {
    const m = manager();
    const root = inbox();
    const out = join(tempDir(), 'proofs');
    const added = await m.add({ path: root, tags: ['app-watch'], metadata: { course: 'CS 2026' }, outDir: out });
    expect(added).toMatchObject({ path: root, outDir: out, state: 'watching', problem: null });
    writeFileSync(join(root, 'alice.pdf'), 'alice diploma');
    writeFileSync(join(root, 'bob.pdf'), 'bob diploma');
    await waitFor('two proofs', () => filesUnder(out).length === 2, 60_000);
    await waitFor('counts sent', () => changes.some((c) => c.id === added.id && c.counts.issued === 2));
    expect(m.list()[0]!.counts).toMatchObject({ seen: 2, issued: 2, failed: 0 });
    const credentials = (await engine.serviceFor(partnerId).listCredentials({ and_tags: 'app-watch', per_page: 0 })).items;
    expect(credentials.map((c) => c.metadata?.['course'])).toEqual(['CS 2026', 'CS 2026']);
    expect(statSync(join(dataDir, WATCH_FOLDERS_FILE)).mode & 0o777).toBe(0o600);

    // Paused: the state is saved, and a second start (the app opening again) keeps it paused.
    m.pause(added.id);
    await m.stopAll();
    const again = manager();
    await again.startSaved();
    expect(again.list()).toMatchObject([{ id: added.id, path: root, state: 'paused' }]);
    await again.resume(added.id);
    writeFileSync(join(root, 'carol.pdf'), 'carol diploma');
    await waitFor('the third proof after the restart', () => filesUnder(out).length === 3, 60_000);
    await again.remove(added.id);
    expect(JSON.parse(readFileSync(join(dataDir, WATCH_FOLDERS_FILE), 'utf8'))).toEqual({ folders: [] });
  }, 120_000);

  it('lists failed files with their reasons and puts them back on retry', async () => {
    const m = manager();
    const root = inbox();
    const added = await m.add({ path: root });
    // A sidecar that is not JSON: the file fails with invalid_value and is filed under failed/.
    writeFileSync(join(root, 'dave.pdf.json'), '{ not json');
    writeFileSync(join(root, 'dave.pdf'), 'dave diploma');
    const [failed] = await waitFor('a failed file', () => (m.failed(added.id).length > 0 ? m.failed(added.id) : undefined), 30_000);
    expect(failed).toMatchObject({ path: 'dave.pdf' });
    expect(failed!.message.length).toBeGreaterThan(10);
    const back = await m.retry(added.id, { path: failed!.path, failedPath: failed!.failedPath });
    expect(back).toBe(join(root, 'dave.pdf'));
    await m.remove(added.id);
  }, 60_000);

  it('refuses a folder the CLI watches, with a sentence that says so, takes it once the CLI was killed; and the CLI refuses one the app watches (even paused)', async () => {
    const m = manager();
    const cliFolder = inbox();
    const cli = spawn(process.execPath, [...cliArgs(), 'watch', cliFolder, '--data', dataDir], { cwd: REPO_ROOT, env: CHILD_ENV(), stdio: ['ignore', 'pipe', 'pipe'] });
    let cliErr = '';
    cli.stderr.on('data', (d: Buffer) => (cliErr += d.toString()));
    try {
      await waitFor('the CLI watching', () => cliErr.includes('watching') || cli.exitCode !== null, 60_000);
      expect(cliErr).toContain('watching');
      await expect(m.add({ path: cliFolder })).rejects.toThrow(/already watched by another Proofdesk process .*command line.*Stop watching it there first/);
      expect(m.list()).toEqual([]);
      // The app starting while the CLI watches a saved folder: that folder is stopped with the reason,
      // and watched again on request once the CLI is gone.
      writeWatchFolders(dataDir, [{ id: 'saved-cli', path: cliFolder, partnerId, paused: false }]);
      const starting = manager();
      await starting.startSaved();
      expect(starting.list()).toMatchObject([{ id: 'saved-cli', state: 'stopped', problem: expect.stringMatching(/already watched by another Proofdesk process/) }]);
      cli.kill('SIGKILL');
      if (cli.exitCode === null && cli.signalCode === null) await new Promise((r) => cli.once('exit', r));
      expect(await starting.resume('saved-cli')).toMatchObject({ state: 'watching', problem: null });
      await starting.remove('saved-cli');
    } finally {
      cli.kill('SIGKILL');
    }

    // Killed without giving the folder up: its claim is stale once the process is gone.
    if (cli.exitCode === null && cli.signalCode === null) await new Promise((r) => cli.once('exit', r));
    const taken = await m.add({ path: cliFolder });
    expect(taken.state).toBe('watching');
    await m.remove(taken.id);

    const appFolder = inbox();
    const added = await m.add({ path: appFolder });
    m.pause(added.id);
    const result = await new Promise<{ code: number | null; err: string }>((done) => {
      const child = spawn(process.execPath, [...cliArgs(), 'watch', appFolder, '--data', dataDir], { cwd: REPO_ROOT, env: CHILD_ENV(), stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        done({ code, err });
      });
    });
    expect(result.code).not.toBe(0);
    expect(result.err).toMatch(/already watched by process \d+/);
    await m.remove(added.id);
  }, 180_000);

  it('a folder of 600 files added in the app goes to the engine in batches: at most 3 create-and-schedule calls, none per file', async () => {
    const calls = { batched: 0, single: 0 };
    const counted = new WatchFolderManager({
      dataDir,
      // The real service, counting the create-and-schedule calls made to it.
      serviceFor: (id) =>
        new Proxy(engine.serviceFor(id), {
          get(target, name, receiver) {
            const value = Reflect.get(target, name, receiver) as unknown;
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (name === 'createAndScheduleCredentials') calls.batched++;
              if (name === 'createAndScheduleCredential') calls.single++;
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        }),
      activePartner: () => partnerId,
      onChange: () => undefined,
      intake: { stableMs: 200, rescanMs: 60_000, jobPollMs: 200 },
    });
    managers.push(counted);
    const root = inbox();
    for (let i = 0; i < 600; i++) writeFileSync(join(root, `transcript-${i}.txt`), `transcript ${i}`);
    const added = await counted.add({ path: root, tags: ['app-batches'] });
    await waitFor('600 files past intake', () => {
      const c = counted.list().find((f) => f.id === added.id)!.counts;
      return c.seen === 600 && c.inProgress === 0 && c.waiting + c.issued === 600;
    }, 60_000);
    expect(calls.single).toBe(0);
    expect(calls.batched).toBeGreaterThanOrEqual(2);
    expect(calls.batched).toBeLessThanOrEqual(3);
    await counted.stopAll();
  });
});

describe('a paused intake', () => {
  it('keeps saying its folders are claimed (another watcher cannot take them while it is paused)', async () => {
    const root = inbox();
    // The intake's timers are fake (the heartbeat's every 5 s among them), its clock moved by hand.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = new ManualClock(Date.now());
    const started = clock.now();
    const first = await FolderIntake.start({ service: engine.serviceFor(partnerId), dataDir, folders: [{ path: root }], stableMs: 100, clock });
    first.pause();
    try {
      // The claim's heartbeat must go on while paused: 30 s without one and the claim is stale.
      // Past one heartbeat, a second watcher looks when a claim last renewed at start would be
      // stale but one renewed since is not.
      clock.advance(5_000);
      vi.advanceTimersByTime(5_000);
      const later = new ManualClock(started + OWNER_STALE_MS + 2_000);
      await expect(FolderIntake.start({ service: engine.serviceFor(partnerId), dataDir, folders: [{ path: root }], stableMs: 100, clock: later })).rejects.toThrow(/already watched/);
    } finally {
      await first.stop();
      vi.useRealTimers();
    }
  });
});
