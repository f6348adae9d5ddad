/** Route schemas of the endpoints outside the spec's resources: engines and the OpenAPI document. */
import { Type } from '@sinclair/typebox';
import { ref } from '../../../common/schemas/primitives.js';
import { EngineInfoSchema } from '../../../common/schemas/resources.js';
import { envelope, route } from './common.js';

export const listEngines = route({
  operationId: 'listEngines',
  summary: 'List the blockchain engines',
  description: '`local` (the embedded dev chain) plus the configured EVM engines.',
  tags: ['Engines'],
  response: { 200: envelope(Type.Array(ref(EngineInfoSchema)), 'The engines') },
  errors: [],
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
