import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IssuingService } from '../../common/issuing-service.js';
import { FolderIntake } from './folder-intake.js';
import { FolderBusyError, remoteJournalFile } from './journal.js';

/**
 * A stub service (the intake asks only for the folder's engine before it claims its folders; an
 * empty folder needs nothing else): what is tested here is the journal's folder claim.
 */
function stubService(): IssuingService {
  return new Proxy({} as IssuingService, {
    get: (_target, name) =>
      name === 'getEngine'
        ? () => Promise.resolve({ id: 'local' })
        : () => {
            throw new Error(`not expected: ${String(name)}`);
          },
  });
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the folder claim across journals (stub service)', () => {
  it('refuses a folder already watched from the same data directory through another service', async () => {
    const base = mkdtempSync(join(tmpdir(), 'proofdesk-claim-'));
    dirs.push(base);
    const data = join(base, 'data');
    const inbox = join(base, 'inbox');
    mkdirSync(inbox);
    const start = (journalFile: string | undefined) => FolderIntake.start({ service: stubService(), dataDir: data, journalFile, folders: [{ path: inbox }], watch: false });

    const local = await start(undefined);
    await expect(start(remoteJournalFile('http://127.0.0.1:8080/api', 'pd-a'))).rejects.toBeInstanceOf(FolderBusyError);
    await local.stop();

    const remoteA = await start(remoteJournalFile('http://127.0.0.1:8080/api', 'pd-a'));
    await expect(start(remoteJournalFile('http://127.0.0.1:9090/api', 'pd-a'))).rejects.toBeInstanceOf(FolderBusyError);
    await expect(start(undefined)).rejects.toBeInstanceOf(FolderBusyError);
    await remoteA.stop();
    // Given up on stop: the next one may watch it.
    await (await start(remoteJournalFile('http://127.0.0.1:9090/api', 'pd-a'))).stop();
  });
});
