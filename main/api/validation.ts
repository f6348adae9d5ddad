/**
 * Request validation: fastify checks each route's path parameters and query string against the
 * schemas it declares (ajv, the JSON Schema dialect of the OpenAPI document), and a failure is
 * answered with the spec's error id for that parameter. The engine checks the same input again,
 * because it is the service every entry point calls (IPC and the CLI too); so fastify refuses
 * only what the engine would refuse with the same id, and the handler gets the query as sent.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ServiceError, type ErrorId } from '../../common/errors.js';

const ajv = new Ajv2020({ strict: false, allErrors: false, verbose: true, coerceTypes: true, useDefaults: false, removeAdditional: false });
// A CommonJS module: its function is `default` of what the import gives.
formats.default(ajv);

const PAGINATION = new Set(['sort_by', 'order', 'per_page', 'page']);

/**
 * The query as the schema checks it (a copy: the engine reads the query as sent).
 * - An empty value is no value: the engine reads `?page=` as no page and `?uid=` as no filter.
 * - A tag filter may be given more than once; its values are one comma-separated list, as the
 *   engine joins them.
 * Ajv's coercion (`"20"` to 20) is looser than the engine's whole-number rule (it takes `0x10`
 * and ` 5`): the engine keeps that check, and answers it with the same id.
 */
function queryForCheck(query: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (typeof query !== 'object' || query === null) return result;
  for (const [name, value] of Object.entries(query)) {
    if (value === '') continue;
    result[name] = Array.isArray(value) && name.endsWith('_tags') ? value.join(',') : value;
  }
  return result;
}

/** The parameter an ajv error is about: the first segment of its path, or the missing property. */
function parameterOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String((error.params as { missingProperty: string }).missingProperty);
  return decodeURIComponent(error.instancePath.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A bad pagination parameter is `wrong_pagination_argument`; any other bad query value (a filter, an enum) is `invalid_value`. */
function queryRefusal(error: ErrorObject): ServiceError {
  const name = parameterOf(error);
  const id: ErrorId = PAGINATION.has(name) ? 'wrong_pagination_argument' : 'invalid_value';
  const shown = name.slice(0, 100);
  const problem = Array.isArray(error.data) ? 'is given more than once' : (error.message ?? 'is not valid');
  const allowed = error.keyword === 'enum' ? `: one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : '';
  return new ServiceError(id, `Query parameter "${shown}" ${problem}${allowed}`);
}

/**
 * fastify's validator compiler. Path parameters and the query are checked; JSON bodies are
 * checked by the engine, upload forms by multipart.ts.
 */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  if (httpPart !== 'querystring' && httpPart !== 'params') return () => true;
  const validate = ajv.compile(schema);
  if (httpPart === 'params') return (params: unknown) => (validate(params) ? true : { error: new ServiceError('invalid_value', `Path parameter ${validate.errors![0]!.message ?? 'is not valid'}`) });
  return (query: unknown) => (validate(queryForCheck(query)) ? true : { error: queryRefusal(validate.errors![0]!) });
};
