/**
 * The OpenAPI 3.1 document at /api/openapi.json (through buildApp and app.inject): every
 * endpoint of the spec is in it, every reference resolves, every path parameter is declared,
 * and every operation lists its error ids under the statuses of the error table.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, isErrorId } from '../../common/errors.js';
import { publishedOpenApi, type Json } from './api-fixture.js';

/** The spec's endpoints (paths relative to the base URL), plus DESIGN.md's GET /engines and GET /engines/{engine}. */
const SPEC_ENDPOINTS = [
  'POST /files',
  'GET /files',
  'GET /files/{file_hash}',
  'POST /credentials',
  'POST /credentials/schedule/{engine}',
  'GET /credentials',
  'GET /credentials/{uid}',
  'PATCH /credentials',
  'PUT /credentials',
  'PATCH /credentials/{uid}/delete_tag',
  'POST /credentials/schedule',
  'DELETE /credentials/{uid}/unschedule/{engine}',
  'POST /credentials/{uid}/revoke/{engine}',
  'GET /jobs',
  'GET /jobs/{uid}',
  'PATCH /jobs',
  'PUT /jobs',
  'GET /jobs/{uid}/credentials',
  'GET /jobs/{uid}/certificates',
  'POST /jobs/immediate',
  'GET /certificates',
  'GET /certificates/{uid}/download',
  'POST /certificates/{uid}/revoke',
  'GET /verify/{certificate_uid}',
  'GET /verify/credential/{credential_uid}',
  'POST /verify/upload/certificate',
  'POST /verify/upload/file',
  'GET /engines',
  'GET /engines/{engine}',
  // The activity log, an extension (docs/api.md).
  'GET /activity',
];

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, Json> };
};

describe('the OpenAPI document', () => {
  let app: FastifyInstance;
  let doc: Doc;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ app, doc, close } = await publishedOpenApi());
  });
  afterAll(async () => {
    await close?.();
  });

  it('is OpenAPI 3.1 with the API base as its server and OAuth client credentials', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toMatch(/\/api$/);
    expect(doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toMatch(/\/realms\/proofdesk\/protocol\/openid-connect\/token$/);
  });

  it('has every endpoint of the spec, and nothing it does not serve', async () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.filter((e) => !e.includes('/realms/')).sort()).toEqual([...SPEC_ENDPOINTS].sort());
    for (const endpoint of SPEC_ENDPOINTS) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const url = `/api${path.replace(/\{[^}]+\}/g, 'x')}`;
      const answer = await app.inject({ method: method as 'GET', url });
      // Served (so without a token: 401), not 404 / 405 from the router.
      expect({ endpoint, status: answer.statusCode, id: answer.json().error.id }).toEqual({ endpoint, status: 401, id: 'unauthorized' });
    }
  });

  it('resolves every $ref, declares every path parameter and uses unique operation ids', () => {
    const refs: string[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (key === '$ref' && typeof child === 'string') refs.push(child);
          else walk(child);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(30);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    }
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'servers') continue;
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        const declared = (op.parameters ?? []).filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name);
        expect(declared.sort(), `${method} ${path}`).toEqual([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort());
      }
    }
  });

  it('lists each error id under its status, 401 on every authenticated operation', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'servers') continue;
        const statuses = Object.keys(op.responses);
        expect(statuses.some((s) => s.startsWith('2')), `${method} ${path}`).toBe(true);
        if (!path.includes('/realms/')) expect(statuses, `${method} ${path}`).toContain('401');
        for (const [status, response] of Object.entries(op.responses as Record<string, { description: string }>)) {
          if (status.startsWith('2')) continue;
          for (const [, id] of response.description.matchAll(/`([a-z_]+)`/g)) {
            expect(isErrorId(id) && String(ERROR_STATUS[id]), `${method} ${path}: ${id}`).toBe(status);
          }
        }
      }
    }
    expect(doc.paths['/credentials/schedule/{engine}']!.post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(doc.paths['/credentials']!.post.requestBody.content['application/json'].schema.required).toEqual(['title', 'metadata']);
  });

  it('answers without a token and in no envelope', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { authorization: 'Bearer nonsense' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().result).toBeUndefined();
  });
});
