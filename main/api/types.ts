/** What the server adds to fastify's request and route config types. */
import type { IssuingService } from '../../common/issuing-service.js';

/** How a route reads its body: JSON, an upload form, the token form, or not at all. */
type BodyKind = 'json' | 'multipart' | 'form' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    /** The calling Partner's service (set by the bearer token check of every /api route). */
    service: IssuingService;
    /** The calling Partner's id once its token was checked (for the request log). */
    partnerId?: string;
  }
  interface FastifyContextConfig {
    body?: BodyKind;
    /** No bearer token needed. */
    public?: boolean;
    /** Answered whatever the Host header (the health checks, which reveal nothing). */
    anyHost?: boolean;
  }
}
