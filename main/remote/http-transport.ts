/**
 * One authenticated HTTP exchange with a remote service, done carefully: the bearer token on
 * every request and one retry with a fresh token after a 401; timeouts for the headers and
 * between body chunks; a cap on what is read; redirects never followed; retries with
 * exponential backoff and jitter only where repeating cannot do harm (GET, and any call the
 * service answered `try_again_later` or `too_many_requests`, which mean it did nothing). A
 * service's RateLimit fields pace the calls: when one says a window has nothing left, the
 * next call waits for it to reset rather than be refused.
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ServiceError } from '../../common/errors.js';
import type { RequestBody } from './multipart.js';
import { codeOf, declaredError, errorFromResponse, isWireFailure, readCapped, wireError } from './wire.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where tokens come from (TokenClient). */
export interface TokenSource {
  token(): Promise<string>;
  invalidate(token: string): void;
}

export interface HttpTransportOptions {
  /** The service's base address, e.g. `https://host/api` (no trailing slash needed). */
  baseUrl: string;
  dispatcher: Dispatcher;
  tokens: TokenSource;
  /** Wait at most this long for the headers, and between two chunks of a body. */
  timeoutMs: number;
  /** Largest answer read (bytes). */
  maxResponseBytes: number;
  /** Attempts of a retryable call, the first included. */
  tries: number;
  /** Backoff before retry n (0-based): baseDelayMs × 2^n, times a random 0.5–1 (jitter). */
  baseDelayMs: number;
  /** Longest wait between two attempts, also for a Retry-After header. */
  maxDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface Call {
  method: Method;
  /** Path below the base address, its segments already encoded, starting with `/`. */
  path: string;
  /** Serialised query string without `?` ('' for none). */
  query?: string;
  body?: RequestBody;
  /** This call's own timeout (slow operations such as revocation wait for a block). */
  timeoutMs?: number;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  url: string;
}

/** The request failed on the wire, or the service answered an error. */
type Failure =
  | { kind: 'wire'; error: ServiceError }
  /** `declared`: the service's own error body named the id (not mapped from a bare status). */
  | { kind: 'answer'; status: number; error: ServiceError; declared: boolean; retryAfterMs: number | undefined };

/** Times a request whose body could not be sent whole is sent again. */
const MAX_RESENDS = 2;

/**
 * The connection went away under a request that had not been sent whole: a write failed
 * (EPIPE: bytes of this request were not delivered), or the connection dropped while its body
 * was still being read. Either way the service never received the complete request.
 */
function isCutWhileSending(error: unknown, bodyEnded: boolean): boolean {
  const code = codeOf(error);
  return code === 'EPIPE' || (!bodyEnded && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'));
}

/** Largest error body read (an error body is small; anything bigger is cut off). */
const MAX_ERROR_BODY_BYTES = 256 * 1024;

function header(headers: Answer['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * How long until a window the service's RateLimit field (draft-ietf-httpapi-ratelimit-headers:
 * `"second";r=0;t=1, "day";r=997;t=4200`) says has nothing left resets; 0 when none is out.
 */
export function rateLimitWaitMs(headers: Answer['headers']): number {
  const value = header(headers, 'ratelimit');
  if (value === undefined) return 0;
  let wait = 0;
  for (const item of value.split(',')) {
    const remaining = /;\s*r=(\d+)/.exec(item);
    const reset = /;\s*t=(\d+)/.exec(item);
    if (remaining?.[1] === '0' && reset) wait = Math.max(wait, Number(reset[1]) * 1000);
  }
  return wait;
}

function retryAfterMs(headers: Answer['headers']): number | undefined {
  const value = header(headers, 'retry-after');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export class HttpTransport {
  private readonly base: URL;
  /** No call goes out before this time: a rate-limit window the service said is used up. */
  private pausedUntil = 0;

  constructor(private readonly options: HttpTransportOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, ''));
  }

  /** The full address of a path below the base (for messages). */
  urlOf(path: string, query = ''): string {
    return `${this.base.origin}${this.base.pathname}${path}${query ? `?${query}` : ''}`;
  }

  /**
   * Sends a call and hands a 2xx answer to `consume` (which reads its body); every other
   * answer becomes the ServiceError its body names. Retries as described above.
   */
  async send<T>(call: Call, consume: (answer: Answer) => Promise<T>): Promise<T> {
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    const url = this.urlOf(call.path, call.query);
    let attempt = 0;
    let renewedToken = false;
    let resent = 0;
    for (;;) {
      const paused = this.pausedUntil - Date.now();
      if (paused > 0) await this.sleep(paused);
      const token = await this.options.tokens.token();
      let failure: Failure;
      // Whether the request body was read to its end (a stream body; a buffer goes whole).
      let bodyEnded = true;
      try {
        const body = call.body ? call.body.open() : null;
        if (body instanceof Readable) {
          bodyEnded = false;
          body.once('end', () => (bodyEnded = true));
        }
        const response = await this.options.dispatcher.request({
          origin: this.base.origin,
          path: `${this.base.pathname}${call.path}${call.query ? `?${call.query}` : ''}`,
          method: call.method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(call.body ? { 'content-type': call.body.contentType } : {}),
            ...(call.body?.length !== undefined ? { 'content-length': String(call.body.length) } : {}),
          },
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const answer: Answer = { status: response.statusCode, headers: response.headers, body: response.body, url };
        this.pace(answer.headers);
        if (answer.status === 401 && !renewedToken && (call.body?.replayable ?? true)) {
          // The token may have expired early or the service restarted: once more with a new one.
          await response.body.dump();
          this.options.tokens.invalidate(token);
          renewedToken = true;
          continue;
        }
        if (answer.status >= 200 && answer.status < 300) return await consume(answer);
        failure = await this.failureOf(answer);
      } catch (error) {
        if (!(error instanceof ServiceError) && !isWireFailure(error)) throw wireError(error, url, timeoutMs);
        failure =
          error instanceof ServiceError ? { kind: 'answer', status: error.status, error, declared: false, retryAfterMs: undefined } : { kind: 'wire', error: wireError(error, url, timeoutMs) };
        // A service may refuse a request before reading its body (a 401, or a form field it
        // rejects ahead of a large file) and close the connection; our write can then fail
        // before its answer is read. The request never arrived whole, so nothing was done:
        // sending it again (at most twice) is safe for any method. The commonest early refusal
        // is of the token (the service restarted, say), so the first resend takes a new one.
        if (failure.kind === 'wire' && call.body?.replayable && resent < MAX_RESENDS && isCutWhileSending(error, bodyEnded)) {
          resent += 1;
          if (!renewedToken) {
            this.options.tokens.invalidate(token);
            renewedToken = true;
          }
          continue;
        }
      }
      if (!this.mayRetry(call, failure, attempt)) throw failure.error;
      const backoff = this.options.baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2);
      const wait = Math.min(this.options.maxDelayMs, Math.max(backoff, failure.kind === 'answer' ? (failure.retryAfterMs ?? 0) : 0));
      attempt += 1;
      await this.sleep(wait);
    }
  }

  private sleep(ms: number): Promise<void> {
    return (this.options.sleep ?? ((wait) => new Promise((resolve) => setTimeout(resolve, wait))))(ms);
  }

  /** Holds the next calls while a window is used up, unless that is longer than a retry would wait (a day's limit). */
  private pace(headers: Answer['headers']): void {
    const wait = rateLimitWaitMs(headers);
    if (wait > 0 && wait <= this.options.maxDelayMs) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + wait);
  }

  /** Sends a call whose answer is the `{result, meta}` envelope; returns `result`. */
  async json<T>(call: Call): Promise<T> {
    return this.send(call, async (answer) => {
      const text = await readCapped(answer.body, this.options.maxResponseBytes, answer.url);
      return resultOf(text, answer) as T;
    });
  }

  private async failureOf(answer: Answer): Promise<Failure> {
    if (answer.status >= 300 && answer.status < 400) {
      await answer.body.dump();
      const location = header(answer.headers, 'location');
      const error = new ServiceError(
        'internal_error',
        `${answer.url} answered a redirect (HTTP ${answer.status}${location ? ` to ${location}` : ''}); redirects are not followed: check the base URL`,
      );
      return { kind: 'answer', status: answer.status, error, declared: false, retryAfterMs: undefined };
    }
    let text: string;
    try {
      text = await readCapped(answer.body, MAX_ERROR_BODY_BYTES, answer.url);
    } catch (error) {
      if (error instanceof ServiceError) text = '';
      else throw error;
    }
    return {
      kind: 'answer',
      status: answer.status,
      error: errorFromResponse(answer.status, text, answer.url),
      declared: declaredError(text) !== undefined,
      retryAfterMs: retryAfterMs(answer.headers),
    };
  }

  private mayRetry(call: Call, failure: Failure, attempt: number): boolean {
    if (attempt + 1 >= this.options.tries) return false;
    if (call.body && !call.body.replayable) return false;
    // The service itself said it did nothing and to ask again: safe for every method.
    if (failure.kind === 'answer' && failure.declared && failure.error.id === 'try_again_later') return true;
    // Over a request limit (429 means the request was not handled, whoever answered it): again
    // once the window resets, unless that is further off than a retry waits (a used-up day).
    if (failure.kind === 'answer' && failure.error.id === 'too_many_requests') {
      return (failure.retryAfterMs ?? Infinity) <= this.options.maxDelayMs;
    }
    if (call.method !== 'GET') return false;
    if (failure.kind === 'wire') return true;
    // A gateway between us and the service failed, timed out or was unavailable.
    return failure.status === 502 || failure.status === 504 || (failure.status === 503 && failure.error.id !== 'insufficient_funds');
  }
}

/** The `result` of an envelope text; `null` for an empty answer (204). */
export function resultOf(text: string, answer: Pick<Answer, 'status' | 'url'>): unknown {
  if (text.trim() === '') {
    if (answer.status === 204) return null;
    throw new ServiceError('internal_error', `${answer.url} answered HTTP ${answer.status} with an empty body`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ServiceError('internal_error', `${answer.url} answered HTTP ${answer.status} with something other than JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || !Object.hasOwn(parsed, 'result')) {
    throw new ServiceError('internal_error', `${answer.url} answered HTTP ${answer.status} without the {result, meta} envelope`);
  }
  return (parsed as { result: unknown }).result;
}
