/**
 * `watch` on PostgreSQL from a data directory that is not the home of the database's `local`
 * engine: its default engine `local` is refused with the engine's own reason (the local dev
 * chain is in another data directory, which it names), as any command the service refuses is
 * (exit 1, `error wrong_blockchain_engine (422)`), and nothing in the folder is touched. The
 * home is claimed as it is in use: by issuing on `local` from the other data directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInstallation } from '../../main/engine/proofs/chain-identity.js';
import { runCli } from '../../main/cli/run.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let base: string;
let database: TestDatabase;
const saved = { url: process.env.PROOFDESK_DATABASE_URL, passphrase: process.env.PROOFDESK_PASSPHRASE };

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'proofdesk-watch-elsewhere-'));
  database = createTestDatabase();
  process.env.PROOFDESK_DATABASE_URL = database.url;
  process.env.PROOFDESK_PASSPHRASE = 'watch elsewhere tests';
});

afterAll(() => {
  for (const [name, value] of [['PROOFDESK_DATABASE_URL', saved.url], ['PROOFDESK_PASSPHRASE', saved.passphrase]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(base, { recursive: true, force: true });
  database?.drop();
});

describe('watch on PostgreSQL from a data directory that is not the local chain’s home', () => {
  it('exits 1 with the engine’s sentence naming the home, and leaves the folder’s files where they are', async () => {
    const home = join(base, 'home');
    const away = join(base, 'away');
    expect((await cli(['partner', 'add', '--name', 'Uni', '--data', home])).code).toBe(0);
    const diploma = join(base, 'diploma.txt');
    writeFileSync(diploma, 'Ada, BSc');
    const issued = await cli(['issue', diploma, '--now', '--out', join(base, 'issued'), '--data', home]);
    expect(issued.code, issued.err).toBe(0);
    const homeId = readInstallation(home)!.installation_id;

    const inbox = join(base, 'inbox');
    mkdirSync(inbox);
    writeFileSync(join(inbox, 'grace.txt'), 'Grace, MSc');
    const watched = await cli(['watch', inbox, '--data', away]);

    expect(watched.code).toBe(1);
    expect(watched.err).toContain('error wrong_blockchain_engine (422): ');
    expect(watched.err).toContain(`${inbox}: This database's local dev chain is in another data directory (installation ${homeId}, ${home} on `);
    expect(watched.err).toContain('to issue from several machines, configure a chain as an engine');
    expect(watched.err).not.toContain('Unknown engine');
    expect(readdirSync(inbox)).toEqual(['grace.txt']);
    expect(existsSync(join(away, 'chain'))).toBe(false);
  });
});
