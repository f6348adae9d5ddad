/**
 * The OpenAPI 3.1 document, generated from the schemas the routes declare (the same objects
 * fastify holds as each route's `schema`), served at `/api/openapi.json`.
 */
import { ERROR_STATUS, type ErrorId } from '../../common/errors.js';
import { TOKEN_PATH } from './auth/token-route.js';
import { COMPONENT_SCHEMAS, ref, type JsonSchema } from './schemas/components.js';
import type { RouteSchema } from './schemas/common.js';
import { DEFAULT_LIMITS, type ApiLimits } from './context.js';

export interface DocumentedRoute {
  method: string;
  /** Full path, fastify style (`/api/credentials/:uid`). */
  url: string;
  schema: RouteSchema;
}

export interface DocumentOptions {
  /** `http://HOST:PORT` */
  origin: string;
  version: string;
  environment: 'demo' | 'live';
  /** The external OpenID provider's token endpoint, when tokens come from there. */
  externalTokenUrl?: string;
  limits?: ApiLimits;
}

export const API_PREFIX = '/api';

/**
 * What any path can answer before its route runs: 400 `invalid_value` for a path that is not
 * valid percent-encoding or a path parameter past the router's limit, 405 `method_not_allowed`
 * for a method the path does not serve. Every operation lists them.
 */
const ROUTER_ERRORS: readonly ErrorId[] = ['invalid_value', 'method_not_allowed'];

/** `/api/credentials/:uid` → `/credentials/{uid}` (relative to the server URL, which ends in /api). */
function openApiPath(url: string): string {
  return url
    .slice(API_PREFIX.length)
    .split('/')
    .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
    .join('/');
}

function parameters(schema: RouteSchema): JsonSchema[] {
  const result: JsonSchema[] = [];
  for (const [where, source] of [
    ['path', schema.params],
    ['query', schema.querystring],
  ] as const) {
    if (!source) continue;
    const properties = (source.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((source.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      result.push({ name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest });
    }
  }
  return result;
}

function errorResponses(ids: readonly ErrorId[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorId[]>();
  for (const id of ids) byStatus.set(ERROR_STATUS[id], [...(byStatus.get(ERROR_STATUS[id]) ?? []), id]);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Error ids: ${list.map((id) => `\`${id}\``).join(', ')}`,
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  return responses;
}

function operation(route: DocumentedRoute): JsonSchema {
  const s = route.schema;
  const op: JsonSchema = { operationId: s.operationId, summary: s.summary, tags: s.tags };
  if (s.description) op.description = s.description;
  const params = parameters(s);
  if (params.length > 0) op.parameters = params;
  if (s.body) {
    const media = s.consumes ?? 'application/json';
    op.requestBody = {
      required: media === 'application/json',
      content: {
        [media]: media === 'multipart/form-data' ? { schema: s.body, encoding: { file: { contentType: 'application/octet-stream' } } } : { schema: s.body },
      },
    };
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(s.response)) {
    const { description, ...body } = schema;
    responses[status] = { description: (description as string | undefined) ?? 'OK', content: { 'application/json': { schema: body } } };
  }
  const errors: ErrorId[] = [...s.errors];
  if (!s.public) errors.push('unauthorized');
  errors.push(...ROUTER_ERRORS, 'internal_error');
  Object.assign(responses, errorResponses([...new Set(errors)]));
  op.responses = responses;
  if (s.public) op.security = [];
  return op;
}

function description(options: DocumentOptions): string {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;
  const errorTable = Object.entries(ERROR_STATUS)
    .map(([id, status]) => `| \`${id}\` | ${status} |`)
    .join('\n');
  return [
    'The Credential Issuing Service as Proofdesk serves it. Every response is `{"result": ..., "meta": {...}}`; every error is',
    '`{"error": {"id", "message"}, "meta": {...}}` with the HTTP status of its id. `POST /jobs/immediate` exists only on a server',
    `running as demo (this one runs as **${options.environment}**).`,
    '',
    'Authentication: OAuth 2.0 client credentials. POST form-urlencoded `grant_type=client_credentials`, `client_id`, `client_secret`',
    `to ${options.externalTokenUrl ?? `${options.origin}${TOKEN_PATH}`}; send the access token as \`Authorization: Bearer <token>\`.`,
    'Tokens last 300 s; tokens of this server do not survive its restart (ask for a new one after a 401).',
    '',
    `Limits: JSON bodies up to ${mib(limits.jsonBody)}; uploads up to ${mib(limits.upload.fileSize)} per file, one file per request,`,
    `form fields up to ${mib(limits.upload.fieldSize)}, at most ${limits.upload.fields} fields and ${limits.upload.parts} parts. Past a limit: 413 \`payload_too_large\`.`,
    '',
    'Any path answers 400 `invalid_value` when it is not valid percent-encoding or a path parameter is longer than 500 characters,',
    'and 405 `method_not_allowed` (with an `Allow` header) for a method it does not serve; unknown paths answer 404 `not_found`.',
    '',
    '| error id | HTTP status |',
    '|---|---|',
    errorTable,
  ].join('\n');
}

/** The token endpoint, outside the API prefix (hence its own server URL). */
function tokenPathItem(origin: string): Record<string, JsonSchema> {
  return {
    servers: [{ url: origin }] as unknown as JsonSchema,
    post: {
      operationId: 'getToken',
      summary: 'Get an access token (OAuth 2.0 client credentials)',
      description: 'HTTP Basic client authentication is accepted instead of the client_id and client_secret fields.',
      tags: ['Service'],
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['grant_type'],
              properties: { grant_type: { const: 'client_credentials' }, client_id: { type: 'string' }, client_secret: { type: 'string' } },
            },
          },
        },
      },
      responses: {
        '200': { description: 'The token (not wrapped in the envelope)', content: { 'application/json': { schema: ref('Token') } } },
        ...errorResponses(['invalid_value', 'unauthorized', 'method_not_allowed', 'internal_error']),
      },
    },
  };
}

/** Builds the document for the routes the server registered. */
export function openApiDocument(routes: readonly DocumentedRoute[], options: DocumentOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    if (route.method === 'HEAD' || !route.url.startsWith(API_PREFIX)) continue;
    const path = openApiPath(route.url);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  const tokenUrl = options.externalTokenUrl ?? `${options.origin}${TOKEN_PATH}`;
  if (options.externalTokenUrl === undefined) paths[TOKEN_PATH] = tokenPathItem(options.origin);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: { title: 'Proofdesk — Credential Issuing Service', version: options.version, description: description(options) },
    servers: [{ url: `${options.origin}${API_PREFIX}`, description: options.environment === 'demo' ? 'Demo' : 'Live' }],
    security: [{ bearer: [] }, { oauth2: [] }],
    tags: ['Files', 'Credentials', 'Jobs', 'Certificates', 'Verification', 'Engines', 'Service'].map((name) => ({ name })),
    paths,
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from the token endpoint' },
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } },
      },
    },
  };
}
