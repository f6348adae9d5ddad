/**
 * Creates staged rows (or CSV rows) as credentials through the shared file intake
 * (main/intake/), each row all or nothing, in link order: a row linking to another row gets
 * that row's new uid. Bad rows are refused before anything of theirs is read. Rows go a chunk
 * at a time — on the embedded engine one write transaction per chunk, on a remote service
 * concurrent single requests — and a cancel stops between chunks, so every row is either
 * wholly created or not at all.
 */
import { basename } from 'node:path';
import { isServiceError } from '../../../common/errors.js';
import { checkRowFields, type RowOutcome, type StagingCreateRow } from '../../../common/ipc/staging.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import type { CreateAndScheduleRequest } from '../../../common/requests.js';
import type { TaskContext, TaskError } from '../../../common/tasks.js';
import { ByteGate, HELD_BYTES, INTAKE_BATCH, IntakeSender, READ_CONCURRENCY, mapOrdered, readForIntake, type IntakeRead } from '../../intake/index.js';
import { stage } from '../../engine/index.js';
import { existingCredentials } from './existing-credentials.js';
import { orderByLinks } from './link-order.js';


export interface CreateRowsOptions {
  /** Schedule each created credential on this engine; null creates only. */
  engine: string | null;
  allowDuplicates: boolean;
  /** How a row is named in messages about links (e.g. "row 12"). */
  label?: (key: string) => string;
  now?: number;
}

function asTaskError(error: unknown): TaskError {
  if (isServiceError(error)) return { id: error.id, message: error.message };
  // A bug: the admin gets a sentence, main's log the details.
  console.error('creating a credential failed:', error);
  return { id: 'internal_error', message: 'This row could not be created because of an unexpected error; try again, and report it if it persists.' };
}

/** A file that cannot be read fails its row alone, with the reason. */
function readError(row: StagingCreateRow, error: unknown): TaskError {
  const code = (error as NodeJS.ErrnoException)?.code;
  return { id: 'no_file_on_payload', message: `${row.title}: the file ${row.file!.path} could not be read (${code ?? (error as Error)?.message ?? 'unknown error'})` };
}

/**
 * Creates the rows; returns one outcome per row, in the rows' order.
 *
 * @example const outcomes = await createRows(service, rows, { engine: 'local', allowDuplicates: false }, task)
 */
export async function createRows(service: IssuingService, rows: StagingCreateRow[], options: CreateRowsOptions, task: TaskContext): Promise<RowOutcome[]> {
  const now = options.now ?? Date.now();
  const label = options.label ?? ((key: string) => JSON.stringify(key));
  const outcomes = new Map<string, RowOutcome>();
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const sender = new IntakeSender(service);

  // The service's refusal says why (an unknown engine, or `local` whose chain is another data directory's).
  if (options.engine !== null) await service.getEngine(options.engine);

  // Links to existing credentials are checked up front: one read per distinct uid.
  const existing = await existingCredentials(null, service, rows.flatMap((r) => r.links).filter((l) => !byKey.has(l)));
  const plan = orderByLinks(rows, (link) => existing.has(link.toLowerCase()), label);
  for (const [key, error] of plan.errors) outcomes.set(key, { key, status: 'failed', error });

  const created = new Map<string, string>();
  let done = plan.errors.size;
  task.progress(done, rows.length);
  // A chunk is one write transaction on the embedded engine (its files synced in one pass), and how often a cancel is seen.
  const chunkSize = sender.batched ? INTAKE_BATCH : sender.window;
  const chunkList = [...chunksByLinks(plan.order, byKey, chunkSize)];
  /** Starts reading a chunk's files (rows whose fields pass their checks): never rejects. */
  const readChunk = (keys: string[]): Promise<Map<string, IntakeRead | { error: unknown }>> => stage('create: read', async () => {
    const rows = keys.map((k) => byKey.get(k)!).filter((row) => row.file !== null && checkRowFields(row, true, now).length === 0);
    // A chunk holds at most HELD_BYTES of file bytes; files beyond it are staged from disk.
    const budget = new ByteGate(HELD_BYTES);
    const reads = new Map<string, IntakeRead | { error: unknown }>();
    let n = 0;
    for await (const read of mapOrdered(rows, READ_CONCURRENCY, (row) => readForIntake(row.file!.path, budget).catch((error: unknown) => ({ error })))) reads.set(rows[n++]!.key, read);
    return reads;
  });
  let upcoming = chunkList.length > 0 ? readChunk(chunkList[0]!) : undefined;
  for (const [c, keys] of chunkList.entries()) {
    if (task.signal.aborted) {
      for (const key of keys) outcomes.set(key, { key, status: 'not_created', reason: 'Cancelled before this row was created' });
      continue;
    }
    // The next chunk's files are read while this one is created.
    const reading = upcoming!;
    upcoming = c + 1 < chunkList.length ? readChunk(chunkList[c + 1]!) : undefined;
    // Checked first, so a bad row fails alone and none of its file is read; a row linking to a
    // row that was not created is not attempted.
    const ready: StagingCreateRow[] = [];
    for (const key of keys) {
      const row = byKey.get(key)!;
      const blocker = row.links.find((l) => byKey.has(l) && !created.has(l));
      const problems = checkRowFields(row, row.file !== null, now);
      if (blocker !== undefined) outcomes.set(key, { key, status: 'not_created', reason: `It links to ${label(blocker)}, which was not created` });
      else if (problems.length > 0) outcomes.set(key, { key, status: 'failed', error: { id: problems[0]!.id, message: problems.map((p) => p.message).join('; ') } });
      else ready.push(row);
    }
    const readMap = await stage('create: read wait', () => reading);
    const reads = ready.map((row) => (row.file ? (readMap.get(row.key) ?? { error: new Error('it was not read') }) : undefined));
    const sending: { row: StagingCreateRow; request: CreateAndScheduleRequest; sha256: string | undefined }[] = [];
    ready.forEach((row, i) => {
      const read = reads[i];
      if (read && 'error' in read) return outcomes.set(row.key, { key: row.key, status: 'failed', error: readError(row, read.error) });
      sending.push({
        row,
        sha256: read?.sha256,
        request: {
          ...(read ? { file: read.bytes ? { data: read.bytes, name: basename(read.path) } : { path: read.path } } : {}),
          credential_details: {
            title: row.title,
            metadata: row.metadata,
            tags: row.tags,
            credentials: row.links.map((l) => created.get(l) ?? l),
            ...(row.expiry_date ? { expiry_date: row.expiry_date } : {}),
            ignore_duplicate: options.allowDuplicates ? 'true' : 'false',
          },
        },
      });
    });
    const results = await sender.createAndScheduleMany(
      options.engine,
      sending.map((s) => s.request),
      sending.map((s) => s.sha256),
    );
    sending.forEach(({ row }, i) => {
      const result = results[i]!;
      if (result.credential) {
        created.set(row.key, result.credential.uid);
        outcomes.set(row.key, { key: row.key, status: 'created', uid: result.credential.uid });
      } else outcomes.set(row.key, { key: row.key, status: 'failed', error: asTaskError(result.error) });
    });
    done += keys.length;
    task.progress(done, rows.length);
  }
  return rows.map((r) => outcomes.get(r.key)!);
}

/**
 * The planned order in chunks of at most `size`, a chunk ending before a row that links to a
 * row of the same chunk: the linked row's uid is then known when the linking row is sent.
 */
function* chunksByLinks(order: string[], byKey: Map<string, StagingCreateRow>, size: number): Generator<string[]> {
  let chunk: string[] = [];
  let inChunk = new Set<string>();
  for (const key of order) {
    if (chunk.length >= size || byKey.get(key)!.links.some((l) => inChunk.has(l))) {
      yield chunk;
      chunk = [];
      inChunk = new Set();
    }
    chunk.push(key);
    inChunk.add(key);
  }
  if (chunk.length > 0) yield chunk;
}
