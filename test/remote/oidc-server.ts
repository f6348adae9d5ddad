/**
 * A real OAuth 2.0 / OpenID provider for tests: the npm package oidc-provider, mounted under
 * `/realms/<realm>` with Keycloak's endpoint paths, issuing JWT access tokens (RS256) for the
 * client credentials grant to the clients it is given. Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcClient {
  clientId: string;
  clientSecret: string;
}

export interface OidcServer {
  /** What RemoteService takes as authUrl: `http://127.0.0.1:PORT`. */
  authUrl: string;
  /** The issuer (`iss` of its tokens): `{authUrl}/realms/<realm>`. */
  issuer: string;
  /** Token requests answered so far. */
  tokenRequests: number;
  close(): Promise<void>;
}

export interface OidcServerOptions {
  realm: string;
  clients: OidcClient[];
  /** `aud` of the access tokens. */
  audience: string;
  /** Access token lifetime in seconds (default 300). */
  tokenTtl?: number;
}

export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const prefix = `/realms/${options.realm}`;
  const sockets = new Set<Socket>();
  const server = createServer();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${authUrl}${prefix}`;
  const ttl = options.tokenTtl ?? 300;
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    routes: { token: '/protocol/openid-connect/token', jwks: '/protocol/openid-connect/certs' },
    ttl: { ClientCredentials: ttl },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // No `resource` parameter in the spec's token request: every token is for our API
        // (a resource indicator must be an absolute URI; the audience it maps to need not be).
        defaultResource: () => 'urn:proofdesk:api',
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: '', audience: options.audience, accessTokenFormat: 'jwt', accessTokenTTL: ttl, jwt: { sign: { alg: 'RS256' } } }),
      },
    },
  });
  const callback = provider.callback();
  const state = { tokenRequests: 0 };
  server.on('request', (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (url !== prefix && !url.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not_found"}');
      return;
    }
    if (url.startsWith(`${prefix}/protocol/openid-connect/token`)) state.tokenRequests += 1;
    // Mounted under the realm: the provider reads its mount path from originalUrl.
    req.originalUrl = url;
    req.url = url.slice(prefix.length) || '/';
    void callback(req, res);
  });
  return {
    authUrl,
    issuer,
    get tokenRequests() {
      return state.tokenRequests;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
