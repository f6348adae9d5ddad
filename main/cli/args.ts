import { isAbsolute, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ProofExportFormat } from '../../common/records.js';
import { UsageError } from './cli-error.js';

/** Options every command takes (parseCommand adds them). */
export const COMMON_OPTIONS = {
  data: { type: 'string' },
  /** A postgres:// URL: the engine's data in PostgreSQL (the same as PROOFDESK_DATABASE_URL; runCli applies it). */
  database: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * A command's arguments parsed with node:util parseArgs: its own options and COMMON_OPTIONS,
 * positionals allowed. (parseArgs' own errors, e.g. an unknown flag, are turned into usage
 * errors by runCli.)
 */
export function parseCommand<O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof COMMON_OPTIONS & O }>> {
  return parseArgs({ args, allowPositionals: true, options: { ...COMMON_OPTIONS, ...options } });
}

/** Options of the commands that issue files (issue, watch): where, and what to add. */
export const ISSUING_OPTIONS = {
  engine: { type: 'string', default: 'local' },
  tag: { type: 'string', multiple: true },
  meta: { type: 'string', multiple: true },
} as const;

/**
 * A path as the user meant it: `npm run` starts us in the package folder, so relative paths
 * are taken from where the user typed the command (INIT_CWD).
 */
export function userPath(path: string): string;
export function userPath(path: string | undefined): string | undefined;
export function userPath(path: string | undefined): string | undefined {
  if (path === undefined || isAbsolute(path)) return path;
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** Parses `--meta key=value` pairs (values that parse as JSON are taken as JSON). */
export function parseMetaPairs(pairs: string[] | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--meta takes key=value, got ${JSON.stringify(pair)}`);
    const raw = pair.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text
    }
    result[pair.slice(0, at)] = value;
  }
  return result;
}

/** Parses a `--metadata` JSON object. */
export function parseMetadataJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('--metadata must be a JSON object, e.g. \'{"student": "Ada"}\'');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--metadata must be a JSON object');
  return value as Record<string, unknown>;
}

/** What `--format` writes per certificate: its proof file, its Verifiable Credential (UID.vc.json), or both. */
export const PROOF_KINDS: Record<ProofExportFormat, readonly ('proof' | 'vc')[]> = { proof: ['proof'], vc: ['vc'], both: ['proof', 'vc'] };

/** `--format proof|vc|both` of `issue` and `certificate download` (proof unless given). */
export function proofFormat(value: string | undefined, usage: string): ProofExportFormat {
  const format = value ?? 'proof';
  if (!Object.hasOwn(PROOF_KINDS, format)) throw new UsageError(`--format must be proof, vc or both, not ${JSON.stringify(format)}\n${usage}`);
  return format as ProofExportFormat;
}

/** Paging and order of the list commands (certificate, credential); `pageQuery` maps them onto the list query. */
export const PAGE_OPTIONS = {
  sort: { type: 'string' },
  desc: { type: 'boolean' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
} as const;

export function pageQuery(values: { sort?: string; desc?: boolean; page?: string; 'per-page'?: string }) {
  return { sort_by: values.sort, order: values.desc ? ('desc' as const) : ('asc' as const), page: values.page, per_page: values['per-page'] };
}

/**
 * The action of a command group (`jobs list`), checked before a data directory or Partner is
 * looked at: a missing or unknown one is a usage error naming the actions the group takes.
 */
export function subcommand<A extends string>(group: string, action: string | undefined, actions: readonly A[], usage: string): A {
  if ((actions as readonly string[]).includes(action ?? '')) return action as A;
  const what = action === undefined ? `Missing ${group} command` : `Unknown ${group} command ${JSON.stringify(action)}`;
  throw new UsageError(`${what}: ${group} takes ${actions.join(' | ')}\n${usage}`);
}
