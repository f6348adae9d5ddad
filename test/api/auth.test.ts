/**
 * The spec's Authentication section over HTTP: the token endpoint (client credentials, form or
 * Basic), the token itself (EdDSA JWT: iss, aud, sub, exp, 300 s), and every way a request's
 * token can be wrong — each a 401 `unauthorized` with `WWW-Authenticate: Bearer`, and nothing
 * changed. Tokens with a valid signature but a wrong claim are forged with the server's own key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify } from 'jose';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { TOKEN_PATH, expectError, expectResult, startApiFixture, type ApiFixture } from './api-fixture.js';

const keys = await generateKeyPair('EdDSA');

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('the token endpoint', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false, tokenKeys: keys });
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('answers client credentials with a Bearer token good for 300 s, not cached by anyone', async () => {
    const answer = await api.token(api.a.clientId, api.a.clientSecret);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(answer.headers['cache-control']).toBe('no-store');
    const token = answer.body.access_token as string;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: `${api.server.authUrl}/realms/proofdesk`, aud: 'proofdesk', sub: api.a.id, azp: api.a.clientId });
    expect(claims.exp! - claims.iat!).toBe(300);
    expectResult(await api.call('GET', '/files', { token }), 200);
  });

  it('accepts HTTP Basic client authentication too', async () => {
    const basic = Buffer.from(`${encodeURIComponent(api.b.clientId)}:${encodeURIComponent(api.b.clientSecret)}`).toString('base64');
    const answer = await api.raw('POST', `${api.server.authUrl}${TOKEN_PATH}`, {
      token: null,
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(answer.status).toBe(200);
    expect(decodeJwt(answer.body.access_token).sub).toBe(api.b.id);
  });

  it('refuses a wrong secret, an unknown client and missing credentials with 401 unauthorized', async () => {
    for (const [id, secret] of [
      [api.a.clientId, api.b.clientSecret],
      [api.a.clientId, `${api.a.clientSecret}x`],
      ['pd-nobody', api.a.clientSecret],
      [api.a.clientId, ''],
      ['', ''],
    ] as const) {
      const answer = await api.token(id, secret);
      expectError(answer, 'unauthorized');
      expect(answer.text).not.toContain(api.a.clientSecret);
    }
  });

  it('refuses other grants, other content types and repeated parameters with 400 invalid_value', async () => {
    const url = `${api.server.authUrl}${TOKEN_PATH}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const creds = `client_id=${api.a.clientId}&client_secret=${api.a.clientSecret}`;
    expectError(await api.raw('POST', url, { token: null, headers: form, body: `grant_type=password&${creds}` }), 'invalid_value');
    expectError(await api.raw('POST', url, { token: null, headers: form, body: creds }), 'invalid_value');
    expectError(await api.raw('POST', url, { token: null, headers: form, body: `grant_type=client_credentials&grant_type=client_credentials&${creds}` }), 'invalid_value');
    expectError(await api.raw('POST', url, { token: null, json: { grant_type: 'client_credentials', client_id: api.a.clientId, client_secret: api.a.clientSecret } }), 'invalid_value');
    expectError(await api.raw('POST', url, { token: null }), 'invalid_value');
    expectError(await api.raw('POST', url, { token: null, headers: form, body: 'x'.repeat(100_000) }), 'payload_too_large');
    expectError(await api.raw('GET', url, { token: null }), 'method_not_allowed');
    expectError(await api.raw('POST', `${api.server.authUrl}/realms/other/protocol/openid-connect/token`, { token: null, headers: form, body: `grant_type=client_credentials&${creds}` }), 'not_found');
  });

  it('publishes the realm discovery document and key set, which check its tokens', async () => {
    const discovery = await api.raw('GET', `${api.server.authUrl}/realms/proofdesk/.well-known/openid-configuration`, { token: null });
    expect(discovery.body).toMatchObject({
      issuer: `${api.server.authUrl}/realms/proofdesk`,
      token_endpoint: `${api.server.authUrl}${TOKEN_PATH}`,
      grant_types_supported: ['client_credentials'],
    });
    const jwks = await api.raw('GET', discovery.body.jwks_uri, { token: null });
    const { payload } = await jwtVerify(api.a.token, createLocalJWKSet(jwks.body), { issuer: discovery.body.issuer, audience: 'proofdesk' });
    expect(payload.sub).toBe(api.a.id);
  });
});

describe('requests with a bad token', () => {
  let api: ApiFixture;
  let issuer: string;
  let credentialUid: string;

  /** A token signed with the server's own key, with these claims changed. */
  function forge(claims: Record<string, unknown>, header: Record<string, unknown> = {}, key = keys.privateKey): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ azp: api.a.clientId, ...claims })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', ...header })
      .setIssuer((claims.iss as string) ?? issuer)
      .setAudience((claims.aud as string) ?? 'proofdesk')
      .setSubject((claims.sub as string) ?? api.a.id)
      .setIssuedAt((claims.iat as number) ?? now)
      .setExpirationTime((claims.exp as number) ?? now + 300)
      .sign(key);
  }

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false, tokenKeys: keys });
    issuer = `${api.server.authUrl}/realms/proofdesk`;
    credentialUid = expectResult(await api.call('POST', '/credentials', { json: { title: 'Kept', metadata: { a: 1 } } }), 201).uid;
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('accepts a well-formed token of its own (the forging works)', async () => {
    expectResult(await api.call('GET', `/credentials/${credentialUid}`, { token: await forge({}) }), 200);
  });

  it('answers 401 unauthorized with WWW-Authenticate: Bearer for every bad token, and changes nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await generateKeyPair('EdDSA');
    const valid = await forge({});
    const [head, body] = valid.split('.');
    const cases: [string, Record<string, string>][] = [
      ['no Authorization header', {}],
      ['an empty header', { authorization: '' }],
      ['Basic instead of Bearer', { authorization: `Basic ${Buffer.from(`${api.a.clientId}:${api.a.clientSecret}`).toString('base64')}` }],
      ['Bearer without a token', { authorization: 'Bearer ' }],
      ['two tokens', { authorization: `Bearer ${valid} ${valid}` }],
      ['garbage', { authorization: 'Bearer not-a-token' }],
      ['a malformed JWT', { authorization: `Bearer ${head}.${body}` }],
      ['a tampered payload', { authorization: `Bearer ${head}.${base64url({ ...decodeJwt(valid), sub: api.b.id })}.${valid.split('.')[2]}` }],
      ['alg none', { authorization: `Bearer ${base64url({ alg: 'none', typ: 'at+jwt' })}.${body}.` }],
      ['alg HS256 keyed with the public key', { authorization: `Bearer ${await hs256WithPublicKey(decodeJwt(valid))}` }],
      ['an expired token', { authorization: `Bearer ${await forge({ iat: now - 400, exp: now - 100 })}` }],
      ['a wrong audience', { authorization: `Bearer ${await forge({ aud: 'someone-else' })}` }],
      ['a wrong issuer', { authorization: `Bearer ${await forge({ iss: 'http://127.0.0.1:1/realms/proofdesk' })}` }],
      ['another realm', { authorization: `Bearer ${await forge({ iss: `${api.server.authUrl}/realms/master` })}` }],
      ['a token signed by another key', { authorization: `Bearer ${await forge({}, {}, other.privateKey)}` }],
      ['a subject that is no Partner', { authorization: `Bearer ${await forge({ sub: '00000000-0000-4000-8000-000000000000' })}` }],
      ['a token that is not an access token', { authorization: `Bearer ${await forge({}, { typ: 'JWT' })}` }],
    ];
    for (const [what, headers] of cases) {
      for (const [method, path, json] of [
        ['GET', `/credentials/${credentialUid}`],
        ['DELETE', `/credentials/${credentialUid}/unschedule/local`],
        ['PUT', '/credentials', { credentials: [{ credential_uid: credentialUid, tags: ['stolen'] }] }],
      ] as const) {
        const answer = await api.call(method, path, { token: null, headers, ...(json ? { json } : {}) });
        expectError(answer, 'unauthorized');
        expect(answer.headers['www-authenticate'], what).toMatch(/^Bearer /);
      }
    }
    expect(expectResult(await api.call('GET', `/credentials/${credentialUid}`), 200).tags).toEqual([]);
  });

  it('does not accept the tokens of a server on another database (its key is not published here)', async () => {
    const other = await startApiFixture({ scheduler: false });
    try {
      // The same Partner id would not exist there; any token of that server names a key unknown here.
      const answer = await api.call('GET', '/files', { token: other.a.token });
      expectError(answer, 'unauthorized');
      expect(answer.headers['www-authenticate']).toContain('error="invalid_token"');
    } finally {
      await other.close();
    }
  });
});

/** The classic algorithm confusion: an HMAC keyed with the (public) verification key. */
async function hs256WithPublicKey(claims: Record<string, unknown>): Promise<string> {
  const raw = Buffer.from(JSON.stringify(await (await import('jose')).exportJWK(keys.publicKey)));
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(new Uint8Array(raw));
}
