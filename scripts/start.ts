/**
 * `npm start`: the desktop window when Electron's binary is installed (`electron-vite preview`,
 * which builds the bundles and opens it); where it is not (installed with
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed), one line saying so, then the same
 * UI through the web bridge (main/app/browser-ui.ts): its URL printed, and the default browser
 * opened where there is one.
 *
 * The binary is looked for without `require('electron')`: that require downloads the binary
 * when it is missing, which is exactly what cannot happen here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-binary.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ELECTRON_VITE = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite');

/** The electron package's folder, or undefined when it is not installed at all. */
function electronPackageDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
}

/** Whether `command` is an executable on PATH. */
function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/**
 * The command that opens `url` in the default browser here, or undefined. On Linux only with a
 * graphical session: without one xdg-open may start a text browser in this very terminal.
 * (Debian's /usr/bin/open is openvt, hence no `open` outside macOS.)
 */
function browserOpener(url: string): [string, string[]] | undefined {
  if (process.platform === 'darwin') return onPath('open') ? ['open', [url]] : undefined;
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return undefined;
  return onPath('xdg-open') ? ['xdg-open', [url]] : undefined;
}

/** Opens `url` in the default browser where there is one; false (never a failure) without one. */
function openInBrowser(url: string): boolean {
  const opener = browserOpener(url);
  if (!opener) return false;
  try {
    const child = spawn(opener[0], opener[1], { stdio: 'ignore', detached: true, windowsHide: true });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const electronDir = electronPackageDir();
  const binary = electronDir && findElectronBinary(electronDir);
  if (binary) {
    // Electron is there: the desktop window. Signals reach electron-vite through the shared process group.
    const child = spawn(ELECTRON_VITE, ['preview', ...args], { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
    return;
  }

  console.error(
    'Electron\'s binary is not installed (npm ci ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed): opening the same UI in your browser instead.',
  );
  const build = spawnSync(ELECTRON_VITE, ['build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The build failed (see above); fix it and run npm start again.');
    process.exit(1);
  }
  // browser-ui reads its own flags (--data, --port) from process.argv, as `npm run ui:browser` does.
  const { url } = await import('../main/app/browser-ui.js');
  const opened = openInBrowser(url);
  console.log(`Proofdesk's UI is at ${url}${opened ? ' (opening it in your browser)' : ': open it in a browser'}; Ctrl-C stops it.`);
}

await main();
