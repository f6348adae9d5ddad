/**
 * fastify validates each /api request's shape from the route's schema (main/api/request-validation.ts):
 * a JSON body that is no JSON object is `no_json`, a query parameter given twice is
 * `wrong_pagination_argument` or `invalid_value` naming it, and neither changes anything. An
 * endpoint a live server does not serve is `not_found` whatever its body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, Page } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectResult, startApiFixture, type ApiFixture } from './api-fixture.js';

const UID = '0192f1c4-7b1e-7cc0-8b6a-0123456789ab';

describe('request shapes', () => {
  let api: ApiFixture;
  let live: ApiFixture;
  let credential: Credential;

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false });
    live = await startApiFixture({ scheduler: false, environment: 'live' });
    credential = expectResult(await api.call('POST', '/credentials', { json: { title: 'T', metadata: { a: 1 }, tags: ['tag-one'] } }), 201);
  });
  afterAll(async () => {
    await api?.close();
    await live?.close();
    removeTempDirs();
  });

  async function credentialCount(): Promise<number> {
    return expectResult<Page<Credential>>(await api.call('GET', '/credentials?per_page=0'), 200).total_items;
  }

  it('answers a JSON body that is no object with no_json on every JSON endpoint, changing nothing', async () => {
    const before = await credentialCount();
    for (const [method, path] of [
      ['POST', '/credentials'],
      ['PATCH', '/credentials'],
      ['PUT', '/credentials'],
      ['PATCH', '/jobs'],
      ['PUT', '/jobs'],
      ['POST', '/credentials/schedule'],
      ['POST', '/jobs/immediate'],
    ] as const) {
      for (const json of [[{ title: 'T', metadata: { a: 1 } }], 'text', 7, null]) {
        const answer = await api.call(method, path, { json });
        expectError(answer, 'no_json');
        expect(answer.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(415);
        expect(answer.body.error.message).toBe('The request body must be a JSON object');
      }
    }
    expect(await credentialCount()).toBe(before);
    const kept = expectResult<Credential>(await api.call('GET', `/credentials/${credential.uid}`), 200);
    expect(kept.tags).toEqual(['tag-one']);
  });

  it('answers a query parameter given twice with the id of its kind, naming it', async () => {
    for (const [path, id, name] of [
      ['/credentials?per_page=1&per_page=2', 'wrong_pagination_argument', 'per_page'],
      ['/jobs?sort_by=status&sort_by=chain', 'wrong_pagination_argument', 'sort_by'],
      ['/credentials?uid=a&uid=b', 'invalid_value', 'uid'],
      [`/credentials/${credential.uid}?anything=1&anything=2`, 'invalid_value', 'anything'],
      [`/jobs/${UID}?x/y=1&x/y=2`, 'invalid_value', 'x/y'],
    ] as const) {
      const answer = await api.call('GET', path);
      expectError(answer, id);
      expect(answer.body.error.message, path).toBe(`Query parameter "${name}" is given more than once`);
    }
    // A tag filter takes a list.
    const tagged = expectResult<Page<Credential>>(await api.call('GET', '/credentials?and_tags=tag-one&and_tags=tag-one'), 200);
    expect(tagged.items.map((c) => c.uid)).toEqual([credential.uid]);
  });

  it('answers immediate issuing on a live server not_found, whatever the body', async () => {
    for (const json of [[1], { engine: 'local' }, null]) {
      expectError(await live.call('POST', '/jobs/immediate', { json }), 'not_found');
    }
  });
});
