import { ServiceError } from '../../../common/errors.js';
import type { RecordFilter, RecordState } from '../../../common/records.js';
import { parseIsoDate } from '../../../common/validate.js';
import { Conditions } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { indexPendingCredentials } from '../search-index.js';
import { sqliteOf } from '../store/dialect.js';
import { partnerSearchMatch, searchCondition } from './record-search.js';

/**
 * Which active job rows put a credential in each state on an engine. A credential with no
 * active job row on the engine is not scheduled there (a failed job released it).
 */
const STATE_SQL: Record<Exclude<RecordState, 'not_scheduled'>, string> = {
  scheduled: "j.status = 'scheduled'",
  issuing: "j.status IN ('started', 'unconfirmed')",
  issued: "j.status = 'finished' AND NOT EXISTS (SELECT 1 FROM certificates x WHERE x.credential_id = jc.credential_id AND x.engine = jc.engine AND x.revoked_date IS NOT NULL)",
  revoked: 'EXISTS (SELECT 1 FROM certificates x WHERE x.credential_id = jc.credential_id AND x.engine = jc.engine AND x.revoked_date IS NOT NULL)',
};

/**
 * A filter as SQL: the conditions over `credentials c`, and — on SQLite, when the search is the
 * whole filter — its MATCH expression alone, which the search index answers by itself.
 * `searched` says the conditions hold a word search.
 */
export interface RecordQuery {
  where: Conditions;
  soleSearch?: string;
  searched: boolean;
}

export function recordQuery(scope: PartnerScope, filter: RecordFilter): RecordQuery {
  const where = recordConditions(scope, filter);
  const searched = Boolean(filter.search);
  const onlySearch = sqliteOf(scope.db) && filter.search && !filter.andTags?.length && !filter.orTags?.length && !filter.uploadedFrom && !filter.uploadedTo && !filter.state;
  const match = onlySearch ? partnerSearchMatch(scope.partner.id, filter.search!) : undefined;
  return match === undefined ? { where, searched } : { where, soleSearch: match, searched };
}

/**
 * Turns a (validated) RecordFilter into the engine's listing conditions over `credentials c`:
 * tags as the index-driven driver (as GET /credentials does), the upload date range, the
 * state on one engine, and the full-text search.
 */
export function recordConditions(scope: PartnerScope, filter: RecordFilter): Conditions {
  const where = new Conditions('c.partner_id = ?', scope.partner.id);
  const from = filter.uploadedFrom ? parseIsoDate(filter.uploadedFrom, 'uploadedFrom') : undefined;
  const to = filter.uploadedTo ? parseIsoDate(filter.uploadedTo, 'uploadedTo') : undefined;
  if (from !== undefined && to !== undefined && from > to) throw new ServiceError('invalid_value', 'The upload date range ends before it starts');
  where.range('c.upload_date', from, to);
  if (filter.state) {
    const engine = scope.catalog.get(filter.state.engine).id;
    const parts: string[] = [];
    const params: unknown[] = [];
    const active = filter.state.states.filter((s): s is Exclude<RecordState, 'not_scheduled'> => s !== 'not_scheduled');
    if (active.length > 0) {
      parts.push(
        `c.id IN (SELECT jc.credential_id FROM job_credentials jc JOIN jobs j ON j.id = jc.job_id WHERE jc.engine = ? AND jc.active = 1 AND (${active.map((s) => `(${STATE_SQL[s]})`).join(' OR ')}))`,
      );
      params.push(engine);
    }
    if (filter.state.states.includes('not_scheduled')) {
      parts.push('NOT EXISTS (SELECT 1 FROM job_credentials jn WHERE jn.credential_id = c.id AND jn.engine = ? AND jn.active = 1)');
      params.push(engine);
    }
    where.add(`(${parts.join(' OR ')})`, ...params);
  }
  if (filter.search) {
    // A search is never behind a create: what waits for the index goes in before it is read.
    indexPendingCredentials(scope.db);
    const search = searchCondition(scope.db, scope.partner.id, filter.search);
    // Text with no word in it (only punctuation) matches nothing rather than everything.
    if (search === undefined) where.add('1 = 0');
    else where.add(search.sql, ...search.params);
  }
  where.tags('credential_tags', 'credential_id', scope.partner.id, filter.andTags ?? [], filter.orTags ?? []);
  return where;
}
