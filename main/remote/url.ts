/**
 * Addresses of a remote service: its base URLs (checked once), path segments and the query
 * strings of the spec's parameters.
 */
import { ServiceError, type ErrorId } from '../../common/errors.js';

/** The spec's tag filters: comma-separated lists on the wire. */
const TAG_LISTS = new Set(['and_tags', 'or_tags', 'and_credential_tags', 'or_credential_tags', 'and_job_tags', 'or_job_tags']);

/**
 * The query string of the spec's parameters, named as the spec names them: tag lists
 * comma-joined, other values as text; absent (undefined or null) values are left out. An array
 * where the spec wants one value is sent repeated, so the service refuses it as it would
 * in-process.
 */
export function toQueryString(query: object | undefined): string {
  if (query === undefined || query === null) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) params.append(key, String(value));
    else if (TAG_LISTS.has(key)) params.append(key, value.map(String).join(','));
    else for (const item of value) params.append(key, String(item));
  }
  return params.toString();
}

/**
 * One path segment, encoded. An empty one cannot name anything (and would change the route),
 * so it is answered here as the endpoint answers an unknown identifier.
 */
export function segment(value: unknown, missing: ErrorId): string {
  const text = typeof value === 'string' ? value : String(value);
  if (text === '') throw new ServiceError(missing, `No ${missing === 'wrong_blockchain_engine' ? 'engine' : 'identifier'} given`);
  // `.` and `..` would be resolved away as path steps: send them escaped.
  return text === '.' || text === '..' ? text.replace(/\./g, '%2E') : encodeURIComponent(text);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Checks a base URL once, at construction (a TypeError, a configuration mistake): http(s) only,
 * plain http only to loopback unless allowed, no credentials, query or fragment in it.
 */
export function checkServiceUrl(name: string, value: string, allowInsecureHttp: boolean): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${name} must be an http(s) URL, got ${url.protocol}`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw new TypeError(`${name} ${value} is plain http to another host: the client secret and tokens would travel in clear; use https`);
  }
  if (url.username || url.password) throw new TypeError(`${name} must not carry credentials`);
  if (url.search || url.hash) throw new TypeError(`${name} must not carry a query or fragment`);
}
