/**
 * What the engine writes survives the process: a child process fills a data directory and
 * exits (cleanly, or killed with SIGKILL right after it committed); a new engine opened on
 * that directory finds everything as the child left it. Reopening never re-runs a migration.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credential, FileRecord, Job, Page } from '../../common/wire-types.js';
import { Engine } from '../../main/engine/index.js';
import { DATABASE_FILE } from '../../main/engine/database.js';
import { MIGRATIONS } from '../../main/engine/migrations.js';
import type { PartnerRecord } from '../../main/engine/partners.js';
import { makeTempDir } from '../support/engine-fixture.js';
import { childArgs } from '../support/ts-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WRITER = join(ROOT, 'test', 'support', 'persistence-writer.ts');

interface WriterState {
  committed: true;
  partners: PartnerRecord[];
  a: { id: string; files: Page<FileRecord>; credentials: Page<Credential>; jobs: Page<Job>; jobCredentials: Page<Credential>; filtered: Page<Credential> };
  b: { id: string; credentials: Page<Credential> };
  made: { usedFile: FileRecord; freeFile: FileRecord; base: Credential; withFile: Credential; scheduled: Credential; job: Job; bCredential: Credential };
}

/** Runs the writer; in `hang` mode kills it with SIGKILL as soon as it reports the commit. */
function runWriter(dataDir: string, mode: 'exit' | 'hang'): Promise<{ state: WriterState; code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childArgs(WRITER), dataDir, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let state: WriterState | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`writer timed out; stderr: ${err}`));
    }, 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"committed":true'));
      if (line && !state) {
        state = JSON.parse(line) as WriterState;
        if (mode === 'hang') process.kill(child.pid!, 'SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!state) reject(new Error(`writer exited (${code ?? signal}) without committing; stderr: ${err}`));
      else resolve({ state, code, signal });
    });
  });
}

function userVersion(dataDir: string): number {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe('engine persistence', () => {
  const dirs: string[] = [];
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function open(dataDir: string): Engine {
    const engine = Engine.open({ dataDir, sweepIntervalMs: false });
    engines.push(engine);
    return engine;
  }

  for (const mode of ['exit', 'hang'] as const) {
    it(`everything a process committed is there after it ${mode === 'exit' ? 'exited' : 'was killed with SIGKILL'}`, async () => {
      const dataDir = makeTempDir();
      dirs.push(dataDir);
      const { state, code, signal } = await runWriter(dataDir, mode);
      if (mode === 'exit') expect(code).toBe(0);
      else expect(signal).toBe('SIGKILL');

      const engine = open(dataDir);
      expect(engine.partners.list()).toEqual(state.partners);
      const a = engine.serviceFor(state.a.id);
      const b = engine.serviceFor(state.b.id);
      expect(await a.listFiles({ per_page: 0 })).toEqual(state.a.files);
      expect(await a.listCredentials({ per_page: 0 })).toEqual(state.a.credentials);
      expect(await a.listJobs({ per_page: 0 })).toEqual(state.a.jobs);
      expect(await a.listJobCredentials(state.made.job.uid, { per_page: 0 })).toEqual(state.a.jobCredentials);
      expect(await a.listCredentials({ and_tags: 'alpha', per_page: 0 })).toEqual(state.a.filtered);
      expect(await b.listCredentials({ per_page: 0 })).toEqual(state.b.credentials);

      // Spot checks of what the writer did, so an empty state cannot pass.
      expect(state.a.files.total_items).toBe(3);
      expect(state.a.credentials.total_items).toBe(3);
      const withFile = await a.getCredential(state.made.withFile.uid);
      expect(withFile.files).toEqual([state.made.usedFile]);
      expect(withFile.credentials).toEqual([{ ...state.made.base, tags: ['alpha'] }]);
      expect((await a.getJob(state.made.job.uid)).tags).toEqual(['nightly']);
      expect(uidsOf(state.a.jobCredentials)).toEqual([state.made.withFile.uid, state.made.scheduled.uid]);
      await expect(a.getCredential(state.made.bCredential.uid)).rejects.toMatchObject({ id: 'missing_credential' });

      // The bytes are in the store, nothing half-written is left, and work carries on.
      for (const file of state.a.files.items) expect(existsSync(join(dataDir, 'files', file.file_hash.slice(0, 2), file.file_hash))).toBe(true);
      // The dead writer's staging folder is gone; only the reopened engine's own, empty one is left.
      const staging = readdirSync(join(dataDir, 'tmp'));
      expect(staging).toHaveLength(1);
      expect(staging[0]).toMatch(new RegExp(`^${process.pid}-`));
      expect(readdirSync(join(dataDir, 'tmp', staging[0]!), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())).toEqual([]);
      await expect(a.uploadFile({ file: { data: new TextEncoder().encode(`free ${dataDir}`) } })).rejects.toMatchObject({ id: 'file_already_exists' });
      const more = await a.createCredential({ title: 'After restart', metadata: { n: 2 } });
      expect((await a.scheduleCredentials({ engine: 'local', credentials: [more.uid] })).uid).toBe(state.made.job.uid);
    });
  }

  it('reopening runs no migration twice: user_version stays the number of migrations', async () => {
    const dataDir = makeTempDir();
    dirs.push(dataDir);
    const first = Engine.open({ dataDir, sweepIntervalMs: false });
    const partner = first.partners.add({ name: 'Once' });
    await first.serviceFor(partner.partner_id).createCredential({ title: 'Kept', metadata: { a: 1 } });
    await first.close();
    expect(userVersion(dataDir)).toBe(MIGRATIONS.length);
    for (let i = 0; i < 3; i++) {
      const again = Engine.open({ dataDir, sweepIntervalMs: false });
      expect((await again.serviceFor(partner.partner_id).listCredentials()).items.map((c) => c.title)).toEqual(['Kept']);
      await again.close();
      expect(userVersion(dataDir)).toBe(MIGRATIONS.length);
    }
  });

  it('a data directory from a newer schema is refused with a clear message, and left alone', async () => {
    const dataDir = makeTempDir();
    dirs.push(dataDir);
    await Engine.open({ dataDir, sweepIntervalMs: false }).close();
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => Engine.open({ dataDir, sweepIntervalMs: false })).toThrow(/newer Proofdesk/);
    expect(userVersion(dataDir)).toBe(MIGRATIONS.length + 1);
  });
});

function uidsOf(page: Page<Credential>): string[] {
  return page.items.map((c) => c.uid);
}
