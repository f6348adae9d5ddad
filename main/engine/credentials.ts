import { ServiceError } from '../../common/errors.js';
import { uuidV7 } from './uuid-v7.js';
import { makePage, parsePageQuery, type PageRequest } from '../../common/pagination.js';
import type { CredentialQuery, PageQuery, TagQuery } from '../../common/requests.js';
import { formatDate, isUuid, parseDateFilter, parseTagFilter } from '../../common/validate.js';
import type { Credential, FileRecord, Page } from '../../common/wire-types.js';
import { assertExpiryInFuture, type CredentialInput } from './credential-input.js';
import { readCredentials } from './credential-reader.js';
import { findFileRow, markUsed } from './files.js';
import { insertMany } from './insert-many.js';
import { Conditions, cached, selectPage } from './list-query.js';
import { inTransaction, type Db } from './database.js';
import { recordCredentialActivity } from './activity.js';
import type { PartnerScope } from './scope.js';
import { markUnindexed } from './search-index.js';
import { CREDENTIAL_TAGS, indexTags, insertNewTags, ownedId, ownedIds } from './tag-writer.js';
import { newRowIds, postgresChunks, runByColumns, sqliteOf } from './store/dialect.js';

/**
 * The sort_by values of GET /credentials; `created_date` is the stated default. Upload date
 * order is creation order: the row id, which grows with every credential, so ties and clock
 * adjustments still give one stable order and tag-filtered pages need no sort.
 */
const CREDENTIAL_SORT = { title: 'c.title', upload_date: 'c.id', created_date: 'c.id' };

/**
 * Resolves what a credential refers to (files, linked credentials): every one must be the
 * Partner's own, or the whole request fails with the spec's id.
 */
export function resolveReferences(scope: PartnerScope, input: CredentialInput, extraFileIds: number[] = []): { fileIds: number[]; linkIds: number[] } {
  const fileIds = input.fileHashes.map((hash) => {
    const row = findFileRow(scope, hash);
    if (!row) throw new ServiceError('missing_file', `No uploaded file with hash ${hash}`);
    return row.id;
  });
  const linkIds = input.linkUids.map((uid) => {
    const id = isUuid(uid) ? ownedId(scope, 'credentials', uid) : undefined;
    if (id === undefined) throw new ServiceError('missing_credential', `No credential ${JSON.stringify(uid)} to link`);
    return id;
  });
  return { fileIds: [...extraFileIds, ...fileIds.filter((id) => !extraFileIds.includes(id))], linkIds };
}

/**
 * Inserts a validated credential (inside the caller's transaction) and returns its row id
 * and wire shape. Linked credentials are read back so the answer nests them like a GET;
 * `files`, the wire shape of `refs.fileIds` when the caller holds it, spares the read-back
 * of a credential without links (the bulk path of file intake).
 */
export function insertCredential(
  scope: PartnerScope,
  input: CredentialInput,
  refs: { fileIds: number[]; linkIds: number[] },
  files?: FileRecord[],
): { id: number; credential: Credential } {
  const now = scope.clock.now();
  assertExpiryInFuture(input, now);
  const uid = uuidV7(now);
  const { db } = scope;
  const id = cached(db, 'INSERT INTO credentials (uid, partner_id, title, metadata, upload_date, expiry_date, tags) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    uid,
    scope.partner.id,
    input.title,
    input.metadataJson,
    now,
    input.expiryDate,
    JSON.stringify(input.tags),
  ).lastInsertRowid as number;
  markUnindexed(db, [id]);
  indexTags(scope, CREDENTIAL_TAGS, id, [], input.tags);
  const fileInsert = cached(db, 'INSERT INTO credential_files (credential_id, file_id, position) VALUES (?, ?, ?)');
  refs.fileIds.forEach((fileId, i) => fileInsert.run(id, fileId, i));
  markUsed(db, refs.fileIds);
  const linkInsert = cached(db, 'INSERT INTO credential_links (credential_id, linked_id, position) VALUES (?, ?, ?)');
  refs.linkIds.forEach((linkId, i) => linkInsert.run(id, linkId, i));
  const known = refs.fileIds.length === 0 || files?.length === refs.fileIds.length;
  if (!known || refs.linkIds.length > 0) return { id, credential: readCredentials(db, [id])[0]! };
  // The common cases (metadata only, or files the caller described) need no read-back.
  return { id, credential: createdCredential(uid, input, now, refs.fileIds.length === 0 ? [] : files!.map((f) => ({ ...f }))) };
}

/** A credential just written, as a GET answers it, when it links no other credential. */
function createdCredential(uid: string, input: CredentialInput, now: number, files: FileRecord[]): Credential {
  return { uid, title: input.title, metadata: input.metadata, files, credentials: [], upload_date: formatDate(now), tags: [...input.tags], expiry_date: formatDate(input.expiryDate) };
}

/** Creates many validated credentials in one transaction: all of them, or none. */
export function insertCredentials(scope: PartnerScope, inputs: CredentialInput[]): Credential[] {
  return inTransaction(scope.db, () => {
    const references = resolveAllReferences(scope, inputs);
    const created = references ? insertCredentialsAtOnce(scope, inputs, references) : inputs.map((input) => insertCredential(scope, input, resolveReferences(scope, input)));
    recordCredentialActivity(scope, 'created', created.map(({ id }) => [id]));
    return created.map(({ credential }) => credential);
  });
}

/** What each input refers to, and the time it is created at, checked as insertCredential would in turn. */
interface Resolved {
  fileIds: number[];
  linkIds: number[];
  now: number;
}

/**
 * The references of every input, read many per statement, with each input checked in input
 * order exactly as the row-by-row path checks it (its files, then its links, then its expiry):
 * the first refusal is the one that path gives. Undefined where an input names one file or
 * credential twice: the row-by-row path fails on that input's insert, so it is taken instead.
 * Undefined too on SQLite when any input has files or links: there a reference is looked up
 * by a function call, and the row-by-row path does it as well as any.
 */
function resolveAllReferences(scope: PartnerScope, inputs: CredentialInput[]): Resolved[] | undefined {
  const { db } = scope;
  if (sqliteOf(db) && inputs.some((input) => input.fileHashes.length > 0 || input.linkUids.length > 0)) return undefined;
  const fileIds = ownedIds(scope, 'files', 'file_hash', [...new Set(inputs.flatMap((input) => input.fileHashes))]);
  // Uids are stored in lower case and compare without regard to case, as ownedId has it.
  const linkIds = ownedIds(scope, 'credentials', 'uid', [...new Set(inputs.flatMap((input) => input.linkUids.filter(isUuid).map((uid) => uid.toLowerCase())))]);
  const resolved: Resolved[] = [];
  for (const input of inputs) {
    const files = input.fileHashes.map((hash) => {
      const id = fileIds.get(hash);
      if (id === undefined) throw new ServiceError('missing_file', `No uploaded file with hash ${hash}`);
      return id;
    });
    const links = input.linkUids.map((uid) => {
      const id = isUuid(uid) ? linkIds.get(uid.toLowerCase()) : undefined;
      if (id === undefined) throw new ServiceError('missing_credential', `No credential ${JSON.stringify(uid)} to link`);
      return id;
    });
    if (new Set(files).size < files.length || new Set(links).size < links.length) return undefined;
    const now = scope.clock.now();
    assertExpiryInFuture(input, now);
    resolved.push({ fileIds: files, linkIds: links, now });
  }
  return resolved;
}

/**
 * Credentials with their files and links, many rows per statement, inside the caller's
 * transaction. On PostgreSQL (`unnest` of arrays) a statement per row would cost a round trip to
 * the server each; on SQLite (credentials without files or links: resolveAllReferences) a
 * statement per credential costs twice what the rows themselves do (insertMany says why). The
 * same rows, ids in input order, and the same answers: those with files or links are read back,
 * as insertCredential does (the caller's transaction undoes all of it on any error).
 */
function insertCredentialsAtOnce(scope: PartnerScope, inputs: CredentialInput[], references: Resolved[]): { id: number; credential: Credential }[] {
  const { db } = scope;
  const ids = newRowIds(db, 'credentials', inputs.length);
  const created = inputs.map((input, i) => {
    const { now } = references[i]!;
    return { id: ids[i]!, credential: createdCredential(uuidV7(now), input, now, []), now, input, refs: references[i]! };
  });
  if (sqliteOf(db)) {
    const rows = created.map(({ id, credential, now, input }) => [id, credential.uid, scope.partner.id, input.title, input.metadataJson, now, input.expiryDate, JSON.stringify(input.tags)]);
    insertMany(db, 'credentials (id, uid, partner_id, title, metadata, upload_date, expiry_date, tags)', '(?, ?, ?, ?, ?, ?, ?, ?)', rows);
    markUnindexed(db, ids);
    insertNewTags(scope, CREDENTIAL_TAGS, created.flatMap(({ id, input }) => input.tags.map((tag) => [tag, id] as const)));
    return created.map(({ id, credential }) => ({ id, credential }));
  }
  const insertRows = cached(
    db,
    `INSERT INTO credentials (id, uid, partner_id, title, metadata, upload_date, expiry_date, tags)
     SELECT t.id, t.uid, ?, t.title, t.metadata, t.upload_date, t.expiry_date, t.tags
     FROM unnest(CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS text[]))
       AS t(id, uid, title, metadata, upload_date, expiry_date, tags)`,
  );
  const insertTags = cached(db, 'INSERT INTO credential_tags (partner_id, tag, credential_id) SELECT ?, t.tag, t.id FROM unnest(CAST(? AS text[]), CAST(? AS bigint[])) AS t(tag, id)');
  for (const chunk of postgresChunks(created)) {
    runByColumns(insertRows, [scope.partner.id], chunk.map((c) => [c.id, c.credential.uid, c.input.title, c.input.metadataJson, c.now, c.input.expiryDate, JSON.stringify(c.input.tags)]));
    runByColumns(insertTags, [scope.partner.id], chunk.flatMap((c) => c.input.tags.map((tag) => [tag, c.id])));
  }
  insertPositioned(db, 'credential_files (credential_id, file_id, position)', created.flatMap((c) => c.refs.fileIds.map((fileId, position) => [c.id, fileId, position])));
  const usedFiles = [...new Set(created.flatMap((c) => c.refs.fileIds))];
  runByColumns(cached(db, 'UPDATE files SET unused_since = NULL WHERE id = ANY(CAST(? AS bigint[]))'), [], usedFiles.map((id) => [id]));
  insertPositioned(db, 'credential_links (credential_id, linked_id, position)', created.flatMap((c) => c.refs.linkIds.map((linkedId, position) => [c.id, linkedId, position])));
  // Those with files or links answer as a GET would, as the row-by-row path reads them back.
  const referring = created.filter((c) => c.refs.fileIds.length > 0 || c.refs.linkIds.length > 0);
  if (referring.length > 0) {
    const read = readCredentials(db, referring.map((c) => c.id));
    referring.forEach((c, i) => (c.credential = read[i]!));
  }
  return created.map(({ id, credential }) => ({ id, credential }));
}

/** Inserts (credential id, other id, position) rows into `into` (its three columns), many per statement. */
function insertPositioned(db: Db, into: string, rows: readonly number[][]): void {
  runByColumns(cached(db, `INSERT INTO ${into} SELECT t.a, t.b, t.p FROM unnest(CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[])) AS t(a, b, p)`), [], rows);
}

/** GET /credentials/<uid>: another Partner's uid is answered exactly like a missing one. */
export function getCredential(scope: PartnerScope, uid: string): Credential {
  const id = isUuid(uid) ? ownedId(scope, 'credentials', uid) : undefined;
  if (id === undefined) throw new ServiceError('missing_credential', `No credential ${JSON.stringify(uid)}`);
  return readCredentials(scope.db, [id])[0]!;
}

/** GET /credentials */
export function listCredentials(scope: PartnerScope, query: CredentialQuery | undefined): Page<Credential> {
  const page = parsePageQuery(query, ['title', 'upload_date'], 'created_date');
  const where = new Conditions('c.partner_id = ?', scope.partner.id);
  if (query?.uid !== undefined && query.uid !== '') {
    if (!isUuid(query.uid)) throw new ServiceError('invalid_value', `uid must be a UUID, got ${JSON.stringify(query.uid)}`);
    where.add('c.uid = ?', query.uid);
  }
  where.range('c.upload_date', parseDateFilter(query?.upload_date_from, 'upload_date_from'), parseDateFilter(query?.upload_date_to, 'upload_date_to'));
  where.tags('credential_tags', 'credential_id', scope.partner.id, parseTagFilter(query?.and_tags, 'and_tags'), parseTagFilter(query?.or_tags, 'or_tags'));
  return credentialPage(scope, where, page);
}

/** Runs a credential listing's page and reads its items. */
export function credentialPage(scope: PartnerScope, where: Conditions, page: PageRequest): Page<Credential> {
  const { total, ids } = selectPage(scope.db, 'credentials c', 'c.id', where, CREDENTIAL_SORT, page);
  return makePage(page, total, readCredentials(scope.db, ids));
}

/**
 * GET /jobs/<uid>/credentials. The spec's allowed sort_by values are job fields, equal for
 * every credential of one job; they are accepted and order by creation like the default.
 */
export function listJobCredentials(scope: PartnerScope, jobId: number, query: (PageQuery & TagQuery) | undefined): Page<Credential> {
  const page = parsePageQuery(query, ['status', 'chain', 'created_date', 'start_date', 'issued_date', 'ready_date', 'failed_date'], 'created_date');
  const where = new Conditions('c.partner_id = ?', scope.partner.id)
    .add('c.id IN (SELECT credential_id FROM job_credentials WHERE job_id = ?)', jobId)
    .tags('credential_tags', 'credential_id', scope.partner.id, parseTagFilter(query?.and_tags, 'and_tags'), parseTagFilter(query?.or_tags, 'or_tags'));
  return credentialPage(scope, where, { ...page, sortBy: 'created_date' });
}
