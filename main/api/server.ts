/**
 * The REST server: the Credential Issuing Service over HTTP, every endpoint of the spec under
 * `/api`, mapped one to one onto the calling Partner's IssuingService (the embedded engine).
 *
 * Layout (fastify/demo's): the app is built from plugins — body parsers, the token endpoint,
 * then the /api scope whose one hook checks the bearer token, then its routes, one file per
 * resource. One error handler turns every failure into the spec's error body.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Server as TlsServer } from 'node:tls';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock, type Clock, type Engine } from '../engine/index.js';
import { partnerDidDocument } from '../engine/vc/did-web.js';
import { Authenticator } from './auth/authenticator.js';
import { ExternalIssuer } from './auth/external-issuer.js';
import { LocalTokens, type TokenKeys } from './auth/local-tokens.js';
import { tokenRoutes } from './auth/token-route.js';
import { dropConnections, trackConnections } from './connections.js';
import { installContentTypes } from './content-types.js';
import { DEFAULT_LIMITS, type ApiContext, type ApiLimits, type UploadLimits } from './context.js';
import { httpDate } from './envelope.js';
import { MAX_PARAM_LENGTH, frameworkErrorHandler, installErrorHandling } from './errors.js';
import { healthRoutes } from './health.js';
import { HostCheck } from './host-check.js';
import { statusListRoute } from './status-list-route.js';
import { RequestLimiter } from './request-limiter.js';
import { REQUEST_ID_HEADER, installRequestLog, requestIdOf, type LogFormat } from './request-log.js';
import { readTlsPair, type TlsFiles } from './tls.js';
import { schemaErrorFormatter, validatorCompiler } from './request-validation.js';
import { API_PREFIX, openapiDocument, swaggerOptions } from './openapi-document.js';
import { certificateRoutes } from './routes/certificates.js';
import { credentialRoutes } from './routes/credentials.js';
import { engineRoutes } from './routes/engines.js';
import { fileRoutes } from './routes/files.js';
import { jobRoutes } from './routes/jobs.js';
import { activityRoutes } from './routes/activity.js';
import { addRoutes } from './routes/route.js';
import './types.js';
import { packageVersion } from './version.js';

export interface ServeOptions {
  engine: Engine;
  environment: 'demo' | 'live';
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  /** External OIDC issuer URL: trust its JWKS instead of our tokens (our token endpoint is then off). */
  authIssuer?: string;
  /** Further Host header values to answer (`name` or `name:port`), e.g. a reverse proxy's public name. */
  allowedHosts?: string[];
  /** Request limits; defaults in DEFAULT_LIMITS (docs/api.md). */
  limits?: { jsonBody?: number; upload?: Partial<UploadLimits> };
  /**
   * The Ed25519 key pair this node signs tokens with; default a new one at each start (its public
   * half published in the database, so every node accepts its tokens). Tests use it to forge tokens.
   */
  tokenKeys?: TokenKeys;
  /**
   * The Partner (id) whose did:web document is served at `/.well-known/did.json`: its DID is
   * `did:web:` and the Host the request names (docs/verifiable-credentials.md). Default none.
   */
  didWebPartner?: string;
  /** Where operator messages go (internal errors); default stderr. Never given secrets or tokens. */
  log?: (line: string) => void;
  /** Serve HTTPS (HTTP/1.1 and HTTP/2) with this certificate and key; default plain HTTP/1.1. */
  tls?: TlsFiles;
  /** One line per request, in this format, to `write` (docs/api.md); default none. */
  requestLog?: { format: LogFormat; write: (line: string) => void };
  /** The time request limits count in; default the system clock. */
  clock?: Clock;
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT/api` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` (with --auth-issuer: the external provider's, e.g. `https://kc.example`) */
  authUrl: string;
  app: FastifyInstance;
  /** Stops accepting, lets requests in flight finish, then frees the port (the engine stays open). */
  close(): Promise<void>;
  /**
   * Reads the TLS files again and serves new connections with them; connections open now keep
   * theirs. Throws (one sentence) when the pair does not load: the pair in use stays.
   */
  reloadTls(): void;
  /** Cuts every connection at once (requests in flight get no answer): the end of a bounded shutdown. */
  dropConnections(): void;
}

interface BuiltApp {
  app: FastifyInstance;
  ctx: ApiContext;
  hosts: HostCheck;
  external: ExternalIssuer | undefined;
}

/** How a bound host is written in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function mergeLimits(limits: ServeOptions['limits']): ApiLimits {
  return { jsonBody: limits?.jsonBody ?? DEFAULT_LIMITS.jsonBody, upload: { ...DEFAULT_LIMITS.upload, ...limits?.upload } };
}

/** The partner id of a client id of the data directory (for an external provider's tokens). */
function partnerByClientId(engine: Engine): (clientId: string) => string | undefined {
  const known = new Map<string, string>();
  return (clientId) => {
    if (!known.has(clientId)) for (const p of engine.partners.list()) known.set(p.client_id, p.id);
    return known.get(clientId);
  };
}

async function createApp(options: ServeOptions): Promise<BuiltApp> {
  if (options.environment !== 'demo' && options.environment !== 'live') throw new TypeError('environment must be "demo" or "live"');
  const host = options.host ?? '127.0.0.1';
  // Read before anything is made: a pair that does not load is the whole answer.
  const tls = options.tls === undefined ? undefined : readTlsPair(options.tls);
  const spoolDir = join(options.engine.dataDir, 'tmp', `${process.pid}-api-${randomUUID()}`);
  mkdirSync(spoolDir, { recursive: true });
  const ctx: ApiContext = {
    engine: options.engine,
    environment: options.environment,
    origin: `${tls ? 'https' : 'http'}://${urlHost(host)}`,
    lastUpdate: httpDate(),
    version: packageVersion(),
    limits: mergeLimits(options.limits),
    spoolDir,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
  const hosts = new HostCheck(host, options.allowedHosts, tls ? 443 : 80);

  // With TLS: HTTP/2, and HTTP/1.1 on the same port for clients that do not offer h2 (ALPN).
  const transport = tls ? { http2: true as const, https: { allowHTTP1: true, cert: tls.cert, key: tls.key } } : {};
  // The app's type is the same for both transports as far as the routes and hooks see it.
  const app = (Fastify as unknown as (options: object) => FastifyInstance)({
    ...transport,
    // Our own error log instead: fastify's would print request details.
    logger: false,
    bodyLimit: ctx.limits.jsonBody,
    return503OnClosing: false,
    // The client's X-Request-Id when well-formed (so its reports and our log agree), else our own.
    genReqId: requestIdOf,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // The router's own refusals would otherwise be fastify's body, quoting the path.
    frameworkErrors: frameworkErrorHandler(ctx),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onClose', async () => {
    await rm(spoolDir, { recursive: true, force: true });
  });
  try {
    // fastify checks each request's shape from the route's schema; the engine's parsers check
    // what the fields hold (request-validation.ts says why). Nor do the schemas serialize:
    // JSON.stringify keeps every field as the engine made it.
    app.setValidatorCompiler(validatorCompiler);
    app.setSchemaErrorFormatter(schemaErrorFormatter);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.decorateRequest('service', null as never);
    installErrorHandling(app, ctx);
    if (options.requestLog !== undefined) installRequestLog(app, options.requestLog.format, options.requestLog.write);
    else app.addHook('onRequest', async (request, reply) => void reply.header(REQUEST_ID_HEADER, request.id));
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.anyHost) return;
      // HTTP/2 names the host in `:authority` (a client may send Host too).
      hosts.check(request.headers.host ?? (request.headers[':authority'] as string | undefined));
    });
    trackConnections(app);

    installContentTypes(app, ctx.limits.jsonBody);
    await app.register(multipart, { limits: { ...ctx.limits.upload, files: 1 }, throwFileSizeLimit: true });

    const external = options.authIssuer === undefined ? undefined : await ExternalIssuer.discover(options.authIssuer, partnerByClientId(options.engine));
    // Before any route: the document is generated from the routes registered after it.
    await app.register(swagger, swaggerOptions(ctx, { externalTokenUrl: external ? (external.tokenEndpoint ?? `${external.issuer}/protocol/openid-connect/token`) : undefined }));

    let authenticator: Authenticator;
    if (external !== undefined) {
      authenticator = new Authenticator(options.engine, external);
    } else {
      const tokens = await LocalTokens.create(() => LocalTokens.issuerOf(ctx.origin), options.tokenKeys, options.engine.tokenKeys);
      // The tokens this node signed stay good on the other nodes until they expire, then its key goes.
      app.addHook('onClose', async () => {
        try {
          tokens.retire();
        } catch {
          // The engine closed first: its database keeps the key until it lapses, which is as safe.
        }
      });
      authenticator = new Authenticator(options.engine, tokens);
      await app.register(tokenRoutes(ctx, tokens));
    }

    healthRoutes(app, ctx);

    if (options.didWebPartner !== undefined) {
      const scope = options.engine.scopeFor(options.didWebPartner);
      // Public, as a DID document must be; the Host was checked above, so the DID names this server.
      app.get('/.well-known/did.json', async (request, reply) =>
        reply.header('cache-control', 'no-cache').type('application/did+json').send(JSON.stringify(partnerDidDocument(scope, request.headers.host!))),
      );
    }

    statusListRoute(app, options.engine);

    // The spec's demo environment has no request limits; a live one has each Partner's.
    const limiter = options.environment === 'live' ? new RequestLimiter(options.engine, options.clock ?? systemClock) : undefined;
    await app.register(
      async (api) => {
        api.addHook('onRequest', async (request, reply) => {
          reply.header('cache-control', 'no-store');
          if (request.routeOptions.config.public) return;
          request.service = await authenticator.serviceFor(request.headers.authorization);
          request.partnerId = authenticator.partnerOf(request.service);
          if (limiter === undefined || request.partnerId === undefined) return;
          const { headers, refusal } = limiter.admit(request.partnerId);
          reply.headers(headers);
          if (refusal) throw refusal;
        });
        addRoutes(api, ctx, [...fileRoutes, ...credentialRoutes, ...jobRoutes, ...certificateRoutes, ...engineRoutes, ...activityRoutes]);
        let text: string | undefined;
        api.get('/openapi.json', { schema: openapiDocument, config: { public: true } }, async (_request, reply) => {
          text ??= JSON.stringify(app.swagger());
          return reply.type('application/json; charset=utf-8').send(text);
        });
      },
      { prefix: API_PREFIX },
    );
    await app.ready();
    return { app, ctx, hosts, external };
  } catch (error) {
    // Frees what was made so far (the spool folder among it).
    await app.close();
    throw error;
  }
}

/** Builds the app without listening (for `app.inject()` tests). */
export async function buildApp(options: ServeOptions): Promise<FastifyInstance> {
  return (await createApp(options)).app;
}

/** The auth URL of an external issuer: `https://kc.example` for `https://kc.example/realms/x`. */
function authUrlOf(issuer: string): string {
  const match = /^(.*)\/realms\/[^/]+$/.exec(issuer);
  return match ? match[1]! : issuer;
}

/** Builds the app and listens (127.0.0.1 and a free port unless told otherwise). */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { app, ctx, hosts, external } = await createApp(options);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  hosts.port = port;
  ctx.origin = `${options.tls ? 'https' : 'http'}://${urlHost(host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${ctx.origin}${API_PREFIX}`,
    authUrl: external ? authUrlOf(external.issuer) : ctx.origin,
    app,
    close: () => (closing ??= app.close()),
    reloadTls: () => {
      if (options.tls === undefined) throw new Error('this server speaks plain HTTP: there is no certificate to reload');
      (app.server as unknown as TlsServer).setSecureContext(readTlsPair(options.tls));
    },
    dropConnections: () => dropConnections(app),
  };
}
