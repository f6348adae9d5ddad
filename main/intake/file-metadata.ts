/**
 * Per-file credential data: a sidecar `NAME.EXT.json`, or a row of a `manifest.csv` in the
 * file's folder or one above it. Everything is checked here, before anything is sent, so a
 * bad sidecar or row fails that file alone with a reason naming the line and the field.
 */
import { lstatSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { ServiceError, type ErrorId } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { isPlainObject, isUuid, parseIsoDate, validateTags } from '../../common/validate.js';
import { parseCsv } from '../files/parse-csv.js';
import { jsonSyntaxError } from './json-position.js';
import { MANIFEST_FILE, sidecarNameOf } from './names.js';

/** What a sidecar or manifest row says about one file (all optional). */
export interface FileFields {
  title?: string;
  metadata?: Record<string, unknown>;
  tags?: string[];
  expiry_date?: string | null;
  credentials?: string[];
}

/** A reason a file cannot be issued as described. */
export class MetadataError extends Error {
  override readonly name = 'MetadataError';
  constructor(
    readonly id: ErrorId,
    message: string,
  ) {
    super(message);
  }
}

/** The key the intake keeps for itself in every credential's metadata. */
export const INGEST_METADATA_KEY = 'ingest';

const SIDECAR_FIELDS = ['title', 'metadata', 'tags', 'expiry_date', 'credentials'] as const;

/** Re-throws a ServiceError of common/validate with `where` in front of its message. */
function checked<T>(where: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ServiceError) throw new MetadataError(error.id, `${where}: ${error.message}`);
    throw error;
  }
}

function checkTitle(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > LIMITS.titleMaxLength) {
    throw new MetadataError('invalid_value', `${where}: must be a non-empty text of at most ${LIMITS.titleMaxLength} characters`);
  }
  return value;
}

function checkMetadata(value: unknown, where: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new MetadataError('invalid_value', `${where}: must be a JSON object`);
  if (Object.hasOwn(value, INGEST_METADATA_KEY)) throw new MetadataError('invalid_value', `${where}: the key "${INGEST_METADATA_KEY}" is reserved for the intake`);
  return value;
}

function checkExpiry(value: unknown, where: string, now: number): string | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = checked(where, () => parseIsoDate(value, 'expiry_date', 'invalid_expiry_date'));
  if (ms <= now) throw new MetadataError('invalid_expiry_date', `${where}: ${JSON.stringify(value)} is not in the future`);
  return value as string;
}

function checkLinks(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.some((v) => !isUuid(v))) throw new MetadataError('invalid_value', `${where}: must be a list of credential uids`);
  if (value.length > LIMITS.maxLinks) throw new MetadataError('invalid_value', `${where}: more than ${LIMITS.maxLinks} credentials`);
  if (new Set(value).size !== value.length) throw new MetadataError('invalid_value', `${where}: lists the same credential twice`);
  return value as string[];
}

/** The 1-based line and column of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The line a top-level key of a JSON text is on (best effort: its first occurrence). */
function lineOfKey(text: string, key: string): number {
  const at = text.search(new RegExp(`"${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:`));
  return at < 0 ? 1 : lineColumn(text, at).line;
}

/** Parses and checks a sidecar's text. `name` is how the sidecar is named in messages. */
export function parseSidecar(text: string, name: string, now: number): FileFields {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const syntax = jsonSyntaxError(body);
  if (syntax) {
    const { line, column } = lineColumn(body, syntax.offset);
    throw new MetadataError('no_json', `sidecar ${name}, line ${line}, column ${column}: not valid JSON (${syntax.message})`);
  }
  const value: unknown = JSON.parse(body);
  if (!isPlainObject(value)) throw new MetadataError('no_json', `sidecar ${name}, line 1: must be a JSON object`);
  const at = (field: string) => `sidecar ${name}, line ${lineOfKey(text, field)}, field "${field}"`;
  for (const key of Object.keys(value)) {
    if (!(SIDECAR_FIELDS as readonly string[]).includes(key)) {
      throw new MetadataError('invalid_value', `${at(key)}: unknown field (use ${SIDECAR_FIELDS.join(', ')})`);
    }
  }
  const fields: FileFields = {};
  if (value.title !== undefined) fields.title = checkTitle(value.title, at('title'));
  if (value.metadata !== undefined) fields.metadata = checkMetadata(value.metadata, at('metadata'));
  if (value.tags !== undefined) fields.tags = checked(at('tags'), () => validateTags(value.tags, 'tags'));
  if (value.expiry_date !== undefined) fields.expiry_date = checkExpiry(value.expiry_date, at('expiry_date'), now);
  if (value.credentials !== undefined) fields.credentials = checkLinks(value.credentials, at('credentials'));
  return fields;
}

/** A manifest's rows by file path (relative to the manifest's folder), each checked or failed. */
export interface Manifest {
  /** A problem that spoils the whole manifest (its header): every file it applies to fails. */
  broken?: MetadataError;
  rows: Map<string, FileFields | MetadataError>;
}

/** How long a manifest's stat is reused. */
const MANIFEST_STAT_MS = 100;

const MANIFEST_COLUMNS = ['file', 'title', 'tags', 'expiry_date', 'credentials'] as const;

/** A cell's list of values (tags, links), separated by `;` or `|`. */
export function splitList(cell: string): string[] {
  return cell
    .split(/[;|]/)
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

/** A manifest's file cell as a path: forward slashes, no leading `./`. */
export function normalizeManifestPath(cell: string): string {
  return posix.normalize(cell.trim().replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
}

function setPath(target: Record<string, unknown>, path: string[], value: string): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

/** Parses and checks a manifest.csv's text. */
export function parseManifest(text: string, name: string, now: number): Manifest {
  const { records, errors } = parseCsv(text);
  const rows = new Map<string, FileFields | MetadataError>();
  const firstLine = new Map<string, number>();
  if (records.length === 0) return { rows, broken: errors.length ? new MetadataError('invalid_value', `${name} ${errors[0]!.message}`) : undefined };
  const header = records[0]!;
  const columns = header.fields.map((h) => h.trim());
  const lower = columns.map((c) => (c.toLowerCase().startsWith('meta.') ? `meta.${c.slice(5)}` : c.toLowerCase()));
  const fileIndex = lower.indexOf('file');
  const bad = (message: string) => ({ rows, broken: new MetadataError('invalid_value', `${name} line ${header.line}: ${message}`) });
  if (fileIndex < 0) return bad('no "file" column in the header');
  for (const [i, column] of lower.entries()) {
    if (column === '') return bad(`column ${i + 1} has no name`);
    if (!(MANIFEST_COLUMNS as readonly string[]).includes(column) && !(column.startsWith('meta.') && column.length > 5)) {
      return bad(`unknown column "${columns[i]}" (use ${MANIFEST_COLUMNS.join(', ')} or meta.NAME)`);
    }
    if (lower.indexOf(column) !== i) return bad(`column "${columns[i]}" appears twice`);
  }
  const put = (file: string, line: number, value: FileFields | MetadataError) => {
    const earlier = firstLine.get(file);
    if (earlier !== undefined) {
      rows.set(file, new MetadataError('invalid_value', `${name} lines ${earlier} and ${line} both name "${file}"`));
      return;
    }
    firstLine.set(file, line);
    rows.set(file, value);
  };
  for (const error of errors) {
    const cell = error.fields[fileIndex];
    if (cell !== undefined && cell.trim() !== '') put(normalizeManifestPath(cell), error.line, new MetadataError('invalid_value', `${name} ${error.message}`));
  }
  for (const record of records.slice(1)) {
    const cell = record.fields[fileIndex]?.trim() ?? '';
    if (cell === '') continue;
    const file = normalizeManifestPath(cell);
    try {
      if (record.fields.length !== columns.length) {
        throw new MetadataError('invalid_value', `${name} line ${record.line}: ${record.fields.length} fields, but the header has ${columns.length}`);
      }
      const fields: FileFields = {};
      const metadata: Record<string, unknown> = {};
      lower.forEach((column, i) => {
        const value = record.fields[i] ?? '';
        const where = `${name} line ${record.line}, column "${columns[i]}"`;
        if (column === 'file' || value.trim() === '') return;
        if (column === 'title') fields.title = checkTitle(value.trim(), where);
        else if (column === 'tags') fields.tags = checked(where, () => validateTags(splitList(value), 'tags'));
        else if (column === 'expiry_date') fields.expiry_date = checkExpiry(value.trim(), where, now);
        else if (column === 'credentials') fields.credentials = checkLinks(splitList(value), where);
        else {
          const path = columns[i]!.slice(5).split('.');
          if (path.some((p) => p === '')) throw new MetadataError('invalid_value', `${where}: not a valid metadata key`);
          if (path[0] === INGEST_METADATA_KEY) throw new MetadataError('invalid_value', `${where}: the key "${INGEST_METADATA_KEY}" is reserved for the intake`);
          setPath(metadata, path, value);
        }
      });
      if (Object.keys(metadata).length > 0) fields.metadata = metadata;
      put(file, record.line, fields);
    } catch (error) {
      if (!(error instanceof MetadataError)) throw error;
      put(file, record.line, error);
    }
  }
  return { rows };
}

/** The outcome of looking up a file's data. */
export type Lookup =
  | { kind: 'ok'; fields: FileFields; sidecar: string | null }
  /** A sidecar or manifest is still being written: look again later. */
  | { kind: 'wait' }
  | { kind: 'fail'; error: MetadataError; sidecar: string | null };

interface CachedManifest {
  mtimeMs: number;
  size: number;
  manifest: Manifest;
}

/** Finds each file's sidecar and manifest row; manifests are read once per change. */
export class MetadataSource {
  private readonly manifests = new Map<string, CachedManifest>();
  /** Recent stats of manifest paths: a bulk drop asks about the same few folders thousands of times a second. */
  private readonly manifestStats = new Map<string, { at: number; info: Stats | undefined }>();

  constructor(private readonly stableMs: number) {}

  /**
   * Looks up a file's data.
   *
   * @param root the watched folder
   * @param relPath the file's path relative to it, with forward slashes
   */
  async lookup(root: string, relPath: string, now: number): Promise<Lookup> {
    const name = posix.basename(relPath);
    const sidecarRel = posix.join(posix.dirname(relPath), sidecarNameOf(name));
    const sidecarPath = join(root, sidecarRel);
    let sidecar: FileFields | undefined;
    let sidecarUsed: string | null = null;
    try {
      // Synchronous: one cheap call per file on a local folder, where fs/promises costs four.
      // lstat: a sidecar that is a link is never followed (docs/intake.md).
      const info = lstatSync(sidecarPath, { throwIfNoEntry: false });
      if (info?.isSymbolicLink()) throw new MetadataError('invalid_value', `sidecar ${sidecarRel}: a symbolic link, which is never followed`);
      if (info?.isFile()) {
        if (now - info.mtimeMs < this.stableMs) return { kind: 'wait' };
        sidecarUsed = sidecarRel;
        sidecar = parseSidecar(await readFile(sidecarPath, 'utf8'), sidecarRel, now);
      }
    } catch (error) {
      if (error instanceof MetadataError) return { kind: 'fail', error, sidecar: sidecarUsed };
      // A name too long for a sidecar beside it has none.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENAMETOOLONG' && code !== 'ENOTDIR') {
        return { kind: 'fail', error: new MetadataError('invalid_value', `sidecar ${sidecarRel}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`), sidecar: sidecarUsed };
      }
    }
    // The nearest manifest.csv that names the file, from its own folder up to the root.
    let row: FileFields | undefined;
    const parts = relPath.split('/');
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const dirRel = parts.slice(0, depth).join('/');
      const manifest = await this.manifest(join(root, dirRel, MANIFEST_FILE), dirRel === '' ? MANIFEST_FILE : `${dirRel}/${MANIFEST_FILE}`, now);
      if (manifest === 'wait') return { kind: 'wait' };
      if (!manifest) continue;
      if (manifest.broken) return { kind: 'fail', error: manifest.broken, sidecar: sidecarUsed };
      const found = manifest.rows.get(parts.slice(depth).join('/'));
      if (found instanceof MetadataError) return { kind: 'fail', error: found, sidecar: sidecarUsed };
      if (found) {
        row = found;
        break;
      }
    }
    const fields: FileFields = { ...row, ...sidecar };
    if (row?.metadata && sidecar?.metadata) fields.metadata = { ...row.metadata, ...sidecar.metadata };
    return { kind: 'ok', fields, sidecar: sidecarUsed };
  }

  private async manifest(path: string, name: string, now: number): Promise<Manifest | 'wait' | undefined> {
    let info;
    const recent = this.manifestStats.get(path);
    if (recent && now - recent.at < MANIFEST_STAT_MS) info = recent.info;
    else {
      try {
        info = lstatSync(path, { throwIfNoEntry: false });
      } catch {
        info = undefined;
      }
      if (this.manifestStats.size > 10_000) this.manifestStats.clear();
      this.manifestStats.set(path, { at: now, info });
    }
    if (!info) this.manifests.delete(path);
    if (!info?.isFile()) return undefined;
    if (now - info.mtimeMs < this.stableMs) return 'wait';
    const cached = this.manifests.get(path);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.manifest;
    let manifest: Manifest;
    try {
      manifest = parseManifest(await readFile(path, 'utf8'), name, now);
    } catch (error) {
      manifest = { rows: new Map(), broken: new MetadataError('invalid_value', `${name}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`) };
    }
    this.manifests.set(path, { mtimeMs: info.mtimeMs, size: info.size, manifest });
    return manifest;
  }
}
