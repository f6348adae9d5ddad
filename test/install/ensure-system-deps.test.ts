/**
 * scripts/ensure-system-deps.sh, run by `npm test` (pretest) and .ci/run: installs the Debian
 * packages the tests need where it may, else stops at once with the exact command. Real bash,
 * real dpkg-query; the package list and the "not root" state are overridden by its test
 * variables, and the root path runs a fake apt-get (and the keytar path a fake npm): they would
 * otherwise really install.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'ensure-system-deps.sh');
const ABSENT = 'proofdesk-test-absent-package';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-deps-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', [SCRIPT], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('ensure-system-deps.sh', () => {
  it('is what npm test runs first, and what .ci/run runs before npm ci', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest).toBe('bash scripts/ensure-system-deps.sh');
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci.indexOf('scripts/ensure-system-deps.sh')).toBeGreaterThan(-1);
    expect(ci.indexOf('scripts/ensure-system-deps.sh')).toBeLessThan(ci.indexOf('\nnpm ci '));
  });

  it('with everything installed (chromium and dbus are, on this machine) it says nothing and exits 0', () => {
    const result = run({ PROOFDESK_SYSTEM_PACKAGES: 'chromium dbus' });
    expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('not root and no passwordless sudo (faked by PROOFDESK_SYSTEM_DEPS_AS_USER=1): stops at once with exit 3 and the exact command', () => {
    const result = run({ PROOFDESK_SYSTEM_PACKAGES: `chromium ${ABSENT} dbus`, PROOFDESK_SYSTEM_DEPS_AS_USER: '1' });
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`not installed: ${ABSENT}.`);
    expect(result.stderr.split('\n')).toContain(`  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${ABSENT}`);
  });

  it('as root with a fake apt-get on PATH (records its arguments instead of installing): installs exactly what is missing', () => {
    const log = join(dir, 'apt-get.log');
    writeFileSync(join(dir, 'apt-get'), `#!/bin/sh\necho "$@" >> '${log}'\n`);
    chmodSync(join(dir, 'apt-get'), 0o755);
    const result = run({ PROOFDESK_SYSTEM_PACKAGES: `chromium ${ABSENT}`, PATH: `${dir}:${process.env.PATH ?? ''}` });
    expect(process.getuid?.()).toBe(0); // the machine's state this test is about: .ci/run runs as root
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(`installing ${ABSENT}`);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['update -q', `install -y -q --no-install-recommends ${ABSENT}`]);
  });

  it('keytar left out by npm ci (hidden by the --import preload in NODE_OPTIONS), npm faked on PATH: installs the locked keytar without saving', () => {
    const log = join(dir, 'npm.log');
    writeFileSync(join(dir, 'npm'), `#!/bin/sh\necho "$@" >> '${log}'\n`);
    chmodSync(join(dir, 'npm'), 0o755);
    const hide = join(ROOT, 'test', 'secrets', 'fixtures', 'hide-keytar.mjs');
    const result = run({ PROOFDESK_SYSTEM_PACKAGES: 'chromium', PATH: `${dir}:${process.env.PATH ?? ''}`, NODE_OPTIONS: `--import ${hide}` });
    expect(result.status, result.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const version = lock.packages['node_modules/keytar']!.version;
    expect(result.stderr).toContain(`building keytar ${version}`);
    expect(readFileSync(log, 'utf8').trim()).toBe(`install --no-save --no-audit --no-fund keytar@${version}`);
  });

  it('a failing apt-get (fake, exits 100) ends with exit 1 and the command to run by hand', () => {
    writeFileSync(join(dir, 'apt-get'), '#!/bin/sh\nexit 100\n');
    chmodSync(join(dir, 'apt-get'), 0o755);
    const result = run({ PROOFDESK_SYSTEM_PACKAGES: ABSENT, PATH: `${dir}:${process.env.PATH ?? ''}` });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`install them by hand: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${ABSENT}`);
  });
});
