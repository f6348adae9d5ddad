/**
 * The embedded engine's fast path for creating many rows: the files of a chunk of rows are read
 * and staged first (outside any lock), then the whole chunk is recorded in one write
 * transaction, each row in its own savepoint — so every row is still all or nothing, but 1,000
 * rows cost ten commits instead of a thousand. It does exactly what
 * `createAndScheduleCredential` (or upload + `createCredential`) does per row, with the engine's
 * own functions.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { isServiceError } from '../../../common/errors.js';
import type { RowOutcome, StagingCreateRow } from '../../../common/ipc/staging.js';
import type { TaskError } from '../../../common/tasks.js';
import { resolveReferences, insertCredential } from '../../engine/credentials.js';
import { parseCredentialDetails } from '../../engine/credential-input.js';
import { inTransaction, inWriteLock } from '../../engine/database.js';
import type { StagedFile } from '../../engine/file-store.js';
import { recordUpload } from '../../engine/files.js';
import { addToScheduledJob } from '../../engine/scheduling.js';
import type { PartnerScope } from '../../engine/scope.js';

/** Files up to this size are read whole and staged from memory (one write, type sniffed from the bytes). */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

function asError(error: unknown, fallback: string): TaskError {
  if (isServiceError(error)) return { id: error.id, message: error.message };
  console.error(fallback, error);
  return { id: 'internal_error', message: `${fallback}; try again, and report it if it persists.` };
}

async function stageFile(scope: PartnerScope, path: string): Promise<StagedFile> {
  const info = await stat(path).catch(() => null);
  if (info && info.isFile() && info.size <= READ_WHOLE_BYTES) return scope.store.stage({ data: await readFile(path), name: basename(path) });
  return scope.store.stage({ path });
}

/**
 * Records a chunk of checked rows, in order; `created` maps row keys to new uids (read for
 * links, written as rows are created).
 */
export async function createChunk(
  scope: PartnerScope,
  rows: StagingCreateRow[],
  options: { engine: string | null; allowDuplicates: boolean },
  created: Map<string, string>,
  /** Whether a link names a row of this run (rather than an existing credential). */
  isRunKey: (link: string) => boolean,
): Promise<RowOutcome[]> {
  const staged = await Promise.all(rows.map((r) => (r.file ? stageFile(scope, r.file.path).catch((error: unknown) => ({ error })) : Promise.resolve(undefined))));
  try {
    return inWriteLock(scope.db, () =>
      rows.map((row, i): RowOutcome => {
        const file = staged[i];
        if (file && 'error' in file) return { key: row.key, status: 'failed', error: asError(file.error, `${row.title}: the file could not be read`) };
        const blocker = row.links.find((l) => isRunKey(l) && !created.has(l));
        if (blocker !== undefined) return { key: row.key, status: 'not_created', reason: 'It links to a row that was not created' };
        try {
          const uid = inTransaction(scope.db, () => {
            const details = parseCredentialDetails(
              {
                title: row.title,
                metadata: row.metadata,
                tags: row.tags,
                credentials: row.links.map((l) => created.get(l) ?? l),
                ...(row.expiry_date ? { expiry_date: row.expiry_date } : {}),
                ignore_duplicate: options.allowDuplicates ? 'true' : 'false',
              },
              file !== undefined,
            );
            const uploaded = file ? [recordUpload(scope, file, details.ignoreDuplicate).id] : [];
            const { id, credential } = insertCredential(scope, details, resolveReferences(scope, details, uploaded));
            if (options.engine !== null) addToScheduledJob(scope, options.engine, [id], [credential.uid]);
            // The bytes go into the store last, once the row's records are written.
            if (file) scope.store.commit(file);
            return credential.uid;
          });
          created.set(row.key, uid);
          return { key: row.key, status: 'created', uid };
        } catch (error) {
          // The savepoint rolled the row back. Its bytes go into the store only as its last step,
          // but should that step be what failed, bytes no Partner's file row names are removed.
          if (file && scope.db.prepare('SELECT 1 FROM files WHERE file_hash = ?').get(file.hash) === undefined) scope.store.remove(file.hash);
          return { key: row.key, status: 'failed', error: asError(error, `${row.title} could not be created`) };
        }
      }),
    );
  } finally {
    for (const file of staged) if (file && !('error' in file)) scope.store.discard(file);
  }
}
