/**
 * The spec's token endpoint, `POST {auth_url}/realms/proofdesk/protocol/openid-connect/token`
 * (OAuth 2.0 client credentials, form-urlencoded; HTTP Basic client authentication is accepted
 * too), plus the realm's discovery document and key set, so that another service (or another
 * Proofdesk's `--auth-issuer`) can check our tokens.
 */
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../../common/errors.js';
import { ref } from '../../../common/schemas/primitives.js';
import { TokenSchema } from '../../../common/schemas/resources.js';
import { REALM, type Engine } from '../../engine/index.js';
import type { ApiContext } from '../context.js';
import { route } from '../routes/route.js';
import { LocalTokens, TOKEN_ALGORITHM } from './local-tokens.js';
import { UnauthorizedError } from './unauthorized.js';

const REALM_PATH = `/realms/${REALM}`;
export const TOKEN_PATH = `${REALM_PATH}/protocol/openid-connect/token`;
const CERTS_PATH = `${REALM_PATH}/protocol/openid-connect/certs`;
const DISCOVERY_PATH = `${REALM_PATH}/.well-known/openid-configuration`;

const FORM_LIMIT_BYTES = 16 * 1024;

const tokenSchema = route({
  operationId: 'getToken',
  summary: 'Get an access token (OAuth 2.0 client credentials)',
  description: 'HTTP Basic client authentication is accepted instead of the client_id and client_secret fields.',
  tags: ['Service'],
  public: true,
  consumes: ['application/x-www-form-urlencoded'],
  body: Type.Object({ grant_type: Type.Literal('client_credentials'), client_id: Type.Optional(Type.String()), client_secret: Type.Optional(Type.String()) }),
  response: { 200: Type.Unsafe({ ...ref(TokenSchema), description: 'The token (not wrapped in the envelope)' }) },
  errors: ['invalid_value', 'unauthorized'],
});
/** A client that just proved its secret is not asked to pay for scrypt again for a while. */
const CLIENT_CACHE_MS = 5 * 60_000;
const CLIENT_CACHE_ENTRIES = 1_000;

/** Parses a form body into a prototype-free object; a parameter given twice is refused (RFC 6749 3.2). */
export function parseForm(text: string): Record<string, string> {
  const form: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(form, key)) throw new ServiceError('invalid_value', `Form parameter "${key}" is given more than once`);
    form[key] = value;
  }
  return form;
}

/** `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 2.3.1: each part form-encoded). */
function basicCredentials(header: string | undefined): { clientId: string; secret: string } | undefined {
  const match = header === undefined ? null : /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!match) return undefined;
  const text = Buffer.from(match[1]!, 'base64').toString('utf8');
  const at = text.indexOf(':');
  if (at < 0) return undefined;
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { clientId: decode(text.slice(0, at)), secret: decode(text.slice(at + 1)) };
  } catch {
    return undefined;
  }
}

/** Client credentials checked against the engine's Partners, with a short memory of successes. */
class ClientCheck {
  private readonly recent = new Map<string, { partnerId: string; until: number }>();

  constructor(private readonly engine: Engine) {}

  partnerOf(clientId: string, secret: string): string | undefined {
    const key = createHash('sha256').update(clientId).update('\0').update(secret).digest('base64url');
    const now = Date.now();
    const known = this.recent.get(key);
    if (known && known.until > now) return known.partnerId;
    const partner = this.engine.partners.authenticate(clientId, secret);
    if (!partner) {
      this.recent.delete(key);
      return undefined;
    }
    if (this.recent.size >= CLIENT_CACHE_ENTRIES) this.recent.clear();
    this.recent.set(key, { partnerId: partner.id, until: now + CLIENT_CACHE_MS });
    return partner.id;
  }
}

/** Registers the token endpoint and the realm's discovery document and keys. */
export function tokenRoutes(ctx: ApiContext, tokens: LocalTokens) {
  const clients = new ClientCheck(ctx.engine);
  return async function plugin(app: FastifyInstance): Promise<void> {
    // Only here: elsewhere a form body is no JSON body and is answered as such.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (error) {
        done(error as Error);
      }
    });

    app.post(TOKEN_PATH, { schema: tokenSchema, config: { body: 'form' } }, async (request, reply) => {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const form = request.body as Record<string, string> | undefined;
      if (form === undefined) {
        throw new ServiceError('invalid_value', 'Send the token request as application/x-www-form-urlencoded: grant_type=client_credentials, client_id, client_secret');
      }
      if (form.grant_type !== 'client_credentials') throw new ServiceError('invalid_value', 'grant_type must be client_credentials');
      const basic = basicCredentials(request.headers.authorization);
      const clientId = form.client_id ?? basic?.clientId;
      const secret = form.client_secret ?? basic?.secret;
      if (!clientId || !secret) throw new UnauthorizedError('Missing client_id or client_secret', false);
      const partnerId = clients.partnerOf(clientId, secret);
      if (partnerId === undefined) throw new UnauthorizedError('Unknown client_id or wrong client_secret', false);
      return reply.code(200).send(await tokens.issue(partnerId, clientId));
    });

    app.get(DISCOVERY_PATH, async (_request, reply) => {
      const issuer = LocalTokens.issuerOf(ctx.origin);
      return reply.send({
        issuer,
        token_endpoint: `${ctx.origin}${TOKEN_PATH}`,
        jwks_uri: `${ctx.origin}${CERTS_PATH}`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        response_types_supported: ['token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: [TOKEN_ALGORITHM],
      });
    });

    app.get(CERTS_PATH, async (_request, reply) => reply.send(tokens.jwks()));
  };
}
