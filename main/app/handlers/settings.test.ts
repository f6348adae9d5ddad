/**
 * Settings handlers on a real engine in a temporary data directory (keys in a memory store):
 * the first run refuses bad input and a missing key store with what to do and makes nothing;
 * a new client secret replaces the old; a remote connection says Settings belongs to it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../common/errors.js';
import { Engine } from '../../engine/index.js';
import { MemorySecretStore } from '../../secrets/index.js';
import { makeTempDir } from '../../../test/support/engine-fixture.js';
import { createAppContext, type FileDialogRequest } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler } from '../ipc-handlers.js';
import { resumeServiceChoice } from './settings-remote.js';
import { lastBackup } from '../../workspace/settings/backup-record.js';

const open: Array<{ engine: Engine; dir: string }> = [];

function handlersFor(options: { issuingOff?: string; secrets?: boolean; chooseFile?: (request: FileDialogRequest) => Promise<string | null> } = {}) {
  const dir = makeTempDir('proofdesk-settings-');
  const engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false, secrets: options.secrets === false ? undefined : new MemorySecretStore(), issuing: { scheduler: false } });
  open.push({ engine, dir });
  const ctx = createAppContext({
    engine,
    partner: null,
    keyStore: options.issuingOff ? null : 'keychain',
    issuingOff: options.issuingOff ?? null,
    ...(options.chooseFile ? { chooseFile: options.chooseFile } : {}),
  });
  return { engine, ctx, handlers: createIpcHandlers(ctx) };
}

async function refusal(promise: Promise<unknown>): Promise<{ id: string; message: string }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { id: error.id, message: error.message };
}

afterEach(async () => {
  for (const { engine, dir } of open.splice(0)) {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('settings handlers', () => {
  it('first run: makes the Partner with its keys and makes it active', async () => {
    const { handlers, ctx, engine } = handlersFor();
    expect((await invokeIpcHandler(handlers, 'settings:get', [])).partner).toBeNull();
    const made = await invokeIpcHandler(handlers, 'settings:firstRun', [{ name: 'Acme', issuingInterval: '2h' }]);
    expect(made.partner).toMatchObject({ name: 'Acme', issuing_interval_seconds: 7200 });
    expect(made.partner.chain_address).toMatch(/^0x/);
    expect(ctx.partner()).toEqual({ id: made.partner.id, name: 'Acme' });
    expect(engine.partners.authenticate(made.client_id, made.client_secret)).toEqual({ id: made.partner.id, name: 'Acme' });
  });

  it('first run: refuses a bad interval or name with invalid_value and makes nothing', async () => {
    const { handlers, engine } = handlersFor();
    expect(await refusal(invokeIpcHandler(handlers, 'settings:firstRun', [{ name: 'Acme', issuingInterval: 'weekly' }]))).toMatchObject({ id: 'invalid_value' });
    expect(await refusal(invokeIpcHandler(handlers, 'settings:firstRun', [{ name: '', issuingInterval: '1h' }]))).toMatchObject({ id: 'invalid_value' });
    expect(await refusal(invokeIpcHandler(handlers, 'settings:firstRun', ['Acme']))).toMatchObject({ id: 'invalid_value' });
    expect(engine.partners.list()).toEqual([]);
  });

  it('an engine of the wrong shape is refused naming the field, and the engines stay as they were', async () => {
    const { handlers, engine } = handlersFor();
    const before = await invokeIpcHandler(handlers, 'settings:engines', []);
    const good = { id: 'sepolia', rpc_url: 'https://rpc.example', chain_id: 11155111, confirmations: 2, environment: 'live' };
    for (const [bad, field] of [
      [{ ...good, chain_id: '11155111' }, 'chain_id'],
      [{ ...good, confirmations: 0 }, 'confirmations'],
      [{ ...good, environment: 'prod' }, 'environment'],
      [{ ...good, rpc_url: undefined }, 'rpc_url'],
    ] as const) {
      const refused = await refusal(invokeIpcHandler(handlers, 'settings:addEngine', [bad as never]));
      expect(refused.id).toBe('invalid_value');
      expect(refused.message).toContain(`engine at ${field}`);
    }
    expect(await invokeIpcHandler(handlers, 'settings:engines', [])).toEqual(before);
    expect(existsSync(join(engine.dataDir, 'engines.json'))).toBe(false);
  });

  it('first run without a key store: says what to install or set, and makes nothing', async () => {
    const guidance = 'No OS keychain is reachable: install gnome-keyring, or set PROOFDESK_PASSPHRASE for an encrypted file.';
    const { handlers, engine } = handlersFor({ issuingOff: guidance, secrets: false });
    expect((await invokeIpcHandler(handlers, 'settings:get', [])).keyStoreProblem).toBe(guidance);
    const error = await refusal(invokeIpcHandler(handlers, 'settings:firstRun', [{ name: 'Acme', issuingInterval: '1h' }]));
    expect(error.id).toBe('try_again_later');
    expect(error.message).toContain('PROOFDESK_PASSPHRASE');
    expect(engine.partners.list()).toEqual([]);
  });

  it('a new client secret replaces the old one at once', async () => {
    const { handlers, engine } = handlersFor();
    const made = await invokeIpcHandler(handlers, 'settings:firstRun', [{ name: 'Acme', issuingInterval: '1h' }]);
    const renewed = await invokeIpcHandler(handlers, 'settings:newSecret', []);
    expect(renewed.client_id).toBe(made.client_id);
    expect(engine.partners.authenticate(made.client_id, made.client_secret)).toBeUndefined();
    expect(engine.partners.authenticate(renewed.client_id, renewed.client_secret)).toMatchObject({ name: 'Acme' });
    const updated = await invokeIpcHandler(handlers, 'settings:setInterval', ['90m']);
    expect(updated.issuing_interval_seconds).toBe(5400);
  });

  it('over a remote service: Partner and keys belong to it, said plainly', async () => {
    const ctx = createAppContext({ partner: { id: 'p', name: 'Remote' }, service: null });
    const handlers = createIpcHandlers(ctx);
    expect((await invokeIpcHandler(handlers, 'settings:get', [])).mode).toBe('remote');
    expect((await refusal(invokeIpcHandler(handlers, 'settings:keys', []))).message).toMatch(/remote service/);
  });

  it('backs up to the file main\'s save dialog names and restores through its open dialog (the OS dialogs stood in for by functions)', async () => {
    const asked: FileDialogRequest[] = [];
    let answer: string | null = null;
    const chooseFile = async (request: FileDialogRequest) => {
      asked.push(request);
      return answer;
    };
    const first = handlersFor({ chooseFile });
    const made = await invokeIpcHandler(first.handlers, 'settings:firstRun', [{ name: 'Acme University', issuingInterval: '1h' }]);
    const path = join(open[0]!.dir, 'saved.proofdesk-keys');

    // Cancelled: nothing written.
    expect(await invokeIpcHandler(first.handlers, 'settings:backupKeys', ['a long backup passphrase'])).toBeNull();
    expect(existsSync(path)).toBe(false);
    expect(asked[0]).toMatchObject({ kind: 'save', defaultName: 'Acme University.proofdesk-keys', extensions: ['proofdesk-keys'] });

    // (Read from the data directory as settings:keys reads it; settings:keys itself would start the local chain for balances.)
    expect(lastBackup(first.engine.dataDir, made.partner.id)).toBeNull();

    answer = path;
    expect(await invokeIpcHandler(first.handlers, 'settings:backupKeys', ['a long backup passphrase'])).toEqual({ path, address: made.partner.chain_address });
    expect(readFileSync(path, 'utf8')).toContain('proofdesk-key-backup');
    // Remembered once written, in the data directory (so after a restart too).
    const recorded = lastBackup(first.engine.dataDir, made.partner.id);
    expect(recorded?.path).toBe(path);
    expect(Date.parse(recorded!.at)).toBeGreaterThan(Date.now() - 60_000);

    const second = handlersFor({ chooseFile });
    const wrong = await refusal(invokeIpcHandler(second.handlers, 'settings:restoreKeys', ['not the passphrase']));
    expect(wrong.message).toContain('passphrase does not open this backup');
    expect(second.engine.partners.list()).toEqual([]);
    expect(asked.at(-1)).toMatchObject({ kind: 'open' });
    const restored = await invokeIpcHandler(second.handlers, 'settings:restoreKeys', ['a long backup passphrase']);
    expect(restored).toMatchObject({ id: made.partner.id, chain_address: made.partner.chain_address });
    expect(second.ctx.partner()?.id).toBe(made.partner.id);
  });

  it('the browser bridge: the backup comes back as a file to download and is restored from its uploaded text', async () => {
    const first = handlersFor();
    const made = await invokeIpcHandler(first.handlers, 'settings:firstRun', [{ name: 'Acme', issuingInterval: '1h' }]);
    // No dialog in main: the typed-path-free refusal says what to do instead.
    expect((await refusal(invokeIpcHandler(first.handlers, 'settings:backupKeys', ['a long backup passphrase']))).message).toContain('downloaded');
    const file = await invokeIpcHandler(first.handlers, 'settings:backupKeysFile', ['a long backup passphrase']);
    expect(file.fileName).toBe('Acme.proofdesk-keys');
    expect(file.content).not.toContain('a long backup passphrase');
    const second = handlersFor();
    const damaged = await refusal(invokeIpcHandler(second.handlers, 'settings:restoreKeysFile', ['Acme.proofdesk-keys', file.content.slice(0, 200), 'a long backup passphrase']));
    expect(damaged.message).toContain('Acme.proofdesk-keys is damaged');
    expect(second.engine.partners.list()).toEqual([]);
    const restored = await invokeIpcHandler(second.handlers, 'settings:restoreKeysFile', ['Acme.proofdesk-keys', file.content, 'a long backup passphrase']);
    expect(restored.id).toBe(made.partner.id);
  });

  it('remote connections: nothing to use before one is saved; a service that does not answer at start leaves the app on its engine and says why', async () => {
    const { handlers, ctx, engine } = handlersFor();
    expect(await refusal(invokeIpcHandler(handlers, 'settings:useRemote', []))).toMatchObject({ id: 'not_found' });
    // A connection in use when the app last ran, whose service is gone now (nothing listens on port 9).
    writeFileSync(join(engine.dataDir, 'remote.json'), JSON.stringify({ base_url: 'http://127.0.0.1:9/api', auth_url: 'http://127.0.0.1:9', client_id: 'pd-gone', active: true }));
    await engine.secretStore!.set('remote/pd-gone/client-secret', 'the secret');
    await resumeServiceChoice(ctx);
    expect(ctx.remote()).toBeNull();
    const saved = await invokeIpcHandler(handlers, 'settings:remote', []);
    expect(saved).toMatchObject({ base_url: 'http://127.0.0.1:9/api', active: false });
    expect(saved?.problem).toContain('No answer from http://127.0.0.1:9/api');
    expect(saved?.problem).not.toContain('the secret');
    const refused = await refusal(invokeIpcHandler(handlers, 'settings:useRemote', []));
    expect(refused.message).toMatch(/^Not switched: No answer from/);
    expect(ctx.remote()).toBeNull();
    // A secret missing from the key store: what to do.
    await engine.secretStore!.delete('remote/pd-gone/client-secret');
    expect((await refusal(invokeIpcHandler(handlers, 'settings:useRemote', []))).message).toContain('type it again');
  });
});
