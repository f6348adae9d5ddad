/**
 * OAuth 2.0 client credentials (the spec's Authentication section): the token is fetched from
 * `{authUrl}/realms/<realm>/protocol/openid-connect/token`, cached, and renewed shortly before
 * it expires. Concurrent callers share one token request.
 */
import type { Dispatcher } from 'undici';
import { ServiceError } from '../../common/errors.js';
import { readCapped, tokenErrorFromResponse, wireError } from './wire.js';

export interface TokenClientOptions {
  /** The OAuth server's address; the token endpoint is `{authUrl}/realms/<realm>/protocol/openid-connect/token`. */
  authUrl: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** Renew this long before expiry (at most half the token's lifetime). Default 30 s. */
  renewMarginMs?: number;
  /** Lifetime assumed when the token response gives no `expires_in`. Default 60 s. */
  defaultLifetimeS?: number;
  /** Tries for a token request that got no answer or a 503 (backoff between them). Default 3. */
  tries?: number;
  /** The clock token renewal goes by (tests move it); default Date.now. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface CachedToken {
  value: string;
  /** When to fetch a new one (before the real expiry). */
  renewAt: number;
}

const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

export class TokenClient {
  readonly tokenUrl: string;
  private cached: CachedToken | undefined;
  private inFlight: Promise<string> | undefined;
  /** Token requests sent (for diagnostics and tests). */
  requests = 0;

  constructor(private readonly options: TokenClientOptions) {
    this.tokenUrl = `${options.authUrl.replace(/\/+$/, '')}/realms/${encodeURIComponent(options.realm)}/protocol/openid-connect/token`;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** A token that is valid for a while yet: the cached one, or a new one. */
  async token(): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.value;
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Forgets `token` (the service refused it); a newer token fetched meanwhile is kept. */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
  }

  private async fetchToken(): Promise<string> {
    const tries = this.options.tries ?? 3;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.requestOnce();
      } catch (error) {
        const retry = error instanceof ServiceError && error.id === 'try_again_later' && attempt + 1 < tries;
        if (!retry) throw error;
        const delay = 200 * 2 ** attempt * (0.5 + Math.random() / 2);
        await (this.options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))))(delay);
      }
    }
  }

  private async requestOnce(): Promise<string> {
    const url = new URL(this.tokenUrl);
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: this.options.clientId, client_secret: this.options.clientSecret });
    const sentAt = this.now();
    this.requests += 1;
    let text: string;
    let status: number;
    try {
      const response = await this.options.dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      status = response.statusCode;
      text = await readCapped(response.body, MAX_TOKEN_RESPONSE_BYTES, this.tokenUrl);
    } catch (error) {
      throw wireError(error, this.tokenUrl, this.options.timeoutMs);
    }
    if (status < 200 || status >= 300) throw tokenErrorFromResponse(status, text, this.tokenUrl);
    let body: { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new ServiceError('internal_error', `The token endpoint ${this.tokenUrl} answered something other than JSON`);
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      throw new ServiceError('internal_error', `The token endpoint ${this.tokenUrl} answered no access_token`);
    }
    if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer') {
      throw new ServiceError('internal_error', `The token endpoint ${this.tokenUrl} answered a ${body.token_type} token; only Bearer tokens are supported`);
    }
    const lifetimeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : (this.options.defaultLifetimeS ?? 60)) * 1000;
    const margin = Math.min(this.options.renewMarginMs ?? 30_000, lifetimeMs / 2);
    // Counted from when the request was sent: the server's clock started no earlier.
    this.cached = { value: body.access_token, renewAt: sentAt + lifetimeMs - margin };
    return body.access_token;
  }
}
