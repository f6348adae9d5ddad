/**
 * keytar is an optional dependency: `npm ci` leaves it out where libsecret is missing. Then the
 * CLI and the app must still run, use the encrypted file when a passphrase is given, and say in
 * one sentence how to get the keychain — never a stack trace, never a secret kept unprotected.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedFileStore, SECRETS_FILE, SecretStoreUnavailableError, openSecretStore } from '../../main/secrets/index.js';
import { cliArgs } from '../cli/cli-child.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HIDE_KEYTAR = join(import.meta.dirname, 'fixtures', 'hide-keytar.mjs');

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-no-keytar-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** The error Node raises for a package that is not installed (a real one, from a real require). */
function moduleNotFound(): Error {
  try {
    createRequire(import.meta.url)('keytar/not-installed-here');
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the require to fail');
}

/** What the guidance must say: the Debian packages, the reinstall, and the passphrase way out. */
function expectGuidance(message: string): void {
  expect(message).toContain('keytar) is not installed');
  expect(message).toContain('sudo apt-get install libsecret-1-dev gnome-keyring dbus-x11');
  expect(message).toContain('npm ci');
  expect(message).toContain('PROOFDESK_PASSPHRASE');
  expect(message).not.toContain('Require stack');
  expect(message).not.toContain('\n');
}

describe('keytar not installed', () => {
  it('openSecretStore with a keytar loader injected to throw MODULE_NOT_FOUND: one sentence of guidance; with a passphrase the encrypted file, keytar never loaded', async () => {
    let loads = 0;
    const loadKeytar = async (): Promise<never> => {
      loads++;
      throw moduleNotFound();
    };
    const error = await openSecretStore({ dataDir, env: {}, loadKeytar }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expectGuidance((error as Error).message);
    expect(loads).toBe(1);
    expect(existsSync(join(dataDir, SECRETS_FILE))).toBe(false);

    const store = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'fallback passphrase' }, loadKeytar });
    expect(store).toBeInstanceOf(EncryptedFileStore);
    await store.set('a', 'b');
    expect(await store.get('a')).toBe('b');
    expect(loads).toBe(1);
  });

  it('the real CLI with keytar hidden by an --import preload that fails its resolution: says how to get the keychain once, no stack; PROOFDESK_PASSPHRASE works', async () => {
    const without = await runCli(['partner', 'add', '--name', 'Uni', '--data', dataDir], {});
    expect(without.code).toBe(3);
    expectGuidance(without.stderr.trim());
    expect(without.stderr.split('libsecret-1-dev').length - 1).toBe(1);
    expect(without.stderr).not.toMatch(/^\s+at /m);
    expect(without.stdout).toBe('');

    const withPassphrase = await runCli(['partner', 'add', '--name', 'Uni', '--data', dataDir], { PROOFDESK_PASSPHRASE: 'fallback passphrase' });
    expect(withPassphrase.stderr).toBe('');
    expect(withPassphrase.code).toBe(0);
    expect(JSON.parse(withPassphrase.stdout)).toMatchObject({ name: 'Uni' });
    expect(existsSync(join(dataDir, SECRETS_FILE))).toBe(true);
  });
});

/** The CLI (cliArgs) in a child with keytar hidden; the environment without any Proofdesk setting. */
function runCli(args: string[], extraEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('PROOFDESK_')) env[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', HIDE_KEYTAR, ...cliArgs(), ...args], {
      cwd: ROOT,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
