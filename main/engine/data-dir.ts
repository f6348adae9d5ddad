import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The per-user application data directory, the same one the desktop app uses
 * (Electron's userData for the product name "Proofdesk"). PROOFDESK_DATA overrides it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PROOFDESK_DATA) return env.PROOFDESK_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Proofdesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Proofdesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Proofdesk');
}
