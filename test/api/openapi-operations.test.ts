/**
 * The published OpenAPI document keeps every operation, response status and error id of the one
 * published before fastify validated requests from the schemas (fixtures/openapi-operations.json,
 * generated from that server). The document may say more, never less.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/issuing-fixture.js';
import { publishedOpenApi, type Json } from './api-fixture.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `METHOD path` → status → the error ids its description names (none for a success). */
type Operations = Record<string, Record<string, string[]>>;

function operationsOf(doc: Json): Operations {
  const result: Operations = {};
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as { responses: Record<string, { description: string }> } | undefined;
      if (operation === undefined) continue;
      result[`${method.toUpperCase()} ${path}`] = Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => [
          status,
          status.startsWith('2') ? [] : [...response.description.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!),
        ]),
      );
    }
  }
  return result;
}

describe('the published OpenAPI document covers every operation, status and error id it published before', () => {
  const before = (JSON.parse(readFileSync(join(REPO_ROOT, 'test/api/fixtures/openapi-operations.json'), 'utf8')) as { operations: Operations }).operations;
  let now: Operations;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    let doc: Json;
    ({ doc, close } = await publishedOpenApi());
    now = operationsOf(doc);
  });
  afterAll(async () => {
    await close?.();
  });

  it('has every operation', () => {
    expect(Object.keys(before)).toHaveLength(30);
    expect(Object.keys(before).filter((op) => now[op] === undefined)).toEqual([]);
  });

  it('answers every status of every operation, naming every error id under the same status', () => {
    const lost: string[] = [];
    for (const [op, statuses] of Object.entries(before)) {
      for (const [status, ids] of Object.entries(statuses)) {
        const kept = now[op]?.[status];
        if (kept === undefined) lost.push(`${op} ${status}`);
        else for (const id of ids) if (!kept.includes(id)) lost.push(`${op} ${status} ${id}`);
      }
    }
    expect(lost).toEqual([]);
  });
});
