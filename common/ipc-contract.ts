/**
 * The one IPC contract between the renderer and the main process: a map from channel name
 * to the call's arguments and its promised result, plus a validator for each channel's
 * arguments. The preload exposes exactly these channels as named functions on
 * `window.proofdesk`; main registers exactly these handlers. Nothing else crosses.
 */
import { ServiceError } from './errors.js';
import type { EngineInfo, JobStatus, Partner } from './wire-types.js';

/** What the home screen shows: who is issuing, and how much the engine holds. */
export interface Overview {
  partner: Partner | null;
  engines: EngineInfo[];
  counts: {
    files: number;
    credentials: number;
    jobs: Record<JobStatus, number>;
  };
}

export interface IpcContract {
  /** The active Partner and the engine's counts. */
  'overview:get': { args: []; result: Overview };
}

export type IpcChannel = keyof IpcContract;
export type IpcArgs<C extends IpcChannel> = IpcContract[C]['args'];
export type IpcResult<C extends IpcChannel> = IpcContract[C]['result'];

/** Checks untrusted arguments from the renderer; throws `invalid_value` when they do not fit. */
export const IPC_ARGUMENT_VALIDATORS: { [C in IpcChannel]: (args: unknown[]) => IpcArgs<C> } = {
  'overview:get': (args) => {
    if (args.length !== 0) throw new ServiceError('invalid_value', 'overview:get takes no arguments');
    return [];
  },
};

export const IPC_CHANNELS = Object.keys(IPC_ARGUMENT_VALIDATORS) as IpcChannel[];

/** The bridge the preload exposes as `window.proofdesk`: one function per channel. */
export type ProofdeskBridge = {
  [C in IpcChannel as C extends `${infer A}:${infer B}` ? `${A}${Capitalize<B>}` : never]: (...args: IpcArgs<C>) => Promise<IpcResult<C>>;
};

/** `overview:get` → `overviewGet`: the name a channel has on `window.proofdesk` (as ProofdeskBridge spells it). */
export function bridgeName(channel: IpcChannel): string {
  const [scope = '', action = ''] = channel.split(':');
  return scope + action.charAt(0).toUpperCase() + action.slice(1);
}
