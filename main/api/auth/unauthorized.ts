import { ServiceError } from '../../../common/errors.js';

/** 401 `unauthorized`; `tokenSent` tells the challenge to say `error="invalid_token"`. */
export class UnauthorizedError extends ServiceError {
  constructor(
    message: string,
    readonly tokenSent: boolean,
  ) {
    super('unauthorized', message);
  }
}

/** What a token check answers: whose token it is and until when it is good. */
export interface VerifiedToken {
  partnerId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Checks an access token (signature, algorithm, issuer, audience, expiry); throws when it is not good. */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}

/** The audience our tokens carry, and that tokens of an external issuer must carry. */
export const AUDIENCE = 'proofdesk';

/** Lifetime of the tokens this server issues, in seconds (DESIGN.md). */
export const TOKEN_LIFETIME_S = 300;

/** A person-readable reason for a token jose refused (its error codes), without echoing the token. */
export function tokenProblem(error: unknown): string {
  const code = (error as { code?: unknown; claim?: unknown } | null)?.code;
  const claim = (error as { claim?: unknown } | null)?.claim;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'The access token has expired: get a new one';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return typeof claim === 'string' && (claim === 'iss' || claim === 'aud')
        ? `The access token was not issued for this service (${claim})`
        : 'The access token lacks a required claim or one is not valid';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'The access token is signed with an algorithm this service does not accept';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return "The access token's signature is not valid";
    default:
      return 'The access token is not valid';
  }
}
