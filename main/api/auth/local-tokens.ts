/**
 * The tokens this server issues itself: JWTs signed with EdDSA (Ed25519) under a key made when
 * the node starts and kept only in its memory. The public half is published in the database
 * (TokenKeyRegistry), so every node sharing it verifies the tokens of every other: a client may
 * be sent to any node. A token names its key (`kid`) and the node that issued it (`iss`); only
 * EdDSA is accepted, and `iss`, `aud`, `sub` and `exp` are checked.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { REALM } from '../../engine/index.js';
import type { TokenKeyRegistry } from '../../engine/token-keys.js';
import { AUDIENCE, TOKEN_LIFETIME_S, type TokenVerifier, type VerifiedToken } from './unauthorized.js';

/** How long a published key is good for without its node publishing it again. */
const PUBLISHED_FOR_MS = 60 * 60_000;

/** Keys of other nodes, imported once each (a node's key lives as long as the node). */
const OTHER_KEYS_CACHED = 100;

export const TOKEN_ALGORITHM = 'EdDSA';

/** An Ed25519 key pair to sign tokens with. */
export interface TokenKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

/** The OAuth response of the token endpoint (DESIGN.md). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export class LocalTokens implements TokenVerifier {
  private readonly others = new Map<string, { key: CryptoKey | Uint8Array; issuer: string }>();
  /** When this node's key was last published; 0 before its first token. */
  private publishedAt = 0;

  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicJwk: JWK,
    private readonly publicKey: CryptoKey,
    /** `{auth_url}/realms/proofdesk`, read at each call: the port is known only once listening. */
    private readonly issuer: () => string,
    private readonly registry: TokenKeyRegistry | undefined,
  ) {}

  /**
   * Makes the signing key (or takes the given Ed25519 pair: tests, or keys kept elsewhere);
   * with a registry, publishes it there and verifies the tokens of the keys published there.
   */
  static async create(issuer: () => string, keys?: TokenKeys, registry?: TokenKeyRegistry): Promise<LocalTokens> {
    const { privateKey, publicKey } = keys ?? (await generateKeyPair(TOKEN_ALGORITHM));
    const jwk = await exportJWK(publicKey);
    return new LocalTokens(privateKey, { ...jwk, kid: randomUUID(), alg: TOKEN_ALGORITHM, use: 'sig' }, publicKey, issuer, registry);
  }

  /** The realm's issuer URL for an origin (`http://127.0.0.1:PORT`). */
  static issuerOf(origin: string): string {
    return `${origin}/realms/${REALM}`;
  }

  async issue(partnerId: string, clientId: string): Promise<TokenResponse> {
    this.publish();
    const token = await new SignJWT({ azp: clientId, client_id: clientId })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'at+jwt', kid: this.publicJwk.kid! })
      .setIssuer(this.issuer())
      .setAudience(AUDIENCE)
      .setSubject(partnerId)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_LIFETIME_S}s`)
      .setJti(randomUUID())
      .sign(this.privateKey);
    return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S };
  }

  async verify(token: string): Promise<VerifiedToken> {
    const { key, issuer } = await this.keyOf(token);
    const { payload } = await jwtVerify(token, key, {
      algorithms: [TOKEN_ALGORITHM],
      issuer,
      audience: AUDIENCE,
      typ: 'at+jwt',
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    return { partnerId: payload.sub!, expiresAt: payload.exp! * 1000 };
  }

  /** The public key set (served at the realm's `certs` endpoint): this node's and the other nodes'. */
  jwks(): { keys: JWK[] } {
    const others = (this.registry?.list() ?? []).filter((k) => k.kid !== this.publicJwk.kid).map((k) => JSON.parse(k.publicJwk) as JWK);
    return { keys: [this.publicJwk, ...others] };
  }

  /** Stops publishing this node's key: the tokens it signed stay good on other nodes until they expire. */
  retire(): void {
    if (this.publishedAt > 0) this.registry?.retire(this.publicJwk.kid!, Date.now() + TOKEN_LIFETIME_S * 1000);
  }

  /** Publishes this node's key before its first token, and again well before it would lapse. */
  private publish(): void {
    if (this.registry === undefined || Date.now() - this.publishedAt < PUBLISHED_FOR_MS / 2) return;
    this.registry.publish({ kid: this.publicJwk.kid!, publicJwk: JSON.stringify(this.publicJwk), issuer: this.issuer() }, Date.now() + PUBLISHED_FOR_MS);
    this.publishedAt = Date.now();
  }

  /**
   * The key a token names and the issuer it must carry: this node's, or another node's from
   * the registry. A token naming no key we know is checked against ours (and so refused).
   */
  private async keyOf(token: string): Promise<{ key: CryptoKey | Uint8Array; issuer: string }> {
    const own = { key: this.publicKey, issuer: this.issuer() };
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return own;
    }
    if (kid === undefined || kid === this.publicJwk.kid || this.registry === undefined) return own;
    const known = this.others.get(kid);
    if (known) return known;
    const published = this.registry.find(kid);
    if (published === undefined) return own;
    const other = { key: await importJWK(JSON.parse(published.publicJwk) as JWK, TOKEN_ALGORITHM), issuer: published.issuer };
    if (this.others.size >= OTHER_KEYS_CACHED) this.others.clear();
    this.others.set(kid, other);
    return other;
  }
}
