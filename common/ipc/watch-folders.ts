/**
 * The IPC slice of the Watch folders view: the folders the app's ingester watches (kept in the
 * data directory, watched again at start), their live counts, pause/resume, failed files with
 * their reasons and retry, and the output folder. Counts also arrive as `watch-folder` events.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ServiceError } from '../errors.js';
import { validateTags } from '../validate.js';
import { Maybe } from '../schemas/check.js';
import { argsOf } from './slice.js';

/** What the admin gives when adding a folder. */
export interface WatchFolderInput {
  path: string;
  /** Blockchain engine (default `local`). */
  engine?: string;
  tags?: string[];
  /** Metadata template: merged into every credential's metadata (the file's own wins). */
  metadata?: Record<string, unknown>;
  /** Where proof files go (default `<path>/proofs`). */
  outDir?: string;
  /** Take files in subfolders too (default true). */
  recursive?: boolean;
  /** Issue identical content again instead of filing it under duplicate/ (default false). */
  allowDuplicates?: boolean;
}

/** A folder's live counts (the ingester's, since the app started watching it). */
export interface WatchFolderCounts {
  seen: number;
  /** Settling, being hashed, uploaded or scheduled. */
  inProgress: number;
  /** Scheduled, waiting for the issuing date. */
  waiting: number;
  issued: number;
  failed: number;
  duplicates: number;
}

export interface WatchFolderStatus {
  id: string;
  path: string;
  engine: string;
  tags: string[];
  metadata: Record<string, unknown>;
  /** Resolved: the default is `<path>/proofs`. */
  outDir: string;
  recursive: boolean;
  allowDuplicates: boolean;
  /** `stopped`: it could not be watched (see `problem`); removing and adding it again retries. */
  state: 'watching' | 'paused' | 'stopped';
  /** Why the folder is not watched, as a sentence; null when all is well. */
  problem: string | null;
  counts: WatchFolderCounts;
}

export interface WatchFoldersState {
  folders: WatchFolderStatus[];
}

/** A failed file of a folder, with its reason. */
export interface WatchFailedFile {
  path: string;
  /** The spec's error id. */
  id: string;
  message: string;
  /** Where it was filed (`failed/...`), or null when it was left in place. */
  failedPath: string | null;
  when: string;
}

const MAX_PATH = 4096;

const WatchFolderInputSchema = Type.Object(
  {
    path: Type.String({ maxLength: MAX_PATH }),
    engine: Maybe(Type.String({ minLength: 1, maxLength: 100 })),
    // Checked by validateTags, for the spec's `invalid_tag` and `duplicated_tags`.
    tags: Type.Optional(Type.Unknown()),
    metadata: Maybe(Type.Record(Type.String(), Type.Unknown())),
    outDir: Maybe(Type.String({ maxLength: MAX_PATH })),
    recursive: Maybe(Type.Boolean()),
    allowDuplicates: Maybe(Type.Boolean()),
  },
  { additionalProperties: false },
);

const FolderId = Type.String({ minLength: 1, maxLength: 100 });
const FailedFileSchema = Type.Object({ path: Type.String({ minLength: 1, maxLength: MAX_PATH }), failedPath: Type.Union([Type.String({ minLength: 1, maxLength: MAX_PATH }), Type.Null()]) });

const idArg = (channel: string) => argsOf(channel, ['id'], FolderId);

/** The folder as the service takes it: paths trimmed, blank optional fields dropped. */
function watchFolderInput(body: Static<typeof WatchFolderInputSchema>): WatchFolderInput {
  const path = body.path.trim();
  if (path === '') throw new ServiceError('invalid_value', 'The folder path must not be blank');
  const input: WatchFolderInput = { path };
  if (body.engine) input.engine = body.engine;
  if (body.tags !== undefined && body.tags !== null) input.tags = validateTags(body.tags, 'the tags');
  if (body.metadata) input.metadata = body.metadata;
  const outDir = body.outDir?.trim();
  if (outDir) input.outDir = outDir;
  if (typeof body.recursive === 'boolean') input.recursive = body.recursive;
  if (typeof body.allowDuplicates === 'boolean') input.allowDuplicates = body.allowDuplicates;
  return input;
}

export const WATCH_FOLDERS_IPC = {
  'watchFolders:list': argsOf('watchFolders:list', []).returns<WatchFoldersState>(),
  'watchFolders:add': argsOf('watchFolders:add', ['the folder'], WatchFolderInputSchema)
    .map(([input]) => [watchFolderInput(input)])
    .returns<WatchFolderStatus>(),
  /** Stops watching and forgets the folder; its files stay where they are. */
  'watchFolders:remove': idArg('watchFolders:remove').returns<null>(),
  'watchFolders:pause': idArg('watchFolders:pause').returns<WatchFolderStatus>(),
  /** Goes on after a pause; a `stopped` folder is tried again. */
  'watchFolders:resume': idArg('watchFolders:resume').returns<WatchFolderStatus>(),
  'watchFolders:failed': idArg('watchFolders:failed').returns<WatchFailedFile[]>(),
  /** Puts a failed file back into the folder to be taken again; answers where it is now. */
  'watchFolders:retry': argsOf('watchFolders:retry', ['id', 'file'], FolderId, FailedFileSchema)
    .map(([id, { path, failedPath }]) => [id, { path, failedPath }])
    .returns<string>(),
  /** Opens the output folder in the OS file manager (desktop); `opened` false in the browser. */
  'watchFolders:openOutput': idArg('watchFolders:openOutput').returns<{ opened: boolean; path: string }>(),
};
