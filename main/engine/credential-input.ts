import { ServiceError } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import type { CreateCredentialBody, CredentialDetails } from '../../common/requests.js';
import {
  isPlainObject,
  isSha256Hex,
  parseBooleanFlag,
  parseIsoDate,
  rejectUnknownFields,
  requireField,
  validateTags,
} from '../../common/validate.js';

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A credential request that passed every rule that needs no database look-up. */
export interface CredentialInput {
  title: string;
  metadata: Record<string, unknown>;
  /** JSON text of metadata, computed once. */
  metadataJson: string;
  fileHashes: string[];
  linkUids: string[];
  tags: string[];
  expiryDate: number | null;
}

const BODY_FIELDS = ['title', 'metadata', 'files', 'credentials', 'tags', 'expiry_date'] as const;
const DETAILS_FIELDS = ['title', 'metadata', 'credentials', 'tags', 'expiry_date', 'ignore_duplicate'] as const;

function stringArray(value: unknown, field: string, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new ServiceError('invalid_value', `${field} in ${where} must be an array of strings`);
  }
  if (value.length > LIMITS.maxLinks) throw new ServiceError('invalid_value', `${field} in ${where} lists more than ${LIMITS.maxLinks} entries`);
  if (new Set(value).size !== value.length) throw new ServiceError('invalid_value', `${field} in ${where} lists the same entry twice`);
  return value as string[];
}

/**
 * Checks a credential request against every rule of the spec that needs no look-up.
 *
 * @param hasFile whether a file comes with it (create-and-schedule's upload, or `files`)
 */
function normalize(body: Record<string, unknown>, where: string, hasUploadedFile: boolean): CredentialInput {
  const title = requireField(body, 'title', where);
  if (typeof title !== 'string' || title.trim().length === 0 || title.length > LIMITS.titleMaxLength) {
    throw new ServiceError('invalid_value', `title in ${where} must be a non-empty string of at most ${LIMITS.titleMaxLength} characters`);
  }
  const fileHashes = stringArray(body.files, 'files', where);
  for (const hash of fileHashes) {
    // A malformed hash cannot name an uploaded file: answered like any unknown file.
    if (!isSha256Hex(hash)) throw new ServiceError('missing_file', `No uploaded file with hash ${JSON.stringify(hash)}`);
  }
  const hasFile = hasUploadedFile || fileHashes.length > 0;
  const metadata = body.metadata;
  if (metadata === undefined || metadata === null) {
    if (!hasFile) throw new ServiceError('missing_file_and_metadata', `${capitalize(where)} needs a file or non-empty metadata`);
    throw new ServiceError('missing_field', `Missing required field "metadata" in ${where} (send {} when a file carries the credential)`);
  }
  if (!isPlainObject(metadata)) throw new ServiceError('invalid_value', `metadata in ${where} must be a JSON object`);
  if (!hasFile && Object.keys(metadata).length === 0) {
    throw new ServiceError('missing_file_and_metadata', `${capitalize(where)} needs a file or non-empty metadata`);
  }
  let metadataJson: string;
  try {
    metadataJson = JSON.stringify(metadata);
  } catch {
    // BigInt values and cycles have no JSON form.
    throw new ServiceError('invalid_value', `metadata in ${where} must be plain JSON (no BigInt, no cycles)`);
  }
  if (Buffer.byteLength(metadataJson, 'utf8') > LIMITS.metadataMaxBytes) {
    throw new ServiceError('invalid_value', `metadata in ${where} is larger than ${LIMITS.metadataMaxBytes} bytes`);
  }
  const linkUids = stringArray(body.credentials, 'credentials', where);
  const tags = body.tags === undefined || body.tags === null ? [] : validateTags(body.tags, `tags of ${where}`);
  let expiryDate: number | null = null;
  if (body.expiry_date !== undefined && body.expiry_date !== null) {
    expiryDate = parseIsoDate(body.expiry_date, 'expiry_date', 'invalid_expiry_date');
  }
  return { title, metadata, metadataJson, fileHashes, linkUids, tags, expiryDate };
}

/** The body of POST /credentials. */
export function parseCreateCredentialBody(body: CreateCredentialBody | unknown): CredentialInput {
  if (!isPlainObject(body)) throw new ServiceError('no_json', 'The request body must be a JSON object');
  rejectUnknownFields(body, BODY_FIELDS, 'the credential');
  return normalize(body, 'the credential', false);
}

/** The `credential_details` field of create-and-schedule (an object or its JSON text). */
export function parseCredentialDetails(
  details: CredentialDetails | string | undefined | unknown,
  hasFile: boolean,
): CredentialInput & { ignoreDuplicate: boolean } {
  if (details === undefined || details === null || details === '') {
    throw new ServiceError('missing_field', 'Missing required field "credential_details"');
  }
  let parsed: unknown = details;
  if (typeof details === 'string') {
    try {
      parsed = JSON.parse(details);
    } catch {
      throw new ServiceError('no_json', 'credential_details must be JSON text');
    }
  }
  if (!isPlainObject(parsed)) throw new ServiceError('no_json', 'credential_details must be a JSON object');
  rejectUnknownFields(parsed, DETAILS_FIELDS, 'credential_details');
  if (parsed.files !== undefined) throw new ServiceError('invalid_value', 'credential_details takes no files: send the file itself');
  return {
    ...normalize(parsed, 'credential_details', hasFile),
    ignoreDuplicate: parseBooleanFlag(parsed.ignore_duplicate, 'ignore_duplicate'),
  };
}

/** An expiry date must lie in the future when the credential is made. */
export function assertExpiryInFuture(input: CredentialInput, now: number): void {
  if (input.expiryDate !== null && input.expiryDate <= now) {
    throw new ServiceError('invalid_expiry_date', `expiry_date ${new Date(input.expiryDate).toISOString()} is not in the future`);
  }
}
