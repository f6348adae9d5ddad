/**
 * `npm start` on this machine, whose Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1):
 * a real `npm start` child says so in one line, serves the same UI through the web bridge and
 * prints its URL, which answers with the app's HTML. No display here, so no browser is opened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../scripts/electron-binary.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MISSING_LINE = "Electron's binary is not installed";

let child: ChildProcess | undefined;
let data: string | undefined;
afterEach(() => {
  // The whole group: npm, tsx and the bridge in it.
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (data) rmSync(data, { recursive: true, force: true });
});

describe('npm start without the Electron binary', () => {
  it('says so in one line, then serves the UI on 127.0.0.1 and prints a URL that answers with the app', async () => {
    const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    // This test is about this machine's state; where the binary is installed it would open a window.
    expect(findElectronBinary(electronDir), 'the Electron binary is installed here: this test needs a machine without it').toBeUndefined();

    data = mkdtempSync(join(tmpdir(), 'proofdesk-start-'));
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (key.startsWith('PROOFDESK_') || key === 'DISPLAY' || key === 'WAYLAND_DISPLAY') continue;
      env[key] = value;
    }
    child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...env, PROOFDESK_DATA: data, PROOFDESK_PASSPHRASE: 'npm start test' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        const found = /UI is at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
        if (found) resolve(found[1]!);
      });
      child!.on('exit', (code) => reject(new Error(`npm start exited (${code}) before printing a URL.\nstdout: ${stdout}\nstderr: ${stderr}`)));
    });

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<div id="root"></div>');

    const output = stdout + stderr;
    expect(output.split(MISSING_LINE).length - 1).toBe(1);
    expect(stderr).toContain(`${MISSING_LINE} (npm ci ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed): opening the same UI in your browser instead.\n`);
    expect(output).not.toMatch(/^\s+at /m);
    expect(stdout).toContain(`"data":${JSON.stringify(data)}`);
  }, 240_000); // npm start builds the three bundles first, as electron-vite preview does
});
