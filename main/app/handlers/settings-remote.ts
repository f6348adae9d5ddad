/**
 * Handlers of Settings › Remote connections: test a remote instance of the service (a token, then
 * its engines) and keep the connection: base URL, auth URL and client id in DATA/remote.json, the
 * client secret in the key store (never in a file, never sent back to the window).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError, isServiceError } from '../../../common/errors.js';
import type { RemoteConnection, RemoteConnectionInput, SettingsRemoteIpc } from '../../../common/ipc/settings.js';
import { REALM } from '../../engine/index.js';
import { RemoteService } from '../../remote/index.js';
import { writeFileAtomic } from '../../secrets/encrypted-file-store.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

export const REMOTE_FILE = 'remote.json';
const TEST_TIMEOUT_MS = 5_000;
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

/** Asks the service for a token and its engines; a sentence either way. */
export async function testRemote(input: RemoteConnectionInput): Promise<{ ok: boolean; message: string }> {
  const connection = toConnection(input);
  let service: RemoteService;
  try {
    service = new RemoteService({
      baseUrl: connection.base_url,
      authUrl: connection.auth_url,
      realm: REALM,
      clientId: connection.client_id,
      clientSecret: input.client_secret,
      timeoutMs: TEST_TIMEOUT_MS,
      tries: 1,
    });
  } catch (error) {
    return { ok: false, message: `${error instanceof Error ? error.message : String(error)}.` };
  }
  try {
    const engines = await service.listEngines();
    return { ok: true, message: `Connected to ${connection.base_url} as ${connection.client_id}: engines ${engines.map((e) => e.id).join(', ')}.` };
  } catch (error) {
    if (isServiceError(error) && error.id === 'unauthorized') {
      return { ok: false, message: `The service at ${connection.base_url} refused the client id and secret: check both (a new secret replaces the old one).` };
    }
    const why = isServiceError(error) ? error.message : error instanceof Error ? error.message : String(error);
    return { ok: false, message: `No answer from ${connection.base_url} (${why}): check the base URL and your network.` };
  } finally {
    await service.close();
  }
}

export function createSettingsRemoteHandlers(ctx: AppContext): HandlersOf<SettingsRemoteIpc> {
  const engine = () => {
    if (!ctx.engine) throw new ServiceError('not_found', 'This app is already connected to a remote service.');
    return ctx.engine;
  };
  return {
    'settings:remote': async () => {
      const text = await readFile(join(engine().dataDir, REMOTE_FILE), 'utf8').catch(() => null);
      if (text === null) return null;
      try {
        const saved = JSON.parse(text) as RemoteConnection;
        return { base_url: saved.base_url, auth_url: saved.auth_url, client_id: saved.client_id };
      } catch {
        return null;
      }
    },
    'settings:testRemote': async (input) => testRemote(input),
    'settings:saveRemote': async (input) => {
      const connection = toConnection(input);
      const store = engine().secretStore;
      if (!store || ctx.issuingOff) throw new ServiceError('try_again_later', `The client secret needs the key store, which is not open. ${ctx.issuingOff ?? ''}`.trim());
      const tested = await testRemote(input);
      if (!tested.ok) throw new ServiceError('invalid_value', `Not saved: ${tested.message}`);
      await store.set(secretAccount(connection.client_id), input.client_secret);
      try {
        await writeFileAtomic(join(engine().dataDir, REMOTE_FILE), `${JSON.stringify(connection, null, 2)}\n`);
      } catch {
        throw new ServiceError('try_again_later', `${REMOTE_FILE} cannot be written in the data directory; check the disk, then try again.`);
      }
      return connection;
    },
  };
}
