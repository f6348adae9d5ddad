/**
 * A live server's per-Partner request limits (requests per second and per UTC day), one
 * limiter per `serve` node. Each node takes grants of a few requests from the database
 * (main/engine/request-limits.ts) and counts them out, so all nodes together answer at most
 * the limit. Every answer to a limited Partner carries the IETF RateLimit fields
 * (draft-ietf-httpapi-ratelimit-headers) so clients can pace themselves; a refusal is 429
 * `too_many_requests` with Retry-After.
 */
import { ServiceError } from '../../common/errors.js';
import type { Clock, Engine } from '../engine/index.js';
import { DAY_MS, SECOND_MS, windowStart, type Grant, type RequestLimits } from '../engine/request-limits.js';

/** How long a node trusts the limits it read (a change reaches every node within this). */
const LIMITS_TTL_MS = 5_000;

/** A grant's size: about a tenth of a second's limit, so a node writes ≤ ~10 times a second per Partner. */
function grantSize(limits: RequestLimits): number {
  if (limits.perSecond !== null) return Math.max(1, Math.floor(limits.perSecond / 10));
  return Math.max(1, Math.min(100, Math.floor(limits.perDay! / 1000)));
}

interface Held {
  /** The windows the grant belongs to. */
  secondStart: number;
  dayStart: number;
  /** Requests of the grant not made yet. */
  left: number;
  /** What the database had left for all nodes when the grant was taken. */
  secondLeft: number | null;
  dayLeft: number | null;
  /** After a grant of nothing: refused here, without asking the database, until this time. */
  refuseUntil: number;
}

/** The header fields and, for a refusal, the error an answer carries. */
export interface Admission {
  headers: Record<string, string>;
  refusal?: ServiceError;
}

export class RequestLimiter {
  private readonly limits = new Map<string, { limits: RequestLimits; readAt: number }>();
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly engine: Pick<Engine, 'partners'>,
    private readonly clock: Clock,
  ) {}

  /** Counts one request of the Partner; a refusal leaves every count as it was. */
  admit(partnerId: string): Admission {
    const now = this.clock.now();
    const limits = this.limitsOf(partnerId, now);
    if (limits.perSecond === null && limits.perDay === null) return { headers: {} };
    let held = this.held.get(partnerId);
    const secondStart = windowStart(now, SECOND_MS);
    const dayStart = windowStart(now, DAY_MS);
    const ended = (h: Held) => h.dayStart !== dayStart || (limits.perSecond !== null && h.secondStart !== secondStart);
    if (held === undefined || ended(held) || (held.left === 0 && now >= held.refuseUntil)) {
      // A per-second grant ends with its second; what it did not use goes back to the day.
      const unused = held !== undefined && held.left > 0 ? { dayStart: held.dayStart, count: held.left } : undefined;
      const grant: Grant = this.engine.partners.claimRequests(partnerId, limits, now, grantSize(limits), unused);
      // Refusals within the same second need no second look: a flood of them costs no writes.
      const refuseUntil = grant.count === 0 ? secondStart + SECOND_MS : 0;
      held = { secondStart, dayStart, left: grant.count, secondLeft: grant.secondLeft, dayLeft: grant.dayLeft, refuseUntil };
      this.held.set(partnerId, held);
    }
    const refused = held.left === 0;
    if (!refused) held.left -= 1;
    const secondReset = Math.max(1, Math.ceil((secondStart + SECOND_MS - now) / 1000));
    const dayReset = Math.max(1, Math.ceil((dayStart + DAY_MS - now) / 1000));
    const headers = rateLimitFields(limits, {
      second: held.secondLeft === null ? null : held.secondLeft + held.left,
      day: held.dayLeft === null ? null : held.dayLeft + held.left,
      secondReset,
      dayReset,
    });
    if (!refused) return { headers };
    // The day is out when it has nothing left; otherwise it is this second.
    const dayOut = held.dayLeft !== null && held.dayLeft <= 0;
    const retryAfter = dayOut ? dayReset : secondReset;
    headers['retry-after'] = String(retryAfter);
    const message = dayOut
      ? `Too many requests: this Partner may make ${requests(limits.perDay!)} per day (UTC); try again in ${waitText(retryAfter)}`
      : `Too many requests: this Partner may make ${requests(limits.perSecond!)} per second; try again in ${waitText(retryAfter)}`;
    return { headers, refusal: new ServiceError('too_many_requests', message) };
  }

  private limitsOf(partnerId: string, now: number): RequestLimits {
    const known = this.limits.get(partnerId);
    if (known && now - known.readAt < LIMITS_TTL_MS) return known.limits;
    const limits = this.engine.partners.requestLimits(partnerId);
    this.limits.set(partnerId, { limits, readAt: now });
    return limits;
  }
}

function requests(n: number): string {
  return n === 1 ? '1 request' : `${n} requests`;
}

/** `1 s`, `42 s`, `3 h 12 min`. */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * RateLimit-Policy (the quotas) and RateLimit (what is left, and seconds until the window
 * resets), in the draft's structured-field syntax: `"second";q=10;w=1, "day";q=5000;w=86400`.
 */
function rateLimitFields(
  limits: RequestLimits,
  left: { second: number | null; day: number | null; secondReset: number; dayReset: number },
): Record<string, string> {
  const policy: string[] = [];
  const state: string[] = [];
  if (limits.perSecond !== null) {
    policy.push(`"second";q=${limits.perSecond};w=1`);
    state.push(`"second";r=${Math.max(0, left.second ?? 0)};t=${left.secondReset}`);
  }
  if (limits.perDay !== null) {
    policy.push(`"day";q=${limits.perDay};w=86400`);
    state.push(`"day";r=${Math.max(0, left.day ?? 0)};t=${left.dayReset}`);
  }
  return { 'ratelimit-policy': policy.join(', '), ratelimit: state.join(', ') };
}
