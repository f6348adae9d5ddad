/**
 * KeychainStore and openSecretStore against a real Secret Service: each scenario runs
 * fixtures/keychain-child.ts in its own process, on its own D-Bus session with gnome-keyring
 * (present), on no D-Bus at all (absent), or on a bus nothing provides secrets on.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childArgs } from '../support/ts-child.js';
import { CHILD_SECRETS } from './fixtures/child-secrets.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CHILD = join(import.meta.dirname, 'fixtures', 'keychain-child.ts');
const NO_SECRET_SERVICE_BUS = join(import.meta.dirname, 'fixtures', 'no-secret-service-bus.conf');

/** Throws (the test fails, it is never skipped) when a tool the real keychain needs is missing. */
function requireTools(...names: string[]): void {
  for (const name of names) {
    const found = (process.env.PATH ?? '').split(delimiter).some((dir) => {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    if (!found) throw new Error(`${name} not found on PATH: the keychain tests need a real Secret Service. Run: apt-get install dbus gnome-keyring`);
  }
}

interface ChildError {
  name: string;
  message: string;
  stack: string;
}
type Attempt<T = unknown> = { value: T } | { error: ChildError };

let home: string;

beforeEach(() => {
  // A private HOME: gnome-keyring keeps its keyrings under it, and an existing login keyring
  // with another password would stay locked (seen on shared machines), so never use the user's.
  home = mkdtempSync(join(tmpdir(), 'proofdesk-keychain-'));
  mkdirSync(join(home, 'run'), { mode: 0o700 });
});

afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

/** The environment of a child: ours without any D-Bus/X11 session or Proofdesk settings, HOME private. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'DBUS_SESSION_BUS_ADDRESS' || key === 'DISPLAY' || key === 'WAYLAND_DISPLAY' || key.startsWith('PROOFDESK_')) continue;
    if (key.startsWith('XDG_') || key.startsWith('GNOME_KEYRING')) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    // GDBus also looks for $XDG_RUNTIME_DIR/bus; an empty private one means "no session bus here".
    XDG_RUNTIME_DIR: join(home, 'run'),
  };
}

/** Runs a command, resolving with the child's `RESULT` line parsed (stderr kept for failures). */
function runChild(command: string, args: string[]): Promise<Attempt<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) {
        reject(new Error(`${command} exited ${code} without a RESULT line.\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve(JSON.parse(line.slice('RESULT '.length)) as Attempt<Record<string, unknown>>);
    });
  });
}

const nodeChild = (mode: string, service: string): string[] => ['node', ...childArgs(CHILD), mode, service, join(home, 'data')];
const uniqueService = (): string => `Proofdesk-test-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Asserts an attempt failed as SecretStoreUnavailableError, and returns its message. */
function expectUnavailable(attempt: unknown): string {
  expect(attempt).toHaveProperty('error');
  const { error } = attempt as { error: ChildError };
  expect(error.name).toBe('SecretStoreUnavailableError');
  for (const secret of CHILD_SECRETS) {
    expect(error.message).not.toContain(secret);
    expect(error.stack).not.toContain(secret);
  }
  return error.message;
}

describe('KeychainStore on a real gnome-keyring', () => {
  it('stores, reads, overwrites and deletes secrets, and openSecretStore picks the keychain', async () => {
    requireTools('dbus-run-session', 'gnome-keyring-daemon');
    const service = uniqueService();
    // dbus-daemon prints a harmless "Failed to set fd limit" on stderr when not root-limited.
    const script = `echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec ${nodeChild('present', service).map(quote).join(' ')}`;
    const result = await runChild('dbus-run-session', ['--', 'bash', '-c', script]);

    expect(result).toEqual({
      value: {
        kind: 'keychain',
        service,
        probe: 'ok',
        getMissing: null,
        afterSet: CHILD_SECRETS[0],
        afterOverwrite: CHILD_SECRETS[1],
        otherInstance: CHILD_SECRETS[1],
        deleteExisting: true,
        afterDelete: null,
        deleteMissing: false,
        openedKind: 'keychain',
        openedReadBack: CHILD_SECRETS[2],
        openedDelete: true,
        openedAfterDelete: null,
      },
    });
  });
});

describe('KeychainStore without a usable keychain', () => {
  it('without any D-Bus session: every call, and openSecretStore, fail with guidance', async () => {
    requireTools('dbus-run-session', 'gnome-keyring-daemon');
    const [command, ...args] = nodeChild('absent', uniqueService()) as [string, ...string[]];
    const result = await runChild(command, args);
    expect(result).toHaveProperty('value');
    const outcome = (result as { value: Record<string, Attempt> }).value;

    const message = expectUnavailable(outcome.open);
    expect(message).toContain('PROOFDESK_PASSPHRASE');
    expect(message).toContain('gnome-keyring');
    // keytar's own reason is kept, so the user sees what exactly is missing.
    expect(message).toMatch(/D-Bus|connect/i);
    for (const op of ['probe', 'set', 'get', 'delete'] as const) {
      expect(expectUnavailable(outcome[op])).toContain('PROOFDESK_PASSPHRASE');
    }
  });

  it('on a D-Bus session where nothing provides org.freedesktop.secrets', async () => {
    requireTools('dbus-run-session', 'gnome-keyring-daemon');
    const result = await runChild('dbus-run-session', [`--config-file=${NO_SECRET_SERVICE_BUS}`, '--', ...nodeChild('absent', uniqueService())]);
    expect(result).toHaveProperty('value');
    const outcome = (result as { value: Record<string, Attempt> }).value;

    const message = expectUnavailable(outcome.open);
    expect(message).toContain('org.freedesktop.secrets');
    expect(message).toContain('PROOFDESK_PASSPHRASE');
    expect(message).toContain('gnome-keyring');
    for (const op of ['probe', 'set', 'get', 'delete'] as const) expectUnavailable(outcome[op]);
  });

  it('with gnome-keyring running but its keyring locked: the probe passes, a write fails with guidance', async () => {
    requireTools('dbus-run-session', 'gnome-keyring-daemon');
    // The bus starts gnome-keyring on demand, but nobody unlocks (or creates) the login keyring
    // and no prompt can be shown. A read cannot tell (it finds nothing), which is why probe()
    // reads: on a desktop a write here would pop up the unlock prompt at every start.
    const result = await runChild('dbus-run-session', ['--', ...nodeChild('absent', uniqueService())]);
    expect(result).toHaveProperty('value');
    const outcome = (result as { value: Record<string, Attempt> }).value;

    expect(outcome.open).toEqual({ value: expect.objectContaining({ kind: 'keychain' }) });
    expect(outcome.probe).toEqual({ value: undefined });
    expect(outcome.get).toEqual({ value: null });
    const message = expectUnavailable(outcome.set);
    expect(message).toContain('store a secret');
    expect(message).toContain('unlock');
  });
});
