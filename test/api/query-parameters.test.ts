/**
 * Query strings as the route schemas declare them: a bad value is refused with the spec's id
 * for that parameter, naming it, and what the schemas allow besides the obvious (empty values,
 * repeated tag filters, the short date-time forms) is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, Page } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectResult, startApiFixture, type ApiFixture } from './api-fixture.js';

describe('query parameters', () => {
  let api: ApiFixture;
  let credential: Credential;

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false });
    credential = expectResult(await api.call('POST', '/credentials', { json: { title: 'T', metadata: { a: 1 }, tags: ['tag-one'] } }), 201);
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('refuses a download format it does not know with invalid_value, and takes format=proof', async () => {
    const refused = await api.call('GET', `/certificates/${credential.uid}/download?format=pdf`);
    expectError(refused, 'invalid_value');
    expect(refused.body.error.message).toContain('format');
    expectError(await api.call('GET', `/certificates/${credential.uid}/download?format=proof`), 'missing_certificate');
  });

  it('answers a bad pagination parameter wrong_pagination_argument and a bad filter invalid_value, naming the parameter', async () => {
    for (const query of ['page=0', 'per_page=-1', 'per_page=many', 'order=up', 'sort_by=colour', 'page=1&page=2']) {
      const answer = await api.call('GET', `/credentials?${query}`);
      expectError(answer, 'wrong_pagination_argument');
      expect(answer.body.error.message, query).toContain(query.split('=')[0]);
    }
    for (const [path, query] of [
      ['/jobs', 'status=nope'],
      ['/credentials', 'uid=not-a-uid'],
      ['/certificates', 'verification_status=fine'],
      ['/credentials', 'upload_date_from=yesterday'],
    ] as const) {
      const answer = await api.call('GET', `${path}?${query}`);
      expectError(answer, 'invalid_value');
      expect(answer.body.error.message, query).toContain(query.split('=')[0]);
    }
  });

  it('passes on what the engine takes: empty values, repeated tag filters, date-times without seconds or offset', async () => {
    const page = expectResult<Page<Credential>>(await api.call('GET', '/credentials?page=&per_page=&sort_by=&order=&uid=&upload_date_from='), 200);
    expect(page.per_page).toBe(20);
    expect(page.items.map((c) => c.uid)).toContain(credential.uid);
    const tagged = expectResult<Page<Credential>>(await api.call('GET', '/credentials?or_tags=tag-one&or_tags=tag-two'), 200);
    expect(tagged.items.map((c) => c.uid)).toEqual([credential.uid]);
    for (const from of ['2000-01-31T12:00', '2000-01-31T12:00Z', '2000-01-31T12:00:00', '2000-01-31']) {
      const dated = expectResult<Page<Credential>>(await api.call('GET', `/credentials?upload_date_from=${encodeURIComponent(from)}`), 200);
      expect(dated.items.map((c) => c.uid), from).toContain(credential.uid);
    }
    // The calendar of a short form is the engine's check.
    expectError(await api.call('GET', '/credentials?upload_date_from=2026-02-31T10:00'), 'invalid_value');
  });
});
