/**
 * The engine as the desktop app runs it (the Electron window and the browser UI alike): the
 * user's data directory, keys in the OS keychain, and the scheduler issuing due jobs. Without
 * a usable keychain the app still opens, read-only for issuing, and says why.
 */
import type { Partner } from '../../common/wire-types.js';
import { Engine, defaultDataDir } from '../engine/index.js';
import { openSecretStore } from '../secrets/index.js';

export interface AppEngine {
  engine: Engine;
  partner: Partner | null;
  /** Why issuing is off, when it is. */
  issuingOff: string | null;
  /** Where the keys are kept; null when no store could be opened. */
  keyStore: 'keychain' | 'encrypted-file' | null;
}

export async function openAppEngine(dataDir: string = defaultDataDir()): Promise<AppEngine> {
  let issuingOff: string | null = null;
  const secrets = await openSecretStore({ dataDir }).catch((error: unknown) => {
    issuingOff = (error as Error).message;
    return undefined;
  });
  const engine = Engine.open({ dataDir, secrets, issuing: { scheduler: secrets !== undefined } });
  const first = engine.partners.list()[0];
  const kind = secrets?.kind;
  const keyStore = kind === 'keychain' || kind === 'encrypted-file' ? kind : null;
  return { engine, partner: first ? { id: first.id, name: first.name } : null, issuingOff, keyStore };
}
