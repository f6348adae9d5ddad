/**
 * The operator's two checks, outside /api and without a token: `/healthz` (liveness: the
 * process answers) and `/readyz` (readiness: the engine's database answers, its schema is
 * current and issuing runs somewhere). A load balancer sends traffic to a node while /readyz is
 * 200 and restarts one whose /healthz does not answer.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../common/errors.js';
import type { ApiContext } from './context.js';
import { sendError, sendResult } from './envelope.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export function healthRoutes(app: FastifyInstance, ctx: ApiContext): void {
  // `anyHost`: a load balancer probes a node by its address, which need not be a name the Host check knows.
  const config = { public: true, anyHost: true };
  app.get(HEALTH_PATH, { config }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return sendResult(reply, ctx, 200, { status: 'ok' });
  });
  app.get(READY_PATH, { config }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const readiness = ctx.engine.readiness();
    if (!readiness.ready) return sendError(reply, ctx, new ServiceError('try_again_later', `Not ready: ${readiness.reason}`));
    return sendResult(reply, ctx, 200, { status: 'ready', database: readiness.database, migrations: readiness.migrations, scheduler: readiness.scheduler, leader: readiness.leader });
  });
}
