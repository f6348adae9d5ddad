import { ServiceError, type ErrorId } from '../../common/errors.js';
import { LIMITS } from '../../common/limits.js';
import { isPlainObject, rejectUnknownFields, requireField, validateTags } from '../../common/validate.js';
import { recordCredentialActivity, recordJobActivity } from './activity.js';
import { inTransaction } from './database.js';
import { cached } from './list-query.js';
import type { PartnerScope } from './scope.js';
import { joinInOrder, jsonEntries, jsonTexts, postgresChunks } from './store/dialect.js';

/**
 * Where one kind of object keeps its tags: the ordered list as JSON on the object's own row
 * (what reads return), mirrored into a (partner_id, tag, owner id) table for filtering.
 */
export interface TagTarget {
  /** The body's list field (`credentials` / `jobs`) and each entry's uid field. */
  listField: string;
  uidField: string;
  ownerTable: 'credentials' | 'jobs';
  tagTable: 'credential_tags' | 'job_tags';
  ownerColumn: 'credential_id' | 'job_id';
}

export const CREDENTIAL_TAGS: TagTarget = {
  listField: 'credentials',
  uidField: 'credential_uid',
  ownerTable: 'credentials',
  tagTable: 'credential_tags',
  ownerColumn: 'credential_id',
};

export const JOB_TAGS: TagTarget = { listField: 'jobs', uidField: 'job_uid', ownerTable: 'jobs', tagTable: 'job_tags', ownerColumn: 'job_id' };

/** Looks up the row id of a uid owned by the Partner; another Partner's uid is missing too. */
export function ownedId(scope: PartnerScope, table: 'credentials' | 'jobs', uid: unknown): number | undefined {
  if (typeof uid !== 'string') return undefined;
  // Uids are stored in lower case; UUIDs compare without regard to case (RFC 9562).
  return cached(scope.db, `SELECT id FROM ${table} WHERE partner_id = ? AND uid = ?`).pluck().get(scope.partner.id, uid.toLowerCase()) as number | undefined;
}

/**
 * The Partner's row ids of many `column` values (uids in lower case, file hashes) of `table`,
 * many per statement (none is asked for no values): a map from each value found to its id.
 */
export function ownedIds(scope: PartnerScope, table: 'credentials' | 'files', column: 'uid' | 'file_hash', values: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const chunk of postgresChunks(values)) {
    // The listed values are the outer loop (joinInOrder): otherwise SQLite walks all the Partner's rows.
    const read = cached(scope.db, `SELECT t.id, t.${column} AS value FROM ${jsonTexts(scope.db, '?', 'e')} ${joinInOrder(scope.db)} ${table} t ON t.${column} = e.value AND t.partner_id = ?`);
    for (const row of read.all(JSON.stringify(chunk), scope.partner.id) as { id: number; value: string }[]) found.set(row.value, Number(row.id));
  }
  return found;
}

function currentTags(scope: PartnerScope, target: TagTarget, id: number): string[] {
  return JSON.parse(cached(scope.db, `SELECT tags FROM ${target.ownerTable} WHERE id = ?`).pluck().get(id) as string) as string[];
}

/** Brings the filter table in step with a tag list going from `before` to `after`. */
export function indexTags(scope: PartnerScope, target: TagTarget, id: number, before: readonly string[], after: readonly string[]): void {
  const insert = cached(scope.db, `INSERT INTO ${target.tagTable} (partner_id, tag, ${target.ownerColumn}) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`);
  const remove = cached(scope.db, `DELETE FROM ${target.tagTable} WHERE partner_id = ? AND tag = ? AND ${target.ownerColumn} = ?`);
  for (const tag of before) if (!after.includes(tag)) remove.run(scope.partner.id, tag, id);
  for (const tag of after) if (!before.includes(tag)) insert.run(scope.partner.id, tag, id);
}

/** The filter table's rows of new objects' tags ([tag, row id] pairs), one statement for them all, inside the caller's transaction. */
export function insertNewTags(scope: PartnerScope, target: TagTarget, rows: readonly (readonly [tag: string, id: number])[]): void {
  if (rows.length === 0) return;
  cached(scope.db, `INSERT INTO ${target.tagTable} (partner_id, tag, ${target.ownerColumn}) SELECT ?, e.value->>0, CAST(e.value->>1 AS BIGINT) FROM ${jsonEntries(scope.db, 'e')}`).run(
    scope.partner.id,
    JSON.stringify(rows),
  );
}

/** Sets an object's tags (row and filter table) inside the caller's transaction. */
export function setTags(scope: PartnerScope, target: TagTarget, id: number, before: readonly string[], after: readonly string[]): void {
  cached(scope.db, `UPDATE ${target.ownerTable} SET tags = ? WHERE id = ?`).run(JSON.stringify(after), id);
  indexTags(scope, target, id, before, after);
}

/** What the activity log says of one object's tags: those it carries now, those added and those removed. */
export function tagChange(before: readonly string[], after: readonly string[]): { tags: readonly string[]; added: string[]; removed: string[] } {
  return { tags: after, added: after.filter((t) => !before.includes(t)), removed: before.filter((t) => !after.includes(t)) };
}

/** Logs the tags each object now carries, with what was added and removed (inside the caller's transaction). */
function logTagChanges(scope: PartnerScope, target: TagTarget, writes: readonly { id: number; before: readonly string[]; after: readonly string[] }[]): void {
  if (target.ownerTable === 'jobs') for (const write of writes) recordJobActivity(scope, 'tagged', write.id, tagChange(write.before, write.after));
  else recordCredentialActivity(scope, 'tagged', writes.map((write) => [write.id, tagChange(write.before, write.after)]));
}

/** Removes an object's tags from the filter table, before the object itself is deleted. */
export function unindexTags(scope: PartnerScope, target: TagTarget, id: number): void {
  indexTags(scope, target, id, currentTags(scope, target, id), []);
}

/**
 * PATCH (add) or PUT (replace) tags on many objects in one call: every entry is checked
 * before anything is written, and the writes share one transaction — one bad entry and
 * nothing changes. Adding a tag an object already has keeps it once.
 *
 * @param missingId the spec's error id for an unknown uid in this call
 */
export function writeTags(scope: PartnerScope, target: TagTarget, body: unknown, mode: 'add' | 'replace', missingId: ErrorId): void {
  if (!isPlainObject(body)) throw new ServiceError('no_json', 'The request body must be a JSON object');
  rejectUnknownFields(body, [target.listField], 'the request');
  const entries = requireField(body, target.listField, 'the request');
  if (!Array.isArray(entries) || entries.length === 0 || entries.length > LIMITS.maxBatch) {
    throw new ServiceError('invalid_value', `${target.listField} must be a non-empty array of at most ${LIMITS.maxBatch} entries`);
  }
  const seen = new Set<number>();
  const writes = entries.map((entry: unknown, index) => {
    const where = `${target.listField}[${index}]`;
    if (!isPlainObject(entry)) throw new ServiceError('invalid_value', `${where} must be an object`);
    rejectUnknownFields(entry, [target.uidField, 'tags'], where);
    const uid = requireField(entry, target.uidField, where);
    const tags = validateTags(requireField(entry, 'tags', where), `tags of ${where}`);
    const id = ownedId(scope, target.ownerTable, uid);
    if (id === undefined) throw new ServiceError(missingId, `No ${target.ownerTable === 'jobs' ? 'job' : 'credential'} ${JSON.stringify(uid)}`);
    if (seen.has(id)) throw new ServiceError('invalid_value', `${JSON.stringify(uid)} is listed twice`);
    seen.add(id);
    const before = currentTags(scope, target, id);
    const after = mode === 'add' ? [...before, ...tags.filter((t) => !before.includes(t))] : tags;
    if (after.length > LIMITS.maxTagsPerObject) {
      throw new ServiceError('invalid_tag', `${JSON.stringify(uid)} would carry ${after.length} tags; at most ${LIMITS.maxTagsPerObject} are allowed`);
    }
    return { id, before, after };
  });
  inTransaction(scope.db, () => {
    for (const { id, before, after } of writes) setTags(scope, target, id, before, after);
    logTagChanges(scope, target, writes);
  });
}

/** PATCH /credentials/<uid>/delete_tag?tag= */
export function deleteCredentialTag(scope: PartnerScope, uid: string, tag: string): void {
  const id = ownedId(scope, 'credentials', uid);
  if (id === undefined) throw new ServiceError('missing_credential', `No credential ${JSON.stringify(uid)}`);
  if (tag === undefined || tag === null || tag === '') throw new ServiceError('invalid_value', 'The query parameter "tag" is required');
  const before = currentTags(scope, CREDENTIAL_TAGS, id);
  if (!before.includes(tag)) throw new ServiceError('tag_does_not_exist', `The credential has no tag ${JSON.stringify(tag)}`);
  const after = before.filter((t) => t !== tag);
  inTransaction(scope.db, () => {
    setTags(scope, CREDENTIAL_TAGS, id, before, after);
    logTagChanges(scope, CREDENTIAL_TAGS, [{ id, before, after }]);
  });
}
