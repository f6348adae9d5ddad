/**
 * vitest globalSetup of the integration tests: a throwaway PostgreSQL cluster for the run —
 * `initdb` in a temporary folder, the server on 127.0.0.1 and a free port, its socket in the
 * same folder, stopped and deleted at the end. Its superuser URL is PROOFDESK_TEST_DATABASE_URL;
 * each test file makes its own database in it (postgres-database.ts), so files stay independent.
 *
 * initdb and postgres refuse to run as root: under root (CI) they run as the `postgres` system
 * user that Debian's package creates, in a folder it owns. Binaries come from `pg_config
 * --bindir`, else the newest /usr/lib/postgresql/N/bin (scripts/ensure-system-deps.sh installs them).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../../main/chain/free-port.js';

/** Where PostgreSQL's programs are. */
function postgresBinDir(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb'))) return dir;
  } catch {
    // No pg_config (libpq-dev missing): look where Debian's postgresql package puts them.
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL is not installed (no initdb): run bash scripts/ensure-system-deps.sh');
  return join(root, newest, 'bin');
}

/** The command and arguments that run `program` as the user PostgreSQL accepts. */
function asServerUser(program: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [program, args];
  return ['runuser', ['-u', 'postgres', '--', program, ...args]];
}

/** Resolves once the server says it accepts connections; rejects when it exits first. */
function ready(server: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('database system is ready to accept connections')) {
        server.stderr!.off('data', onData);
        server.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`PostgreSQL stopped at start (exit ${code}):\n${log}`));
    server.stderr!.on('data', onData);
    server.once('exit', onExit);
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  const bin = postgresBinDir();
  const folder = mkdtempSync(join(tmpdir(), 'proofdesk-postgres-'));
  if (process.getuid?.() === 0) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(folder, Number(ids), Number(gid));
  }
  const data = join(folder, 'data');
  const [initdb, initArgs] = asServerUser(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  execFileSync(initdb, initArgs, { stdio: ['ignore', 'ignore', 'pipe'] });

  const port = await findFreePort();
  // A throwaway cluster: durability settings off, since nothing in it outlives the run.
  const [postgres, serverArgs] = asServerUser(join(bin, 'postgres'), [
    '-D', data, '-k', folder, '-h', '127.0.0.1', '-p', String(port),
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
  ]);
  const server = spawn(postgres, serverArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  await ready(server);
  process.env.PROOFDESK_TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/postgres`;

  return async () => {
    // The postmaster itself (runuser does not pass signals on): SIGINT is PostgreSQL's fast shutdown.
    const pidFile = join(data, 'postmaster.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : server.pid;
    const stopped = new Promise<void>((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', () => resolve())));
    if (pid) process.kill(pid, 'SIGINT');
    await stopped;
    rmSync(folder, { recursive: true, force: true });
  };
}
