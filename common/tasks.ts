/**
 * Long work as tasks, and the one event channel main → renderer (UI.md's IPC rules).
 *
 * Imports, bulk changes, scheduling of big selections and exports run in main as a task: the
 * call that starts one answers at once with its `TaskInfo`; progress, the result or the error
 * then arrive as `task` events. Plain data only: every bundle (main, preload, renderer, the web
 * bridge's browser side) shares these shapes.
 */
import type { CommandId } from './commands.js';
import type { ErrorId } from './errors.js';
import type { JobStatus, Partner } from './wire-types.js';
import type { WatchFolderStatus } from './ipc/watch-folders.js';

/** What kind of work a task does; the renderer picks toasts and refreshes by it. */
export const TASK_KINDS = [
  'tags-add',
  'tags-replace',
  'tag-remove',
  'tags-undo', // a bulk tag edit put back
  'schedule',
  'unschedule',
  'issue-now',
  'export-proofs',
  'export-list', // a Records or Jobs list written to CSV or XLSX
  'stage-files',
  'create-credentials',
  'csv-import',
  'revoke',
  'verify', // a Verify view run
] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export const TASK_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** A failure as it crosses to the renderer: the spec's id and a sentence a person can act on. */
export interface TaskError {
  id: ErrorId;
  message: string;
}

/** One task as the renderer sees it. `total` is null while main does not know it yet. */
export interface TaskInfo<R = unknown> {
  id: string;
  kind: TaskKind;
  /** Human label, also the progressbar's accessible name, e.g. "Adding tags to 50,000 credentials". */
  label: string;
  /** The label as a code the window words in its language (`task.label` in its catalogue); absent where there is none. */
  label_code?: TaskLabelCode;
  done: number;
  total: number | null;
  state: TaskState;
  /** ISO 8601. */
  started_at: string;
  finished_at: string | null;
  /** Set when state is `done`. */
  result?: R;
  /** Set when state is `failed`. */
  error?: TaskError;
}

/**
 * The part of AbortSignal a task uses (common/ is compiled without DOM or Node types; the
 * runner passes a real AbortSignal). Take `TaskSignal`, not `AbortSignal`, in task code.
 */
export interface TaskSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Throws the abort reason (an AbortError) when the task was cancelled. */
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What a running piece of work gets from the task runner. */
export interface TaskContext {
  /** Aborted when the user cancels; work checks it between steps and stops, undoing nothing half-made. */
  readonly signal: TaskSignal;
  /** Reports progress; `total` may be given (or corrected) at any call. */
  progress(done: number, total?: number): void;
}

/** What a task is called, as data: which work, on how many, and the names it needs. */
export interface TaskLabelCode {
  id:
    | 'tagsAdd'
    | 'tagsReplace'
    | 'tagRemove'
    | 'schedule'
    | 'unschedule'
    | 'create'
    | 'createSchedule'
    | 'verify'
    | 'verifyCount'
    | 'csvImport'
    | 'exportRecords'
    | 'exportJobs'
    | 'exportProofsJob'
    | 'exportProofsSelection';
  count?: number;
  /** A tag, engine ids (comma-separated), a file name, a job uid or a job status, as the label needs. */
  name?: string;
  format?: 'csv' | 'xlsx';
}

/** A task's label in English and as a code (the code is for the window). */
export interface TaskLabel {
  text: string;
  code: TaskLabelCode;
}

/** Runs long work in main; implemented in main (task runner), used by the IPC handlers. */
export interface TaskRunner {
  /**
   * Starts work and answers at once with the running task. The work's return value becomes
   * the task's result; a thrown ServiceError its error; an abort makes it `cancelled`.
   */
  start<R>(kind: TaskKind, label: string | TaskLabel, work: (task: TaskContext) => Promise<R>, total?: number | null): TaskInfo<R>;
  /** Asks a running task to stop; false when there is no such running task. */
  cancel(id: string): boolean;
  get(id: string): TaskInfo | undefined;
  /** Running tasks first, then the most recently finished. */
  list(): TaskInfo[];
}

/** The state of one engine's chain, for the status bar. */
export type ChainState = 'connected' | 'unreachable' | 'unknown';

/** Which scope of counts changed: the renderer refetches what shows it. */
export const COUNT_SCOPES = ['credentials', 'jobs', 'files', 'tags'] as const;
export type CountScope = (typeof COUNT_SCOPES)[number];

/**
 * Every event main pushes to the renderer, on one channel. Events say what changed; the
 * renderer refetches what it shows (a page of rows, a count), so an event never carries
 * bulk data and a missed one is healed by the next.
 */
export type AppEvent =
  | { type: 'task'; task: TaskInfo }
  | { type: 'job'; job_uid: string; engine: string; status: JobStatus }
  | { type: 'counts'; scopes: CountScope[] }
  | { type: 'engine'; engine: string; chain: ChainState; detail: string | null }
  | { type: 'partner'; partner: Partner | null }
  /** A watch folder's live counts or state changed (main/workspace/watch-folders). */
  | { type: 'watch-folder'; folder: WatchFolderStatus }
  /** The application menu (Electron) asks the page to carry out a command of common/commands.ts. */
  | { type: 'command'; command: CommandId };

export type AppEventType = AppEvent['type'];

/** Where main sends events (the Electron window, every browser bridge client). */
export type AppEventSink = (event: AppEvent) => void;

/** The name of the one event channel (Electron IPC channel, and the bridge's SSE event name). */
export const APP_EVENT_CHANNEL = 'proofdesk:event';
