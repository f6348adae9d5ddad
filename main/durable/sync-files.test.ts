import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYNCFS_FROM, syncFiles } from './sync-files.js';
import { syncFileSystems, syncProcessesStarted } from './syncfs.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-sync-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function files(folder: string, n: number): string[] {
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: n }, (_, i) => {
    const path = join(folder, `f${i}`);
    writeFileSync(path, `file ${i}`);
    return path;
  });
}

describe.runIf(process.platform === 'linux')('syncFiles (real sync -f)', () => {
  it('syncs round after round of many files with one process started, not one per round', async () => {
    const before = syncProcessesStarted();
    for (let round = 0; round < 4; round++) {
      const paths = files(join(dir, `round ${round}`), SYNCFS_FROM);
      const errors: unknown[] = [];
      await syncFiles(paths, errors);
      expect(errors.filter((e) => e !== undefined)).toEqual([]);
      expect(readFileSync(paths[0]!, 'utf8')).toBe('file 0');
    }
    expect(syncProcessesStarted() - before).toBeLessThanOrEqual(1);
  });

  it('syncs folders whose names have spaces, backslashes, a leading dash or a line break', async () => {
    for (const name of ['a b', 'back\\slash', '-f', 'line\nbreak', ' lead and trail ']) {
      const folder = join(dir, name);
      mkdirSync(folder);
      expect(await syncFileSystems([folder])).toBe(true);
    }
  });

  it('answers not synced for a folder that does not exist, and goes on syncing the next', async () => {
    expect(await syncFileSystems([join(dir, 'missing')])).toBe(false);
    expect(await syncFileSystems([dir, dir])).toBe(true);
  });

  it('answers requests made side by side, each with its own result', async () => {
    const results = await Promise.all([syncFileSystems([dir]), syncFileSystems([join(dir, 'missing')]), syncFileSystems([dir])]);
    expect(results).toEqual([true, false, true]);
  });
});

describe.runIf(process.platform === 'linux')('the sync helper and the process (a real child process)', () => {
  it('keeps a process alive while it waits for a sync, and lets it exit once nothing waits', async () => {
    const { execFileSync } = await import('node:child_process');
    const script = `import { syncFileSystems } from ${JSON.stringify(join(import.meta.dirname, 'syncfs.ts'))}; syncFileSystems([${JSON.stringify(dir)}]).then((ok) => console.log(String(ok)));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PROOFDESK_DATA: dir } });
    expect(out.trim()).toBe('true');
  });
});
