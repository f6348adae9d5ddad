/**
 * The token flow of the remote client against the real `serve`: one token for many calls,
 * renewed before it expires, one retry with a fresh token when the server no longer accepts
 * the old one (it restarted), and a wrong secret refused as `unauthorized`. Requests are
 * counted by a dispatcher wrapped around the client's connection pool.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, type Dispatcher } from 'undici';
import { isServiceError, type ServiceError } from '../../common/errors.js';
import { startServer } from '../../main/api/server.js';
import { serveEngine, type ServedEngine, type ServedPartner } from './remote-fixture.js';

const TOKEN_PATH = '/realms/proofdesk/protocol/openid-connect/token';

/** A pooled dispatcher that records the method and path of every request it sends. */
function countingDispatcher(): { dispatcher: Dispatcher; seen: string[]; agent: Agent } {
  const seen: string[] = [];
  const agent = new Agent();
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    seen.push(`${options.method} ${options.path}`);
    return dispatch(options, handler);
  });
  return { dispatcher, seen, agent };
}

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(isServiceError(error), String(error)).toBe(true);
    return error as ServiceError;
  }
  throw new Error('Expected the call to fail');
}

describe('remote client tokens against serve', () => {
  let served: ServedEngine;
  let partner: ServedPartner;
  let counting: ReturnType<typeof countingDispatcher>;

  beforeEach(async () => {
    served = await serveEngine();
    partner = await served.addPartner('Token University');
    counting = countingDispatcher();
  });
  afterEach(async () => {
    await served.close();
    await counting.agent.close();
  });

  /** Ends every published token key now: the database forgets the tokens issued so far. */
  const forgetTokenKeys = (): void => {
    for (const key of served.engine.tokenKeys.list()) served.engine.tokenKeys.retire(key.kid, Date.now());
  };
  const tokenRequests = (): number => counting.seen.filter((s) => s === `POST ${TOKEN_PATH}`).length;
  const apiRequests = (): number => counting.seen.filter((s) => s.includes(' /api/')).length;

  it('one token request serves many calls, sequential and concurrent', async () => {
    const svc = served.remote(partner, { dispatcher: counting.dispatcher });
    const c = await svc.createCredential({ title: 'Cached', metadata: { a: 1 } });
    await Promise.all(Array.from({ length: 20 }, () => svc.getCredential(c.uid)));
    for (let i = 0; i < 10; i++) await svc.listCredentials();
    expect(tokenRequests()).toBe(1);
    expect(apiRequests()).toBe(31);
  });

  it('the token is renewed 30 s before its 300 s run out, not later and not sooner', async () => {
    let now = Date.now();
    const svc = served.remote(partner, { dispatcher: counting.dispatcher, now: () => now });
    await svc.listFiles();
    now += 269_000;
    await svc.listFiles();
    expect(tokenRequests()).toBe(1);
    now += 2_000;
    await svc.listFiles();
    expect(tokenRequests()).toBe(2);
    expect(apiRequests()).toBe(3);
  });

  it('after a restart of the server the old token is refused once, and the call succeeds with a new one', async () => {
    const svc = served.remote(partner, { dispatcher: counting.dispatcher });
    const c = await svc.createCredential({ title: 'Before restart', metadata: { a: 1 } });
    const port = Number(new URL(served.server.baseUrl).port);
    await served.server.close();
    // Same engine, same port, new signing key, and a database that no longer knows the old key (as
    // one restored from a backup taken before it was published): the old token means nothing.
    forgetTokenKeys();
    const restarted = await startServer({ engine: served.engine, environment: 'demo', port, log: () => undefined });
    try {
      counting.seen.length = 0;
      expect((await svc.getCredential(c.uid)).uid).toBe(c.uid);
      expect(counting.seen).toEqual([`GET /api/credentials/${c.uid}`, `POST ${TOKEN_PATH}`, `GET /api/credentials/${c.uid}`]);
      // And a POST with a body is replayed the same way after the next restart.
      await restarted.close();
      forgetTokenKeys();
      const again = await startServer({ engine: served.engine, environment: 'demo', port, log: () => undefined });
      try {
        counting.seen.length = 0;
        const d = await svc.createCredential({ title: 'After restart', metadata: { b: 2 } });
        expect(d.title).toBe('After restart');
        expect(counting.seen).toEqual(['POST /api/credentials', `POST ${TOKEN_PATH}`, 'POST /api/credentials']);
        expect((await svc.listCredentials()).total_items).toBe(2);
        // An upload streamed from disk is refused before its body is read, and sent again whole
        // with a new token.
        await again.close();
        forgetTokenKeys();
        const third = await startServer({ engine: served.engine, environment: 'demo', port, log: () => undefined });
        try {
          const dir = mkdtempSync(join(tmpdir(), 'proofdesk-upload-'));
          try {
            const bytes = randomBytes(8 * 1024 * 1024);
            writeFileSync(join(dir, 'big.bin'), bytes);
            counting.seen.length = 0;
            const file = await svc.uploadFile({ file: { path: join(dir, 'big.bin') } });
            expect(file.file_hash).toBe(createHash('sha256').update(bytes).digest('hex'));
            // (The refusal may be lost to the closed connection: then the upload is sent again first.)
            expect(counting.seen.filter((r) => r === `POST ${TOKEN_PATH}`)).toHaveLength(1);
            expect(counting.seen.at(-1)).toBe('POST /api/files');
            expect(counting.seen.length).toBeLessThanOrEqual(5);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        } finally {
          await third.close();
        }
      } finally {
        await again.close();
      }
    } finally {
      await restarted.close();
    }
  });

  it('a wrong secret, or an unknown client id, is unauthorized (401) and no API call is made', async () => {
    const wrong = served.remote({ clientId: partner.clientId, clientSecret: `${partner.clientSecret}x` }, { dispatcher: counting.dispatcher });
    const e = await failureOf(wrong.listFiles());
    expect({ id: e.id, status: e.status }).toEqual({ id: 'unauthorized', status: 401 });
    expect(e.message).not.toContain(partner.clientSecret);
    const stranger = served.remote({ clientId: randomUUID(), clientSecret: 'whatever' }, { dispatcher: counting.dispatcher });
    expect((await failureOf(stranger.listFiles())).id).toBe('unauthorized');
    expect(apiRequests()).toBe(0);
  });

  it('another realm\'s token endpoint is not there: not_found (404) naming the path, and no API call', async () => {
    const svc = served.remote(partner, { realm: 'elsewhere', dispatcher: counting.dispatcher });
    const e = await failureOf(svc.listFiles());
    expect(counting.seen[0]).toBe('POST /realms/elsewhere/protocol/openid-connect/token');
    expect({ id: e.id, status: e.status }).toEqual({ id: 'not_found', status: 404 });
    expect(e.message).toContain('/realms/elsewhere/');
    expect(apiRequests()).toBe(0);
  });
});
