/**
 * The app picks its records' backend once per connection: the embedded engine's active Partner,
 * or a remote service (a real `serve` on loopback here), and picks again when the connection or
 * the Partner changes — the Records view's calls then answer from the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../common/errors.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers, invokeIpcHandler } from '../../main/app/ipc-handlers.js';
import { REALM } from '../../main/engine/index.js';
import { RemoteService } from '../../main/remote/index.js';
import { openEngineWithPartner, type EngineFixture, type TestPartner } from '../support/engine-fixture.js';
import { serveEngine, type ServedEngine } from '../remote/remote-fixture.js';

const everything = { filter: {}, sort: { by: 'upload_date', order: 'asc' }, offset: 0, limit: 100 } as const;

describe('the records backend of a connection', () => {
  let local: EngineFixture;
  let here: TestPartner;
  let served: ServedEngine;

  beforeAll(async () => {
    ({ fixture: local, partner: here } = openEngineWithPartner());
    await here.service.createCredentials([{ title: 'Embedded diploma', metadata: { n: 1 }, tags: ['here'] }]);
    served = await serveEngine();
  });

  afterAll(async () => {
    await served?.close();
    await local?.close();
  });

  it('is the embedded engine, then the remote service once in use, then the engine again', async () => {
    const ctx = createAppContext({ engine: local.engine, partner: { id: here.id, name: here.name } });
    const handlers = createIpcHandlers(ctx);
    try {
      expect(ctx.records().kind).toBe('embedded');
      expect((await invokeIpcHandler(handlers, 'records:window', [everything])).rows.map((r) => r.title)).toEqual(['Embedded diploma']);
      expect(await invokeIpcHandler(handlers, 'records:tags', ['he', 20])).toEqual([{ tag: 'here', count: 1 }]);
      expect(await invokeIpcHandler(handlers, 'records:metadataKeys', [50])).toEqual([{ key: 'n', count: 1 }]);

      const partner = await served.addPartner('Remote University');
      // The app owns the service once in use (and closes it on the way back to the engine).
      const service = new RemoteService({ baseUrl: served.server.baseUrl, authUrl: served.server.authUrl, realm: REALM, clientId: partner.clientId, clientSecret: partner.clientSecret });
      await service.createCredential({ title: 'Remote diploma A', metadata: { n: 1 } });
      await service.createCredential({ title: 'Remote diploma B', metadata: { n: 2 } });
      await ctx.useRemote({ service, partner: { id: partner.partnerId, name: partner.name }, baseUrl: served.server.baseUrl, clientId: partner.clientId });
      expect(ctx.records().kind).toBe('remote');
      expect((await invokeIpcHandler(handlers, 'records:window', [everything])).rows.map((r) => r.title)).toEqual(['Remote diploma A', 'Remote diploma B']);
      // The spec lists no tags: a remote service suggests none.
      expect(await invokeIpcHandler(handlers, 'records:tags', ['he', 20])).toEqual([]);
      // Nor its metadata keys: the table says metadata columns are not available.
      expect(await invokeIpcHandler(handlers, 'records:metadataKeys', [50])).toBeNull();
      expect((await invokeIpcHandler(handlers, 'records:window', [everything])).rows.map((r) => r.metadata)).toEqual([{ n: '1' }, { n: '2' }]);
      expect(await invokeIpcHandler(handlers, 'records:total', [{}])).toBe(2);

      await ctx.useEmbedded();
      expect(ctx.records().kind).toBe('embedded');
      expect(await invokeIpcHandler(handlers, 'records:total', [{}])).toBe(1);
    } finally {
      ctx.close();
    }
  });

  it("follows a switch of Partner: the new Partner's records, not the old one's", async () => {
    const other = local.engine.partners.add({ name: 'Other College' });
    await local.engine.serviceFor(other.partner_id).createCredentials([{ title: 'Other diploma', metadata: { n: 1 } }]);
    const ctx = createAppContext({ engine: local.engine, partner: { id: here.id, name: here.name } });
    const handlers = createIpcHandlers(ctx);
    try {
      ctx.switchPartner(other.partner_id);
      expect((await invokeIpcHandler(handlers, 'records:window', [everything])).rows.map((r) => r.title)).toEqual(['Other diploma']);
      expect(await invokeIpcHandler(handlers, 'records:metadataKeys', [50])).toEqual([{ key: 'n', count: 1 }]);
    } finally {
      ctx.close();
    }
  });

  it('is refused with the reason when there is no Partner yet', async () => {
    const ctx = createAppContext({ engine: local.engine, partner: null });
    const refused = await invokeIpcHandler(createIpcHandlers(ctx), 'records:total', [{}]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isServiceError(refused) && refused.id).toBe('unauthorized');
    ctx.close();
  });
});
