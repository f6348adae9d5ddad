import type { ArgsOfChannel, ResultOf } from '../../../common/ipc/slice.js';

/** One async function per channel of a contract slice, typed from it. */
export type HandlersOf<S> = { [C in keyof S]: (...args: ArgsOfChannel<S[C]>) => Promise<ResultOf<S[C]>> };
