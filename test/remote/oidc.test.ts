/**
 * The remote client against a real OAuth server: oidc-provider under `/realms/proofdesk`
 * (Keycloak's paths) issues RS256 JWT access tokens for the client credentials grant, and
 * `serve --auth-issuer` (startServer({authIssuer})) trusts them, mapping the token's client id
 * to the Partner with that client id. RemoteService gets its token there and talks to serve.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError, type ServiceError } from '../../common/errors.js';
import { REALM } from '../../main/engine/index.js';
import { RemoteService, type RemoteServiceOptions } from '../../main/remote/index.js';
import { startOidcServer, type OidcServer } from './oidc-server.js';
import { serveEngine, type ServedEngine, type ServedPartner } from './remote-fixture.js';

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(isServiceError(error), String(error)).toBe(true);
    return error as ServiceError;
  }
  throw new Error('Expected the call to fail');
}

describe('remote client with tokens of a real OAuth server (oidc-provider) through --auth-issuer', () => {
  let oidc: OidcServer;
  let served: ServedEngine;
  let a: ServedPartner;
  let b: ServedPartner;
  /** The secrets the OAuth server holds for the Partners' client ids (not Proofdesk's own). */
  const secretA = randomBytes(32).toString('base64url');
  const secretB = randomBytes(32).toString('base64url');
  const strangerId = `stranger-${randomUUID()}`;
  const clients: RemoteService[] = [];

  function remote(clientId: string, clientSecret: string, options: Partial<RemoteServiceOptions> = {}): RemoteService {
    const svc = new RemoteService({ baseUrl: served.server.baseUrl, authUrl: oidc.authUrl, realm: REALM, clientId, clientSecret, ...options });
    clients.push(svc);
    return svc;
  }

  beforeAll(async () => {
    // The Partners exist first: the OAuth server is told their client ids, as an operator
    // registers them in Keycloak.
    const setup = await serveEngine();
    a = await setup.addPartner('OAuth University');
    b = await setup.addPartner('OAuth College');
    oidc = await startOidcServer({
      realm: REALM,
      audience: 'proofdesk',
      tokenTtl: 2,
      clients: [
        { clientId: a.clientId, clientSecret: secretA },
        { clientId: b.clientId, clientSecret: secretB },
        { clientId: strangerId, clientSecret: 'stranger-secret' },
      ],
    });
    // Serve the same data directory again, now trusting the OAuth server.
    await setup.server.close();
    served = await serveEngineOn(setup, oidc.issuer);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await served?.close();
    await oidc?.close();
  });

  /** Restarts the fixture's server with --auth-issuer on the same engine. */
  async function serveEngineOn(setup: ServedEngine, issuer: string): Promise<ServedEngine> {
    const { startServer } = await import('../../main/api/server.js');
    const server = await startServer({ engine: setup.engine, environment: 'demo', authIssuer: issuer, log: () => undefined });
    const close = setup.close;
    return {
      ...setup,
      server,
      close: async () => {
        await server.close();
        await close();
      },
    };
  }

  it('serve names the OAuth server as its auth URL', () => {
    expect(served.server.authUrl).toBe(oidc.authUrl);
    expect(oidc.issuer).toBe(`${oidc.authUrl}/realms/${REALM}`);
  });

  it('a Partner gets its token from the OAuth server and works with serve; tokens are cached', async () => {
    const before = oidc.tokenRequests;
    const svc = remote(a.clientId, secretA);
    const c = await svc.createCredential({ title: 'Via Keycloak-like auth', metadata: { a: 1 }, tags: ['oauth'] });
    expect(await svc.getCredential(c.uid)).toEqual(c);
    expect((await svc.listCredentials({ and_tags: 'oauth' })).items).toEqual([c]);
    const file = await svc.uploadFile({ file: { data: new TextEncoder().encode(`oauth ${randomUUID()}`), name: 'x.txt' } });
    expect(file.file_type).toBe('text/plain');
    expect(oidc.tokenRequests - before).toBe(1);
    // B's token is B's: A's credential is missing for B.
    const other = remote(b.clientId, secretB);
    expect((await failureOf(other.getCredential(c.uid))).id).toBe('missing_credential');
    expect((await other.listCredentials()).total_items).toBe(0);
  });

  it('a short-lived token (2 s) is renewed at half its life', async () => {
    const svc = remote(a.clientId, secretA);
    const before = oidc.tokenRequests;
    await svc.listFiles();
    await svc.listFiles();
    expect(oidc.tokenRequests - before).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    await svc.listFiles();
    expect(oidc.tokenRequests - before).toBe(2);
  });

  it('a wrong secret at the OAuth server is unauthorized with its reason', async () => {
    const e = await failureOf(remote(a.clientId, 'not-the-secret').listFiles());
    expect({ id: e.id, status: e.status }).toEqual({ id: 'unauthorized', status: 401 });
    expect(e.message).toContain('invalid_client');
  });

  it('Proofdesk\'s own client secret is no good against the OAuth server, nor is serve\'s token endpoint there', async () => {
    expect((await failureOf(remote(a.clientId, a.clientSecret).listFiles())).id).toBe('unauthorized');
    const own = new RemoteService({ baseUrl: served.server.baseUrl, authUrl: new URL(served.server.baseUrl).origin, realm: REALM, clientId: a.clientId, clientSecret: a.clientSecret });
    clients.push(own);
    expect((await failureOf(own.listFiles())).status).toBeGreaterThanOrEqual(400);
  });

  it('a client the OAuth server knows but that is no Partner gets a token, and serve refuses it: unauthorized', async () => {
    const before = oidc.tokenRequests;
    const e = await failureOf(remote(strangerId, 'stranger-secret').listFiles());
    expect({ id: e.id, status: e.status }).toEqual({ id: 'unauthorized', status: 401 });
    // The refused token was replaced once, then the answer stood.
    expect(oidc.tokenRequests - before).toBe(2);
  });
});
