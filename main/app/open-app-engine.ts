/**
 * The engine as the desktop app runs it (the Electron window and the browser UI alike): the
 * user's data directory, keys in the OS keychain, and the scheduler issuing due jobs. Without
 * a usable keychain the app still opens, read-only for issuing, and says why.
 */
import type { Partner } from '../../common/wire-types.js';
import { Engine, defaultDataDir } from '../engine/index.js';
import { PASSPHRASE_ENV, PASSPHRASE_FILE_ENV, SECRET_STORE_ENV, openSecretStore, type OpenSecretStoreOptions } from '../secrets/index.js';
import { UnlockableSecretStore } from '../workspace/settings/unlockable-store.js';

const ISSUING_TICK_MS = 1_000;

export interface AppEngine {
  engine: Engine;
  partner: Partner | null;
  /** Why issuing is off, when it is. */
  issuingOff: string | null;
  /** Where the keys are kept; null when no store could be opened. */
  keyStore: 'keychain' | 'encrypted-file' | null;
  /** Set when the keys wait for a passphrase typed in the app (no keychain, no PROOFDESK_PASSPHRASE). */
  keyLock?: UnlockableSecretStore;
  /** Starts issuing once the locked key store is open. */
  startIssuing?: () => void;
}

export interface OpenAppEngineOptions {
  /** Where PROOFDESK_PASSPHRASE and PROOFDESK_SECRET_STORE are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Loads keytar (tests simulate a machine without a keychain). */
  loadKeytar?: OpenSecretStoreOptions['loadKeytar'];
}

export async function openAppEngine(dataDir: string = defaultDataDir(), options: OpenAppEngineOptions = {}): Promise<AppEngine> {
  const env = options.env ?? process.env;
  let issuingOff: string | null = null;
  let keyLock: UnlockableSecretStore | undefined;
  const secrets = await openSecretStore({ dataDir, env, ...(options.loadKeytar ? { loadKeytar: options.loadKeytar } : {}) }).catch((error: unknown) => {
    // No keychain and no passphrase in the environment: the app asks for the passphrase of the
    // encrypted keys file (or, on a first run, for a new one) instead of giving up on issuing.
    if (!env[PASSPHRASE_ENV] && !env[PASSPHRASE_FILE_ENV] && !env[SECRET_STORE_ENV]) {
      keyLock = new UnlockableSecretStore(dataDir);
      issuingOff =
        keyLock.lockState() === 'unlock'
          ? 'The keys are in the encrypted file of the data directory: type its passphrase to unlock them.'
          : `${(error as Error).message} Or choose a passphrase for an encrypted keys file in Proofdesk.`;
      return keyLock;
    }
    issuingOff = (error as Error).message;
    return undefined;
  });
  const engine = Engine.open({ dataDir, secrets, issuing: { scheduler: secrets !== undefined && !keyLock }, indexInBackground: true });
  const first = engine.partners.list()[0];
  const kind = secrets?.kind;
  const keyStore = keyLock ? null : kind === 'keychain' || kind === 'encrypted-file' ? kind : null;
  const result: AppEngine = { engine, partner: first ? { id: first.id, name: first.name } : null, issuingOff, keyStore };
  if (keyLock) {
    result.keyLock = keyLock;
    // The scheduler was not started locked (it would fail to sign): it starts once the keys are
    // unlocked, taking the issuing lease then (or once another process holding it goes), and stops with the engine.
    result.startIssuing = () => {
      if (!engine.issuing.startScheduler(ISSUING_TICK_MS)) {
        process.stderr.write('proofdesk issuing: another Proofdesk process issues for this data directory; this one takes over when it stops\n');
      }
    };
  }
  return result;
}