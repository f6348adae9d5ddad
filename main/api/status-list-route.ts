/**
 * The public status lists: `GET /status/<partner id>/<list>`, a Partner's Bitstring Status
 * List credential, where the `credentialStatus` of its Verifiable Credentials points
 * (docs/verifiable-credentials.md#revocation-status). No token: any verifier must be able to
 * fetch it. Answered from the list signed last unless a revocation changed it since.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../common/errors.js';
import type { Engine } from '../engine/index.js';
import { publishedStatusList } from '../engine/vc/status-list-credential.js';

/** How long a verifier or proxy may keep a list: a revocation shows within this time. */
export const STATUS_LIST_MAX_AGE_S = 60;

/** Registers the status list route on the app (outside /api and its token check). */
export function statusListRoute(app: FastifyInstance, engine: Engine): void {
  app.get<{ Params: { partner: string; list: string } }>('/status/:partner/:list', async (request, reply) => {
    const { partner, list } = request.params;
    // Another data directory's, a malformed or an unknown id alike: there is no such list here.
    const number = /^[1-9]\d{0,8}$/.test(list) ? Number(list) : undefined;
    if (number === undefined || engine.partners.find(partner) === undefined) throw new ServiceError('not_found', 'No such status list');
    const published = await publishedStatusList(engine.scopeFor(partner), number);
    return reply.header('cache-control', `public, max-age=${STATUS_LIST_MAX_AGE_S}`).type('application/vc').send(published.text);
  });
}
