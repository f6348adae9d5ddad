/**
 * The IPC slice of the Watch folders view: the folders the app's ingester watches (kept in the
 * data directory, watched again at start), their live counts, pause/resume, failed files with
 * their reasons and retry, and the output folder. Counts also arrive as `watch-folder` events.
 */
import { ServiceError } from '../errors.js';
import { isPlainObject, validateTags } from '../validate.js';
import { expectArgCount, expectObject, expectOptionalString, expectString, noArgs, type IpcValidators } from './slice.js';

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
  /** True in the desktop app (an OS folder picker exists); the browser gives a path. */
  canPickFolder: boolean;
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

export interface WatchFoldersIpc {
  'watchFolders:list': { args: []; result: WatchFoldersState };
  /** The OS folder picker (desktop only); null when cancelled or in the browser. */
  'watchFolders:pickFolder': { args: []; result: string | null };
  'watchFolders:add': { args: [input: WatchFolderInput]; result: WatchFolderStatus };
  /** Stops watching and forgets the folder; its files stay where they are. */
  'watchFolders:remove': { args: [id: string]; result: null };
  'watchFolders:pause': { args: [id: string]; result: WatchFolderStatus };
  /** Goes on after a pause; a `stopped` folder is tried again. */
  'watchFolders:resume': { args: [id: string]; result: WatchFolderStatus };
  'watchFolders:failed': { args: [id: string]; result: WatchFailedFile[] };
  /** Puts a failed file back into the folder to be taken again; answers where it is now. */
  'watchFolders:retry': { args: [id: string, file: { path: string; failedPath: string | null }]; result: string };
  /** Opens the output folder in the OS file manager (desktop); `opened` false in the browser. */
  'watchFolders:openOutput': { args: [id: string]; result: { opened: boolean; path: string } };
}

const MAX_PATH = 4096;

function idArg(channel: string, args: unknown[], count = 1): string {
  expectArgCount(channel, args, count);
  return expectString(args[0], 'id', 100);
}

function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ServiceError('invalid_value', `${name} must be true or false`);
  return value;
}

/** Checks a folder to add: a path, and the options the CLI's `watch` takes. */
export function validateWatchFolderInput(value: unknown): WatchFolderInput {
  const body = expectObject(value, 'the folder');
  const known = ['path', 'engine', 'tags', 'metadata', 'outDir', 'recursive', 'allowDuplicates'];
  for (const key of Object.keys(body)) if (!known.includes(key)) throw new ServiceError('invalid_value', `Unknown field "${key}" for a watch folder (use ${known.join(', ')})`);
  const input: WatchFolderInput = { path: expectString(typeof body.path === 'string' ? body.path.trim() : body.path, 'The folder path', MAX_PATH) };
  const engine = expectOptionalString(body.engine, 'engine', 100);
  if (engine) input.engine = engine;
  if (body.tags !== undefined && body.tags !== null) input.tags = validateTags(body.tags, 'the tags');
  if (body.metadata !== undefined && body.metadata !== null) {
    if (!isPlainObject(body.metadata)) throw new ServiceError('invalid_value', 'The metadata template must be a JSON object, like {"course": "CS 2026"}');
    input.metadata = body.metadata;
  }
  const outDir = expectOptionalString(typeof body.outDir === 'string' && body.outDir.trim() === '' ? undefined : body.outDir, 'The output folder', MAX_PATH);
  if (outDir) input.outDir = outDir.trim();
  const recursive = optionalBoolean(body.recursive, 'recursive');
  if (recursive !== undefined) input.recursive = recursive;
  const allowDuplicates = optionalBoolean(body.allowDuplicates, 'allowDuplicates');
  if (allowDuplicates !== undefined) input.allowDuplicates = allowDuplicates;
  return input;
}

export const WATCH_FOLDERS_IPC: IpcValidators<WatchFoldersIpc> = {
  'watchFolders:list': noArgs('watchFolders:list'),
  'watchFolders:pickFolder': noArgs('watchFolders:pickFolder'),
  'watchFolders:add': (args) => {
    expectArgCount('watchFolders:add', args, 1);
    return [validateWatchFolderInput(args[0])];
  },
  'watchFolders:remove': (args) => [idArg('watchFolders:remove', args)],
  'watchFolders:pause': (args) => [idArg('watchFolders:pause', args)],
  'watchFolders:resume': (args) => [idArg('watchFolders:resume', args)],
  'watchFolders:failed': (args) => [idArg('watchFolders:failed', args)],
  'watchFolders:retry': (args) => {
    const id = idArg('watchFolders:retry', args, 2);
    const file = expectObject(args[1], 'file');
    const failedPath = file.failedPath === null ? null : expectString(file.failedPath, 'failedPath', MAX_PATH);
    return [id, { path: expectString(file.path, 'path', MAX_PATH), failedPath }];
  },
  'watchFolders:openOutput': (args) => [idArg('watchFolders:openOutput', args)],
};
