import type { SecretStore } from '../../common/secret-store.js';
import { Engine, defaultDataDir, type EmbeddedService } from '../engine/index.js';
import type { IssuingOptions } from '../engine/issuing/issuing-runtime.js';
import { openSecretStore } from '../secrets/index.js';
import { UsageError } from './cli-error.js';

/** What every command gets: where to write. */
export interface CliContext {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface EngineNeeds {
  /** The command uses the Partners' keys: open the keychain (or PROOFDESK_PASSPHRASE's file). */
  secrets?: boolean;
  issuing?: IssuingOptions;
}

/** Opens the engine of `--data DIR` (default: the desktop app's data directory), runs, closes. */
export async function withEngine<T>(dataDir: string | undefined, run: (engine: Engine) => Promise<T>, needs: EngineNeeds = {}): Promise<T> {
  const dir = dataDir ?? defaultDataDir();
  const secrets: SecretStore | undefined = needs.secrets ? await openSecretStore({ dataDir: dir }) : undefined;
  const engine = Engine.open({ dataDir: dir, sweepIntervalMs: false, secrets, issuing: needs.issuing });
  try {
    engine.sweepUnusedFiles();
    return await run(engine);
  } finally {
    await engine.close();
  }
}

/**
 * The service of `--partner ID|NAME`; with no flag, the only Partner there is.
 */
export function partnerService(engine: Engine, partner: string | undefined): EmbeddedService {
  if (partner !== undefined) return engine.serviceFor(engine.partners.resolve(partner).id);
  const all = engine.partners.list();
  if (all.length === 0) throw new UsageError(`No partner in ${engine.dataDir} yet: run \`npm run cli -- partner add --name NAME\` first`);
  if (all.length > 1) throw new UsageError(`${all.length} partners in ${engine.dataDir}: choose one with --partner ID|NAME (see \`partner list\`)`);
  return engine.serviceFor(all[0]!.id);
}
