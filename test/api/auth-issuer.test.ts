/**
 * `serve --auth-issuer URL`: the server trusts an external OpenID provider's tokens instead of
 * its own. The provider here is a small one on loopback (discovery document and an RS256 JWKS,
 * as Keycloak publishes them); its tokens are minted in the test. A token names its client
 * (`azp`, `client_id` or `sub`), which picks the Partner with that client_id.
 */
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../main/api/index.js';
import { openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';
import { expectError, expectResult, requestToken, type Answer } from './api-fixture.js';
import { request } from 'undici';

interface Provider {
  issuer: string;
  origin: string;
  privateKey: CryptoKey;
  /** How often the key set was fetched. */
  jwksFetches: number;
  close(): Promise<void>;
}

async function startProvider(): Promise<Provider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const provider = { jwksFetches: 0 } as Provider;
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/realms/campus/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/protocol/openid-connect/certs`, token_endpoint: `${issuer}/protocol/openid-connect/token` }));
    } else if (req.url === '/realms/campus/protocol/openid-connect/certs') {
      provider.jwksFetches += 1;
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = `${origin}/realms/campus`;
  return Object.assign(provider, { issuer, origin, privateKey, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

describe('--auth-issuer: tokens of an external OpenID provider', () => {
  let provider: Provider;
  let fx: IssuingFixture;
  let server: RunningServer;
  let partner: { partner_id: string; client_id: string; client_secret: string };
  let uid: string;

  function mint(claims: Record<string, unknown>, options: { alg?: string; key?: CryptoKey | Uint8Array; expiresIn?: number; aud?: string; iss?: string } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: 'key-1', typ: 'JWT' })
      .setIssuer(options.iss ?? provider.issuer)
      .setAudience(options.aud ?? 'proofdesk')
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 300))
      .sign(options.key ?? provider.privateKey);
  }

  async function get(path: string, token: string): Promise<Answer> {
    const response = await request(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text, body: JSON.parse(text) };
  }

  beforeAll(async () => {
    provider = await startProvider();
    fx = openIssuingEngine();
    partner = fx.engine.partners.add({ name: 'Campus Partner' });
    uid = (await fx.engine.serviceFor(partner.partner_id).createCredential({ title: 'Mine', metadata: { a: 1 } })).uid;
    server = await startServer({ engine: fx.engine, environment: 'demo', authIssuer: provider.issuer, log: () => undefined });
  });
  afterAll(async () => {
    await server?.close();
    await fx?.close();
    await provider?.close();
    removeTempDirs();
  });

  it("gives the provider's address as auth_url, and has no token endpoint of its own", async () => {
    expect(server.authUrl).toBe(provider.origin);
    const answer = await requestToken(server.baseUrl.replace(/\/api$/, ''), partner.client_id, partner.client_secret);
    expectError(answer, 'not_found');
  });

  it('maps azp, client_id or sub to the Partner with that client id', async () => {
    for (const claims of [{ azp: partner.client_id, sub: 'service-account-uuid' }, { client_id: partner.client_id }, { sub: partner.client_id }]) {
      expect(expectResult(await get(`/credentials/${uid}`, await mint(claims)), 200).uid).toBe(uid);
    }
    expect(provider.jwksFetches).toBe(1);
  });

  it('refuses tokens of unknown clients, for another audience or issuer, expired, unsigned or HMAC-signed', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const valid = await mint({ azp: partner.client_id });
    const cases: [string, string][] = [
      ['unknown client', await mint({ azp: 'someone-else' })],
      ['wrong audience', await mint({ azp: partner.client_id }, { aud: 'account' })],
      ['wrong issuer', await mint({ azp: partner.client_id }, { iss: `${provider.origin}/realms/other` })],
      ['expired', await mint({ azp: partner.client_id }, { expiresIn: -60 })],
      ['alg none', `${header}.${valid.split('.')[1]}.`],
      ['HS256', await mint({ azp: partner.client_id }, { alg: 'HS256', key: new TextEncoder().encode('a shared secret of thirty-two bytes!') })],
    ];
    for (const [what, token] of cases) {
      const answer = await get(`/credentials/${uid}`, token);
      expectError(answer, 'unauthorized');
      expect(answer.headers['www-authenticate'], what).toMatch(/^Bearer /);
    }
  });

  it('does not start when the issuer cannot be discovered or is not what it says', async () => {
    await expect(startServer({ engine: fx.engine, environment: 'demo', authIssuer: `${provider.origin}/realms/missing` })).rejects.toThrow(/OpenID configuration/);
    await expect(startServer({ engine: fx.engine, environment: 'demo', authIssuer: 'http://issuer.example/realms/x' })).rejects.toThrow(/https/);
    // Nothing is left behind by a server that did not start (its upload spool included).
    expect(readdirSync(join(fx.dataDir, 'tmp')).filter((name) => name.includes('-api-'))).toHaveLength(1);
    // A trailing slash is the same issuer.
    const other = await startServer({ engine: fx.engine, environment: 'demo', authIssuer: `${provider.issuer}/`, log: () => undefined });
    try {
      expect(other.authUrl).toBe(provider.origin);
    } finally {
      await other.close();
    }
  });
});
