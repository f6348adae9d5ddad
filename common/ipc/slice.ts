/**
 * The shape of one feature's slice of the IPC contract (common/ipc/<feature>.ts), and how its
 * arguments are checked. A slice exports a type map channel → {args, result} and a validator
 * per channel; common/ipc-contract.ts merges the slices into the one contract. A validator is
 * made from the TypeBox schemas of the channel's arguments (`argsOf`), followed where needed by
 * the checks a schema cannot say, with the spec's ids of their own (tags, an empty selection).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { ServiceError } from '../errors.js';
import { checker } from '../schemas/check.js';

/** A map from channel name (`<scope>:<action>`) to its arguments tuple and promised result. */
export type IpcSlice<S> = { [C in keyof S]: { args: unknown[]; result: unknown } };

/** One validator per channel of a slice: checks untrusted arguments, returns them typed. */
export type IpcValidators<S extends IpcSlice<S>> = { [C in keyof S]: (args: unknown[]) => S[C]['args'] };

/** Throws `invalid_value` unless exactly `count` arguments were given. */
function expectArgCount(channel: string, args: unknown[], count: number): void {
  if (args.length !== count) {
    throw new ServiceError('invalid_value', `${channel} takes ${count === 0 ? 'no arguments' : `${count} argument${count === 1 ? '' : 's'}`}`);
  }
}

/** The arguments' types of a list of TypeBox schemas. */
export type ArgsOf<T extends readonly TSchema[]> = { -readonly [K in keyof T]: Static<T[K]> };

/**
 * A channel's validator from the TypeBox schemas of its arguments (common/schemas/check.ts):
 * the count, then each argument, `invalid_value` naming the argument and the place in it.
 */
export function argsOf<const T extends readonly TSchema[]>(channel: string, names: { [K in keyof T]: string }, ...schemas: T): (args: unknown[]) => ArgsOf<T> {
  const checks = schemas.map((schema, i) => checker(schema, `${channel}: ${names[i]}`));
  return (args) => {
    expectArgCount(channel, args, schemas.length);
    return checks.map((check, i) => check(args[i])) as ArgsOf<T>;
  };
}
