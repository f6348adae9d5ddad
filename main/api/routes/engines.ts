/** GET /engines and GET /engines/<engine> (DESIGN.md: the engine identifiers the spec leaves unshown). */
import { Type } from '@sinclair/typebox';
import { ref } from '../../../common/schemas/primitives.js';
import { EngineInfoSchema } from '../../../common/schemas/resources.js';
import { envelope, pathParams, endpoints } from './route.js';

export const engineRoutes = endpoints('Engines', [
  {
    method: 'GET',
    url: '/engines',
    operationId: 'listEngines',
    summary: 'List the blockchain engines',
    description: '`local` (the embedded dev chain) plus the configured EVM engines.',
    response: { 200: envelope(Type.Array(ref(EngineInfoSchema)), 'The engines') },
    errors: [],
    handle: (request) => request.service.listEngines(),
  },
  {
    method: 'GET',
    url: '/engines/:engine',
    operationId: 'getEngine',
    summary: 'Get a blockchain engine',
    description: 'The engine as GET /engines lists it, or, where this service does not offer it, the reason (`local` on a node whose data directory is not the home of the database\'s local dev chain says so).',
    params: pathParams({ engine: 'The engine identifier' }),
    response: { 200: envelope(ref(EngineInfoSchema), 'The engine') },
    errors: ['wrong_blockchain_engine'],
    handle: (request) => request.service.getEngine(request.params.engine!),
  },
]);
