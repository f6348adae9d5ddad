/**
 * Request bodies: JSON for the JSON endpoints (parsed here, so a broken body is the spec's
 * `no_json` rather than fastify's own error), multipart forms for uploads (multipart.ts), and
 * nothing else. A body of any other type is left unread: a JSON endpoint then has no body and
 * the engine answers `no_json`; an endpoint that takes no body ignores it.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../common/errors.js';

/** Deeper JSON than this is refused: no credential needs it, and deep values cost stack later. */
export const MAX_JSON_DEPTH = 256;

/**
 * Refuses keys that would reach an object's prototype once the value is merged or assigned
 * somewhere (`__proto__`, `constructor.prototype`), and nesting deeper than MAX_JSON_DEPTH.
 * Walks with an explicit stack, so a deep value cannot overflow it.
 */
export function checkJson(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_JSON_DEPTH) throw new ServiceError('invalid_value', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (const item of v) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[key];
      if (key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'))) {
        throw new ServiceError('invalid_value', `The JSON body has a forbidden key "${key}"`);
      }
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

/** Parses a JSON body: `no_json` when it is not JSON, `invalid_value` for forbidden keys. */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError('no_json', 'The request body is not valid JSON');
  }
  checkJson(value);
  return value;
}

/** Replaces fastify's body parsers with ours (the multipart plugin adds its own afterwards). */
export function installContentTypes(app: FastifyInstance, jsonLimit: number): void {
  app.removeAllContentTypeParsers();
  // Left unread on purpose (see above); a request body is discarded when the answer is sent.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: jsonLimit }, (request, body, done) => {
    const text = body as string;
    // Endpoints without a JSON body ignore whatever was sent; an empty body is no body.
    if (request.routeOptions.config?.body !== 'json' || text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(text));
    } catch (error) {
      done(error as Error);
    }
  });
}
