/**
 * Checks an untrusted value against a TypeBox schema of common/schemas: the IPC arguments from
 * the renderer. Each schema is compiled by TypeBox's TypeCompiler on its first use (not when
 * the module loads: the renderer imports the slices for their types and constants, and its
 * Content-Security-Policy forbids the code generation compiling does).
 */
import { FormatRegistry, Type, type SchemaOptions, type Static, type TLiteral, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { ServiceError, type ErrorId } from '../errors.js';
import { UUID_PATTERN } from './patterns.js';

// TypeBox knows no string formats until they are registered; the schemas use these.
const UUID = new RegExp(UUID_PATTERN);
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));

/**
 * Schema options the checker reads: `errorId`, the spec's id a refusal of this schema carries
 * (default `invalid_value`; e.g. `wrong_pagination_argument` for an offset), and on a union
 * `discriminator`, the field whose literal picks the variant a refusal is explained by.
 */
export interface CheckOptions extends SchemaOptions {
  errorId?: ErrorId;
  discriminator?: string;
}

/** Absent, or left blank (null) by a form. `options` (an `errorId`) apply to the value's refusal. */
export const Maybe = <T extends TSchema>(schema: T, options: CheckOptions = {}) => Type.Optional(Type.Union([schema, Type.Null()], options));

/** A union of objects told apart by the literal of one field (`kind`, `mode`, `list`). */
export function Variants<T extends TSchema[]>(discriminator: string, variants: [...T], options: CheckOptions = {}) {
  return Type.Union(variants, { ...options, discriminator });
}

function literalOf(variant: TSchema, field: string): unknown {
  const property = (variant.properties as Record<string, TSchema> | undefined)?.[field];
  if (property === undefined) return undefined;
  const literals = (property.anyOf as TLiteral[] | undefined) ?? [property as TLiteral];
  return literals.map((l) => l.const);
}

/**
 * The error that says what is wrong: a union's error ("Expected union value") is replaced by
 * the first error of the variant the value meant — the one its discriminator names, or the
 * only one that is not null — so the message names the field and its `errorId` applies.
 */
function explain(error: ValueError): ValueError {
  let first = error;
  while (first.type === ValueErrorType.Union) {
    const variants = first.schema.anyOf as TSchema[];
    const field = (first.schema as CheckOptions).discriminator;
    let index = -1;
    if (field !== undefined && typeof first.value === 'object' && first.value !== null) {
      const tag = (first.value as Record<string, unknown>)[field];
      index = variants.findIndex((variant) => (literalOf(variant, field) as unknown[] | undefined)?.includes(tag) === true);
    } else if (first.value !== null) {
      const nonNull = variants.flatMap((variant, i) => (variant.type === 'null' ? [] : [i]));
      if (nonNull.length === 1) index = nonNull[0]!;
    }
    const inner = index < 0 ? undefined : first.errors[index]?.First();
    if (inner === undefined) break;
    // A refusal inside the variant keeps the union's id unless the variant's schema has its own.
    first = (inner.schema as CheckOptions).errorId === undefined && (first.schema as CheckOptions).errorId !== undefined ? { ...inner, schema: { ...inner.schema, errorId: (first.schema as CheckOptions).errorId } } : inner;
  }
  return first;
}

/** A check of one schema: returns the value typed, or throws the schema's `errorId` (`invalid_value`) naming `what` and where in it. */
export function checker<T extends TSchema>(schema: T, what: string): (value: unknown) => Static<T> {
  let compiled: TypeCheck<T> | undefined;
  return (value) => {
    compiled ??= TypeCompiler.Compile(schema);
    if (compiled.Check(value)) return value;
    const first = explain(compiled.Errors(value).First()!);
    const where = first.path === '' ? what : `${what} at ${first.path.slice(1).replace(/\//g, '.')}`;
    throw new ServiceError((first.schema as CheckOptions).errorId ?? 'invalid_value', `${where}: ${first.message}`);
  };
}
