import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, Journal, remoteJournalFile } from './journal.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the journal of a remote service', () => {
  it('is one file per service and client, whatever the spelling of the URL', () => {
    const a = remoteJournalFile('http://127.0.0.1:8080/api', 'pd-a');
    expect(a).toMatch(/^ingest-remote-[0-9a-f]{16}\.sqlite$/);
    expect(remoteJournalFile('http://127.0.0.1:8080/api/', 'pd-a')).toBe(a);
    expect(remoteJournalFile('HTTP://127.0.0.1:8080/api', 'pd-a')).toBe(a);
    expect(remoteJournalFile('http://127.0.0.1:8081/api', 'pd-a')).not.toBe(a);
    expect(remoteJournalFile('http://127.0.0.1:8080/api', 'pd-b')).not.toBe(a);
    expect(a).not.toBe(JOURNAL_FILE);
  });

  it('keeps the rows of one folder watched against two services apart', () => {
    const data = mkdtempSync(join(tmpdir(), 'proofdesk-journal-'));
    dirs.push(data);
    const folder = join(data, 'inbox');
    const first = Journal.open(data, remoteJournalFile('http://127.0.0.1:8080/api', 'pd-a'));
    const [id] = first.claimFolders([folder], 'token-1', Date.now()).values();
    first.insert({ folder_id: id!, rel_path: 'a.txt', state: 'scheduled', target: 't', size: 1, mtime_ms: 1, sha256: null, details: null, sidecar: null, engine: 'local', attempt_at: null, credential_uid: 'uid-of-service-a', job_uid: null, job_failures: 0, proof_path: null, final_path: null, error_id: null, error_message: null, duplicate_of: null, seen_at: 1, updated_at: 1, closed_at: null });
    first.releaseFolders('token-1');
    first.close();

    const second = Journal.open(data, remoteJournalFile('http://127.0.0.1:9090/api', 'pd-a'));
    const [other] = second.claimFolders([folder], 'token-2', Date.now()).values();
    expect(second.openRows([other!])).toEqual([]);
    second.close();
    const again = Journal.open(data, remoteJournalFile('http://127.0.0.1:8080/api/', 'pd-a'));
    const [same] = again.claimFolders([folder], 'token-3', Date.now()).values();
    expect(again.openRows([same!]).map((r) => r.rel_path)).toEqual(['a.txt']);
    again.close();
  });
});

describe('group commit', () => {
  it('the writes of 500 files at work at once are a few commits, and each waiter sees its write committed (a reopened journal has them)', async () => {
    const data = mkdtempSync(join(tmpdir(), 'proofdesk-journal-'));
    dirs.push(data);
    const journal = Journal.open(data);
    const [folderId] = journal.claimFolders([join(data, 'inbox')], 'token', Date.now()).values();
    const rows = Array.from({ length: 500 }, (_, i) =>
      journal.insert({ folder_id: folderId!, rel_path: `f-${i}.txt`, state: 'scheduled', target: 't', size: 1, mtime_ms: 1, sha256: null, details: null, sidecar: null, engine: 'local', attempt_at: null, credential_uid: `uid-${i}`, job_uid: null, job_failures: 0, proof_path: null, final_path: null, error_id: null, error_message: null, duplicate_of: null, seen_at: 1, updated_at: 1, closed_at: null }),
    );
    // As the filing stage does: each file journals where its proof goes, waits, then journals it issued, waits.
    await Promise.all(
      rows.map(async (row) => {
        row.proof_path = `/out/${row.rel_path}.proof.json`;
        journal.queue(row, ['proof_path']);
        await journal.flushed();
        row.state = 'issued';
        journal.queue(row, ['state']);
        await journal.flushed();
      }),
    );
    expect(journal.stats.rowWrites).toBe(1000);
    expect(journal.stats.commits).toBeLessThanOrEqual(4);
    journal.close();
    const reopened = Journal.open(data);
    const open = reopened.openRows([folderId!]);
    expect(open.filter((r) => r.state === 'issued' && r.proof_path === `/out/${r.rel_path}.proof.json`)).toHaveLength(500);
    reopened.close();
  });
});
