// The engine, the remote client and the secret stores are imported when a command needs them:
// a command loads only what it uses (`partner list` no HTTP client, `verify` no engine).
import type { IssuingService } from '../../common/issuing-service.js';
import type { SecretStore } from '../../common/secret-store.js';
import type { EmbeddedService, Engine } from '../engine/index.js';
import type { IssuingOptions } from '../engine/issuing/issuing-runtime.js';
import type { PartnerRegistry } from '../engine/partners.js';
import type { RemoteService } from '../remote/index.js';
import { userPath } from './args.js';
import { UsageError } from './cli-error.js';

/** What every command gets: where to write. */
export interface CliContext {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Asks the person at the terminal and resolves with the answer; absent when there is no terminal. */
  ask?: (question: string) => Promise<string>;
}

export interface EngineNeeds {
  /** The command uses the Partners' keys: open the keychain (or PROOFDESK_PASSPHRASE's file). */
  secrets?: boolean;
  issuing?: IssuingOptions;
  /** The command runs until stopped (`serve`, `watch`): new credentials are indexed for search in the background. */
  indexInBackground?: boolean;
  /**
   * The engine the command is about to issue on at once (`issue --now`): its chain (the local
   * one: anvil) is connected and the signer threads started as soon as the engine is open, in
   * the background, while the command reads its files and creates its credentials.
   */
  issuesOn?: string;
}

/** Opens the engine of `--data DIR` (default: the desktop app's data directory), runs, closes. */
export async function withEngine<T>(dataDir: string | undefined, run: (engine: Engine) => Promise<T>, needs: EngineNeeds = {}): Promise<T> {
  const { defaultDataDir } = await import('../engine/data-dir.js');
  const dir = dataDir ?? defaultDataDir();
  // The secret store's opening waits off the main thread (scrypt of the passphrase file, the
  // keychain's answer): started first, it runs while the engine's modules load.
  const [{ Engine }, secrets] = await Promise.all([
    import('../engine/index.js'),
    needs.secrets ? import('../secrets/index.js').then((m): Promise<SecretStore> => m.openSecretStore({ dataDir: dir })) : undefined,
  ]);
  const engine = Engine.open({ dataDir: dir, sweepIntervalMs: false, secrets, issuing: needs.issuing, indexInBackground: needs.indexInBackground, databaseUrl: process.env.PROOFDESK_DATABASE_URL });
  try {
    if (needs.issuesOn !== undefined) engine.issuing.readyToIssue(needs.issuesOn);
    engine.sweepUnusedFiles();
    return await run(engine);
  } finally {
    await engine.close();
  }
}

/**
 * Runs `run` with the Partners' table of `--data DIR` only (no chains, keys or files): what
 * `partner list | set` need, loaded in a fraction of the engine's time.
 */
export async function withPartnerRegistry<T>(dataDir: string | undefined, run: (partners: PartnerRegistry, dataDir: string) => Promise<T>): Promise<T> {
  const [{ openEngineDatabase }, { PartnerRegistry }, { systemClock }, { defaultDataDir }] = await Promise.all([
    import('../engine/store/open-engine-database.js'),
    import('../engine/partners.js'),
    import('../engine/clock.js'),
    import('../engine/data-dir.js'),
  ]);
  const dir = dataDir ?? defaultDataDir();
  const db = openEngineDatabase(dir, process.env.PROOFDESK_DATABASE_URL);
  try {
    return await run(new PartnerRegistry(db, systemClock), dir);
  } finally {
    db.close();
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

/**
 * Flags of the Partner-scoped commands: which Partner of the data directory, or a remote instance
 * of the service (the Live or Demo service, or another Proofdesk's `serve`) instead of the embedded
 * engine. The client secret is read from the environment only: secrets do not belong in shell history.
 */
export const REMOTE_OPTIONS = {
  partner: { type: 'string' },
  remote: { type: 'string' },
  'auth-url': { type: 'string' },
  'client-id': { type: 'string' },
  realm: { type: 'string' },
} as const;

export const REMOTE_ENV = {
  authUrl: 'PROOFDESK_AUTH_URL',
  clientId: 'PROOFDESK_CLIENT_ID',
  clientSecret: 'PROOFDESK_CLIENT_SECRET',
  realm: 'PROOFDESK_REALM',
} as const;

export interface PartnerFlags {
  data?: string;
  partner?: string;
  remote?: string;
  'auth-url'?: string;
  'client-id'?: string;
  realm?: string;
}

/** The RemoteService `--remote` and its auth settings (flags, else environment) describe. */
export async function remoteService(flags: PartnerFlags, env: NodeJS.ProcessEnv = process.env): Promise<RemoteService> {
  const baseUrl = flags.remote!;
  if (flags.data !== undefined || flags.partner !== undefined) {
    throw new UsageError('--data and --partner choose a Partner of the embedded engine; with --remote the client id does (--client-id)');
  }
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    throw new UsageError(`--remote takes the service's base URL, e.g. https://issuer.example/api; got ${JSON.stringify(baseUrl)}`);
  }
  const clientId = flags['client-id'] ?? env[REMOTE_ENV.clientId];
  if (!clientId) throw new UsageError(`--remote needs --client-id ID (or $${REMOTE_ENV.clientId})`);
  const clientSecret = env[REMOTE_ENV.clientSecret];
  if (!clientSecret) throw new UsageError(`--remote needs the client secret in $${REMOTE_ENV.clientSecret} (it is never taken as a flag)`);
  const [{ RemoteService }, { REALM }] = await Promise.all([import('../remote/index.js'), import('../engine/partners.js')]);
  try {
    return new RemoteService({
      baseUrl,
      authUrl: flags['auth-url'] ?? env[REMOTE_ENV.authUrl] ?? origin,
      realm: flags.realm ?? env[REMOTE_ENV.realm] ?? REALM,
      clientId,
      clientSecret,
    });
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Runs `run` with the Partner's service: a RemoteService with `--remote`, else the embedded
 * engine of `--data` and the Partner `--partner` chooses (exactly as partnerService does).
 */
export async function withPartnerService<T>(flags: PartnerFlags, run: (service: IssuingService) => Promise<T>, needs: EngineNeeds = {}): Promise<T> {
  if (flags.remote === undefined) {
    const stray = (['auth-url', 'client-id', 'realm'] as const).find((flag) => flags[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} applies only with --remote BASE_URL`);
    return withEngine(userPath(flags.data), async (engine) => run(partnerService(engine, flags.partner)), needs);
  }
  const service = await remoteService(flags);
  try {
    return await run(service);
  } finally {
    await service.close();
  }
}
