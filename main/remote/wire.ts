/**
 * Reading a remote service's answers: bodies with a size cap, error bodies back into the same
 * `ServiceError`s, and one clear error for every way the wire itself can fail.
 */
import { ERROR_STATUS, ServiceError, isErrorId, type ErrorId } from '../../common/errors.js';

/** Longest excerpt of an unexpected body quoted in an error message. */
const EXCERPT_CHARS = 200;

/** Ids a bare HTTP status stands for when the body carries no id of the table. */
const ID_BY_STATUS: Partial<Record<number, ErrorId>> = {
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  429: 'too_many_requests',
  503: 'try_again_later',
};

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

/** The `error` of an error body that names one of the table's ids, if it is one. */
export function declaredError(bodyText: string): { id: ErrorId; message?: unknown } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const error = (parsed as { error?: { id?: unknown; message?: unknown } } | null)?.error;
  return error && isErrorId(error.id) ? (error as { id: ErrorId; message?: unknown }) : undefined;
}

/**
 * The ServiceError an error response stands for. The body `{error: {id, message}}` gives the
 * id and message as the server raised them; a body without one of the table's ids (a proxy's
 * HTML page, say) is mapped by status: 401, 404, 405, 413, 429 and 503 to their ids, anything else
 * to `internal_error`, with the real status and an excerpt in the message.
 */
export function errorFromResponse(status: number, bodyText: string, where: string): ServiceError {
  const error = declaredError(bodyText);
  if (error) {
    const message = typeof error.message === 'string' && error.message !== '' ? error.message : error.id;
    // The id is what callers act on; a status that disagrees with the table is only noted.
    return new ServiceError(error.id, ERROR_STATUS[error.id] === status ? message : `${message} (HTTP ${status})`);
  }
  const id = ID_BY_STATUS[status] ?? 'internal_error';
  const said = bodyText.trim() === '' ? 'no body' : excerpt(bodyText);
  return new ServiceError(id, `${where} answered HTTP ${status} without a known error id: ${said}`);
}

/** The error of a token endpoint: OAuth's `{error, error_description}` or our own body. */
export function tokenErrorFromResponse(status: number, bodyText: string, tokenUrl: string): ServiceError {
  if (status === 400 || status === 401 || status === 403) {
    let reason = '';
    try {
      const body = JSON.parse(bodyText) as { error?: unknown; error_description?: unknown };
      if (typeof body.error === 'string') reason = typeof body.error_description === 'string' ? `${body.error}: ${body.error_description}` : body.error;
      else if (typeof (body.error as { message?: unknown } | undefined)?.message === 'string') reason = (body.error as { message: string }).message;
    } catch {
      reason = excerpt(bodyText);
    }
    return new ServiceError('unauthorized', `The token endpoint ${tokenUrl} refused the client credentials (HTTP ${status}${reason ? `, ${reason}` : ''})`);
  }
  const error = errorFromResponse(status, bodyText, `The token endpoint ${tokenUrl}`);
  // A server does not quote the path it was asked for (ours never does): the client names it.
  if (error.id === 'not_found') return new ServiceError('not_found', `There is no token endpoint at ${tokenUrl}: check the service URL and the realm (${error.message})`);
  return error;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The error code of a thrown value or of its causes. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause !== undefined && cause !== error ? codeOf(cause) : undefined;
}

/** Whether a thrown value is the wire failing (no answer), as opposed to an answer. */
export function isWireFailure(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (UNREACHABLE_CODES.has(code) || TIMEOUT_CODES.has(code));
}

/**
 * The ServiceError of a request that got no (complete) answer: `try_again_later` (503), the
 * spec's id for "ask again later", with a message that says the service could not be reached
 * or did not answer in time. Anything else unexpected is `internal_error`.
 */
export function wireError(error: unknown, url: string, timeoutMs: number): ServiceError {
  if (error instanceof ServiceError) return error;
  const code = codeOf(error);
  const detail = (error as Error | null)?.message ?? String(error);
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new ServiceError('try_again_later', `The service at ${url} did not answer within ${timeoutMs} ms (${code})`, { cause: error });
  }
  if (code === 'EPIPE') {
    return new ServiceError('try_again_later', `The connection to ${url} closed while the request was being sent (${code}): the service refused it before reading it whole, or the network failed`, { cause: error });
  }
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    return new ServiceError('try_again_later', `The service at ${url} cannot be reached: ${detail} (${code})`, { cause: error });
  }
  return new ServiceError('internal_error', `Request to ${url} failed: ${detail}`, { cause: error });
}

/** Reads a response body as UTF-8 text, refusing more than `max` bytes. */
export async function readCapped(body: AsyncIterable<Uint8Array> & { destroy?(error?: Error): void }, max: number, url: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > max) {
      body.destroy?.();
      throw new ServiceError('internal_error', `The answer of ${url} is larger than ${max} bytes; refused`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
