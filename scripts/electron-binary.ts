import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Electron executable the electron package would run, or undefined when it is not there.
 * Mirrors the package's own lookup (its index.js): ELECTRON_OVERRIDE_DIST_PATH, else
 * dist/<path.txt>; path.txt is written only once the download has been unpacked.
 */
export function findElectronBinary(electronDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const pathFile = join(electronDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, executable || 'electron')
    : executable && join(electronDir, 'dist', executable);
  return binary && existsSync(binary) ? binary : undefined;
}
