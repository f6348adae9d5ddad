/**
 * Checks an untrusted value against a TypeBox schema of common/schemas: the IPC arguments from
 * the renderer. Each schema is compiled by TypeBox's TypeCompiler on its first use (not when
 * the module loads: the renderer imports the slices for their types and constants, and its
 * Content-Security-Policy forbids the code generation compiling does).
 */
import { FormatRegistry, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ServiceError } from '../errors.js';
import { UUID_PATTERN } from './patterns.js';

// TypeBox knows no string formats until they are registered; the schemas use these.
const UUID = new RegExp(UUID_PATTERN);
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));

/** A check of one schema: returns the value typed, or throws `invalid_value` naming `what` and where in it. */
export function checker<T extends TSchema>(schema: T, what: string): (value: unknown) => Static<T> {
  let compiled: TypeCheck<T> | undefined;
  return (value) => {
    compiled ??= TypeCompiler.Compile(schema);
    if (compiled.Check(value)) return value;
    const first = compiled.Errors(value).First()!;
    const where = first.path === '' ? what : `${what} at ${first.path.slice(1).replace(/\//g, '.')}`;
    throw new ServiceError('invalid_value', `${where}: ${first.message}`);
  };
}
