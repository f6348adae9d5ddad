/**
 * A whole issuing run as a user runs it — partner add, issue FILE --now --out OUTDIR, verify —
 * writes nothing outside the data directory and the output folder: not in the directory it is
 * run from (where a stray `undefined.tmp-<pid>` chain dump once landed) and not in $HOME.
 * Real CLI child processes (cliArgs: the bundle the run built, which is what the `proofdesk` bin
 * ships; not through npx, which writes its own logs under $HOME), real anvil.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliArgs } from './cli-child.js';

let base: string;
let cwd: string;
let home: string;
let data: string;
let out: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'proofdesk-stray-'));
  for (const dir of ['cwd', 'home', 'data', 'out']) mkdtempSync(join(base, `${dir}-`));
  [cwd, home, data, out] = ['cwd', 'home', 'data', 'out'].map((dir) => join(base, readdirSync(base).find((name) => name.startsWith(`${dir}-`))!)) as [string, string, string, string];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Every path under `dir` with its size and mtime, so a rewrite shows as well as a new file. */
function listing(dir: string): string[] {
  const entries: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      const stat = statSync(path);
      entries.push(`${relative(dir, path)} ${entry.isDirectory() ? 'dir' : `${stat.size} ${stat.mtimeMs}`}`);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return entries.sort();
}

/** The CLI in a child process run from `cwd`, with HOME pointing at `home` and no XDG/Proofdesk/npm settings. */
function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // INIT_CWD is npm's (of the vitest run): the CLI would take relative paths from there.
    if (key.startsWith('PROOFDESK_') || key.startsWith('XDG_') || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliArgs(), ...args], {
      cwd,
      env: { ...env, HOME: home, PROOFDESK_PASSPHRASE: 'stray writes test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a whole issuing run from the command line', () => {
  it('writes only into --data and --out: the current directory and $HOME are unchanged', async () => {
    writeFileSync(join(cwd, 'diploma.txt'), 'Ada Lovelace, BSc Computer Science');
    const cwdBefore = listing(cwd);
    const homeBefore = listing(home);

    const added = await cli('partner', 'add', '--name', 'Stray-Free University', '--data', data);
    expect(added.code, added.stderr).toBe(0);
    const issued = await cli('issue', 'diploma.txt', '--now', '--out', out, '--data', data);
    expect(issued.code, issued.stderr).toBe(0);
    const proof = join(out, 'diploma.txt.proof.json');
    const verified = await cli('verify', proof, '--file', 'diploma.txt', '--data', data);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('Result: ok');

    expect(listing(cwd)).toEqual(cwdBefore);
    expect(listing(home)).toEqual(homeBefore);
    expect(readdirSync(out)).toEqual(['diploma.txt.proof.json']);
    expect(readdirSync(base).sort()).toEqual([cwd, data, home, out].map((dir) => relative(base, dir)).sort());
  }, 180_000); // three CLI processes and an anvil start
});
