/**
 * Honest errors and exits, with real child processes: a reader that goes away
 * (`| head -3`), no keychain, a full disk (/dev/full), an unknown subcommand.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../support/cli-in-process.js';
import { offlineProof } from '../proofs/proof-fixture.js';
import { REPO, cliArgs, runCliChild, runCliIntoHead } from './cli-child.js';

const PASS = 'cli errors tests';
process.env.PROOFDESK_PASSPHRASE = PASS;

let data: string;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'proofdesk-cli-errors-'));
  expect((await cli('partner', 'add', '--name', 'Uni', '--data', data)).code).toBe(0);
  for (let i = 0; i < 60; i++) expect((await cli('credential', 'create', '--title', `Diploma ${i}`, '--meta', `n=${i}`, '--data', data)).code).toBe(0);
}, 120_000);
afterAll(() => rmSync(data, { recursive: true, force: true }));

describe('honest errors and exits', () => {
  it('credential list | head -3 does not crash with EPIPE', async () => {
    const head = await runCliIntoHead(['credential', 'list', '--per-page', '60', '--data', data], 3, { PROOFDESK_PASSPHRASE: PASS });
    expect(head.out.split('\n').filter(Boolean)).toHaveLength(3);
    expect(head.err).toBe('');
    expect(head.code).toBe(0);
    // A reader gone before the first line: the same, deterministically.
    const child = spawn(process.execPath, [...cliArgs(), 'credential', 'list', '--per-page', '60', '--data', data], {
      cwd: REPO,
      env: { ...process.env, PROOFDESK_PASSPHRASE: PASS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('without a keychain: one clear message and exit 3, no "Unexpected error", no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proofdesk-no-keychain-'));
    try {
      const env = { PROOFDESK_PASSPHRASE: '', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', XDG_RUNTIME_DIR: join(dir, 'run') };
      const result = await runCliChild(['partner', 'add', '--name', 'Uni', '--data', join(dir, 'data')], env);
      expect(result.err).toMatch(/^The Partners' keys cannot be opened: .*PROOFDESK_PASSPHRASE/);
      expect(result.err).not.toMatch(/Unexpected error|\n\s+at /);
      expect(result.code).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a full disk (the report written to /dev/full) is one message and exit 3', async () => {
    const proofs = join(data, 'proofs');
    mkdirSync(proofs, { recursive: true });
    writeFileSync(join(proofs, 'a.json'), JSON.stringify(offlineProof()));
    const result = await runCliChild(['verify', proofs, '--offline', '--report', '/dev/full', '--data', data], { PROOFDESK_PASSPHRASE: PASS });
    expect(result.err.trim()).toBe('The disk is full (/dev/full): free some space and run the command again; nothing was lost (ENOSPC).');
    expect(result.code).toBe(3);
  }, 60_000);

  it('an error thrown outside a command (a timer) is still one sentence and an exit code, not a stack dump', async () => {
    // A module loaded before the CLI that throws a full-disk error from a timer while `serve` runs.
    const preload = join(data, 'throw-later.mjs');
    writeFileSync(preload, "setTimeout(() => { throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/full/disk' }); }, 4000);\n");
    const child = spawn(process.execPath, ['--import', preload, ...cliArgs(), 'serve', '--port', '0', '--data', data], {
      cwd: REPO,
      env: { ...process.env, PROOFDESK_PASSPHRASE: PASS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(err.trim().split('\n').at(-1)).toBe('The disk is full (/full/disk): free some space and run the command again; nothing was lost (ENOSPC).');
    expect(err).not.toMatch(/\n\s+at /);
    expect(code).toBe(3);
  }, 60_000);

  it('an unknown subcommand says so instead of a Partner-selection error', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'proofdesk-unknown-'));
    try {
      for (const command of ['credential', 'jobs', 'partner']) {
        const result = await cli(command, 'frobnicate', '--data', empty);
        expect(result.code).toBe(2);
        expect(result.err).toContain(`Unknown ${command} command "frobnicate"`);
        expect(result.err).not.toContain('partner add --name NAME` first');
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
