import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../common/errors.js';
import { Engine } from '../../engine/index.js';
import { createAppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler } from '../ipc-handlers.js';

let dir: string;
let engine: Engine;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-show-in-folder-'));
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

describe('app:showInFolder', () => {
  it('shows only a path the app wrote in this session (a stand-in for Electron shell.showItemInFolder)', async () => {
    const shown: string[] = [];
    const ctx = createAppContext({ engine, partner: null, showInFolder: (path) => shown.push(path) });
    const handlers = createIpcHandlers(ctx);
    expect((await invokeIpcHandler(handlers, 'app:status', [])).canShowInFolder).toBe(true);

    expect(await errorId(invokeIpcHandler(handlers, 'app:showInFolder', ['/etc/passwd']))).toBe('invalid_value');
    ctx.written.remember(join(dir, 'records-2026-11-26.csv'));
    await invokeIpcHandler(handlers, 'app:showInFolder', [join(dir, 'records-2026-11-26.csv')]);
    expect(shown).toEqual([join(dir, 'records-2026-11-26.csv')]);
    expect(await errorId(invokeIpcHandler(handlers, 'app:showInFolder', [42]))).toBe('invalid_value');
  });

  it('is refused where there is no file manager (the browser bridge), which says so in its status', async () => {
    const ctx = createAppContext({ engine, partner: null });
    const handlers = createIpcHandlers(ctx);
    expect((await invokeIpcHandler(handlers, 'app:status', [])).canShowInFolder).toBe(false);
    ctx.written.remember(join(dir, 'a.csv'));
    expect(await errorId(invokeIpcHandler(handlers, 'app:showInFolder', [join(dir, 'a.csv')]))).toBe('invalid_value');
  });
});
