/**
 * The encrypted keys file's passphrase typed in the app, on a machine without a keychain (keytar
 * fails to load, as where libsecret is missing) and without PROOFDESK_PASSPHRASE: the first run
 * chooses one (typed twice), a restart asks for it, a wrong one is refused with nothing changed,
 * and the passphrase is written nowhere. Real engines and a real secrets.enc.json in temp dirs.
 */
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../common/errors.js';
import { makeTempDir } from '../../../test/support/engine-fixture.js';
import { createAppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler } from '../ipc-handlers.js';
import { openAppEngine, type AppEngine } from '../open-app-engine.js';

const PASSPHRASE = 'a long keys passphrase';
const dirs: string[] = [];
const engines: AppEngine[] = [];

async function openApp(dataDir: string) {
  const opened = await openAppEngine(dataDir, { env: {}, loadKeytar: () => Promise.reject(new Error('Cannot find module keytar')) });
  engines.push(opened);
  const { engine, partner, issuingOff, keyStore, keyLock, startIssuing } = opened;
  const ctx = createAppContext({ engine, partner, issuingOff, keyStore, ...(keyLock ? { keyLock } : {}), ...(startIssuing ? { onKeysUnlocked: startIssuing } : {}) });
  return { ...opened, ctx, handlers: createIpcHandlers(ctx) };
}

async function close(opened: AppEngine): Promise<void> {
  await opened.engine.close();
}

async function refusal(promise: Promise<unknown>): Promise<{ id: string; message: string }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { id: error.id, message: error.message };
}

/** Every file under `dir`, read as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path).toString('latin1'))
    .join('\n');
}

afterEach(async () => {
  for (const opened of engines.splice(0)) await close(opened).catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the encrypted keys file without a keychain', () => {
  it('first run sets a passphrase typed twice, a restart asks for it, a wrong one changes nothing', async () => {
    const dir = makeTempDir('proofdesk-passphrase-');
    dirs.push(dir);
    const dataDir = join(dir, 'data');

    const first = await openApp(dataDir);
    let overview = await invokeIpcHandler(first.handlers, 'settings:get', []);
    expect(overview.keyLock).toBe('create');
    expect(overview.keyStoreProblem).toContain('choose a passphrase');
    // Locked: no Partner can be made yet.
    expect((await refusal(invokeIpcHandler(first.handlers, 'settings:firstRun', [{ name: 'Acme', issuingInterval: '1h' }]))).id).toBe('try_again_later');
    expect((await refusal(invokeIpcHandler(first.handlers, 'settings:createPassphrase', [PASSPHRASE, 'a long keys passphrasf']))).message).toContain('differ');
    expect((await refusal(invokeIpcHandler(first.handlers, 'settings:createPassphrase', ['short', 'short']))).message).toContain('at least 10');
    expect(readdirSync(dataDir)).not.toContain('secrets.enc.json');

    overview = await invokeIpcHandler(first.handlers, 'settings:createPassphrase', [PASSPHRASE, PASSPHRASE]);
    expect(overview).toMatchObject({ keyLock: null, keyStore: 'encrypted-file', keyStoreProblem: null });
    const made = await invokeIpcHandler(first.handlers, 'settings:firstRun', [{ name: 'Acme', issuingInterval: '1h' }]);
    const keys = await invokeIpcHandler(first.handlers, 'settings:keys', []);
    expect(keys.signingPublicKey).toMatch(/^[0-9a-f]{64}$/);
    await close(first);
    engines.splice(0);
    expect(allText(dataDir)).not.toContain(PASSPHRASE);

    // A restart: the file is there, its passphrase is asked for.
    const second = await openApp(dataDir);
    expect((await invokeIpcHandler(second.handlers, 'settings:get', [])).keyLock).toBe('unlock');
    const before = readFileSync(join(dataDir, 'secrets.enc.json'));
    const wrong = await refusal(invokeIpcHandler(second.handlers, 'settings:unlockKeys', ['not the passphrase']));
    expect(wrong).toMatchObject({ id: 'invalid_value' });
    expect(wrong.message).toContain('does not open the encrypted keys file');
    expect(readFileSync(join(dataDir, 'secrets.enc.json')).equals(before)).toBe(true);
    expect((await invokeIpcHandler(second.handlers, 'settings:get', [])).keyLock).toBe('unlock');
    expect((await refusal(invokeIpcHandler(second.handlers, 'settings:createPassphrase', [PASSPHRASE, PASSPHRASE]))).message).toContain('unlock it instead');

    overview = await invokeIpcHandler(second.handlers, 'settings:unlockKeys', [PASSPHRASE]);
    expect(overview).toMatchObject({ keyLock: null, keyStore: 'encrypted-file', keyStoreProblem: null });
    // The same keys as before the restart.
    expect((await invokeIpcHandler(second.handlers, 'settings:keys', [])).signingPublicKey).toBe(keys.signingPublicKey);
    expect(second.ctx.partner()?.id).toBe(made.partner.id);
    expect(allText(dataDir)).not.toContain(PASSPHRASE);
  }, 60_000);
});
