/**
 * The one error table: every id of the spec with its HTTP status, plus the ids DESIGN.md adds.
 * Every layer throws `ServiceError`; HTTP, IPC and the CLI only carry its id, status and message.
 */

export const ERROR_STATUS = {
  // The spec's table.
  wrong_pagination_argument: 422,
  no_file_on_payload: 400,
  missing_file_and_metadata: 400,
  invalid_value: 400,
  invalid_tag: 400,
  duplicated_tags: 400,
  invalid_expiry_date: 400,
  missing_file: 404,
  missing_credential: 404,
  missing_job: 404,
  missing_certificate: 404,
  missing_certificate_by_credential: 404,
  tag_does_not_exist: 404,
  file_already_exists: 409,
  credential_already_scheduled_or_issued: 409,
  credential_not_scheduled: 409,
  empty_credential_list: 409,
  unconfirmed_certificate_transaction: 409,
  certificate_already_revoked: 409,
  no_json: 415,
  missing_field: 422,
  wrong_blockchain_engine: 422,
  insufficient_funds: 503,
  try_again_later: 503,
  // DESIGN.md's additions for what the spec leaves unshown.
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  too_many_requests: 429,
  internal_error: 500,
} as const;

export type ErrorId = keyof typeof ERROR_STATUS;

export const ERROR_IDS = Object.keys(ERROR_STATUS) as ErrorId[];

/** Tells whether a string is one of the table's ids. */
export function isErrorId(value: unknown): value is ErrorId {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/** The body of every error response (DESIGN.md): `{error: {id, message}, meta}`. */
export interface ErrorBody {
  error: { id: ErrorId; message: string };
}

/**
 * A failure a user can act on, with the spec's stable id and HTTP status.
 *
 * @example throw new ServiceError('missing_credential', `No credential ${uid}`)
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly id: ErrorId;
  readonly status: number;

  constructor(id: ErrorId, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.id = id;
    this.status = ERROR_STATUS[id];
  }

  /** The wire body (without `meta`, which the transport adds). */
  toBody(): ErrorBody {
    return { error: { id: this.id, message: this.message } };
  }
}

/** Tells whether a value is a ServiceError (also across realms, by shape). */
export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError || (value instanceof Error && value.name === 'ServiceError' && isErrorId((value as ServiceError).id));
}

/**
 * Electron forwards only an error's message across IPC, so the id travels inside it
 * as a prefix; `decodeIpcError` turns it back into a ServiceError on the other side.
 */
const IPC_ERROR_PREFIX = 'proofdesk-error:';

export function encodeIpcError(error: unknown): string {
  const e = isServiceError(error) ? error : new ServiceError('internal_error', 'Unexpected error');
  return IPC_ERROR_PREFIX + JSON.stringify(e.toBody().error);
}

export function decodeIpcError(message: string): ServiceError {
  const at = message.indexOf(IPC_ERROR_PREFIX);
  if (at >= 0) {
    try {
      const parsed = JSON.parse(message.slice(at + IPC_ERROR_PREFIX.length)) as { id?: unknown; message?: unknown };
      if (isErrorId(parsed.id) && typeof parsed.message === 'string') return new ServiceError(parsed.id, parsed.message);
    } catch {
      // fall through: not one of ours
    }
  }
  return new ServiceError('internal_error', message);
}
