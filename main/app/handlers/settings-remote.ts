/**
 * Handlers of Settings › Remote connections: test a remote instance of the service (a token, then
 * its engines) and keep the connection: base URL, auth URL, client id and whether it is in use in
 * DATA/remote.json, the client secret in the key store (never in a file, a log, or sent back to
 * the window). "Use this connection" switches every view to it (AppContext.useRemote).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError, isServiceError } from '../../../common/errors.js';
import type { RemoteConnection, RemoteConnectionInput, SETTINGS_REMOTE_IPC } from '../../../common/ipc/settings.js';
import { REALM } from '../../engine/index.js';
import { RemoteService } from '../../remote/index.js';
import { writeFileAtomic } from '../../secrets/encrypted-file-store.js';
import type { Partner } from '../../../common/wire-types.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

export const REMOTE_FILE = 'remote.json';
const TEST_TIMEOUT_MS = 5_000;
/** Each call's wait in remote mode (an answer's headers, or between two chunks of its body). */
const WORK_TIMEOUT_MS = 30_000;
const secretAccount = (clientId: string) => `remote/${clientId}/client-secret`;

function toConnection(input: RemoteConnectionInput): RemoteConnection {
  let origin: string;
  try {
    origin = new URL(input.base_url).origin;
  } catch {
    throw new ServiceError('invalid_value', `${input.base_url} is not a URL: a base URL looks like https://issuer.example/api.`);
  }
  return { base_url: input.base_url, auth_url: input.auth_url ?? origin, client_id: input.client_id };
}

/** The service at a connection, with the secret; plain http is accepted for loopback only. */
function openRemote(connection: RemoteConnection, secret: string, quick: boolean): RemoteService {
  return new RemoteService({
    baseUrl: connection.base_url,
    authUrl: connection.auth_url,
    realm: REALM,
    clientId: connection.client_id,
    clientSecret: secret,
    ...(quick ? { timeoutMs: TEST_TIMEOUT_MS, tries: 1 } : { timeoutMs: WORK_TIMEOUT_MS }),
  });
}

/** A sentence for what went wrong talking to a service. */
function why(connection: RemoteConnection, error: unknown): string {
  if (isServiceError(error) && error.id === 'unauthorized') {
    return `The service at ${connection.base_url} refused the client id and secret: check both (a new secret replaces the old one).`;
  }
  const reason = isServiceError(error) ? error.message : error instanceof Error ? error.message : String(error);
  return `No answer from ${connection.base_url} (${reason}): check the base URL and your network.`;
}

/** Asks the service for a token and its engines; a sentence either way. */
export async function testRemote(input: RemoteConnectionInput): Promise<{ ok: boolean; message: string }> {
  const connection = toConnection(input);
  let service: RemoteService;
  try {
    service = openRemote(connection, input.client_secret, true);
  } catch (error) {
    return { ok: false, message: `${error instanceof Error ? error.message : String(error)}.` };
  }
  try {
    const engines = await service.listEngines();
    return { ok: true, message: `Connected to ${connection.base_url} as ${connection.client_id}: engines ${engines.map((e) => e.id).join(', ')}.` };
  } catch (error) {
    return { ok: false, message: why(connection, error) };
  } finally {
    await service.close();
  }
}

/** The connection kept in DATA/remote.json, or null. */
async function readSaved(dataDir: string): Promise<RemoteConnection | null> {
  const text = await readFile(join(dataDir, REMOTE_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const saved = JSON.parse(text) as RemoteConnection;
    if (typeof saved.base_url !== 'string' || typeof saved.auth_url !== 'string' || typeof saved.client_id !== 'string') return null;
    return { base_url: saved.base_url, auth_url: saved.auth_url, client_id: saved.client_id, active: saved.active === true };
  } catch {
    return null;
  }
}

async function writeSaved(dataDir: string, connection: RemoteConnection): Promise<void> {
  const { base_url, auth_url, client_id, active } = connection;
  try {
    await writeFileAtomic(join(dataDir, REMOTE_FILE), `${JSON.stringify({ base_url, auth_url, client_id, active: active === true }, null, 2)}\n`);
  } catch {
    throw new ServiceError('try_again_later', `${REMOTE_FILE} cannot be written in the data directory; check the disk, then try again.`);
  }
}

/**
 * Opens the saved connection with its secret from the key store, checks that the service
 * answers and accepts the client, and makes the context use it. Throws a sentence (nothing
 * changed) otherwise. The Partner's name comes from its jobs when it has any (the spec has no
 * "who am I"), else the client id stands for it.
 */
async function useConnection(ctx: AppContext, connection: RemoteConnection): Promise<void> {
  const store = ctx.embedded?.secretStore;
  if (!store) throw new ServiceError('try_again_later', `The client secret is kept in the key store, which is not open. ${ctx.issuingOff ?? ''}`.trim());
  const secret = await store.get(secretAccount(connection.client_id));
  if (!secret) throw new ServiceError('not_found', `The client secret of ${connection.client_id} is not in this machine's key store: type it again in Settings › Remote connections and save.`);
  const service = openRemote(connection, secret, false);
  const probe = openRemote(connection, secret, true);
  let partner: Partner;
  try {
    await probe.listEngines();
    const jobs = await probe.listJobs({ per_page: 1 });
    partner = jobs.items[0]?.partner ?? { id: connection.client_id, name: connection.client_id };
  } catch (error) {
    await service.close();
    throw new ServiceError('invalid_value', `Not switched: ${why(connection, error)}`);
  } finally {
    await probe.close();
  }
  await ctx.useRemote({ service, partner, baseUrl: connection.base_url, clientId: connection.client_id });
}

/**
 * At start: when the saved connection was in use, use it again. A service that does not answer
 * leaves the app on its own engine, and Settings › Remote connections says why.
 */
export async function resumeServiceChoice(ctx: AppContext): Promise<void> {
  const dataDir = ctx.embedded?.dataDir;
  const saved = dataDir ? await readSaved(dataDir) : null;
  if (!saved?.active) return;
  try {
    await useConnection(ctx, saved);
  } catch (error) {
    ctx.remoteStartProblem = `At start the app could not use ${saved.base_url}, so it works on this machine's engine: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function createSettingsRemoteHandlers(ctx: AppContext): HandlersOf<typeof SETTINGS_REMOTE_IPC> {
  const dataDir = () => {
    if (!ctx.embedded) throw new ServiceError('not_found', 'This app has no data directory of its own to keep a connection in.');
    return ctx.embedded.dataDir;
  };
  return {
    'settings:remote': async () => {
      const saved = await readSaved(dataDir());
      if (!saved) return null;
      const problem = ctx.remoteStartProblem;
      return { ...saved, active: ctx.remote() !== null && ctx.remote()?.baseUrl === saved.base_url, ...(problem ? { problem } : {}) };
    },
    'settings:testRemote': async (input) => testRemote(input),
    'settings:saveRemote': async (input) => {
      const connection = toConnection(input);
      const store = ctx.embedded?.secretStore;
      if (!store || ctx.issuingOff) throw new ServiceError('try_again_later', `The client secret needs the key store, which is not open. ${ctx.issuingOff ?? ''}`.trim());
      const tested = await testRemote(input);
      if (!tested.ok) throw new ServiceError('invalid_value', `Not saved: ${tested.message}`);
      await store.set(secretAccount(connection.client_id), input.client_secret);
      // A new connection is not in use until "Use this connection".
      await writeSaved(dataDir(), { ...connection, active: false });
      if (ctx.remote()) await ctx.useEmbedded();
      return { ...connection, active: false };
    },
    'settings:useRemote': async () => {
      const saved = await readSaved(dataDir());
      if (!saved) throw new ServiceError('not_found', 'There is no saved connection yet: test and save one first.');
      await useConnection(ctx, saved);
      ctx.remoteStartProblem = null;
      await writeSaved(dataDir(), { ...saved, active: true });
      return { ...saved, active: true };
    },
    'settings:useEmbedded': async () => {
      const saved = await readSaved(dataDir());
      if (saved) await writeSaved(dataDir(), { ...saved, active: false });
      ctx.remoteStartProblem = null;
      await ctx.useEmbedded();
      return null;
    },
  };
}
