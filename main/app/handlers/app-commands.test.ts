import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandId } from '../../../common/commands.js';
import type { AppNotification } from '../../../common/ipc/app.js';
import { isServiceError } from '../../../common/errors.js';
import { Engine } from '../../engine/index.js';
import { createAppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler } from '../ipc-handlers.js';

let dir: string;
let engine: Engine;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-app-commands-'));
  engine = Engine.open({ dataDir: dir, sweepIntervalMs: false });
});

afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function errorId(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'no error',
    (e: unknown) => (isServiceError(e) ? e.id : `not a ServiceError: ${String(e)}`),
  );
}

describe('the app slice: menu enablement and notifications', () => {
  it('hands notifications to the OS notifier (a stand-in for Electron Notification), and says where there is none', async () => {
    const shown: AppNotification[] = [];
    const desktop = createIpcHandlers(createAppContext({ engine, partner: null, notify: (n) => shown.push(n) }));
    expect(await invokeIpcHandler(desktop, 'app:notify', [{ title: 'Job finished', body: 'Job 1234abcd on local is finished.' }])).toEqual({ shown: true });
    expect(shown).toEqual([{ title: 'Job finished', body: 'Job 1234abcd on local is finished.' }]);

    const bridge = createIpcHandlers(createAppContext({ engine, partner: null }));
    expect(await invokeIpcHandler(bridge, 'app:notify', [{ title: 'Job finished', body: 'x' }])).toEqual({ shown: false });
  });

  it('refuses a notification that is not a short title and sentence, and shows nothing', async () => {
    const shown: AppNotification[] = [];
    const handlers = createIpcHandlers(createAppContext({ engine, partner: null, notify: (n) => shown.push(n) }));
    expect(await errorId(invokeIpcHandler(handlers, 'app:notify', [{ title: '', body: 'x' }]))).toBe('invalid_value');
    expect(await errorId(invokeIpcHandler(handlers, 'app:notify', [{ title: 'x'.repeat(121), body: 'x' }]))).toBe('invalid_value');
    expect(await errorId(invokeIpcHandler(handlers, 'app:notify', ['Job finished']))).toBe('invalid_value');
    expect(await errorId(invokeIpcHandler(handlers, 'app:notify', []))).toBe('invalid_value');
    expect(shown).toEqual([]);
  });

  it('passes the commands that can run to the native menu (a stand-in for Electron Menu), runs its items, and refuses ids not in the command table', async () => {
    const enabled: CommandId[][] = [];
    const ran: CommandId[] = [];
    const handlers = createIpcHandlers(createAppContext({ engine, partner: null, menu: { setEnabled: (ids) => enabled.push([...ids]), run: (id) => ran.push(id), setLocale: () => undefined } }));
    await invokeIpcHandler(handlers, 'app:commandsEnabled', [['view.jobs', 'edit.addTags']]);
    expect(enabled).toEqual([['view.jobs', 'edit.addTags']]);
    expect(await errorId(invokeIpcHandler(handlers, 'app:commandsEnabled', [['view.jobs', 'app.deleteEverything']]))).toBe('invalid_value');
    expect(await errorId(invokeIpcHandler(handlers, 'app:commandsEnabled', ['view.jobs']))).toBe('invalid_value');
    expect(enabled).toHaveLength(1);
    await invokeIpcHandler(handlers, 'app:runCommand', ['view.zoomIn']);
    expect(ran).toEqual(['view.zoomIn']);
    expect(await errorId(invokeIpcHandler(handlers, 'app:runCommand', ['view.zoomSideways']))).toBe('invalid_value');
    expect(ran).toHaveLength(1);
    const bridge = createIpcHandlers(createAppContext({ engine, partner: null }));
    expect(await errorId(invokeIpcHandler(bridge, 'app:runCommand', ['view.zoomIn']))).toBe('not_found');
    const status = await invokeIpcHandler(handlers, 'app:status', []);
    expect(status.nativeMenu).toBe(true);
    expect(status.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("hands the page's language to the native menu (a stand-in for Electron Menu), and refuses a locale the catalogue does not have", async () => {
    const locales: string[] = [];
    const handlers = createIpcHandlers(createAppContext({ engine, partner: null, menu: { setEnabled: () => undefined, run: () => undefined, setLocale: (locale) => locales.push(locale) } }));
    await invokeIpcHandler(handlers, 'app:uiLocale', ['de']);
    await invokeIpcHandler(handlers, 'app:uiLocale', ['en-XA']);
    for (const bad of [['fr'], ['DE'], [''], [42], [null], [], ['de', 'en']]) {
      expect(await errorId(invokeIpcHandler(handlers, 'app:uiLocale', bad as never)), JSON.stringify(bad)).toBe('invalid_value');
    }
    expect(locales).toEqual(['de', 'en-XA']);
    // The browser bridge has no native menu: the call is answered and changes nothing.
    const bridge = createIpcHandlers(createAppContext({ engine, partner: null }));
    await expect(invokeIpcHandler(bridge, 'app:uiLocale', ['de'])).resolves.toBeUndefined();
  });
});
