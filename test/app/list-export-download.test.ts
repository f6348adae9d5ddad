/**
 * The browser bridge's download of a list export over real HTTP on 127.0.0.1: the export is
 * started through `POST /ipc/listExport:start`, written by main as a task, and fetched once as an
 * attachment from `GET /download/<token>`; a second fetch, an unknown token or a page the bridge
 * did not serve get nothing. The same export runs over the IssuingService listings alone (remote
 * mode).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListExportResult } from '../../common/ipc/list-export.js';
import type { TaskInfo } from '../../common/tasks.js';
import { createAppContext, type AppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import { startWebBridge, type WebBridge } from '../../main/app/web-bridge.js';
import { addPartner, makeTempDir, openEngine, type EngineFixture } from '../support/engine-fixture.js';
import { taskEnded } from '../support/task-ended.js';

let fixture: EngineFixture;
let bridge: WebBridge;
let ctx: AppContext;
let renderer: string;
let partnerOf: { id: string; name: string };

beforeAll(async () => {
  fixture = openEngine();
  const partner = addPartner(fixture.engine, 'University A');
  await fixture.engine.serviceFor(partner.id).createCredentials(Array.from({ length: 30 }, (_, i) => ({ title: `Diploma ${i}`, metadata: { n: i }, tags: [i < 12 ? 'first-group' : 'second-group'] })));
  partnerOf = { id: partner.id, name: partner.name };
  renderer = makeTempDir('proofdesk-renderer-');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<html><head></head><body></body></html>');
  ctx = createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } });
  bridge = await startWebBridge({ handlers: createIpcHandlers(ctx), rendererDir: renderer });
});
afterAll(async () => {
  await bridge?.close();
  await fixture?.close();
});

async function exportOverHttp(over = bridge, context = ctx): Promise<ListExportResult> {
  const request = { list: 'records', format: 'csv', filter: { andTags: ['first-group'] }, sort: { by: 'title', order: 'desc' }, columns: ['title', 'uid'] };
  const response = await fetch(new URL('/ipc/listExport:start', over.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([request]) });
  expect(response.status).toBe(200);
  const task = (await response.json()) as TaskInfo<ListExportResult>;
  const done = await taskEnded(context.events, context.tasks, task.id);
  expect(done.state).toBe('done');
  return done.result as ListExportResult;
}

describe('list export download route', () => {
  it("serves a finished export once, as an attachment, to the bridge's own pages only", async () => {
    const result = await exportOverHttp();
    expect(result).toMatchObject({ rows: 12, path: null, download: expect.stringMatching(/^\/download\/[0-9a-f-]{36}$/) });
    const url = new URL(result.download!, bridge.url);

    // A page the bridge did not serve cannot take it.
    expect((await fetch(url, { headers: { origin: 'http://evil.example' } })).status).toBe(401);

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${result.fileName}"`);
    const rows = parse(Buffer.from(await response.arrayBuffer()), { bom: true }) as string[][];
    expect(rows[0]).toEqual(['title', 'uid']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(Array.from({ length: 12 }, (_, i) => `Diploma ${i}`).sort().reverse());

    // Once only; an unknown token is nothing.
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(new URL('/download/00000000-0000-4000-8000-000000000000', bridge.url))).status).toBe(404);
    expect((await fetch(new URL('/download/..%2F..%2Fetc%2Fpasswd', bridge.url))).status).toBe(404);
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(405);
  });

  it('exports through the IssuingService listings alone, as over a remote service', async () => {
    // No engine in the context: every handler takes its IssuingService path (remote mode).
    const remote = createAppContext({ partner: partnerOf, service: fixture.engine.serviceFor(partnerOf.id) });
    const remoteBridge = await startWebBridge({ handlers: createIpcHandlers(remote), rendererDir: renderer });
    try {
      const result = await exportOverHttp(remoteBridge, remote);
      expect(result.rows).toBe(12);
      const rows = parse(Buffer.from(await (await fetch(new URL(result.download!, remoteBridge.url))).arrayBuffer()), { bom: true }) as string[][];
      expect(rows.slice(1).map((r) => r[0])).toEqual(Array.from({ length: 12 }, (_, i) => `Diploma ${i}`).sort().reverse());
    } finally {
      await remoteBridge.close();
    }
  });
});
