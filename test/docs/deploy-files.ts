/**
 * Readers of the deployment example's files (deploy/): a systemd unit, an environment file,
 * a compose file's variables, a Dockerfile's last stage and a Caddyfile's reverse proxy, each
 * read as its tool reads it for what the example uses, and refusing what they do not know (an
 * edit that uses more makes the test say so rather than start something else).
 */
import { parse } from 'yaml';

/** A systemd unit: each section's settings in order, a key given several times kept each time. */
export type Unit = Map<string, [key: string, value: string][]>;

/** Parses a unit file: `[Section]`, `Key=Value`, `#`/`;` comments, lines continued with a trailing backslash. */
export function parseUnit(text: string): Unit {
  const unit: Unit = new Map();
  let section: [string, string][] | undefined;
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(trimmed);
    if (header) {
      section = [];
      unit.set(header[1]!, section);
      continue;
    }
    const eq = trimmed.indexOf('=');
    if (eq < 1 || !section) throw new Error(`Not a unit file line: ${trimmed}`);
    section.push([trimmed.slice(0, eq).trim(), trimmed.slice(eq + 1).trim()]);
  }
  return unit;
}

/** Every value of `key` in `section`. */
export function unitValues(unit: Unit, section: string, key: string): string[] {
  return (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);
}

/** The one value of `key` in `section` (fails when it is missing). */
export function unitValue(unit: Unit, section: string, key: string): string {
  const values = unitValues(unit, section, key);
  if (values.length === 0) throw new Error(`The unit has no ${key}= in [${section}]`);
  return values.at(-1)!;
}

/** What the specifiers of a unit instance stand for. */
export interface Specifiers {
  /** The instance name (%i, %I). */
  instance: string;
  /** The unit's name without its instance (%p). */
  prefix: string;
  /** The state directories' root (%S: /var/lib for a system unit). */
  stateRoot: string;
  /** This instance's credentials directory (%d). */
  credentials: string;
}

/** Replaces the specifiers systemd expands in a setting (systemd.unit(5), "Specifiers"). */
export function expandSpecifiers(text: string, s: Specifiers): string {
  const table: Record<string, string> = {
    i: s.instance,
    I: s.instance,
    p: s.prefix,
    n: `${s.prefix}@${s.instance}.service`,
    S: s.stateRoot,
    d: s.credentials,
    '%': '%',
  };
  return text.replace(/%(.)/g, (_, c: string) => {
    const value = table[c];
    if (value === undefined) throw new Error(`The unit uses the specifier %${c}, which this test does not know`);
    return value;
  });
}

/**
 * Splits a command line as systemd does (systemd.service(5), "Command lines"): words separated by
 * blanks, quoted with "" or ''; `${VAR}` is the variable's value as one word, `$VAR` its value
 * split at blanks; `$$` is a dollar sign.
 */
export function splitCommand(line: string, env: Record<string, string>): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const [, double, single, bare] of line.matchAll(re)) {
    if (single !== undefined) {
      words.push(single);
      continue;
    }
    const word = double ?? bare!;
    const whole = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(word);
    if (bare !== undefined && whole) {
      words.push(...(env[whole[1]!] ?? '').split(/\s+/).filter(Boolean));
      continue;
    }
    words.push(
      word.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name?: string) => {
        if (match === '$$') return '$';
        return env[name!] ?? '';
      }),
    );
  }
  return words;
}

/** The `Environment=` assignments of a setting: `KEY=VALUE` words, quoted when they hold blanks. */
export function parseEnvironmentSetting(value: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of splitCommand(value.replace(/\$/g, '$$$$'), {})) {
    const eq = word.indexOf('=');
    if (eq < 1) throw new Error(`Environment=${value}: not KEY=VALUE`);
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return env;
}

/** An environment file as systemd and compose both read the simple form: `KEY=VALUE` lines, `#` comments. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(trimmed);
    if (!match) throw new Error(`Not KEY=VALUE: ${trimmed}`);
    env[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  }
  return env;
}

/** A compose file after its variables were replaced: the parts the example uses. */
export interface Compose {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file: string }>;
  volumes?: Record<string, unknown>;
}

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  stop_signal?: string;
  stop_grace_period?: string;
}

/**
 * Parses a compose file as `docker compose` does for what the example uses: YAML with merge
 * keys, then `${VAR}`, `${VAR:-default}` and `${VAR:?error}` replaced from `variables` (what
 * `.env` or the shell gives), `$$` a dollar sign.
 */
export function parseCompose(text: string, variables: Record<string, string>): Compose {
  const interpolated = text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g, (match, name?: string, op?: string, arg?: string) => {
    if (match === '$$') return '$';
    const value = variables[name!];
    if (value) return value;
    if (op === ':-') return arg!;
    throw new Error(`compose.yaml needs ${name}${op === ':?' ? `: ${arg}` : ''}`);
  });
  return parse(interpolated, { merge: true }) as Compose;
}

/** The last stage of a Dockerfile: its ENTRYPOINT (exec form), ENV and USER. */
export function parseDockerfile(text: string): { entrypoint: string[]; env: Record<string, string>; user: string | undefined } {
  const stages = text.replace(/\\\n/g, ' ').split(/^FROM\s/m);
  const last = stages.at(-1)!;
  let entrypoint: string[] | undefined;
  const env: Record<string, string> = {};
  let user: string | undefined;
  for (const line of last.split('\n')) {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    const args = rest.join(' ');
    if (instruction === 'ENTRYPOINT') entrypoint = JSON.parse(args) as string[];
    if (instruction === 'ENV') Object.assign(env, parseEnvFile(rest.join('\n')));
    if (instruction === 'USER') user = args;
  }
  if (!entrypoint) throw new Error('The Dockerfile has no ENTRYPOINT in its last stage');
  return { entrypoint, env, user };
}

/** A Caddyfile's one `reverse_proxy` block: its upstreams and its subdirectives. */
export function parseCaddyReverseProxy(text: string): { upstreams: string[]; options: Map<string, string> } {
  const match = /^\s*reverse_proxy\s+([^{\n]+)\{([^}]*)\}/m.exec(text);
  if (!match) throw new Error('The Caddyfile has no reverse_proxy block');
  const options = new Map<string, string>();
  for (const line of match[2]!.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [name, ...value] = trimmed.split(/\s+/);
    options.set(name!, value.join(' '));
  }
  return { upstreams: match[1]!.trim().split(/\s+/), options };
}

/** A systemd or compose duration (`45`, `45s`, `1min 30s`, `1m30s`) in milliseconds. */
export function durationMs(text: string): number {
  const units: Record<string, number> = { '': 1000, s: 1000, sec: 1000, m: 60_000, min: 60_000, ms: 1 };
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)\s*([a-z]*)/g)) {
    const factor = units[unit!];
    if (factor === undefined) throw new Error(`Not a duration: ${text}`);
    total += Number(n) * factor;
  }
  return total;
}
