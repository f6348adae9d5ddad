/**
 * The one IPC contract between the renderer and the main process: a map from channel name
 * to the call's arguments and its promised result, both derived from each channel's validator.
 * It is grown per feature: each common/ipc/<feature>.ts exports its slice (its channels, see
 * common/ipc/slice.ts), and this file only merges them. The preload exposes exactly these
 * channels as named functions on `window.proofdesk` (plus `onEvent`, the one event channel of
 * common/tasks.ts); main registers exactly these handlers. Nothing else crosses.
 */
import type { AppEvent } from './tasks.js';
import { APP_IPC } from './ipc/app.js';
import { CSV_IMPORT_IPC } from './ipc/csv-import.js';
import { JOBS_IPC } from './ipc/jobs.js';
import { RECORDS_IPC } from './ipc/records.js';
import { STAGING_IPC } from './ipc/staging.js';
import { DETAIL_IPC } from './ipc/detail.js';
import { WATCH_FOLDERS_IPC } from './ipc/watch-folders.js';
import { VERIFY_IPC } from './ipc/verify.js';
import { SETTINGS_IPC } from './ipc/settings.js';
import { ACTIVITY_IPC } from './ipc/activity.js';
import { LIST_EXPORT_IPC } from './ipc/list-export.js';
import type { ArgsOfChannel, ResultOf } from './ipc/slice.js';

/** Every slice's channels, merged. Add a feature: one import, one spread here. */
const CHANNELS = {
  ...APP_IPC,
  ...RECORDS_IPC,
  ...JOBS_IPC,
  ...STAGING_IPC,
  ...CSV_IMPORT_IPC,
  ...DETAIL_IPC,
  ...WATCH_FOLDERS_IPC,
  ...SETTINGS_IPC,
  ...VERIFY_IPC,
  ...ACTIVITY_IPC,
  ...LIST_EXPORT_IPC,
};

export type IpcChannel = keyof typeof CHANNELS;
export type IpcArgs<C extends IpcChannel> = ArgsOfChannel<(typeof CHANNELS)[C]>;
export type IpcResult<C extends IpcChannel> = ResultOf<(typeof CHANNELS)[C]>;

/** Checks untrusted arguments from the renderer; throws `invalid_value` when they do not fit. */
export const IPC_ARGUMENT_VALIDATORS: { [C in IpcChannel]: (args: unknown[]) => IpcArgs<C> } = CHANNELS;

export const IPC_CHANNELS = Object.keys(IPC_ARGUMENT_VALIDATORS) as IpcChannel[];

/** `records:query` → `recordsQuery`: a channel's name on `window.proofdesk`. */
type BridgeName<C extends string> = C extends `${infer A}:${infer B}` ? `${A}${Capitalize<B>}` : never;

/** The bridge the preload exposes as `window.proofdesk`: one function per channel, and the event channel. */
export type ProofdeskBridge = {
  [C in IpcChannel as BridgeName<C>]: (...args: IpcArgs<C>) => Promise<IpcResult<C>>;
} & {
  /** Listens to main's events (task progress, job states, counts); returns the unsubscribe. */
  onEvent(listener: (event: AppEvent) => void): () => void;
};

/** `overview:get` → `overviewGet`: the name a channel has on `window.proofdesk` (as ProofdeskBridge spells it). */
export function bridgeName(channel: IpcChannel): string {
  const [scope = '', action = ''] = channel.split(':');
  return scope + action.charAt(0).toUpperCase() + action.slice(1);
}
