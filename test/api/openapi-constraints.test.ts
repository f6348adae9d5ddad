/**
 * The published OpenAPI document says what the server refuses, no more and no less, for the
 * constraints it declares: for every operation, requests built from each declared constraint
 * (a value that breaks it and one that keeps it: a non-date where a date is declared, an empty
 * list where `minItems` is 1, a value outside an `enum`, a number under its `minimum`) are
 * checked by ajv against the document itself and sent to the server; the document refuses a
 * request iff the server does. A constraint the server enforces but the document leaves out
 * (an empty list refused with no `minItems`) shows up as a request the document accepts and the
 * server refuses.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, Job } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectResult, formOf, startApiFixture, type Answer, type ApiFixture, type Json } from './api-fixture.js';

/** The ids that mean "this request has the wrong shape" (the rest are about data: 404, 409). */
const SHAPE_IDS = new Set(['no_json', 'missing_field', 'invalid_value', 'invalid_tag', 'duplicated_tags', 'invalid_expiry_date', 'wrong_pagination_argument', 'missing_file_and_metadata']);

interface Probe {
  where: string;
  /** What the document says. */
  valid: boolean;
  errors: string;
  answer: Answer;
}

/** Refused for its shape: a 4xx with an id of SHAPE_IDS. */
function refusedByServer(answer: Answer): boolean {
  return answer.status >= 400 && answer.status < 500 && SHAPE_IDS.has(answer.body?.error?.id);
}

/** Does a parameter or property schema (after $ref) declare a date format, directly or in anyOf/oneOf? */
function declaresDate(schema: Json): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (schema.format === 'date' || schema.format === 'date-time') return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(declaresDate);
}

const DATE_PROBES = ['not-a-date', '2026-01-31', '2026-01-31T12:00:00Z', '2026-01-31T12:00:00.123+02:00', '2026-02-31', '2026-01-31T25:00:00Z', '31/01/2026', ''];

describe('the OpenAPI document refuses what the server refuses', () => {
  let api: ApiFixture;
  let doc: Json;
  let ajv: Ajv2020;
  let credential: Credential;
  let job: Job;

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false });
    doc = (await api.call('GET', '/openapi.json', { token: null })).body;
    ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: false, validateFormats: true });
    // A CommonJS module: its function is `default` of what the import gives.
    formats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    credential = expectResult(await api.call('POST', '/credentials', { json: { title: 'T', metadata: { a: 1 } } }), 201);
    job = expectResult(await api.call('POST', '/credentials/schedule', { json: { engine: 'local', credentials: [credential.uid] } }), 201);
  });
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  /** Validates `value` against the schema at a JSON pointer of the document. */
  function check(pointer: string, value: unknown): { valid: boolean; errors: string } {
    const validate = ajv.getSchema(`openapi.json#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    const valid = validate(value) as boolean;
    return { valid, errors: valid ? '' : ajv.errorsText(validate.errors) };
  }

  const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

  function operations(): { method: string; path: string; op: Json; pointer: string }[] {
    return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete']
        .filter((m) => item[m] && !item.servers)
        .map((m) => ({ method: m.toUpperCase(), path, op: item[m], pointer: `/paths/${escape(path)}/${m}` })),
    );
  }

  /** The path with its parameters filled in with values of the fixture (the request is about its query or body). */
  function concrete(path: string): string {
    return path
      .replace('{engine}', 'local')
      .replace('{file_hash}', '0'.repeat(64))
      .replace(/\{[^}]+\}/g, path.startsWith('/jobs/') ? job.uid : credential.uid);
  }

  /** A request that is valid but for its query: a multipart endpoint gets a form with a file. */
  function query(o: { method: string; path: string; op: Json }, name: string, value: unknown): Promise<Answer> {
    const multipart = o.op.requestBody?.content?.['multipart/form-data'];
    return api.call(o.method, `${concrete(o.path)}?${name}=${encodeURIComponent(String(value))}`, multipart ? { body: formOf([], { data: 'a file no certificate carries' }) } : {});
  }

  function expectAgreement(probes: Probe[]): void {
    const disagreements = probes
      .filter((p) => p.valid === refusedByServer(p.answer))
      .map((p) => `${p.where}: the document ${p.valid ? 'accepts' : `refuses (${p.errors})`}, the server answers ${p.answer.status} ${p.answer.text.slice(0, 200)}`);
    expect(disagreements).toEqual([]);
  }

  it('declares every date query parameter as a date, with the server refusing exactly the non-dates', async () => {
    const probes: Probe[] = [];
    for (const o of operations()) {
      for (const [index, param] of ((o.op.parameters ?? []) as Json[]).entries()) {
        if (param.in !== 'query' || !/date/.test(param.name)) continue;
        expect(declaresDate(param.schema), `${o.method} ${o.path} ?${param.name} declares a date format`).toBe(true);
        for (const value of DATE_PROBES) {
          if (value === '') continue; // an empty filter is no filter, on both sides (see below)
          const answer = await query(o, param.name, value);
          probes.push({ where: `${o.method} ${o.path}?${param.name}=${value}`, ...check(`${o.pointer}/parameters/${index}/schema`, value), answer });
        }
      }
    }
    expect(probes.length).toBeGreaterThanOrEqual(10 * (DATE_PROBES.length - 1));
    expectAgreement(probes);
  });

  it('declares the enums and minimums of query parameters as the server enforces them', async () => {
    const probes: Probe[] = [];
    for (const o of operations()) {
      for (const [index, param] of ((o.op.parameters ?? []) as Json[]).entries()) {
        if (param.in !== 'query') continue;
        const values: unknown[] = [];
        if (Array.isArray(param.schema.enum)) values.push(...param.schema.enum, 'not-one-of-them');
        if (typeof param.schema.minimum === 'number') values.push(param.schema.minimum, param.schema.minimum - 1);
        for (const value of values) {
          const answer = await query(o, param.name, value);
          probes.push({ where: `${o.method} ${o.path}?${param.name}=${String(value)}`, ...check(`${o.pointer}/parameters/${index}/schema`, value), answer });
        }
      }
    }
    expect(probes.length).toBeGreaterThan(30);
    expectAgreement(probes);
  });

  it('declares minItems on every list the server refuses empty, and none where it takes an empty list', async () => {
    /** A body that is valid but for the list under test, from the fixture's credential and job. */
    const bodies: Record<string, (list: unknown[]) => unknown> = {
      'PATCH /credentials': (list) => ({ credentials: list }),
      'PUT /credentials': (list) => ({ credentials: list }),
      'PATCH /jobs': (list) => ({ jobs: list }),
      'PUT /jobs': (list) => ({ jobs: list }),
      'POST /credentials/schedule': (list) => ({ engine: 'local', credentials: list }),
      'POST /credentials': (list) => ({ title: 'T', metadata: { a: 1 }, tags: list }),
    };
    const items: Record<string, unknown> = {
      'PATCH /credentials': { credential_uid: credential.uid, tags: ['tag-one'] },
      'PUT /credentials': { credential_uid: credential.uid, tags: ['tag-one'] },
      'PATCH /jobs': { job_uid: job.uid, tags: ['tag-one'] },
      'PUT /jobs': { job_uid: job.uid, tags: ['tag-one'] },
      'POST /credentials/schedule': credential.uid,
      'POST /credentials': 'tag-one',
    };
    const probes: Probe[] = [];
    for (const o of operations()) {
      const media = o.op.requestBody?.content?.['application/json'];
      if (!media) continue;
      const key = `${o.method} ${o.path}`;
      const body = bodies[key];
      if (!body) {
        // Every JSON body with a top-level list must be probed here.
        const lists = Object.entries((media.schema.properties ?? {}) as Record<string, Json>).filter(([, p]) => p.type === 'array');
        expect(lists.map(([name]) => name), `${key} has a list in its body: add it to this test`).toEqual([]);
        continue;
      }
      for (const list of [[], [items[key]]]) {
        const value = body(list);
        const answer = await api.call(o.method, o.path, { json: value });
        probes.push({ where: `${key} ${JSON.stringify(value)}`, ...check(`${o.pointer}/requestBody/content/application~1json/schema`, value), answer });
      }
    }
    expect(probes.length).toBe(12);
    expectAgreement(probes);
  });

  it('declares expiry_date as a date or date-time, as the server takes it', async () => {
    const probes: Probe[] = [];
    const pointer = `/paths/${escape('/credentials')}/post/requestBody/content/application~1json/schema`;
    for (const expiry of ['2099-01-31', '2099-01-31T12:00:00Z', 'next year', '2099-02-31', null]) {
      const value = { title: 'T', metadata: { a: 1 }, expiry_date: expiry };
      probes.push({ where: `POST /credentials expiry_date ${String(expiry)}`, ...check(pointer, value), answer: await api.call('POST', '/credentials', { json: value }) });
    }
    expectAgreement(probes);
  });
});
