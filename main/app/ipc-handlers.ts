/**
 * The main process's answers to the IPC contract, free of Electron so that the same
 * functions serve the Electron window (through trusted-ipc) and the Chromium bridge.
 * Each feature's handlers live in main/app/handlers/<feature>.ts; this file merges them.
 */
import { IPC_ARGUMENT_VALIDATORS, type IpcArgs, type IpcChannel, type IpcResult } from '../../common/ipc-contract.js';
import type { AppContext } from './app-context.js';
import { createChainProbe } from './chain-probe.js';
import { createAppHandlers } from './handlers/app.js';
import { createCsvImportHandlers } from './handlers/csv-import.js';
import { createJobsHandlers } from './handlers/jobs.js';
import { createRecordsHandlers } from './handlers/records.js';
import { createStagingHandlers } from './handlers/staging.js';
import { createDetailHandlers } from './handlers/detail.js';
import { createWatchFoldersHandlers } from './handlers/watch-folders.js';
import { createSettingsHandlers } from './handlers/settings.js';
import { createVerifyHandlers } from './handlers/verify.js';
import { createActivityHandlers } from './handlers/activity.js';
import { createListExportHandlers } from './handlers/list-export.js';

/** One async function per channel of the contract, typed from it. */
export type IpcHandlers = { [C in IpcChannel]: (...args: IpcArgs<C>) => Promise<IpcResult<C>> };

/**
 * Builds the handlers for one context.
 *
 * @example const handlers = createIpcHandlers(createAppContext({ engine, partner }))
 * `chainProbeEveryMs`: how often the status bar's chain and funds probe asks (30 s).
 */
export function createIpcHandlers(ctx: AppContext, options: { chainProbeEveryMs?: number } = {}): IpcHandlers {
  const chains = createChainProbe(ctx, options.chainProbeEveryMs);
  return {
    ...createAppHandlers(ctx, chains),
    ...createRecordsHandlers(ctx),
    ...createJobsHandlers(ctx),
    ...createStagingHandlers(ctx),
    ...createCsvImportHandlers(ctx),
    ...createDetailHandlers(ctx),
    ...createWatchFoldersHandlers(ctx),
    ...createSettingsHandlers(ctx),
    ...createVerifyHandlers(ctx),
    ...createActivityHandlers(ctx),
    ...createListExportHandlers(ctx),
  };
}

/**
 * Validates untrusted arguments with the contract's validator, then calls the channel's handler.
 * Both transports go through here, so a call is checked the same way however it arrives.
 * Throws ServiceError (`invalid_value` for bad arguments, or whatever the handler throws).
 */
export async function invokeIpcHandler<C extends IpcChannel>(handlers: IpcHandlers, channel: C, args: unknown[]): Promise<IpcResult<C>> {
  const valid = IPC_ARGUMENT_VALIDATORS[channel](args);
  return handlers[channel](...valid);
}
