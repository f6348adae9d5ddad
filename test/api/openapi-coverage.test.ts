/**
 * The published OpenAPI document keeps every promise of the one it replaced
 * (fixtures/openapi-before.json, the hand-written generator's document): every operation
 * (method and path), every response status of each, and every error id under its status are
 * still there. The new document may say more, never less; its info, servers and security
 * schemes are the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/issuing-fixture.js';
import { publishedOpenApi, type Json } from './api-fixture.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `METHOD path` of every operation. */
function operations(doc: Json): Map<string, Json> {
  const result = new Map<string, Json>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) if (item[method]) result.set(`${method.toUpperCase()} ${path}`, item[method]);
  }
  return result;
}

/** `METHOD path STATUS` of every response of every operation. */
function statuses(doc: Json): Set<string> {
  return new Set([...operations(doc)].flatMap(([op, o]) => Object.keys(o.responses as object).map((status) => `${op} ${status}`)));
}

/** `METHOD path STATUS id` of every error id an error response names (`id` in backticks in its description). */
function errorIds(doc: Json): Set<string> {
  return new Set(
    [...operations(doc)].flatMap(([op, o]) =>
      Object.entries(o.responses as Record<string, { description: string }>)
        .filter(([status]) => !status.startsWith('2'))
        .flatMap(([status, response]) => [...response.description.matchAll(/`([a-z_]+)`/g)].map((m) => `${op} ${status} ${m[1]}`)),
    ),
  );
}

/** What of `before` is not in `after`. */
function missing(before: Iterable<string>, after: Set<string>): string[] {
  return [...before].filter((entry) => !after.has(entry)).sort();
}

describe('the generated OpenAPI document covers the one it replaced', () => {
  const before: Json = JSON.parse(readFileSync(join(REPO_ROOT, 'test/api/fixtures/openapi-before.json'), 'utf8'));
  let doc: Json;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ doc, close } = await publishedOpenApi());
  });
  afterAll(async () => {
    await close?.();
  });

  it('has every operation', () => {
    expect(operations(before).size).toBe(29);
    expect(missing(operations(before).keys(), new Set(operations(doc).keys()))).toEqual([]);
  });

  it('has every response status of every operation', () => {
    expect(statuses(before).size).toBeGreaterThan(150);
    expect(missing(statuses(before), statuses(doc))).toEqual([]);
  });

  it('names every error id under the same status of the same operation', () => {
    expect(errorIds(before).size).toBeGreaterThan(200);
    expect(missing(errorIds(before), errorIds(doc))).toEqual([]);
  });

  it('keeps the title, servers and security schemes', () => {
    expect(doc.openapi).toBe(before.openapi);
    expect(doc.info.title).toBe(before.info.title);
    expect(doc.servers).toEqual(before.servers);
    expect(doc.security).toEqual(before.security);
    expect(doc.components.securitySchemes).toEqual(before.components.securitySchemes);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(Object.keys(before.components.schemas)));
  });
});
