/**
 * Changes to many credentials at once, each in one transaction: all of them or none. The
 * callers (the app's bulk tasks) resolve the selection to row ids first.
 */
import { isServiceError, ServiceError } from '../../../common/errors.js';
import { LIMITS } from '../../../common/limits.js';
import type { BulkScheduleResult, BulkUnscheduleResult, TagEdit } from '../../../common/records.js';
import { recordCredentialActivity } from '../activity.js';
import { inTransaction } from '../database.js';
import { cached } from '../list-query.js';
import { addToScheduledJob, unscheduleCredential } from '../scheduling.js';
import type { PartnerScope } from '../scope.js';
import { CREDENTIAL_TAGS, setTags, tagChange } from '../tag-writer.js';
import { jsonAppend, jsonArrayLength, jsonIdList, jsonTexts } from '../store/dialect.js';

/** A credential's tags after the edit, or undefined when the edit leaves them as they are. */
function after(edit: TagEdit, before: readonly string[]): string[] | undefined {
  switch (edit.mode) {
    case 'add': {
      const added = edit.tags.filter((t) => !before.includes(t));
      return added.length === 0 ? undefined : [...before, ...added];
    }
    case 'replace':
      return before.length === edit.tags.length && before.every((t, i) => t === edit.tags[i]) ? undefined : [...edit.tags];
    case 'remove':
      return before.includes(edit.tag) ? before.filter((t) => t !== edit.tag) : undefined;
  }
}

/**
 * Applies a tag edit to the credentials of these row ids, in one transaction; returns how many
 * changed. Credentials that already carry the result are left as they are; a credential that
 * would exceed the tag limit fails the whole edit with `invalid_tag`.
 */
export function editTagsOf(scope: PartnerScope, ids: number[], edit: TagEdit): number {
  return edit.mode === 'add' ? addTags(scope, ids, edit.tags) : rewriteTags(scope, ids, edit);
}

const MISSING = 'A selected credential was deleted meanwhile; nothing was changed. Refresh and try again.';

/** One credential's tags before and after an edit: what an undo needs to put them back exactly. */
export interface TagEditChange {
  id: number;
  before: string[];
  after: string[];
}

/**
 * Like editTagsOf, and says what each changed credential's tags were before and are after, so
 * the edit can be undone (restoreTagsOf). Read and write are one transaction: no other write
 * lands between them.
 */
export function editTagsRemembering(scope: PartnerScope, ids: number[], edit: TagEdit): { changed: number; changes: TagEditChange[] } {
  return inTransaction(scope.db, () => {
    const rows = cached(scope.db, `SELECT id, tags FROM credentials WHERE id IN (${jsonIdList(scope.db)})`).all(JSON.stringify(ids)) as { id: number; tags: string }[];
    const changed = editTagsOf(scope, ids, edit);
    const changes: TagEditChange[] = [];
    for (const row of rows) {
      const before = JSON.parse(row.tags) as string[];
      const next = after(edit, before);
      if (next) changes.push({ id: row.id, before, after: next });
    }
    return { changed, changes };
  });
}

/**
 * Puts back the tags an edit changed, exactly as they were (their order too), in one
 * transaction. A credential whose tags changed again since (another edit) or that is gone is
 * left as it is and counted as skipped: an undo never overwrites a later change.
 */
export function restoreTagsOf(scope: PartnerScope, changes: readonly TagEditChange[]): { restored: number; skipped: number } {
  const { db } = scope;
  const read = cached(db, 'SELECT tags FROM credentials WHERE id = ?');
  return inTransaction(db, () => {
    const logged: [number, ReturnType<typeof tagChange>][] = [];
    let skipped = 0;
    for (const change of changes) {
      const text = read.pluck().get(change.id) as string | undefined;
      const current = text === undefined ? undefined : (JSON.parse(text) as string[]);
      if (!current || current.length !== change.after.length || current.some((tag, i) => tag !== change.after[i])) {
        skipped += 1;
        continue;
      }
      setTags(scope, CREDENTIAL_TAGS, change.id, change.after, change.before);
      logged.push([change.id, tagChange(change.after, change.before)]);
    }
    recordCredentialActivity(scope, 'tagged', logged);
    return { restored: logged.length, skipped };
  });
}

/**
 * Adding tags, set-based: a few statements over the whole selection instead of a read and a
 * write per credential (the common bulk action, and 50,000 credentials must take seconds).
 * Each tag is appended to the credentials lacking it, in the order given, as PATCH does.
 */
function addTags(scope: PartnerScope, ids: number[], tags: string[]): number {
  const { db } = scope;
  const list = JSON.stringify(ids);
  const tagList = JSON.stringify(tags);
  return inTransaction(db, () => {
    const present = cached(db, `SELECT count(*) FROM credentials WHERE id IN (${jsonIdList(db)})`).pluck().get(list) as number;
    // Deleted since the selection was resolved (an unschedule elsewhere): the edit no longer fits what was confirmed.
    if (present !== ids.length) throw new ServiceError('missing_credential', MISSING);
    const lacking = `(SELECT count(*) FROM ${jsonTexts(db, '?', 't')} WHERE NOT EXISTS (SELECT 1 FROM ${jsonTexts(db, 'c.tags', 'x')} WHERE x.value = t.value))`;
    const over = cached(
      db,
      `SELECT uid, n FROM (SELECT c.uid, ${jsonArrayLength(db, 'c.tags')} + ${lacking} AS n FROM credentials c WHERE c.id IN (${jsonIdList(db)})) AS counted WHERE n > ? LIMIT 1`,
    ).get(
      tagList,
      list,
      LIMITS.maxTagsPerObject,
    ) as { uid: string; n: number } | undefined;
    if (over) throw new ServiceError('invalid_tag', `Credential ${over.uid} would carry ${over.n} tags; at most ${LIMITS.maxTagsPerObject} are allowed. Nothing was changed.`);
    const changed = cached(db, `SELECT c.id, c.tags FROM credentials c WHERE c.id IN (${jsonIdList(db)}) AND ${lacking} > 0`).all(list, tagList) as { id: number; tags: string }[];
    const append = cached(
      db,
      `UPDATE credentials SET tags = ${jsonAppend(db, 'tags', '?')} WHERE id IN (${jsonIdList(db)}) AND NOT EXISTS (SELECT 1 FROM ${jsonTexts(db, 'credentials.tags', 'x')} WHERE x.value = ?)`,
    );
    // WHERE true: SQLite's parser needs a WHERE before ON CONFLICT in INSERT ... SELECT.
    const index = cached(db, `INSERT INTO credential_tags (partner_id, tag, credential_id) SELECT ?, ?, value FROM (${jsonIdList(db)}) AS ids WHERE true ON CONFLICT DO NOTHING`);
    for (const tag of tags) {
      append.run(tag, list, tag);
      index.run(scope.partner.id, tag, list);
    }
    recordCredentialActivity(scope, 'tagged', changed.map((row) => {
      const before = JSON.parse(row.tags) as string[];
      return [row.id, tagChange(before, after({ mode: 'add', tags }, before) ?? before)];
    }));
    return changed.length;
  });
}

/** Replacing or removing tags: each credential read and written (the tags that go differ per credential). */
function rewriteTags(scope: PartnerScope, ids: number[], edit: TagEdit): number {
  const { db } = scope;
  const read = cached(db, 'SELECT uid, tags FROM credentials WHERE id = ?');
  return inTransaction(db, () => {
    const logged: [number, ReturnType<typeof tagChange>][] = [];
    for (const id of ids) {
      const row = read.get(id) as { uid: string; tags: string } | undefined;
      if (!row) throw new ServiceError('missing_credential', MISSING);
      const before = JSON.parse(row.tags) as string[];
      const next = after(edit, before);
      if (!next) continue;
      if (next.length > LIMITS.maxTagsPerObject) {
        throw new ServiceError('invalid_tag', `Credential ${row.uid} would carry ${next.length} tags; at most ${LIMITS.maxTagsPerObject} are allowed. Nothing was changed.`);
      }
      setTags(scope, CREDENTIAL_TAGS, id, before, next);
      logged.push([id, tagChange(before, next)]);
    }
    recordCredentialActivity(scope, 'tagged', logged);
    return logged.length;
  });
}

/**
 * Schedules the credentials of these row ids on each engine, in one transaction over all of
 * them. The spec's rule 1 (once per engine) holds: credentials already scheduled or issued on
 * an engine are left where they are and counted, the others join its open job. `onEngine`
 * hears the index of each engine done (for progress).
 */
export function scheduleIds(scope: PartnerScope, ids: readonly number[], engines: readonly string[], onEngine?: (index: number) => void): BulkScheduleResult['engines'] {
  const list = JSON.stringify(ids);
  return inTransaction(scope.db, () =>
    engines.map((engine, i) => {
      const taken = new Set(
        cached(scope.db, `SELECT credential_id FROM job_credentials WHERE engine = ? AND active = 1 AND credential_id IN (${jsonIdList(scope.db)})`)
          .pluck()
          .all(engine, list) as number[],
      );
      const free = ids.filter((id) => !taken.has(id));
      let jobUid: string | null = null;
      if (free.length > 0) {
        const jobId = addToScheduledJob(scope, engine, free, free.map(String));
        jobUid = cached(scope.db, 'SELECT uid FROM jobs WHERE id = ?').pluck().get(jobId) as string;
      }
      onEngine?.(i);
      return { engine, scheduled: free.length, alreadyTaken: taken.size, jobUid };
    }),
  );
}

/**
 * Unschedules credentials from one engine in one transaction, with the spec's rule for each
 * (it is deleted when nothing else holds it). Credentials not scheduled there are counted, not
 * failed; any other error undoes the whole call. `onProgress` hears every thousandth.
 */
export function unscheduleUids(scope: PartnerScope, uids: readonly string[], engine: string, selected: number, onProgress?: (done: number) => void): BulkUnscheduleResult {
  return inTransaction(scope.db, () => {
    const result: BulkUnscheduleResult = { selected, unscheduled: 0, deleted: 0, notScheduled: 0 };
    uids.forEach((uid, i) => {
      try {
        const one = unscheduleCredential(scope, uid, engine);
        result.unscheduled++;
        if (one.credential_deleted) result.deleted++;
      } catch (error) {
        if (!isServiceError(error) || error.id !== 'credential_not_scheduled') throw error;
        result.notScheduled++;
      }
      if (i % 1000 === 999) onProgress?.(i + 1);
    });
    return result;
  });
}
