/**
 * The IPC slice of staging: files and folders dropped on the window or
 * chosen with `Add files` become staged rows; `Create` / `Create and schedule` turn the rows
 * into credentials as a task. Only paths cross IPC (Electron: the preload's
 * webUtils.getPathForFile; the browser bridge: where it stored the upload), never file bytes.
 */
import { Type, type Static } from '@sinclair/typebox';
import { LIMITS } from '../limits.js';
import type { TaskError, TaskInfo } from '../tasks.js';
import { ServiceError } from '../errors.js';
import { parseIsoDate, validateTags } from '../validate.js';
import { Uuid } from '../schemas/primitives.js';
import { argsOf } from './slice.js';

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
export type StagedRowFields = Omit<StagingCreateRow, 'key' | 'file'>;

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

const MAX_PATH = 4096;
const Path = Type.String({ minLength: 1, maxLength: MAX_PATH });

// The row's own rules (tags, dates, the title's length) are checked per row when it is
// created (checkRowFields), so one bad row fails alone with the spec's id.
/** One row to create, as the renderer sends it: the fields of a staged row. */
const StagingCreateRowSchema = Type.Object(
  {
    key: Path,
    /** The staged file (main re-checks its hash), or null for a metadata-only credential. */
    file: Type.Union([Type.Object({ path: Path, file_hash: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }), Type.Null()]),
    title: Type.String({ maxLength: LIMITS.titleMaxLength }),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    tags: Type.Array(Type.String()),
    /** ISO 8601 date or date-time, or null. */
    expiry_date: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
    /** Links: uids of existing credentials, or the `key` of another staged row. */
    links: Type.Array(Path, { maxItems: LIMITS.maxLinks }),
  },
  { additionalProperties: false },
);
export type StagingCreateRow = Static<typeof StagingCreateRowSchema>;

const StagingCreateRequestSchema = Type.Object(
  {
    rows: Type.Array(StagingCreateRowSchema, { minItems: 1, maxItems: LIMITS.maxBatch }),
    /** Schedule every created credential on this engine (`Create and schedule`); null creates only. */
    engine: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
    /** Create even when the file's content is already uploaded (the spec's ignore_duplicate). */
    allow_duplicates: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type StagingCreateRequest = Static<typeof StagingCreateRequestSchema>;

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

/** Most paths in one call: a drop of many loose files. */
export const MAX_STAGING_PATHS = 100_000;

/** Most uids whose titles one `staging:linkTitles` call asks for. */
export const MAX_LINK_TITLES = 1_000;

export const STAGING_IPC = {
  /** Walks files and folders (the watch folder's rules), hashes them, applies sidecars and manifest.csv, flags duplicates. */
  'staging:addPaths': argsOf('staging:addPaths', ['paths'], Type.Array(Path, { minItems: 1, maxItems: MAX_STAGING_PATHS })).returns<StagingIntake>(),
  /** Creates (and schedules) the rows as a task; each row all or nothing, in link order. */
  'staging:create': argsOf('staging:create', ['request'], StagingCreateRequestSchema)
    .map(([request]) => {
      const keys = new Set<string>();
      for (const [i, { key }] of request.rows.entries()) {
        if (keys.has(key)) throw new ServiceError('invalid_value', `staging:create: request at rows.${i}.key: ${JSON.stringify(key)} appears twice`);
        keys.add(key);
      }
      return [request];
    })
    .returns<TaskInfo<StagingCreateResult>>(),
  /**
   * The per-row outcome of a create task, also after a cancel (a cancelled task carries no
   * result): which rows were created before it stopped. Null for an unknown task.
   */
  'staging:outcome': argsOf('staging:outcome', ['taskId'], Type.String({ minLength: 1, maxLength: 200 })).returns<StagingCreateResult | null>(),
  /** The titles of the Partner's credentials that staged rows link to, by lowercase uid; uids of no such credential are left out. */
  'staging:linkTitles': argsOf('staging:linkTitles', ['uids'], Type.Array(Uuid(), { minItems: 1, maxItems: MAX_LINK_TITLES })).returns<Record<string, string>>(),
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
