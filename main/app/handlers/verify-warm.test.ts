/**
 * `verify:warm` (files dragged over the window): main starts the proof-checking workers the drop
 * will use, before the drop. Through the app's real handlers and contract validation, with no
 * engine (warming needs none).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { borrowOfflinePool, offlinePoolRunning } from '../../engine/proofs/verify-offline-pool.js';
import { createAppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler } from '../ipc-handlers.js';

afterAll(async () => {
  const shared = borrowOfflinePool();
  shared.release();
  await shared.pool.close();
});

describe('verify:warm', () => {
  it('starts the shared proof-checking workers (and takes no arguments)', async () => {
    const handlers = createIpcHandlers(createAppContext({ partner: null }));
    expect(offlinePoolRunning()).toBe(false);
    await expect(invokeIpcHandler(handlers, 'verify:warm', [])).resolves.toBeNull();
    expect(offlinePoolRunning()).toBe(true);
    await expect(invokeIpcHandler(handlers, 'verify:warm', ['extra'])).rejects.toMatchObject({ id: 'invalid_value' });
  });
});
