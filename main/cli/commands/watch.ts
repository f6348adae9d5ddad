import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isServiceError } from '../../../common/errors.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { isPlainObject, validateTags } from '../../../common/validate.js';
import { FolderIntake, JOURNAL_FILE, formatProgress, remoteJournalFile, fullPath, isDiskFullAt, type FolderIntakeEvent, type FolderIntakeOptions, type WatchFolderOptions } from '../../intake/index.js';
import { defaultDataDir, ensurePrivateDir, ensurePrivateFile, onJobEnds } from '../../engine/index.js';
import { parseCommand, ISSUING_OPTIONS, parseMetaPairs, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { EXIT } from '../error-report.js';
import { REMOTE_ENV, REMOTE_OPTIONS, partnerService, remoteService, withEngine, type CliContext } from '../context.js';

export const USAGE = `watch DIR... [--engine local] [--tag T]... [--meta KEY=VALUE]... [--out DIR] [--format proof|both] [--flat]
      [--allow-duplicates] [--stable DURATION] [--config FILE]
      [--partner ID|NAME | --remote BASE_URL [--client-id ID] [--auth-url URL] [--realm R]]
                                                      issue every file dropped into DIR (and its subfolders, unless
                                                      --flat) exactly once: proof files into --out (default
                                                      DIR/proofs), originals to DIR/done/, rejects to DIR/failed/,
                                                      identical content to DIR/duplicate/; runs until Ctrl-C.
                                                      --format both: each proof's Verifiable Credential too (NAME.vc.json).
                                                      --stable: how long a file must stay unchanged (default 1s).
                                                      --remote: issue through that service instead of the embedded
                                                      engine (secret in $PROOFDESK_CLIENT_SECRET); the journal stays
                                                      in --data, one per service and client.
                                                      Sidecars NAME.EXT.json and manifest.csv: docs/intake.md`;

const TICK_MS = 250;
/** Without a terminal, the status line is printed this often (when it changed). */
const LOG_EVERY_MS = 5_000;
/** The same problem is printed at most this often. */
const REPEAT_MS = 60_000;
/** Exit status when the disk is full at start (EX_TEMPFAIL: try again later). */
const { environment: EXIT_DISK_FULL } = EXIT;

/** `500ms`, `2s`, `1m`, or a bare number of milliseconds. */
function parseStable(text: string): number {
  const match = /^\s*(\d+)\s*(ms|s|m)?\s*$/i.exec(text);
  if (!match) throw new UsageError(`--stable takes a duration like 500ms, 2s or 1m, got ${JSON.stringify(text)}`);
  const unit = (match[2] ?? 'ms').toLowerCase();
  return Number(match[1]) * (unit === 's' ? 1_000 : unit === 'm' ? 60_000 : 1);
}

/** Reads `--config FILE`: `{"folders": [{path, engine, tags, metadata, recursive, out, format, allow_duplicates}]}`. */
function readConfig(file: string): WatchFolderOptions[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--config ${file}: ${(error as Error).message}`);
  }
  const folders = isPlainObject(value) ? value.folders : undefined;
  if (!Array.isArray(folders)) throw new UsageError(`--config ${file}: expected {"folders": [...]}`);
  const base = dirname(file);
  return folders.map((f: unknown, i) => {
    const where = `--config ${file}, folders[${i}]`;
    if (!isPlainObject(f) || typeof f.path !== 'string') throw new UsageError(`${where}: needs "path"`);
    const known = ['path', 'engine', 'tags', 'metadata', 'recursive', 'out', 'format', 'allow_duplicates'];
    for (const key of Object.keys(f)) if (!known.includes(key)) throw new UsageError(`${where}: unknown field "${key}" (use ${known.join(', ')})`);
    if (f.metadata !== undefined && !isPlainObject(f.metadata)) throw new UsageError(`${where}: metadata must be an object`);
    if (f.format !== undefined && f.format !== 'proof' && f.format !== 'both') throw new UsageError(`${where}: format must be "proof" or "both"`);
    return {
      path: resolve(base, f.path),
      engine: typeof f.engine === 'string' ? f.engine : undefined,
      tags: f.tags === undefined ? undefined : validateTags(f.tags, `${where}.tags`),
      metadata: f.metadata as Record<string, unknown> | undefined,
      recursive: f.recursive === undefined ? undefined : f.recursive === true,
      outDir: typeof f.out === 'string' ? resolve(base, f.out) : undefined,
      format: f.format as 'proof' | 'both' | undefined,
      allowDuplicates: f.allow_duplicates === true,
    };
  });
}

/** One status line: redrawn in place on a terminal, printed every few seconds otherwise. */
class StatusLine {
  private shown = '';
  private readonly noted = new Map<string, number>();
  private lastLogged = 0;
  constructor(
    private readonly tty: boolean,
    private readonly ctx: CliContext,
  ) {}

  update(line: string, force = false): void {
    if (this.tty) {
      if (line !== this.shown || force) process.stderr.write(`\r${line}\x1b[K`);
    } else if (force || (line !== this.shown && Date.now() - this.lastLogged >= LOG_EVERY_MS)) {
      this.ctx.stderr(line);
      this.lastLogged = Date.now();
    } else return;
    this.shown = line;
  }

  /**
   * A line of its own above the status line. The same message (numbers and ids aside) is
   * printed at most once a minute: a problem that lasts (a full disk, the chain away) is told,
   * not repeated on every try.
   */
  note(text: string): void {
    const key = text.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|\d+/gi, '#');
    const now = Date.now();
    const last = this.noted.get(key);
    if (last !== undefined && now - last < REPEAT_MS) return;
    this.noted.set(key, now);
    if (this.noted.size > 1000) this.noted.clear();
    if (this.tty) process.stderr.write(`\r\x1b[K${text}\n${this.shown}`);
    else this.ctx.stderr(text);
  }

  end(): void {
    if (this.tty) process.stderr.write('\n');
  }
}

function describe(event: FolderIntakeEvent): string | undefined {
  switch (event.type) {
    case 'failed':
      return `failed: ${event.path}: ${event.id}: ${event.message}`;
    case 'duplicate':
      return `duplicate: ${event.path}: ${event.message}`;
    case 'job-failed':
      return `job ${event.job_uid} failed; its ${event.credentials} credential(s) are scheduled again`;
    case 'warning':
      return `warning: ${event.message}`;
    case 'recovered':
      return `resumed ${event.found + event.resent} file(s) sent before the last stop: ${event.found} credential(s) found made, ${event.resent} to send again`;
    case 'issued':
      return undefined;
  }
}

/** `watch DIR...` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    ...ISSUING_OPTIONS,
    out: { type: 'string' },
    format: { type: 'string' },
    flat: { type: 'boolean' },
    'allow-duplicates': { type: 'boolean' },
    stable: { type: 'string' },
    config: { type: 'string' },
    ...REMOTE_OPTIONS,
  });
  const configFile = userPath(values.config);
  if (positionals.length === 0 && !configFile) throw new UsageError(`watch needs one or more folders\n${USAGE}`);
  const tags = validateTags(values.tag ?? [], '--tag');
  const metadata = parseMetaPairs(values.meta);
  const outDir = userPath(values.out);
  const format = values.format ?? 'proof';
  if (format !== 'proof' && format !== 'both') throw new UsageError(`--format must be proof or both (watch always writes the proof file), not ${JSON.stringify(format)}\n${USAGE}`);
  const stableMs = values.stable === undefined ? undefined : parseStable(values.stable);
  const folders: WatchFolderOptions[] = positionals.map((dir) => ({
    path: userPath(dir),
    engine: values.engine,
    tags,
    metadata,
    recursive: !values.flat,
    outDir,
    format,
    allowDuplicates: values['allow-duplicates'] ?? false,
  }));
  if (configFile) folders.push(...readConfig(configFile));
  const remote = values.remote;
  if (remote === undefined) {
    const stray = (['auth-url', 'client-id', 'realm'] as const).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} applies only with --remote BASE_URL`);
  } else if (values.partner !== undefined) {
    throw new UsageError('--partner chooses a Partner of the embedded engine; with --remote the client id does (--client-id)');
  }
  /** Makes the folders that are not there yet: once the flags are known to be good (bad usage makes nothing). */
  const makeFolders = () => {
    for (const folder of folders) {
      if (existsSync(folder.path) && !statSync(folder.path).isDirectory()) throw new UsageError(`Not a folder: ${folder.path}`);
    }
    for (const folder of folders) mkdirSync(folder.path, { recursive: true });
  };
  if (remote === undefined) makeFolders();

  const tty = Boolean(process.stderr.isTTY) && !values.json;
  const status = new StatusLine(tty, ctx);
  const dataDir = userPath(values.data);
  try {
    return await (remote === undefined ? watchWith(dataDir) : watchRemote(dataDir ?? defaultDataDir(), remote));
  } catch (error) {
    const dir = dataDir ?? defaultDataDir();
    if (!isDiskFullAt(error, dir)) throw error;
    // Full before watching could start (the databases could not be opened or written).
    const where = fullPath(error, dir);
    ctx.stderr(`Cannot watch now: the disk holding ${where} is full (${(error as Error).message}). Free some space there and run watch again; nothing was moved or lost.`);
    return EXIT_DISK_FULL;
  }

  /** Watches through `service` with the journal `journalFile` of `dataDir` until a signal. */
  async function watchThrough(service: IssuingService, dir: string, target: string, journalFile: string, jobMoves?: FolderIntakeOptions['jobMoves']): Promise<number> {
    let intake: FolderIntake;
    try {
      // The data directory is private as the engine keeps it (with --remote no engine made it), and
      // the journals are created 0600 before SQLite opens them (their -wal/-shm follow the mode):
      // the folders are claimed in ingest.sqlite whichever file holds the rows.
      ensurePrivateDir(dir);
      for (const file of new Set([JOURNAL_FILE, journalFile])) ensurePrivateFile(join(dir, file));
      intake = await FolderIntake.start({
        service,
        dataDir: dir,
        journalFile,
        folders,
        target,
        stableMs,
        jobMoves,
        onEvent: (event) => {
          if (values.json) ctx.stdout(JSON.stringify(event));
          // Proof paths are for programs reading stdout; on a terminal the status line says it.
          else if (event.type === 'issued' && !process.stdout.isTTY) ctx.stdout(event.proof);
          const text = describe(event);
          if (text) status.note(text);
        },
      });
    } catch (error) {
      if (isServiceError(error)) throw error;
      ctx.stderr(`Cannot watch: ${(error as Error).message}`);
      return 1;
    }
    ctx.stderr(`watching ${folders.map((f) => f.path).join(', ')} (Ctrl-C stops; work under way is finished or journaled first)`);
    const timer = setInterval(() => status.update(formatProgress(intake.progress())), TICK_MS);
    const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
      const onSignal = (s: NodeJS.Signals) => {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
        // A second signal does not wait: the journal is consistent at every step.
        process.once('SIGINT', () => process.exit(130));
        process.once('SIGTERM', () => process.exit(143));
        resolveSignal(s);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
    clearInterval(timer);
    status.update(formatProgress(intake.progress()), true);
    status.end();
    ctx.stderr(`${signal}: stopping; finishing the work under way...`);
    await intake.stop();
    const left = intake.progress();
    ctx.stderr(`stopped. ${formatProgress(left)}${left.waitingForJob > 0 ? ` — the ${left.waitingForJob} file(s) waiting for their job are finished by the next \`watch\`` : ''}`);
    return 0;
  }

  /**
   * Through a remote service: no engine, chain or keychain is opened here; the journal stays
   * in the local data directory, in a file of that service and client's own.
   */
  async function watchRemote(dir: string, remote: string): Promise<number> {
    // Its usage (client id, secret, URL) is checked before anything is made.
    const service = await remoteService({ remote, 'auth-url': values['auth-url'], 'client-id': values['client-id'], realm: values.realm });
    try {
      makeFolders();
      const clientId = values['client-id'] ?? process.env[REMOTE_ENV.clientId]!;
      return await watchThrough(service, dir, `remote:${JSON.stringify([new URL(remote).href.replace(/\/+$/, ''), clientId])}`, remoteJournalFile(remote, clientId));
    } finally {
      await service.close();
    }
  }

  function watchWith(dataDir: string | undefined): Promise<number> {
    return withEngine(
      dataDir,
      async (engine) => {
        const service = partnerService(engine, values.partner);
        const partnerId = values.partner !== undefined ? engine.partners.resolve(values.partner).id : engine.partners.list()[0]!.id;
        return watchThrough(service, engine.dataDir, `partner:${partnerId}`, JOURNAL_FILE, (listener) => onJobEnds(engine.events, partnerId, listener));
      },
      {
        secrets: true,
        indexInBackground: true,
        issuing: {
          scheduler: true,
          tickMs: TICK_MS,
          onError: (error) => status.note(`issuing: ${(error as Error).message ?? String(error)}`),
        },
      },
    );
  }
}
