/**
 * The activity log: an append-only record of what was done to a Partner's credentials, jobs
 * and certificates, when, by whom (the scope's actor) and on which engine. Every record call
 * runs inside the transaction of the change it records, so a crash keeps both or neither.
 * Issuing and revocation are logged by triggers (migrations.ts) in the very statement that
 * records the chain's answer. The table refuses UPDATE and DELETE.
 *
 * Rows are kept small (a job of a million credentials logs three million): the Partner by its
 * number (partners.number) rather than its id, uids as their 16 bytes on SQLite (activityUid),
 * turned back into text only for the entries of the page read.
 */
import { ACTIVITY_KINDS, type ActivityEntry, type ActivityKind, type ActivityQuery } from '../../common/activity.js';
import { ServiceError } from '../../common/errors.js';
import { makePage, parsePageQuery } from '../../common/pagination.js';
import type { Page } from '../../common/wire-types.js';
import { formatDate, isUuid, parseDateFilter } from '../../common/validate.js';
import { emitEngineEvent } from './events/engine-events.js';
import { Conditions, cached, selectPage } from './list-query.js';
import { activityUid, activityUidText, isOneOf, joinInOrder, jsonEntries, jsonTexts, rowsInOrder, unindexed } from './store/dialect.js';
import type { Db } from './database.js';
import type { PartnerScope } from './scope.js';

type Detail = Record<string, unknown> | null;

const COLUMNS = 'activity (partner, date, kind, actor, engine, credential_uid, job_uid, certificate_uid, detail)';

/** The number that stands for the Partner whose id is bound to the `?` it holds. */
const PARTNER = '(SELECT number FROM partners WHERE id = ?)';

/** The uid bound to the `?` it holds, as the log stores it: what its uid columns are compared with. */
function boundUid(db: Db): string {
  return `(SELECT ${activityUid(db, 'bound.uid')} FROM (SELECT ? AS uid) AS bound)`;
}

/**
 * Logs one entry per credential (row ids, with an optional detail each) in one statement,
 * however many there are: the bulk paths stay one insert per batch.
 */
export function recordCredentialActivity(
  scope: PartnerScope,
  kind: ActivityKind,
  entries: readonly (readonly [credentialId: number, detail?: Detail])[],
  at: { engine?: string | null; jobId?: number | null } = {},
): void {
  if (entries.length === 0) return;
  // The job's uid is a subquery of its own, not a join: evaluated once, not once per entry.
  cached(
    scope.db,
    `INSERT INTO ${COLUMNS}
     SELECT ${PARTNER}, ?, ?, ?, ?, ${activityUid(scope.db, 'c.uid')}, (SELECT ${activityUid(scope.db, 'uid')} FROM jobs WHERE id = ?), NULL, e.value->>1
     FROM ${jsonEntries(scope.db, 'e')} JOIN credentials c ON c.id = CAST(e.value->>0 AS BIGINT) ORDER BY e.key`,
  ).run(
    scope.partner.id,
    scope.clock.now(),
    kind,
    scope.actor,
    at.engine ?? null,
    at.jobId ?? null,
    JSON.stringify(entries.map(([id, detail]) => [id, detail ? JSON.stringify(detail) : null])),
  );
  // Every change to credentials is logged here, once per batch: the one place to announce it.
  if (kind === 'created' || kind === 'tagged' || kind === 'scheduled') {
    emitEngineEvent(scope.db, { type: 'credentials', partnerId: scope.partner.id, change: kind, count: entries.length });
  }
  emitEngineEvent(scope.db, { type: 'counts', partnerId: scope.partner.id, of: 'credentials' });
}

/** Logs one entry for a job (its row id). */
export function recordJobActivity(scope: PartnerScope, kind: ActivityKind, jobId: number, detail: Detail = null): void {
  cached(scope.db, `INSERT INTO ${COLUMNS} SELECT ${PARTNER}, ?, ?, ?, engine, NULL, ${activityUid(scope.db, 'uid')}, NULL, ? FROM jobs WHERE id = ?`).run(
    scope.partner.id,
    scope.clock.now(),
    kind,
    scope.actor,
    detail ? JSON.stringify(detail) : null,
    jobId,
  );
}

/**
 * Logs certificates handed out (a proof file or a Verifiable Credential), one entry each, in one
 * statement. The uid list is the outer loop (joinInOrder): otherwise SQLite walks all the
 * Partner's certificates once per listed uid.
 */
export function recordExports(scope: PartnerScope, format: 'proof' | 'vc', certificateUids: readonly string[]): void {
  if (certificateUids.length === 0) return;
  cached(
    scope.db,
    `INSERT INTO ${COLUMNS}
     SELECT ${PARTNER}, ?, 'exported', ?, c.engine, ${activityUid(scope.db, 'cr.uid')}, ${activityUid(scope.db, 'j.uid')}, ${activityUid(scope.db, 'c.uid')}, ?
     FROM ${jsonTexts(scope.db, '?', 'e')} ${joinInOrder(scope.db)} certificates c ON c.uid = lower(e.value) AND c.partner_id = ?
     JOIN credentials cr ON cr.id = c.credential_id JOIN jobs j ON j.id = c.job_id ORDER BY e.key`,
  ).run(scope.partner.id, scope.clock.now(), scope.actor, JSON.stringify({ format }), JSON.stringify(certificateUids), scope.partner.id);
}

/** Logs something done to the Partner itself (its keys backed up or restored). */
export function recordPartnerActivity(scope: PartnerScope, kind: ActivityKind, detail: Detail = null): void {
  cached(scope.db, `INSERT INTO ${COLUMNS} VALUES (${PARTNER}, ?, ?, ?, NULL, NULL, NULL, NULL, ?)`).run(
    scope.partner.id,
    scope.clock.now(),
    kind,
    scope.actor,
    detail ? JSON.stringify(detail) : null,
  );
}

/** An entry as stored: its date in ms, its detail as JSON text. */
type ActivityRow = Omit<ActivityEntry, 'date' | 'detail'> & { date: number; detail: string | null };

function uidFilter(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isUuid(value)) throw new ServiceError('invalid_value', `${name} must be a UUID, got ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

/**
 * Lists the Partner's activity, oldest first unless `order=desc`, filtered by kind (one kind,
 * or several separated by commas), date range (inclusive), credential and job. Bad filters
 * are `invalid_value`; bad pagination is the spec's `wrong_pagination_argument`.
 */
export function listActivity(scope: PartnerScope, query: ActivityQuery | undefined): Page<ActivityEntry> {
  const page = parsePageQuery(query, ['date'], 'id');
  let kinds: string[] | undefined;
  if (query?.kind !== undefined && query.kind !== '') {
    kinds = query.kind.split(',').map((k) => k.trim());
    const unknown = kinds.find((k) => !(ACTIVITY_KINDS as readonly string[]).includes(k));
    if (unknown !== undefined) throw new ServiceError('invalid_value', `kind must be one of ${ACTIVITY_KINDS.join(', ')}, got ${JSON.stringify(unknown)}`);
  }
  const from = parseDateFilter(query?.date_from, 'date_from');
  const until = parseDateFilter(query?.date_until, 'date_until');
  const credential = uidFilter(query?.credential_uid, 'credential_uid');
  const job = uidFilter(query?.job_uid, 'job_uid');
  // A credential's few entries are found by its uid: left to itself, SQLite's planner would walk
  // all the Partner's entries in order instead, their key (the Partner's number) being narrower.
  const where = new Conditions(`${credential === undefined ? 'a.partner' : unindexed(scope.db, 'a.partner')} = ${PARTNER}`, scope.partner.id);
  if (kinds !== undefined) {
    const oneOf = isOneOf(scope.db, 'a.kind', kinds, 'text');
    where.add(oneOf.sql, ...oneOf.params);
  }
  where.range('a.date', from, until);
  if (credential !== undefined) where.add(`a.credential_uid = ${boundUid(scope.db)}`, credential);
  if (job !== undefined) where.add(`a.job_uid = ${boundUid(scope.db)}`, job);
  const { total, ids } = selectPage(scope.db, 'activity a', 'a.id', where, { date: 'a.date' }, page);
  const uids = ['credential_uid', 'job_uid', 'certificate_uid'].map((column) => `${activityUidText(scope.db, `a.${column}`)} AS ${column}`).join(', ');
  // The credential's title is read with its entries, the credential found by its uid (an index
  // lookup per entry of the page) among the entry's own Partner's credentials: a deleted one has none.
  const rows = rowsInOrder<ActivityRow>(
    scope.db,
    `SELECT a.id, a.date, a.kind, a.actor, a.engine, ${uids}, c.title AS credential_title, a.detail
     FROM activity a JOIN partners p ON p.number = a.partner
     LEFT JOIN credentials c ON c.uid = ${activityUidText(scope.db, 'a.credential_uid')} AND c.partner_id = p.id`,
    'a.id',
    ids,
  );
  return makePage(
    page,
    total,
    rows.map((r) => ({ ...r, date: formatDate(r.date), detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>) })),
  );
}
