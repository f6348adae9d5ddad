/** Route schemas of the endpoints outside the spec's resources: engines and this document. */
import { ref } from './components.js';
import { envelope, type RouteSchema } from './common.js';

export const listEngines: RouteSchema = {
  operationId: 'listEngines',
  summary: 'List the blockchain engines',
  description: '`local` (the embedded dev chain) plus the configured EVM engines.',
  tags: ['Engines'],
  response: { 200: envelope({ type: 'array', items: ref('EngineInfo') }, 'The engines') },
  errors: [],
};

export const openapiDocument: RouteSchema = {
  operationId: 'getOpenApiDocument',
  summary: 'This OpenAPI 3.1 document',
  description: 'Served without authentication, and not wrapped in the envelope.',
  tags: ['Service'],
  response: { 200: { type: 'object', description: 'The OpenAPI document' } },
  errors: [],
  public: true,
};
