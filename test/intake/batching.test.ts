/**
 * How the watched folder's files go from settled to scheduled on the embedded engine: many
 * per engine write transaction and per journal commit (the shared intake's batches), not one
 * call or one commit per file. The real engine, wrapped only to count the calls made to it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IssuingService } from '../../common/issuing-service.js';
import type { CreateAndScheduleRequest } from '../../common/requests.js';
import type { EmbeddedService } from '../../main/engine/index.js';
import { FolderIntake } from '../../main/intake/index.js';
import { credentialsOf, tempDir, waitFor, usePartner } from './helpers.js';

let service: EmbeddedService;
let dataDir: string;
const running: FolderIntake[] = [];
// An hour between jobs: the files stay scheduled, so what is counted is the intake alone.
usePartner('Batching University', { issuingIntervalSeconds: 3600, running, opened: (opened) => ({ service, dataDir } = opened) });

/** A new folder with `count` files of `size` bytes in it (each different), before any watcher looks. */
function folderWith(count: number, size: number, name: string): string {
  const root = join(tempDir(), 'inbox');
  mkdirSync(root);
  for (let i = 0; i < count; i++) writeFileSync(join(root, `${name}-${i}.txt`), `${name} number ${i}\n`.padEnd(size, '.'));
  return root;
}

/** The real service, counting the create-and-schedule calls and the requests they carried. */
function counting(real: EmbeddedService): { service: IssuingService; calls: { batched: number[]; bytes: number[]; single: number; mostAtOnce: number } } {
  const calls = { batched: [] as number[], bytes: [] as number[], single: 0, mostAtOnce: 0 };
  let atOnce = 0;
  const service = new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (name === 'createAndScheduleCredentials') {
        return (engineId: string | null, requests: CreateAndScheduleRequest[]) => {
          calls.batched.push(requests.length);
          calls.bytes.push(requests.reduce((sum, r) => sum + (r.file && 'data' in r.file && r.file.data instanceof Uint8Array ? r.file.data.length : 0), 0));
          return (value as (...a: unknown[]) => unknown).call(target, engineId, requests);
        };
      }
      if (name === 'createAndScheduleCredential') {
        return async (...args: unknown[]) => {
          calls.single++;
          calls.mostAtOnce = Math.max(calls.mostAtOnce, ++atOnce);
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            atOnce--;
          }
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  }) as IssuingService;
  return { service, calls };
}

describe('watched folder on the embedded engine: settled → scheduled in batches', () => {
  it('1,000 files found at start are created in at most 3 batched calls (none alone) and journaled in a few commits, each file once', async () => {
    const root = folderWith(1000, 40, 'letter');
    const { service: wrapped, calls } = counting(service);
    const intake = await FolderIntake.start({ service: wrapped, dataDir, folders: [{ path: root, tags: ['batching-1000'] }], target: 'partner:test', stableMs: 300, jobPollMs: 200, watch: false, rescanMs: 60_000 });
    running.push(intake);
    await waitFor('1,000 files scheduled', () => intake.reached().scheduled >= 1000, 60_000, 50);

    expect(calls.single).toBe(0);
    expect(calls.batched.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(calls.batched.length).toBeLessThanOrEqual(3);
    // Two writes per file (uploading, then scheduled with its credential), many files per commit.
    const journal = intake.journalStats();
    expect(journal.rowWrites).toBeGreaterThanOrEqual(2000);
    expect(journal.commits).toBeLessThanOrEqual(10);
    const credentials = await credentialsOf(service, 'batching-1000');
    expect(credentials).toHaveLength(1000);
    expect(new Set(credentials.map((c) => (c.metadata.ingest as { path: string }).path)).size).toBe(1000);
    expect(intake.progress()).toMatchObject({ waitingForJob: 1000, failed: 0, duplicates: 0 });
  });

  it('the bytes of files read and not yet recorded stay within the budget: 12 files of 300 KB with 1 MB go 3 at most per batch', async () => {
    const root = folderWith(12, 300 * 1024, 'scan');
    const { service: wrapped, calls } = counting(service);
    const intake = await FolderIntake.start({ service: wrapped, dataDir, folders: [{ path: root, tags: ['batching-held'] }], target: 'partner:test', stableMs: 300, jobPollMs: 200, watch: false, rescanMs: 60_000, heldBytes: 1024 * 1024 });
    running.push(intake);
    await waitFor('12 files scheduled', () => intake.reached().scheduled >= 12, 60_000, 50);

    expect(calls.batched.reduce((a, b) => a + b, 0)).toBe(12);
    expect(Math.max(...calls.bytes)).toBeLessThanOrEqual(1024 * 1024);
    expect(calls.batched.length).toBeGreaterThanOrEqual(4);
    expect(await credentialsOf(service, 'batching-held')).toHaveLength(12);
  });

  it('large files (streamed, each sent alone) count against the budget too: with 4 MiB, three files of 5 MB are sent one at a time', async () => {
    const root = folderWith(3, 5 * 1024 * 1024, 'video');
    const { service: wrapped, calls } = counting(service);
    const intake = await FolderIntake.start({ service: wrapped, dataDir, folders: [{ path: root, tags: ['batching-large'] }], target: 'partner:test', stableMs: 300, jobPollMs: 200, watch: false, rescanMs: 60_000, heldBytes: 4 * 1024 * 1024 });
    running.push(intake);
    await waitFor('3 files scheduled', () => intake.reached().scheduled >= 3, 60_000, 50);

    expect(calls.single).toBe(3);
    expect(calls.mostAtOnce).toBe(1);
    expect(await credentialsOf(service, 'batching-large')).toHaveLength(3);
  });

  it('a stop while files wait for room waits for the file under way only: the waiting ones are left for the next start, then issued once', async () => {
    const root = folderWith(3, 5 * 1024 * 1024, 'archive');
    // The real service; the first upload is held until the stop has begun.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let sent = 0;
    const slow = new Proxy(service, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (name !== 'createAndScheduleCredential') return (value as (...a: unknown[]) => unknown).bind(target);
        return async (...args: unknown[]) => {
          sent++;
          await held;
          return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    }) as IssuingService;
    const options = { dataDir, folders: [{ path: root, tags: ['batching-stop'] }], target: 'partner:test', stableMs: 300, jobPollMs: 200, watch: false, rescanMs: 60_000, heldBytes: 4 * 1024 * 1024 };
    const first = await FolderIntake.start({ service: slow, ...options });
    await waitFor('the first file sent', () => sent === 1, 60_000, 20);
    const stopped = first.stop();
    letGo();
    await stopped;
    expect(sent).toBe(1);

    const again = await FolderIntake.start({ service, ...options });
    running.push(again);
    await waitFor('3 files scheduled', () => again.progress().waitingForJob === 3, 60_000, 50);
    expect(await credentialsOf(service, 'batching-stop')).toHaveLength(3);
  });
});
