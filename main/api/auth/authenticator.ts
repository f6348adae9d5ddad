/**
 * The bearer token of every API request, checked once and then remembered until it expires
 * (a verified token's bytes cannot change, so the cache needs no second signature check).
 * Each Partner's service is made once.
 */
import type { IssuingService } from '../../../common/issuing-service.js';
import type { Engine } from '../../engine/index.js';
import { UnauthorizedError, tokenProblem, type TokenVerifier } from './unauthorized.js';

/** RFC 6750's token68 after `Bearer `, at most 8 KiB. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const MAX_TOKEN_CHARS = 8192;
const CACHE_ENTRIES = 10_000;

export const MISSING_TOKEN_MESSAGE =
  'Missing bearer token: send Authorization: Bearer <access token> (POST {auth_url}/realms/proofdesk/protocol/openid-connect/token gives one)';

export class Authenticator {
  private readonly tokens = new Map<string, { service: IssuingService; expiresAt: number }>();
  private readonly services = new Map<string, IssuingService>();
  private readonly partners = new WeakMap<IssuingService, string>();

  constructor(
    private readonly engine: Engine,
    private readonly verifier: TokenVerifier,
  ) {}

  /** The calling Partner's service; throws 401 `unauthorized` for a missing or bad token. */
  async serviceFor(authorization: string | undefined): Promise<IssuingService> {
    if (authorization === undefined || authorization === '') throw new UnauthorizedError(MISSING_TOKEN_MESSAGE, false);
    const match = authorization.length <= MAX_TOKEN_CHARS + 7 ? BEARER.exec(authorization) : null;
    if (!match) throw new UnauthorizedError('Malformed Authorization header: expected "Bearer <access token>"', true);
    const token = match[1]!;
    const now = Date.now();
    const known = this.tokens.get(token);
    if (known) {
      if (known.expiresAt > now) return known.service;
      this.tokens.delete(token);
    }
    let partnerId: string;
    let expiresAt: number;
    try {
      ({ partnerId, expiresAt } = await this.verifier.verify(token));
    } catch (error) {
      throw new UnauthorizedError(tokenProblem(error), true);
    }
    const service = this.partnerService(partnerId);
    this.remember(token, service, expiresAt, now);
    return service;
  }

  private partnerService(partnerId: string): IssuingService {
    let service = this.services.get(partnerId);
    if (!service) {
      const partner = this.engine.partners.find(partnerId);
      if (!partner) throw new UnauthorizedError('The access token names no Partner of this service', true);
      // The activity log names the OAuth client for what is done over REST.
      service = this.engine.serviceFor(partnerId, partner.client_id);
      this.services.set(partnerId, service);
      this.partners.set(service, partnerId);
    }
    return service;
  }

  /** The Partner id a service of `serviceFor` belongs to (for the request log). */
  partnerOf(service: IssuingService): string | undefined {
    return this.partners.get(service);
  }

  private remember(token: string, service: IssuingService, expiresAt: number, now: number): void {
    if (this.tokens.size >= CACHE_ENTRIES) {
      for (const [key, entry] of this.tokens) if (entry.expiresAt <= now) this.tokens.delete(key);
      if (this.tokens.size >= CACHE_ENTRIES) this.tokens.clear();
    }
    this.tokens.set(token, { service, expiresAt });
  }
}
