/**
 * Several `serve` nodes on one database, as behind a load balancer: a token one node issued is
 * accepted by every other, also after the issuing node stopped (until it expires), because each
 * node publishes its key's public half in the database; the realm's key set lists every node's
 * key; a token whose `iss` is not the one its key was published with is refused.
 */
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../main/api/index.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectResult, requestToken, startApiFixture, type ApiFixture } from './api-fixture.js';

describe('access tokens across the nodes of one database', () => {
  let api: ApiFixture;
  let second: RunningServer;
  let third: RunningServer;
  const node = (keys?: Awaited<ReturnType<typeof generateKeyPair>>) => startServer({ engine: api.engine, environment: 'demo', log: () => undefined, tokenKeys: keys });

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false });
    second = await node();
    third = await node();
  });
  afterAll(async () => {
    await third?.close();
    await second?.close();
    await api?.close();
    removeTempDirs();
  });

  it('accepts on every node a token any node issued', async () => {
    const fromSecond = (await requestToken(second.authUrl, api.a.clientId, api.a.clientSecret)).body.access_token as string;
    for (const server of [api.server, second, third]) {
      expectResult(await api.raw('GET', `${server.baseUrl}/files`, { token: api.a.token }), 200);
      expectResult(await api.raw('GET', `${server.baseUrl}/files`, { token: fromSecond }), 200);
    }
    expect(decodeJwt(fromSecond).iss).toBe(`${second.authUrl}/realms/proofdesk`);
  });

  it("lists every node's key in the realm's key set", async () => {
    const kids = new Set<string>();
    for (const server of [api.server, second, third]) {
      const token = (await requestToken(server.authUrl, api.b.clientId, api.b.clientSecret)).body.access_token as string;
      kids.add(decodeProtectedHeader(token).kid!);
    }
    expect(kids.size).toBe(3);
    const set = await api.raw('GET', `${third.authUrl}/realms/proofdesk/protocol/openid-connect/certs`, { token: null });
    expect(new Set((set.body.keys as { kid: string }[]).map((k) => k.kid))).toEqual(kids);
  });

  it('keeps accepting the tokens of a node that stopped, until they expire', async () => {
    const leaving = await node();
    const token = (await requestToken(leaving.authUrl, api.a.clientId, api.a.clientSecret)).body.access_token as string;
    await leaving.close();
    expectResult(await api.raw('GET', `${second.baseUrl}/files`, { token }), 200);
  });

  it("refuses a token signed with a node's key but claiming another node as its issuer", async () => {
    const keys = await generateKeyPair('EdDSA');
    const forger = await node(keys);
    try {
      const real = (await requestToken(forger.authUrl, api.a.clientId, api.a.clientSecret)).body.access_token as string;
      const { kid } = decodeProtectedHeader(real);
      const claims = decodeJwt(real);
      const token = await new SignJWT({ azp: claims.azp, client_id: claims.client_id })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid })
        .setIssuer(`${second.authUrl}/realms/proofdesk`)
        .setAudience('proofdesk')
        .setSubject(api.a.id)
        .setIssuedAt()
        .setExpirationTime('300s')
        .sign(keys.privateKey);
      const answer = await api.raw('GET', `${third.baseUrl}/files`, { token });
      expectError(answer, 'unauthorized');
      expect(answer.body.error.message).toContain('(iss)');
    } finally {
      await forger.close();
    }
  });
});
