/**
 * The main process's answers to the IPC contract, free of Electron so that the same
 * functions serve the Electron window (through trusted-ipc) and the Chromium test bridge.
 */
import { IPC_ARGUMENT_VALIDATORS, type IpcArgs, type IpcChannel, type IpcResult, type Overview } from '../../common/ipc-contract.js';
import type { IssuingService } from '../../common/issuing-service.js';
import { JOB_STATUSES, type JobStatus, type Partner } from '../../common/wire-types.js';

/** One async function per channel of the contract, typed from it. */
export type IpcHandlers = { [C in IpcChannel]: (...args: IpcArgs<C>) => Promise<IpcResult<C>> };

/** What the handlers work on: the active Partner and its service (local or remote). */
export interface IpcHandlerContext {
  partner: Partner | null;
  service: IssuingService | null;
}

/**
 * Builds the handlers for one context.
 *
 * @example const handlers = createIpcHandlers({ partner, service: engine.serviceFor(partner.id) })
 */
export function createIpcHandlers(ctx: IpcHandlerContext): IpcHandlers {
  return {
    'overview:get': () => getOverview(ctx),
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

const ZERO_JOBS = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;

async function getOverview({ partner, service }: IpcHandlerContext): Promise<Overview> {
  const engines = service ? await service.listEngines() : [];
  if (!partner || !service) {
    return { partner: null, engines, counts: { files: 0, credentials: 0, jobs: { ...ZERO_JOBS } } };
  }
  // Counts go through IssuingService only (per_page 1, read total_items), so the overview
  // works the same against a remote service as against the embedded engine.
  const [files, credentials, ...jobCounts] = await Promise.all([
    service.listFiles({ per_page: 1 }).then((p) => p.total_items),
    service.listCredentials({ per_page: 1 }).then((p) => p.total_items),
    ...JOB_STATUSES.map((status) => service.listJobs({ status, per_page: 1 }).then((p) => p.total_items)),
  ]);
  const jobs = Object.fromEntries(JOB_STATUSES.map((s, i) => [s, jobCounts[i] ?? 0])) as Record<JobStatus, number>;
  return { partner, engines, counts: { files: files ?? 0, credentials: credentials ?? 0, jobs } };
}
