/**
 * The shape of one feature's slice of the IPC contract (common/ipc/<feature>.ts), and how its
 * arguments are checked. A slice exports a type map channel → {args, result} and a validator
 * per channel; common/ipc-contract.ts merges the slices into the one contract. A validator is
 * made from the TypeBox schemas of the channel's arguments (`argsOf`); the `expect*` checks
 * serve the slices whose arguments go through hand-written checks with ids of their own
 * (selections, filters, staged rows).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { ServiceError } from '../errors.js';
import { checker } from '../schemas/check.js';
import { isPlainObject } from '../validate.js';

/** A map from channel name (`<scope>:<action>`) to its arguments tuple and promised result. */
export type IpcSlice<S> = { [C in keyof S]: { args: unknown[]; result: unknown } };

/** One validator per channel of a slice: checks untrusted arguments, returns them typed. */
export type IpcValidators<S extends IpcSlice<S>> = { [C in keyof S]: (args: unknown[]) => S[C]['args'] };

/** Throws `invalid_value` unless exactly `count` arguments were given. */
export function expectArgCount(channel: string, args: unknown[], count: number): void {
  if (args.length !== count) {
    throw new ServiceError('invalid_value', `${channel} takes ${count === 0 ? 'no arguments' : `${count} argument${count === 1 ? '' : 's'}`}`);
  }
}

/** Checks a non-empty string argument of at most `max` characters. */
export function expectString(value: unknown, name: string, max = 1000): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new ServiceError('invalid_value', `${name} must be a non-empty text of at most ${max} characters`);
  }
  return value;
}

/** Checks an integer in [min, max]. */
export function expectInteger(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ServiceError('invalid_value', `${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** Checks a plain object argument. */
export function expectObject(value: unknown, name: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new ServiceError('invalid_value', `${name} must be an object`);
  return value;
}

/** Checks an array of strings, each validated by `each`, of at most `max` entries. */
export function expectStringArray(value: unknown, name: string, max: number, each: (v: unknown, name: string) => string = expectString): string[] {
  if (!Array.isArray(value) || value.length > max) throw new ServiceError('invalid_value', `${name} must be a list of at most ${max} entries`);
  return value.map((v, i) => each(v, `${name}[${i}]`));
}

/** Checks one of a fixed set of values. */
export function expectOneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ServiceError('invalid_value', `${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
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
