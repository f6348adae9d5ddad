/**
 * The tokens this server issues itself: JWTs signed with EdDSA (Ed25519) under a key made when
 * the server starts and kept only in memory, so tokens do not survive a restart (clients get a
 * 401 and fetch a new one). Only EdDSA is accepted; `iss`, `aud`, `sub` and `exp` are checked.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { REALM } from '../../engine/index.js';
import { AUDIENCE, TOKEN_LIFETIME_S, type TokenVerifier, type VerifiedToken } from './unauthorized.js';

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
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicJwk: JWK,
    private readonly publicKey: CryptoKey,
    /** `{auth_url}/realms/proofdesk`, read at each call: the port is known only once listening. */
    private readonly issuer: () => string,
  ) {}

  /** Makes the signing key (or takes the given Ed25519 pair: tests, or keys kept elsewhere). */
  static async create(issuer: () => string, keys?: TokenKeys): Promise<LocalTokens> {
    const { privateKey, publicKey } = keys ?? (await generateKeyPair(TOKEN_ALGORITHM));
    const jwk = await exportJWK(publicKey);
    return new LocalTokens(privateKey, { ...jwk, kid: randomUUID(), alg: TOKEN_ALGORITHM, use: 'sig' }, publicKey, issuer);
  }

  /** The realm's issuer URL for an origin (`http://127.0.0.1:PORT`). */
  static issuerOf(origin: string): string {
    return `${origin}/realms/${REALM}`;
  }

  async issue(partnerId: string, clientId: string): Promise<TokenResponse> {
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
    const { payload } = await jwtVerify(token, this.publicKey, {
      algorithms: [TOKEN_ALGORITHM],
      issuer: this.issuer(),
      audience: AUDIENCE,
      typ: 'at+jwt',
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    return { partnerId: payload.sub!, expiresAt: payload.exp! * 1000 };
  }

  /** The public key set (served at the realm's `certs` endpoint). */
  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }
}
