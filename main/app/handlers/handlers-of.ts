import type { IpcSlice } from '../../../common/ipc/slice.js';

/** One async function per channel of a contract slice, typed from it. */
export type HandlersOf<S extends IpcSlice<S>> = { [C in keyof S]: (...args: S[C]['args']) => Promise<S[C]['result']> };
