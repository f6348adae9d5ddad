/**
 * GET /api/.../activity on a real server on loopback: each Partner sees its own entries only,
 * named by its OAuth client id; the filters and the spec's pagination and error envelope hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../common/activity.js';
import type { Credential, Page } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectResult, startApiFixture, type ApiFixture } from '../api/api-fixture.js';

describe('GET /activity (REST)', () => {
  let api: ApiFixture;
  let mine: Credential[];
  let theirs: Credential;

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false });
    mine = [];
    for (const title of ['A one', 'A two']) mine.push(expectResult(await api.call('POST', '/credentials', { json: { title, metadata: { n: title } } }), 201));
    expect((await api.call('PATCH', '/credentials', { json: { credentials: [{ credential_uid: mine[0]!.uid, tags: ['spring'] }] } })).status).toBe(200);
    theirs = expectResult(await api.call('POST', '/credentials', { token: api.b.token, json: { title: 'B one', metadata: { n: 'b' } } }), 201);
    expectResult(await api.call('POST', '/credentials/schedule', { token: api.b.token, json: { engine: 'local', credentials: [theirs.uid] } }), 201);
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  const list = async (query = '', token?: string): Promise<Page<ActivityEntry>> => expectResult(await api.call('GET', `/activity${query}`, token === undefined ? {} : { token }), 200);

  it("lists the caller's entries only, each naming the caller's client id", async () => {
    const a = await list();
    expect(a.items.map((e) => [e.kind, e.credential_uid, e.actor])).toEqual([
      ['created', mine[0]!.uid, api.a.clientId],
      ['created', mine[1]!.uid, api.a.clientId],
      ['tagged', mine[0]!.uid, api.a.clientId],
    ]);
    const b = await list('', api.b.token);
    expect(b.items.map((e) => [e.kind, e.credential_uid, e.actor, e.engine])).toEqual([
      ['created', theirs.uid, api.b.clientId, null],
      ['scheduled', theirs.uid, api.b.clientId, 'local'],
    ]);
    // Another Partner's credential is simply not there, as if unknown.
    expect((await list(`?credential_uid=${theirs.uid}`)).total_items).toBe(0);
  });

  it('filters by kind, date range and credential, and pages as the spec does', async () => {
    expect((await list('?kind=tagged')).items.map((e) => e.detail)).toEqual([{ tags: ['spring'], added: ['spring'], removed: [] }]);
    expect((await list('?kind=created,tagged&credential_uid=' + mine[0]!.uid)).items.map((e) => e.kind)).toEqual(['created', 'tagged']);
    expect((await list(`?date_from=${new Date().toISOString().slice(0, 10)}`)).total_items).toBe(3);
    expect((await list('?date_until=2001-01-01')).total_items).toBe(0);
    expect(await list('?per_page=2&page=2&order=desc')).toMatchObject({ page: 2, per_page: 2, total_pages: 2, total_items: 3, items: [{ kind: 'created', credential_uid: mine[0]!.uid }] });
  });

  it('refuses a bad date, kind or uid with 400 invalid_value and bad pagination with wrong_pagination_argument', async () => {
    for (const query of ['date_from=2026-02-31', 'date_until=yesterday', 'kind=deleted', 'credential_uid=nope', 'job_uid=1']) {
      const answer = await api.call('GET', `/activity?${query}`);
      expectError(answer, 'invalid_value');
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toContain(query.split('=')[0]);
    }
    expectError(await api.call('GET', '/activity?per_page=-1'), 'wrong_pagination_argument');
    expectError(await api.call('GET', '/activity', { token: null }), 'unauthorized');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await api.call('GET', '/openapi.json', { token: null })).body;
    const path = Object.keys(doc.paths).find((p) => p.endsWith('/activity'));
    expect(doc.paths[path!].get.operationId).toBe('listActivity');
  });
});
