/**
 * fastify's validation of the /api routes, from the TypeBox schemas each route declares
 * (main/api/routes/*, built from common/schemas), and the formatter that turns a refusal into
 * the spec's error id.
 *
 * fastify checks the request's shape: a JSON body is a JSON object, and each query parameter
 * is given once (a tag filter may be repeated: its values are joined). What the fields hold
 * (required and unknown fields, uids, tags, dates, pagination values, metadata) the engine's
 * parsers check, in one place for every entry point: there the answer depends on look-ups
 * made between the checks (an unknown credential is `missing_credential` before its bad tag
 * is `invalid_tag`, a malformed file hash is `missing_file`, an unknown engine is
 * `wrong_blockchain_engine` before an empty list), and the embedded service (app, CLI) runs
 * the same parsers, so both refuse bad input alike, to the message.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { SchemaErrorDataVar } from 'fastify/types/schema.js';
import { ServiceError } from '../../common/errors.js';
import { PAGINATION_PARAMETERS } from '../../common/schemas/primitives.js';
import { API_PREFIX } from './openapi-document.js';

interface JsonSchema {
  type?: string | string[];
}

/**
 * What fastify checks of a route's query string: each parameter is one text (the raw query
 * holds a list when a parameter is repeated), but a tag filter (`*_tags`), which takes a list.
 */
const QUERY_SHAPE = Type.Record(Type.RegExp(/_tags$/), Type.Unknown(), { additionalProperties: Type.String() });

/** What fastify checks of a JSON body: that it is a JSON object (not a list, text or null). */
const BODY_SHAPE = Type.Object({});

/**
 * The part of a route's schema fastify checks, compiled by TypeBox. Only the /api routes: the
 * token endpoint answers its form's problems itself, as OAuth 2.0 says (`invalid_value`).
 */
function shapeOf(schema: JsonSchema, httpPart: string | undefined, url: string): TSchema | undefined {
  if (!url.startsWith(`${API_PREFIX}/`)) return undefined;
  if (httpPart === 'querystring') return QUERY_SHAPE;
  if (httpPart === 'body' && schema.type === 'object') return BODY_SHAPE;
  return undefined;
}

/** fastify's validator compiler for the routes of the server. */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart, url }) => {
  const shape = shapeOf(schema as JsonSchema, httpPart, url);
  if (shape === undefined) return () => true;
  let check: TypeCheck<TSchema> | undefined;
  return (value) => {
    check ??= TypeCompiler.Compile(shape);
    if (check.Check(value)) return { value };
    const first = check.Errors(value).First()!;
    return { error: [{ keyword: 'type', instancePath: first.path, schemaPath: '', params: {}, message: first.message }] as FastifySchemaValidationError[] };
  };
};

/**
 * fastify's schema error formatter: the spec's id and message for a refused request part. A
 * body that is no JSON object is `no_json`; a query parameter given more than once is
 * `wrong_pagination_argument` for the pagination ones, `invalid_value` for the others.
 */
export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar): Error {
  if (dataVar === 'body') return new ServiceError('no_json', 'The request body must be a JSON object');
  // A JSON pointer (RFC 6901): `/name`, with `~1` for `/` and `~0` for `~`.
  const name = (errors[0]?.instancePath ?? '').slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
  if (dataVar === 'querystring') {
    const id = PAGINATION_PARAMETERS.includes(name) ? 'wrong_pagination_argument' : 'invalid_value';
    return new ServiceError(id, `Query parameter "${name.slice(0, 100)}" is given more than once`);
  }
  return new ServiceError('invalid_value', `The request's ${dataVar} are not valid`);
}
