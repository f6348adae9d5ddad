/**
 * The one IPC contract between the renderer and the main process: a map from channel name
 * to the call's arguments and its promised result, plus a validator for each channel's
 * arguments. It is grown per feature: each common/ipc/<feature>.ts exports its slice (a type
 * map and its validators), and this file only merges them. The preload exposes exactly these
 * channels as named functions on `window.proofdesk` (plus `onEvent`, the one event channel of
 * common/tasks.ts); main registers exactly these handlers. Nothing else crosses.
 */
import type { AppEvent } from './tasks.js';
import { APP_IPC, type AppIpc } from './ipc/app.js';
import { CSV_IMPORT_IPC, type CsvImportIpc } from './ipc/csv-import.js';
import { JOBS_IPC, type JobsIpc } from './ipc/jobs.js';
import { RECORDS_IPC, type RecordsIpc } from './ipc/records.js';
import { STAGING_IPC, type StagingIpc } from './ipc/staging.js';
import { DETAIL_IPC, type DetailIpc } from './ipc/detail.js';
import { WATCH_FOLDERS_IPC, type WatchFoldersIpc } from './ipc/watch-folders.js';
import { VERIFY_IPC, type VerifyIpc } from './ipc/verify.js';
import { SETTINGS_IPC, type SettingsIpc } from './ipc/settings.js';
import { ACTIVITY_IPC, type ActivityIpc } from './ipc/activity.js';
import { LIST_EXPORT_IPC, type ListExportIpc } from './ipc/list-export.js';

export type { Overview, AppStatus, EngineStatus } from './ipc/app.js';

/** Every slice, merged. Add a feature: one import, one `&` here, one spread below. */
export type IpcContract = AppIpc & RecordsIpc & JobsIpc & StagingIpc & CsvImportIpc & DetailIpc & SettingsIpc & VerifyIpc & WatchFoldersIpc & ActivityIpc & ListExportIpc;

export type IpcChannel = keyof IpcContract;
export type IpcArgs<C extends IpcChannel> = IpcContract[C]['args'];
export type IpcResult<C extends IpcChannel> = IpcContract[C]['result'];

/** Checks untrusted arguments from the renderer; throws `invalid_value` when they do not fit. */
export const IPC_ARGUMENT_VALIDATORS: { [C in IpcChannel]: (args: unknown[]) => IpcArgs<C> } = {
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
