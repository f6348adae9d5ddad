/**
 * Per-Partner request limits on a live server: each Partner's requests per second and per UTC
 * day, enforced together by every node on one database, refused with 429 `too_many_requests`
 * and Retry-After in the error envelope, and advertised on every answer in the IETF RateLimit
 * fields. The nodes' clock is a ManualClock so the windows are exact.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../main/api/index.js';
import { ManualClock } from '../../main/engine/index.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, requestToken, startApiFixture, type Answer, type ApiFixture } from './api-fixture.js';

/** 2026-03-02 10:00:00.250 UTC: a quarter into a second, 14 h before the day ends. */
const START = Date.UTC(2026, 2, 2, 10, 0, 0, 250);

/** Partner A's token of each node (a node's tokens name it as their issuer). */
const tokens = new Map<RunningServer, string>();

async function callAt(server: RunningServer, api: ApiFixture): Promise<Answer> {
  let token = tokens.get(server);
  if (token === undefined) tokens.set(server, (token = (await requestToken(server.authUrl, api.a.clientId, api.a.clientSecret)).body.access_token as string));
  const response = await request(`${server.baseUrl}/credentials`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text, body: JSON.parse(text) };
}

describe('request limits on a live server', () => {
  const clock = new ManualClock(START);
  let api: ApiFixture;
  let others: RunningServer[] = [];

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false, environment: 'live', clock });
    // Two more nodes on the same database, each with its own limiter (and its own tokens).
    const node = () => startServer({ engine: api.engine, environment: 'live', clock, log: () => undefined });
    others = [await node(), await node()];
  });
  afterAll(async () => {
    for (const server of others) await server.close();
    await api?.close();
    removeTempDirs();
  });

  it('answers a Partner its limit per second, then 429 too_many_requests with Retry-After, and again in the next second', async () => {
    api.engine.partners.setRequestLimits(api.a.id, { perSecond: 5, perDay: null });
    clock.set(START + 10_000);
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await api.call('GET', '/credentials'));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0]!.headers['ratelimit-policy']).toBe('"second";q=5;w=1');
    expect(answers.slice(0, 5).map((a) => a.headers.ratelimit)).toEqual(['"second";r=4;t=1', '"second";r=3;t=1', '"second";r=2;t=1', '"second";r=1;t=1', '"second";r=0;t=1']);
    const refused = answers[5]!;
    expectError(refused, 'too_many_requests');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.error.message).toBe('Too many requests: this Partner may make 5 requests per second; try again in 1 s');
    expect(refused.body.meta).toBeDefined();
    clock.advance(1000);
    expect((await api.call('GET', '/credentials')).status).toBe(200);
  });

  it('leaves other Partners alone: no limit, no RateLimit fields', async () => {
    clock.set(START + 20_000);
    for (let i = 0; i < 5; i++) await api.call('GET', '/credentials');
    expectError(await api.call('GET', '/credentials'), 'too_many_requests');
    const b = await api.call('GET', '/credentials', { token: api.b.token });
    expect(b.status).toBe(200);
    expect(b.headers.ratelimit).toBeUndefined();
    expect(b.headers['ratelimit-policy']).toBeUndefined();
  });

  it('a refused request changes nothing', async () => {
    clock.set(START + 30_000);
    const before = (await api.call('GET', '/credentials')).body.result.total_items as number;
    for (let i = 0; i < 4; i++) await api.call('GET', '/credentials');
    expectError(await api.call('POST', '/credentials', { json: { metadata: { name: 'Ada' }, title: 'Refused' } }), 'too_many_requests');
    clock.advance(1000);
    expect((await api.call('GET', '/credentials')).body.result.total_items).toBe(before);
  });

  it('three nodes on one database together answer no more than the limit in a second', async () => {
    api.engine.partners.setRequestLimits(api.a.id, { perSecond: 20, perDay: null });
    // The nodes re-read a Partner's limits after at most 5 s.
    clock.set(START + 40_000);
    const nodes = [api.server, ...others];
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await callAt(nodes[i % 3]!, api)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    clock.advance(1000);
    const next: number[] = [];
    for (let i = 0; i < 45; i++) next.push((await callAt(nodes[i % 3]!, api)).status);
    expect(next.filter((s) => s === 200)).toHaveLength(20);
  });

  it('counts a day limit across nodes, gives back what per-second grants did not use, and says when the day ends', async () => {
    api.engine.partners.setRequestLimits(api.a.id, { perSecond: 20, perDay: 30 });
    clock.set(START + 60_000 + 86_400_000);
    const nodes = [api.server, ...others];
    let ok = 0;
    // One request a second per node: each node's grant of 2 leaves one unused every second.
    for (let second = 0; second < 12; second++) {
      for (const node of nodes) if ((await callAt(node, api)).status === 200) ok += 1;
      clock.advance(1000);
    }
    expect(ok).toBe(30);
    const refused = await callAt(api.server, api);
    expect(refused.status).toBe(429);
    expect(refused.body.error.id).toBe('too_many_requests');
    const untilMidnight = Math.ceil((Date.UTC(2026, 2, 3, 0, 0, 0) + 86_400_000 - clock.now()) / 1000);
    expect(refused.headers['retry-after']).toBe(String(untilMidnight));
    expect(refused.body.error.message).toMatch(/^Too many requests: this Partner may make 30 requests per day \(UTC\); try again in 13 h 59 min$/);
    expect(refused.headers['ratelimit-policy']).toBe('"second";q=20;w=1, "day";q=30;w=86400');
    expect(refused.headers.ratelimit).toMatch(/"day";r=0;t=\d+$/);
  });
});

describe('request limits on a demo server', () => {
  afterAll(() => removeTempDirs());

  it('has none, whatever the Partner has set (the spec: no limit on the demo environment)', async () => {
    const api = await startApiFixture({ scheduler: false, environment: 'demo' });
    try {
      api.engine.partners.setRequestLimits(api.a.id, { perSecond: 1, perDay: 1 });
      const fresh = (await requestToken(api.server.authUrl, api.a.clientId, api.a.clientSecret)).body.access_token as string;
      for (let i = 0; i < 5; i++) {
        const answer = await api.call('GET', '/credentials', { token: fresh });
        expect(answer.status).toBe(200);
        expect(answer.headers.ratelimit).toBeUndefined();
      }
    } finally {
      await api.close();
    }
  });
});
