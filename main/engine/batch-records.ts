/**
 * The records of a batch of create-and-schedule requests, written without a savepoint per
 * request: every rule that can refuse one request is checked for all of them first (reads
 * only), then the accepted ones are written straight, their independent rows (tags, file
 * links, job entries) as one statement each per batch. A savepoint per request made SQLite copy
 * every page a request touched into a sub-journal, and cost two statements more: about half
 * of the batch's SQL time. What a request is refused for, and with which error, is what the
 * single call would answer (see createAndScheduleMany, which falls back to a savepoint per
 * request when a write fails unforeseen).
 */
import { ServiceError } from '../../common/errors.js';
import { formatDate } from '../../common/validate.js';
import type { Credential, FileRecord } from '../../common/wire-types.js';
import { recordCredentialActivity } from './activity.js';
import { assertExpiryInFuture, type parseCredentialDetails } from './credential-input.js';
import { readCredentials } from './credential-reader.js';
import { resolveReferences } from './credentials.js';
import type { Db } from './database.js';
import type { StagedUpload } from './file-bytes.js';
import { fileRecord, type FileRow } from './files.js';
import { insertMany } from './insert-many.js';
import { openScheduledJob } from './jobs.js';
import { cached } from './list-query.js';
import type { PartnerScope } from './scope.js';
import { markUnindexed } from './search-index.js';
import { stage } from './stage-timing.js';
import { jsonEntries, jsonIdList, jsonTexts, newRowIds, postgresOf, runByColumns } from './store/dialect.js';
import { CREDENTIAL_TAGS, insertNewTags } from './tag-writer.js';
import { uuidV7 } from './uuid-v7.js';

export type Details = ReturnType<typeof parseCredentialDetails>;

/** One request that passed parsing and staging. */
export interface BatchItem {
  details: Details;
  staged: StagedUpload | undefined;
}

interface Accepted {
  index: number;
  item: BatchItem;
  now: number;
  linkIds: number[];
}

/** New file rows (id, hash, type, size, upload date), in use, many per statement on PostgreSQL (`unnest` of arrays). */
function insertFilesAtOnce(db: Db, partnerId: string, rows: readonly [number, string, string | null, number, number][]): void {
  const insert = cached(
    db,
    `INSERT INTO files (id, partner_id, file_hash, file_type, size, uploaded_date, unused_since)
     SELECT t.id, ?, t.file_hash, t.file_type, t.size, t.uploaded_date, NULL
     FROM unnest(CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[])) AS t(id, file_hash, file_type, size, uploaded_date)`,
  );
  runByColumns(insert, [partnerId], rows);
}

/** A write of the batch failed in a way no check foresaw: the caller rolls back and goes request by request. */
export class UnforeseenWriteError extends Error {
  constructor(readonly original: unknown) {
    super('A write of the batch failed unforeseen', { cause: original });
  }
}

/**
 * Checks each request against the rules the single call applies once it reads the database, in
 * the single call's order (duplicate file, linked credentials, expiry), as if the requests
 * before it that pass were already written. Returns each request's error, or undefined.
 */
function check(scope: PartnerScope, items: readonly (BatchItem | undefined)[], existing: Map<string, FileRow>): { errors: (ServiceError | undefined)[]; accepted: Accepted[] } {
  const errors: (ServiceError | undefined)[] = new Array(items.length);
  const accepted: Accepted[] = [];
  // Hashes an accepted request before this one uploads: stored by the time this one is written.
  const earlier = new Set<string>();
  items.forEach((item, index) => {
    if (!item) return;
    try {
      const now = scope.clock.now();
      const { details, staged } = item;
      if (staged && !details.ignoreDuplicate && (existing.has(staged.hash) || earlier.has(staged.hash))) {
        throw new ServiceError('file_already_exists', `This file was uploaded before (file_hash ${staged.hash})`);
      }
      const linkIds = details.linkUids.length > 0 ? resolveReferences(scope, details).linkIds : [];
      assertExpiryInFuture(details, now);
      if (staged) earlier.add(staged.hash);
      accepted.push({ index, item, now, linkIds });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      errors[index] = error;
    }
  });
  return { errors, accepted };
}

/**
 * Writes the batch's records inside the caller's write transaction, the accepted requests'
 * bytes moved into the store before their rows (bytes first, as storeThenRecord does);
 * `moved` collects the staged files moved. One result per item: its credential or its error
 * (undefined items are skipped). Throws UnforeseenWriteError when a write fails that no check
 * foresaw: the caller then rolls the transaction back.
 */
export function writeBatch(
  scope: PartnerScope,
  engine: string | null,
  items: readonly (BatchItem | undefined)[],
  moved: StagedUpload[],
): ({ credential: Credential } | { error: ServiceError } | undefined)[] {
  const { db } = scope;
  const hashes = items.flatMap((item) => (item?.staged ? [item.staged.hash] : []));
  const existing = new Map<string, FileRow>();
  if (hashes.length > 0) {
    const rows = cached(db, `SELECT id, file_hash, file_type, unused_since FROM files WHERE partner_id = ? AND file_hash IN (SELECT h.value FROM ${jsonTexts(db, '?', 'h')})`).all(
      scope.partner.id,
      JSON.stringify(hashes),
    ) as FileRow[];
    for (const row of rows) existing.set(row.file_hash, row);
  }
  const { errors, accepted } = check(scope, items, existing);
  const results: ({ credential: Credential } | { error: ServiceError } | undefined)[] = items.map((_, i) => (errors[i] ? { error: errors[i] } : undefined));
  if (accepted.length === 0) return results;
  try {
    const markUsed = cached(db, 'UPDATE files SET unused_since = NULL WHERE id = ?');
    // On SQLite a file row per statement: a statement of many (its UNIQUE key may abort it
    // halfway) makes SQLite journal every index page it touches, and file hashes touch a random
    // page each (about twice the CPU). On PostgreSQL every statement is a round trip to the
    // server: the new file rows get ids drawn up front and go many per statement after the loop.
    // Credential ids as the store would choose them (newRowIds), given here so their rows can go
    // many per statement.
    const postgres = postgresOf(db) !== undefined;
    const insertFile = cached(db, 'INSERT INTO files (partner_id, file_hash, file_type, size, uploaded_date, unused_since) VALUES (?, ?, ?, ?, ?, NULL)');
    const fileIds = postgres ? newRowIds(db, 'files', accepted.filter((a) => a.item.staged).length) : [];
    const newFiles: [number, string, string | null, number, number][] = [];
    const credentialIds = newRowIds(db, 'credentials', accepted.length);
    const newCredentials: unknown[][] = [];
    const tagRows: [tag: string, id: number][] = [];
    const fileRows: [number, number][] = [];
    const linkRows: [number, number, number][] = [];
    const ids: number[] = [];
    const withLinks: { index: number; id: number }[] = [];
    // The open job, looked up (or opened, dated as by the single call: with the first request) once.
    const jobId = engine === null ? undefined : stage('insert: schedule', () => openScheduledJob(scope, engine));
    // Bytes first: a record never names bytes the store does not hold.
    stage('insert: store files', () => {
      for (const { item } of accepted) {
        if (!item.staged) continue;
        scope.store.commit(item.staged);
        moved.push(item.staged);
      }
    });
    for (const { index, item, now, linkIds } of accepted) {
      const { details, staged } = item;
      let file: FileRecord | undefined;
      if (staged) {
        const row = existing.get(staged.hash);
        let fileId: number;
        if (row) {
          // A duplicate allowed: the same record, in use again (the single call's net effect).
          if (row.unused_since !== null) markUsed.run(row.id);
          row.unused_since = null;
          fileId = row.id;
          file = fileRecord(row);
        } else {
          // Inserted in use: the single call's insert then markUsed leave the same row.
          if (postgres) {
            fileId = fileIds[newFiles.length]!;
            newFiles.push([fileId, staged.hash, staged.fileType ?? null, staged.size, now]);
          } else {
            fileId = insertFile.run(scope.partner.id, staged.hash, staged.fileType ?? null, staged.size, now).lastInsertRowid as number;
          }
          existing.set(staged.hash, { id: fileId, file_hash: staged.hash, file_type: staged.fileType ?? null, unused_since: null });
          file = staged.fileType === undefined ? { file_hash: staged.hash } : { file_hash: staged.hash, file_type: staged.fileType };
        }
        fileRows.push([0, fileId]);
      }
      const uid = uuidV7(now);
      const id = credentialIds[ids.length]!;
      newCredentials.push([id, uid, scope.partner.id, details.title, details.metadataJson, now, details.expiryDate, JSON.stringify(details.tags)]);
      if (staged) fileRows[fileRows.length - 1]![0] = id;
      for (const tag of details.tags) tagRows.push([tag, id]);
      linkIds.forEach((linkedId, position) => linkRows.push([id, linkedId, position]));
      ids.push(id);
      if (linkIds.length > 0) withLinks.push({ index, id });
      results[index] = {
        credential: {
          uid,
          title: details.title,
          metadata: details.metadata,
          files: file ? [file] : [],
          credentials: [],
          upload_date: formatDate(now),
          tags: [...details.tags],
          expiry_date: formatDate(details.expiryDate),
        },
      };
    }
    if (newFiles.length > 0) insertFilesAtOnce(db, scope.partner.id, newFiles);
    insertMany(db, 'credentials (id, uid, partner_id, title, metadata, upload_date, expiry_date, tags)', '(?, ?, ?, ?, ?, ?, ?, ?)', newCredentials);
    // The rows that depend only on the ids above: one statement per table for the batch.
    markUnindexed(db, ids);
    insertNewTags(scope, CREDENTIAL_TAGS, tagRows);
    if (fileRows.length > 0) {
      cached(db, `INSERT INTO credential_files (credential_id, file_id, position) SELECT CAST(e.value->>0 AS BIGINT), CAST(e.value->>1 AS BIGINT), 0 FROM ${jsonEntries(db, 'e')}`).run(
        JSON.stringify(fileRows),
      );
    }
    if (linkRows.length > 0) {
      cached(
        db,
        `INSERT INTO credential_links (credential_id, linked_id, position)
         SELECT CAST(e.value->>0 AS BIGINT), CAST(e.value->>1 AS BIGINT), CAST(e.value->>2 AS BIGINT) FROM ${jsonEntries(db, 'e')}`,
      ).run(JSON.stringify(linkRows));
    }
    const entries = ids.map((id) => [id] as const);
    recordCredentialActivity(scope, 'created', entries);
    if (jobId !== undefined) {
      stage('insert: schedule', () => {
        cached(db, `INSERT INTO job_credentials (job_id, credential_id, engine) SELECT CAST(? AS BIGINT), value, ? FROM (${jsonIdList(db)}) AS ids`).run(jobId, engine, JSON.stringify(ids));
        recordCredentialActivity(scope, 'scheduled', entries, { engine, jobId });
      });
    }
    // A credential with links answers with them nested, as a GET would.
    if (withLinks.length > 0) {
      const read = readCredentials(db, withLinks.map((w) => w.id));
      withLinks.forEach((w, i) => (results[w.index] = { credential: read[i]! }));
    }
  } catch (error) {
    throw new UnforeseenWriteError(error);
  }
  return results;
}
