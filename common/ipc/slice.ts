/**
 * The shape of one feature's slice of the IPC contract (common/ipc/<feature>.ts), and how its
 * arguments are checked. A slice exports one `Channel` per channel name (`<scope>:<action>`);
 * common/ipc-contract.ts merges the slices into the one contract and derives its types from
 * them. A channel is made from the TypeBox schemas of its arguments (`argsOf`), followed where
 * needed by the checks a schema cannot say, with the spec's ids of their own (tags, an empty
 * selection), and typed with the result its handler promises (`returns`).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { ServiceError } from '../errors.js';
import { checker } from '../schemas/check.js';

/** One channel: checks untrusted arguments and returns them typed; carries its result's type. */
export interface Channel<A extends unknown[], R = unknown> {
  (args: unknown[]): A;
  /** The same check, its handler promising an `R` (a type only). */
  returns<T>(): Channel<A, T>;
  /** The checked arguments made clean: what a schema cannot say, or dropping blank parts. */
  map<B extends unknown[]>(clean: (args: A) => [...B]): Channel<B, R>;
  /** Never set: the result's type. */
  readonly result?: R;
}

/** The arguments a channel's handler takes. */
export type ArgsOfChannel<V> = V extends Channel<infer A, unknown> ? A : never;
/** The result a channel's handler promises. */
export type ResultOf<V> = V extends { readonly result?: infer R } ? R : never;

/** Throws `invalid_value` unless exactly `count` arguments were given. */
function expectArgCount(channel: string, args: unknown[], count: number): void {
  if (args.length !== count) {
    throw new ServiceError('invalid_value', `${channel} takes ${count === 0 ? 'no arguments' : `${count} argument${count === 1 ? '' : 's'}`}`);
  }
}

/** The arguments' types of a list of TypeBox schemas. */
type ArgsOf<T extends readonly TSchema[]> = { -readonly [K in keyof T]: Static<T[K]> };

function channelOf<A extends unknown[], R>(check: (args: unknown[]) => A): Channel<A, R> {
  const made: Channel<A, R> = Object.assign(check, {
    returns: <T>() => made as unknown as Channel<A, T>,
    map: <B extends unknown[]>(clean: (args: A) => [...B]) => channelOf<B, R>((args) => clean(check(args))),
  });
  return made;
}

/**
 * A channel from the TypeBox schemas of its arguments (common/schemas/check.ts): the count,
 * then each argument, `invalid_value` naming the argument and the place in it.
 */
export function argsOf<const T extends readonly TSchema[]>(channel: string, names: { [K in keyof T]: string }, ...schemas: T): Channel<ArgsOf<T>> {
  const checks = schemas.map((schema, i) => checker(schema, `${channel}: ${names[i]}`));
  return channelOf((args) => {
    expectArgCount(channel, args, schemas.length);
    return checks.map((check, i) => check(args[i])) as ArgsOf<T>;
  });
}
