/**
 * `serve --auth-issuer URL`: trust the access tokens of an external OpenID provider (say a
 * Keycloak realm) instead of issuing our own. Its JWKS is found through
 * `URL/.well-known/openid-configuration`; a token must be signed with one of its keys under an
 * asymmetric algorithm, name that issuer, carry the audience `proofdesk` and not be expired.
 * Its client id (`azp`, else `client_id`, else `sub`) picks the Partner with that client_id.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { isLoopbackHost } from '../tls.js';
import { AUDIENCE, type TokenVerifier, type VerifiedToken } from './unauthorized.js';

/** Only asymmetric signatures: an HMAC or `none` token could be forged by anyone holding the JWKS. */
export const EXTERNAL_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

const DISCOVERY_TIMEOUT_MS = 10_000;

/** Refuses plain http to another machine: keys fetched that way could be swapped on the wire. */
function checkUrl(what: string, value: unknown): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error(`${what} is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new Error(`${what} must be https (plain http only on loopback): ${url.href}`);
  }
  return url;
}

/** The client id a provider's access token names. */
export function clientIdOf(payload: JWTPayload): string | undefined {
  for (const claim of ['azp', 'client_id', 'sub']) {
    const value = payload[claim];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

export class ExternalIssuer implements TokenVerifier {
  private constructor(
    /** The issuer exactly as the provider names it (`iss` of its tokens). */
    readonly issuer: string,
    /** Its token endpoint, if it says. */
    readonly tokenEndpoint: string | undefined,
    private readonly keys: ReturnType<typeof createRemoteJWKSet>,
    private readonly partnerOf: (clientId: string) => string | undefined,
    private readonly audience: string,
  ) {}

  /**
   * Reads the provider's discovery document; rejects when it cannot be read or does not
   * describe `issuerUrl` (so a typo fails at start, not at the first request).
   */
  static async discover(issuerUrl: string, partnerOf: (clientId: string) => string | undefined, audience = AUDIENCE): Promise<ExternalIssuer> {
    const issuer = checkUrl('--auth-issuer', issuerUrl).href.replace(/\/+$/, '');
    const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
    let document: { issuer?: unknown; jwks_uri?: unknown; token_endpoint?: unknown };
    try {
      const response = await fetch(discoveryUrl, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), redirect: 'error', headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      document = (await response.json()) as typeof document;
    } catch (error) {
      throw new Error(`Cannot read the OpenID configuration of ${issuer} at ${discoveryUrl}: ${(error as Error).message}`, { cause: error });
    }
    if (typeof document?.issuer !== 'string' || document.issuer.replace(/\/+$/, '') !== issuer) {
      throw new Error(`${discoveryUrl} describes the issuer ${JSON.stringify(document?.issuer)}, not ${issuer}`);
    }
    const jwksUri = checkUrl(`jwks_uri of ${issuer}`, document.jwks_uri);
    const keys = createRemoteJWKSet(jwksUri, { timeoutDuration: DISCOVERY_TIMEOUT_MS, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    const tokenEndpoint = typeof document.token_endpoint === 'string' ? document.token_endpoint : undefined;
    return new ExternalIssuer(document.issuer, tokenEndpoint, keys, partnerOf, audience);
  }

  async verify(token: string): Promise<VerifiedToken> {
    const { payload } = await jwtVerify(token, this.keys, {
      algorithms: EXTERNAL_ALGORITHMS,
      issuer: this.issuer,
      audience: this.audience,
      requiredClaims: ['exp'],
    });
    const clientId = clientIdOf(payload);
    const partnerId = clientId === undefined ? undefined : this.partnerOf(clientId);
    if (partnerId === undefined) throw Object.assign(new Error('No Partner has this client id'), { code: 'PROOFDESK_UNKNOWN_CLIENT' });
    return { partnerId, expiresAt: payload.exp! * 1000 };
  }
}
