/**
 * The IPC slice of staging: files and folders dropped on the window or
 * chosen with `Add files` become staged rows; `Create` / `Create and schedule` turn the rows
 * into credentials as a task. Only paths cross IPC (Electron: the preload's
 * webUtils.getPathForFile; the browser bridge: where it stored the upload), never file bytes.
 */
import { LIMITS } from '../limits.js';
import type { TaskError, TaskInfo } from '../tasks.js';
import { ServiceError } from '../errors.js';
import { isPlainObject, parseIsoDate, validateTags } from '../validate.js';
import { expectArgCount, expectObject, expectString, expectStringArray, type IpcValidators } from './slice.js';

/** A file on disk that a staged row will issue. */
export interface StagedFile {
  /** Where main reads it (never sent back as bytes). */
  path: string;
  /** Its path relative to the dropped folder (or its name for a loose file). */
  rel_path: string;
  size: number;
  /** SHA-256, lowercase hex: the hash the credential will carry. */
  file_hash: string;
}

/** A credential that already holds a staged file's content. */
export interface ExistingCredential {
  uid: string;
  title: string;
}

/** The editable part of a staged row: what the credential will be. */
export interface StagedRowFields {
  title: string;
  metadata: Record<string, unknown>;
  tags: string[];
  /** ISO 8601 date or date-time, or null. */
  expiry_date: string | null;
  /** Links: uids of existing credentials, or the `key` of another staged row. */
  links: string[];
}

/** One row of the staging list. */
export interface StagedRow extends StagedRowFields {
  /** Unique in the list: the file's path, or a made-up key for a metadata-only row. */
  key: string;
  file: StagedFile | null;
  /** Credentials that already hold this file's content (creating it again is refused unless allowed). */
  duplicate_of: ExistingCredential[];
  /** Why the file's sidecar or manifest row could not be applied (the row cannot be created as described). */
  problem: TaskError | null;
}

/** What adding paths gave: rows to stage, and what was left out with the reason. */
export interface StagingIntake {
  rows: StagedRow[];
  skipped: { path: string; reason: string }[];
}

/** One row to create, as the renderer sends it. */
export interface StagingCreateRow extends StagedRowFields {
  key: string;
  /** The staged file (main re-checks its hash), or null for a metadata-only credential. */
  file: { path: string; file_hash: string } | null;
}

export interface StagingCreateRequest {
  rows: StagingCreateRow[];
  /** Schedule every created credential on this engine (`Create and schedule`); null creates only. */
  engine: string | null;
  /** Create even when the file's content is already uploaded (the spec's ignore_duplicate). */
  allow_duplicates: boolean;
}

/** What happened to one row. */
export type RowOutcome =
  | { key: string; status: 'created'; uid: string }
  | { key: string; status: 'failed'; error: TaskError }
  /** Not attempted: the task was cancelled first, or a row it links to failed. */
  | { key: string; status: 'not_created'; reason: string };

export interface StagingCreateResult {
  outcomes: RowOutcome[];
  created: number;
  failed: number;
}

export interface StagingIpc {
  /** Walks files and folders (the watch folder's rules), hashes them, applies sidecars and manifest.csv, flags duplicates. */
  'staging:addPaths': { args: [paths: string[]]; result: StagingIntake };
  /** Creates (and schedules) the rows as a task; each row all or nothing, in link order. */
  'staging:create': { args: [request: StagingCreateRequest]; result: TaskInfo<StagingCreateResult> };
  /**
   * The per-row outcome of a create task, also after a cancel (a cancelled task carries no
   * result): which rows were created before it stopped. Null for an unknown task.
   */
  'staging:outcome': { args: [taskId: string]; result: StagingCreateResult | null };
}

/** Most paths in one call: a drop of many loose files. */
export const MAX_STAGING_PATHS = 100_000;
const MAX_PATH = 4096;

function expectFields(raw: Record<string, unknown>, where: string): StagedRowFields {
  if (typeof raw.title !== 'string' || raw.title.length > LIMITS.titleMaxLength) {
    throw new ServiceError('invalid_value', `${where}.title must be a text of at most ${LIMITS.titleMaxLength} characters`);
  }
  if (!isPlainObject(raw.metadata)) throw new ServiceError('invalid_value', `${where}.metadata must be an object`);
  const tags = Array.isArray(raw.tags) && raw.tags.every((t) => typeof t === 'string') ? (raw.tags as string[]) : null;
  if (!tags) throw new ServiceError('invalid_value', `${where}.tags must be a list of texts`);
  if (raw.expiry_date !== null && typeof raw.expiry_date !== 'string') throw new ServiceError('invalid_value', `${where}.expiry_date must be a date or null`);
  const links = expectStringArray(raw.links, `${where}.links`, LIMITS.maxLinks, (v, n) => expectString(v, n, MAX_PATH));
  // Tag and date rules are checked per row when it is created, so one bad row fails alone.
  return { title: raw.title, metadata: raw.metadata, tags, expiry_date: raw.expiry_date, links };
}

function expectCreateRequest(value: unknown): StagingCreateRequest {
  const body = expectObject(value, 'request');
  if (!Array.isArray(body.rows) || body.rows.length === 0 || body.rows.length > LIMITS.maxBatch) {
    throw new ServiceError('invalid_value', `request.rows must list 1 to ${LIMITS.maxBatch} rows`);
  }
  const keys = new Set<string>();
  const rows = body.rows.map((r: unknown, i): StagingCreateRow => {
    const where = `request.rows[${i}]`;
    const raw = expectObject(r, where);
    const key = expectString(raw.key, `${where}.key`, MAX_PATH);
    if (keys.has(key)) throw new ServiceError('invalid_value', `${where}.key ${JSON.stringify(key)} appears twice`);
    keys.add(key);
    let file: StagingCreateRow['file'] = null;
    if (raw.file !== null) {
      const f = expectObject(raw.file, `${where}.file`);
      file = { path: expectString(f.path, `${where}.file.path`, MAX_PATH), file_hash: expectString(f.file_hash, `${where}.file.file_hash`, 64) };
    }
    return { key, file, ...expectFields(raw, where) };
  });
  const engine = body.engine === null ? null : expectString(body.engine, 'request.engine', 100);
  if (typeof body.allow_duplicates !== 'boolean') throw new ServiceError('invalid_value', 'request.allow_duplicates must be true or false');
  return { rows, engine, allow_duplicates: body.allow_duplicates };
}

export const STAGING_IPC: IpcValidators<StagingIpc> = {
  'staging:addPaths': (args) => {
    expectArgCount('staging:addPaths', args, 1);
    const paths = expectStringArray(args[0], 'paths', MAX_STAGING_PATHS, (v, n) => expectString(v, n, MAX_PATH));
    if (paths.length === 0) throw new ServiceError('invalid_value', 'paths must name at least one file or folder');
    return [paths];
  },
  'staging:create': (args) => {
    expectArgCount('staging:create', args, 1);
    return [expectCreateRequest(args[0])];
  },
  'staging:outcome': (args) => {
    expectArgCount('staging:outcome', args, 1);
    return [expectString(args[0], 'taskId', 200)];
  },
};

/** One problem with a row's field, for the grid to show beside it. */
export interface FieldProblem extends TaskError {
  field: 'title' | 'metadata' | 'tags' | 'expiry_date' | 'links';
}

/**
 * The spec's rules for a credential, checked as the admin types (renderer) and again before a
 * row is created (main), so a bad row fails alone with the spec's id and nothing is uploaded
 * for it. `now` decides what "in the future" means for the expiry.
 */
export function checkRowFields(fields: StagedRowFields, hasFile: boolean, now: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (field: FieldProblem['field'], fn: () => void) => {
    try {
      fn();
    } catch (error) {
      if (error instanceof ServiceError) problems.push({ field, id: error.id, message: error.message });
      else throw error;
    }
  };
  problem('title', () => {
    if (fields.title.trim().length === 0) throw new ServiceError('missing_field', 'A title is needed');
    if (fields.title.length > LIMITS.titleMaxLength) throw new ServiceError('invalid_value', `The title is longer than ${LIMITS.titleMaxLength} characters`);
  });
  problem('metadata', () => {
    const size = JSON.stringify(fields.metadata).length;
    if (!hasFile && Object.keys(fields.metadata).length === 0) {
      throw new ServiceError('missing_file_and_metadata', 'A credential without a file needs at least one metadata field');
    }
    if (size > LIMITS.metadataMaxBytes) throw new ServiceError('invalid_value', `The metadata is ${size} bytes; at most ${LIMITS.metadataMaxBytes} are allowed`);
    for (const key of Object.keys(fields.metadata)) {
      if (key.trim() === '') throw new ServiceError('invalid_value', 'A metadata field needs a name');
    }
  });
  problem('tags', () => validateTags(fields.tags));
  problem('expiry_date', () => {
    if (fields.expiry_date === null || fields.expiry_date === '') return;
    const ms = parseIsoDate(fields.expiry_date, 'expiry_date', 'invalid_expiry_date');
    if (ms <= now) throw new ServiceError('invalid_expiry_date', `The expiry date ${fields.expiry_date} is not in the future`);
  });
  problem('links', () => {
    if (fields.links.length > LIMITS.maxLinks) throw new ServiceError('invalid_value', `At most ${LIMITS.maxLinks} links`);
    if (new Set(fields.links).size !== fields.links.length) throw new ServiceError('invalid_value', 'The same credential is linked twice');
  });
  return problems;
}
