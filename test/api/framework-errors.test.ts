/**
 * What the router itself refuses (before any route, hook or token check runs) still comes back
 * in the error envelope with an id of the error table and a status the OpenAPI document lists
 * for the operation: a path parameter longer than the router takes, a path that is not valid
 * percent-encoding, a method the path does not serve. The walk covers every operation of the
 * published document, with and without a token, and the answer never echoes what was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, isErrorId } from '../../common/errors.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectMeta, startApiFixture, type Answer, type ApiFixture, type Json } from './api-fixture.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const LONG = 'a'.repeat(501);
const BAD_ENCODING = '%E0%A4%A';

interface Operation {
  method: string;
  /** OpenAPI path (`/credentials/{uid}`). */
  path: string;
  /** Absolute URL prefix the path is relative to. */
  base: string;
  op: Json;
  /** Every method the path serves. */
  siblings: string[];
  /** The documented statuses of every operation of the path. */
  pathStatuses: Set<string>;
}

function operationsOf(doc: Json): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const base = (item.servers?.[0]?.url ?? doc.servers[0].url) as string;
    const siblings = METHODS.filter((m) => item[m]);
    const pathStatuses = new Set(siblings.flatMap((m) => Object.keys(item[m].responses)));
    for (const method of siblings) list.push({ method: method.toUpperCase(), path, base, op: item[method], siblings, pathStatuses });
  }
  return list;
}

/** The path with each parameter replaced (`fill` of its name), or with text appended to the last segment. */
function urlOf(o: Operation, fill: (name: string) => string): string {
  return o.base + o.path.replace(/\{([^}]+)\}/g, (_, name: string) => fill(name));
}

function templateOf(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
}

/** The envelope, an id of the table with its status, and nothing of the request in the message. */
function expectEnvelope(answer: Answer, where: string, statuses: Set<string>): void {
  expect(answer.headers['content-type'], `${where}: ${answer.text}`).toMatch(/^application\/json/);
  expect(Object.keys(answer.body ?? {}).sort(), `${where}: ${answer.text}`).toEqual(['error', 'meta']);
  const { id, message } = answer.body.error as { id: string; message: string };
  expect(isErrorId(id) && ERROR_STATUS[id], `${where}: ${answer.text}`).toBe(answer.status);
  expect(Object.keys(answer.body.error).sort()).toEqual(['id', 'message']);
  expect(message, where).toMatch(/^[A-Z]/);
  expect(message, where).not.toContain('aaaaaaaaaa');
  expect(message, where).not.toContain(BAD_ENCODING);
  expect(message, where).not.toMatch(/FST_|statusCode/);
  expect(answer.text, where).not.toMatch(/FST_/);
  expectMeta(answer.body.meta);
  expect([...statuses], `${where}: status ${answer.status} is not documented`).toContain(String(answer.status));
}

describe('errors the router answers, on every operation of the OpenAPI document', () => {
  let api: ApiFixture;
  let operations: Operation[];

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false });
    const doc = (await api.call('GET', '/openapi.json', { token: null })).body;
    operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThanOrEqual(28);
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('answers a path parameter of 501 characters in the envelope with a documented status', async () => {
    let probed = 0;
    for (const o of operations) {
      if (!o.path.includes('{')) continue;
      const statuses = new Set(Object.keys(o.op.responses));
      for (const token of [undefined, null]) {
        // Each parameter in turn is the long one; the others are ordinary values.
        for (const [param] of o.path.matchAll(/\{([^}]+)\}/g)) {
          const url = urlOf(o, (name) => (`{${name}}` === param ? LONG : 'x'));
          const answer = await api.raw(o.method, url, { token });
          expectEnvelope(answer, `${o.method} ${o.path} long ${param} (token: ${token === null ? 'none' : 'A'})`, statuses);
          probed += 1;
        }
      }
    }
    expect(probed).toBeGreaterThan(20);
  });

  it('answers a path that is not valid percent-encoding in the envelope with a documented status', async () => {
    for (const o of operations) {
      const statuses = new Set(Object.keys(o.op.responses));
      const urls = o.path.includes('{') ? [urlOf(o, () => `x${BAD_ENCODING}`)] : [];
      urls.push(`${urlOf(o, () => 'x')}${BAD_ENCODING}`);
      for (const url of urls) {
        for (const token of [undefined, null]) {
          const answer = await api.raw(o.method, url, { token });
          expectEnvelope(answer, `${o.method} ${url} (token: ${token === null ? 'none' : 'A'})`, statuses);
        }
      }
    }
  });

  it('answers a method the path does not serve with 405 method_not_allowed, documented, and an Allow header', async () => {
    for (const o of operations) {
      const url = urlOf(o, () => 'x');
      // A method another path template serves at this URL (GET /credentials/schedule is GET /credentials/{uid}) is skipped.
      const servedElsewhere = (m: string) => operations.some((other) => other.method === m.toUpperCase() && templateOf(other.path).test(url.slice(other.base.length)));
      for (const method of METHODS.filter((m) => !o.siblings.includes(m) && !servedElsewhere(m))) {
        for (const token of [undefined, null]) {
          const answer = await api.raw(method.toUpperCase(), url, { token });
          const where = `${method.toUpperCase()} ${o.path}`;
          expect(answer.body?.error?.id, `${where}: ${answer.text}`).toBe('method_not_allowed');
          expectEnvelope(answer, where, new Set(Object.keys(o.op.responses)));
          const allow = String(answer.headers.allow).split(/,\s*/);
          for (const served of o.siblings) expect(allow, where).toContain(served.toUpperCase());
        }
      }
      expect(o.pathStatuses.has('405'), `${o.path} documents 405`).toBe(true);
    }
  });
});
