/** Route schemas of the endpoints outside the spec's resources: engines and the OpenAPI document. */
import { Type } from '@sinclair/typebox';
import { ref } from '../../../common/schemas/primitives.js';
import { EngineInfoSchema } from '../../../common/schemas/resources.js';
import { envelope, pathParams, route } from './common.js';

export const listEngines = route({
  operationId: 'listEngines',
  summary: 'List the blockchain engines',
  description: '`local` (the embedded dev chain) plus the configured EVM engines.',
  tags: ['Engines'],
  response: { 200: envelope(Type.Array(ref(EngineInfoSchema)), 'The engines') },
  errors: [],
});

export const getEngine = route({
  operationId: 'getEngine',
  summary: 'Get a blockchain engine',
  description: 'The engine as GET /engines lists it, or, where this service does not offer it, the reason (`local` on a node whose data directory is not the home of the database\'s local dev chain says so).',
  tags: ['Engines'],
  params: pathParams({ engine: 'The engine identifier' }),
  response: { 200: envelope(ref(EngineInfoSchema), 'The engine') },
  errors: ['wrong_blockchain_engine'],
});

export const openapiDocument = route({
  operationId: 'getOpenApiDocument',
  summary: 'This OpenAPI 3.1 document',
  description: 'Served without authentication, and not wrapped in the envelope.',
  tags: ['Service'],
  response: { 200: Type.Object({}, { description: 'The OpenAPI document' }) },
  errors: [],
  public: true,
  hide: true,
});
