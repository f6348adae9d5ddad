import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dumpStateViaRpc, startStateSnapshots } from './anvil-snapshots.js';
import { anvilStatePaths, prepareStateFile, stateFileInfo, syncSnapshotWithStateFile, writeFileAtomically, type AnvilStatePaths } from './anvil-state-file.js';

let dir: string;
let paths: AnvilStatePaths;

/** A minimal dump with the fields stateFileInfo looks at. */
function dump(height: number): string {
  return JSON.stringify({ block: { number: `0x${height.toString(16)}` }, accounts: {}, best_block_number: `0x${height.toString(16)}`, blocks: [], transactions: [] });
}

function write(file: string, text: string, mtimeSeconds: number): void {
  writeFileSync(file, text);
  utimesSync(file, mtimeSeconds, mtimeSeconds);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-state-'));
  paths = anvilStatePaths(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('stateFileInfo', () => {
  it('reads the height of a complete dump and rejects damaged ones', () => {
    write(paths.stateFile, dump(12), 1000);
    expect(stateFileInfo(paths.stateFile)).toEqual({ height: 12, mtimeMs: 1_000_000 });
    for (const damaged of ['', '{"block":{"number":"0x', 'null', '{"accounts":{}}']) {
      writeFileSync(paths.stateFile, damaged);
      expect(stateFileInfo(paths.stateFile)).toBeUndefined();
    }
    expect(stateFileInfo(join(dir, 'missing.json'))).toBeUndefined();
  });
});

describe('prepareStateFile', () => {
  it('starts a new chain when there is nothing', () => {
    expect(prepareStateFile(paths)).toBe('new');
    expect(existsSync(paths.stateFile)).toBe(false);
  });

  it('loads the state file and copies it to the snapshot when it is the most recent', () => {
    write(paths.stateFile, dump(5), 2000);
    write(paths.snapshotFile, dump(5), 1000);
    expect(prepareStateFile(paths)).toBe('loaded');
    expect(readFileSync(paths.snapshotFile, 'utf8')).toBe(dump(5));
    // The copy keeps the original's time, so the next start still prefers the state file.
    expect(prepareStateFile(paths)).toBe('loaded');
  });

  it('restores the snapshot when it is ahead, by height or (same height) by time', () => {
    write(paths.stateFile, dump(5), 3000);
    write(paths.snapshotFile, dump(6), 1000);
    expect(prepareStateFile(paths)).toBe('restored');
    expect(readFileSync(paths.stateFile, 'utf8')).toBe(dump(6));

    write(paths.stateFile, dump(6), 1000);
    write(paths.snapshotFile, dump(6).replace('"transactions":[]', '"transactions":[1]'), 2000);
    expect(prepareStateFile(paths)).toBe('restored');
  });

  it('moves a damaged state file aside and restores the snapshot, or starts anew without one', () => {
    writeFileSync(paths.stateFile, '{"block":');
    write(paths.snapshotFile, dump(3), 1000);
    expect(prepareStateFile(paths)).toBe('restored');
    expect(stateFileInfo(paths.stateFile)?.height).toBe(3);

    writeFileSync(paths.stateFile, '');
    rmSync(paths.snapshotFile);
    expect(prepareStateFile(paths)).toBe('reset');
    expect(existsSync(paths.stateFile)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('state.json.damaged-'))).toHaveLength(2);
  });

  it('restores a snapshot when the state file is missing', () => {
    write(paths.snapshotFile, dump(9), 1000);
    expect(prepareStateFile(paths)).toBe('restored');
    expect(stateFileInfo(paths.stateFile)?.height).toBe(9);
  });
});

describe('syncSnapshotWithStateFile', () => {
  it('copies anvil\u2019s final dump over an older snapshot, never over a newer one', () => {
    write(paths.stateFile, dump(7), 2000);
    write(paths.snapshotFile, dump(6), 3000);
    syncSnapshotWithStateFile(paths);
    expect(stateFileInfo(paths.snapshotFile)?.height).toBe(7);

    write(paths.snapshotFile, dump(8), 1000);
    syncSnapshotWithStateFile(paths);
    expect(stateFileInfo(paths.snapshotFile)?.height).toBe(8);
  });
});

describe('writing chain state never lands outside its directory', () => {
  it('an undefined or relative target is refused before anything is written (the old undefined.tmp-<pid> in the current directory)', async () => {
    const cwd = process.cwd();
    const here = mkdtempSync(join(tmpdir(), 'proofdesk-cwd-'));
    process.chdir(here);
    try {
      for (const target of [undefined, '', 'state.json', 'chain/state.snapshot.json']) {
        expect(() => writeFileAtomically(target as unknown as string, dump(2))).toThrow(/must be an absolute path/);
      }
      // Port 9 (discard) on loopback: the path check comes first, so no RPC is ever made.
      await expect(dumpStateViaRpc('http://127.0.0.1:9', undefined as unknown as string)).rejects.toThrow(/must be an absolute path, got undefined/);
      await expect(startStateSnapshots('http://127.0.0.1:9', undefined as unknown as string, 1000)).rejects.toThrow(/must be an absolute path/);
      expect(() => anvilStatePaths('relative/chain')).toThrow(/must be an absolute path/);
      expect(readdirSync(here)).toEqual([]);
    } finally {
      process.chdir(cwd);
      rmSync(here, { recursive: true, force: true });
    }
  });

  it('a failed atomic write leaves no temporary file, and a written one is 0600', () => {
    writeFileAtomically(paths.stateFile, dump(3));
    expect(statSync(paths.stateFile).mode & 0o777).toBe(0o600);
    expect(() => writeFileAtomically(join(dir, 'no-such-dir', 'state.json'), dump(3))).toThrow();
    writeFileSync(join(dir, 'blocker'), '');
    mkdirSync(join(dir, 'a-directory'));
    // The rename onto a directory fails after the temporary file was written: it must go.
    expect(() => writeFileAtomically(join(dir, 'a-directory'), dump(3))).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['a-directory', 'blocker', 'state.json']);
  });
});
