/**
 * A real REST server on loopback for the API tests: a real engine on a temporary data
 * directory (MemorySecretStore), two Partners with their client credentials, and small helpers
 * to get tokens and call endpoints with undici, reading status, headers and body.
 */
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { ERROR_STATUS, isErrorId } from '../../common/errors.js';
import { buildApp, startServer, type RunningServer, type ServeOptions } from '../../main/api/index.js';
import type { Engine, EngineConfig } from '../../main/engine/index.js';
import { REPO_ROOT, openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';

export const TOKEN_PATH = '/realms/proofdesk/protocol/openid-connect/token';

/** A JSON answer, inspected dynamically by the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the point of these tests is to look at what came over the wire
export type Json = any;

export interface ClientPartner {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  /** A fresh access token, fetched when the fixture started. */
  token: string;
}

export interface Answer<T = Json> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: T;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Default: Partner A's. */
  token?: string | null;
  headers?: Record<string, string>;
  /** A value sent as JSON (content-type application/json). */
  json?: unknown;
  /** A raw body (string, bytes, FormData or a stream) with its own content type in `headers`. */
  body?: string | Buffer | FormData | Dispatcher.DispatchOptions['body'];
}

export interface ApiFixture {
  fx: IssuingFixture;
  engine: Engine;
  dataDir: string;
  server: RunningServer;
  a: ClientPartner;
  b: ClientPartner;
  /** Calls `METHOD {baseUrl}{path}` (path starts with `/`). */
  call<T = Json>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** Calls an absolute URL (for the token endpoint and Host header tests). */
  raw<T = Json>(method: string, url: string, options?: CallOptions): Promise<Answer<T>>;
  token(clientId: string, clientSecret: string): Promise<Answer>;
  close(): Promise<void>;
}

export interface ApiFixtureOptions extends Partial<Omit<ServeOptions, 'engine'>> {
  engines?: EngineConfig[];
  /** Run the engine's scheduler (issuing and following jobs by itself). Default true. */
  scheduler?: boolean;
}

/** Calls `METHOD url` with undici: the token (else `defaultToken`) as a bearer, a JSON or raw body; the answer with its parsed body. */
export async function send<T>(method: string, url: string, options: CallOptions = {}, defaultToken?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? defaultToken : options.token;
  if (token !== null && token !== undefined) headers.authorization = `Bearer ${token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  if (body instanceof FormData) {
    const encoded = new Response(body);
    headers['content-type'] = encoded.headers.get('content-type')!;
    body = Buffer.from(await encoded.arrayBuffer());
  }
  const response = await undiciRequest(url, { method: method as Dispatcher.HttpMethod, headers, body: body as Dispatcher.DispatchOptions['body'] });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, body: parsed as T };
}

/** Asks the token endpoint for a token with client credentials (form-urlencoded). */
export function requestToken(authUrl: string, clientId: string, clientSecret: string): Promise<Answer> {
  return send('POST', `${authUrl}${TOKEN_PATH}`, {
    token: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
  });
}

/** Starts an engine and a server on it, with Partners A and B holding tokens. */
export async function startApiFixture(options: ApiFixtureOptions = {}): Promise<ApiFixture> {
  const { engines, scheduler = true, ...serve } = options;
  const fx = openIssuingEngine({ engines, issuing: scheduler ? { scheduler: true, tickMs: 100 } : {} });
  let server: RunningServer | undefined;
  try {
    server = await startServer({ engine: fx.engine, environment: 'demo', log: () => undefined, ...serve });
    const running = server;
    const partner = async (name: string): Promise<ClientPartner> => {
      const created = await fx.engine.addPartner({ name, issuingIntervalSeconds: 3600 });
      const answer = await requestToken(running.authUrl, created.client_id, created.client_secret);
      return { id: created.partner_id, name, clientId: created.client_id, clientSecret: created.client_secret, token: answer.body?.access_token };
    };
    const a = await partner('University A');
    const b = await partner('College B');
    return {
      fx,
      engine: fx.engine,
      dataDir: fx.dataDir,
      server,
      a,
      b,
      call: (method, path, callOptions) => send(method, `${running.baseUrl}${path}`, callOptions, a.token),
      raw: (method, url, callOptions) => send(method, url, callOptions, a.token),
      token: (clientId, clientSecret) => requestToken(running.authUrl, clientId, clientSecret),
      close: async () => {
        await running.close();
        await fx.close();
      },
    };
  } catch (error) {
    await server?.close();
    await fx.close();
    throw error;
  }
}

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Asserts the spec's `meta` object. */
export function expectMeta(meta: unknown): void {
  expect(meta).toMatchObject({ message: expect.any(String), version: VERSION, documentation: expect.stringMatching(/^http:\/\/.+\/api\/openapi\.json$/) });
  const m = meta as { last_update: string; date: string };
  expect(m.last_update).toMatch(HTTP_DATE);
  expect(m.date).toMatch(HTTP_DATE);
}

/** Asserts a success envelope with the given status; returns `result`. */
export function expectResult<T = Json>(answer: Answer, status: number): T {
  expect({ status: answer.status, body: answer.body }, answer.text).toMatchObject({ status, body: { result: expect.anything() } });
  expect(Object.keys(answer.body).sort()).toEqual(['meta', 'result']);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expectMeta(answer.body.meta);
  return answer.body.result as T;
}

/** Asserts the spec's "200, no content": `{result: null, meta}`. */
export function expectNoContent(answer: Answer): void {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.result).toBeNull();
  expectMeta(answer.body.meta);
}

/** Asserts an error body with the id and the id's status. */
export function expectError(answer: Answer, id: string): void {
  expect({ status: answer.status, id: answer.body?.error?.id }, answer.text).toEqual({ status: isErrorId(id) ? ERROR_STATUS[id] : -1, id });
  expect(Object.keys(answer.body).sort()).toEqual(['error', 'meta']);
  expect(typeof answer.body.error.message).toBe('string');
  expectMeta(answer.body.meta);
}

/** A multipart form with optional fields (in order) and a file. */
export function formOf(fields: [string, string][], file?: { data: string | Uint8Array; name?: string; field?: string }, fileFirst = false): FormData {
  const form = new FormData();
  const addFile = () => {
    if (file) form.append(file.field ?? 'file', new Blob([typeof file.data === 'string' ? file.data : Buffer.from(file.data)]), file.name ?? 'upload.bin');
  };
  if (fileFirst) addFile();
  for (const [name, value] of fields) form.append(name, value);
  if (!fileFirst) addFile();
  return form;
}

/** A demo server (driven without a socket) and the OpenAPI document it publishes; `close` ends both it and its engine. */
export async function publishedOpenApi(): Promise<{ app: FastifyInstance; doc: Json; close: () => Promise<void> }> {
  const fx = openIssuingEngine();
  const app = await buildApp({ engine: fx.engine, environment: 'demo', log: () => undefined });
  const answer = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(answer.statusCode).toBe(200);
  return {
    app,
    doc: answer.json(),
    close: async () => {
      await app.close();
      await fx.close();
      removeTempDirs();
    },
  };
}
