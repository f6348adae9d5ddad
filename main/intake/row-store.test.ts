import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/clock.js';
import { Journal, newFileRow } from './journal.js';
import { RowStore, pathKey } from './row-store.js';

let dir: string;
let journal: Journal;
let clock: ManualClock;
let store: RowStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-row-store-'));
  journal = Journal.open(dir);
  clock = new ManualClock();
  store = new RowStore(journal, clock);
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(rel: string, sha256: string | null = null) {
  const folderId = journal.claimFolders(['/inbox'], 'row-store-test', clock.now()).get('/inbox')!;
  const row = journal.insert(newFileRow({ folder_id: folderId, rel_path: rel, state: 'seen', target: 'partner|local', size: 1, mtime_ms: 1, engine: 'local' }, clock.now()));
  row.sha256 = sha256;
  store.add(row);
  return row;
}

describe('the open rows of folder intake', () => {
  it('finds a row by path and by content, counts it per state, and journals what save() changes with what remember() kept', async () => {
    const a = open('a.txt');
    const b = open('b.txt');
    expect(store.idAt(pathKey(a.folder_id, 'a.txt'))).toBe(a.id);
    expect(store.stateCounts.seen).toBe(2);

    store.remember(a, { state: 'hashed', sha256: 'ab'.repeat(32) });
    store.indexContent(a);
    store.remember(b, { state: 'hashed', sha256: 'ab'.repeat(32) });
    expect(store.sameContent(b).map((r) => r.id)).toEqual([a.id]);
    expect(store.stateCounts).toMatchObject({ seen: 0, hashed: 2 });
    expect(store.reached.hashed).toBe(2);

    clock.advance(5_000);
    store.save(a, { state: 'uploading', attempt_at: clock.now() });
    await journal.flushed();
    const [journaled] = journal.openRows([a.folder_id]).filter((r) => r.id === a.id);
    // The hash kept in memory only is journaled with the row's next write.
    expect(journaled).toMatchObject({ state: 'uploading', sha256: 'ab'.repeat(32), attempt_at: clock.now(), updated_at: clock.now() });
  });

  it('lets a closed row go with the names it reserved: another file can take them', () => {
    const a = open('a.txt');
    store.save(a, { final_path: '/inbox/done/a.txt', proof_path: '/inbox/proofs/a.txt.proof.json' });
    store.reserve(a.final_path!, a.proof_path!);
    expect([...store.reserved]).toEqual(['/inbox/done/a.txt', '/inbox/proofs/a.txt.proof.json']);
    store.delete(a);
    expect(store.reserved.size).toBe(0);
    expect(store.get(a.id)).toBeUndefined();
    expect(store.idAt(pathKey(a.folder_id, 'a.txt'))).toBeUndefined();
    expect(store.stateCounts.seen).toBe(0);
  });
});
