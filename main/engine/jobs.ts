import { ServiceError } from '../../common/errors.js';
import { uuidV7 } from './uuid-v7.js';
import { makePage, parsePageQuery } from '../../common/pagination.js';
import type { JobQuery } from '../../common/requests.js';
import { formatDate, isUuid, parseDateFilter, parseTagFilter } from '../../common/validate.js';
import { JOB_STATUSES, type Job, type JobStatus, type JobTransaction, type Page } from '../../common/wire-types.js';
// Not through main/chain/index.ts: reading jobs must not load the chain library (viem).
import { formatGweiText } from '../chain/format-units.js';
import { explorerTxUrl } from './certificates.js';
import { Conditions, cached, selectPage } from './list-query.js';
import { rowsInOrder } from './store/dialect.js';
import type { PartnerScope } from './scope.js';
import { ownedId } from './tag-writer.js';

/** A job row's columns of the spec's job fields; its engine and status are JobProgressRow's. */
interface JobRow {
  id: number;
  uid: string;
  created_date: number;
  start_date: number | null;
  issued_date: number | null;
  finished_date: number | null;
  failed_date: number | null;
  scheduled_date: number | null;
  tags: string;
}

/** The sort_by values of GET /jobs; `ready_date` is the finished date (the spec says so); creation order is the row id. */
const JOB_SORT = {
  status: 'j.status',
  chain: 'j.engine',
  start_date: 'j.start_date',
  issued_date: 'j.issued_date',
  ready_date: 'j.finished_date',
  failed_date: 'j.failed_date',
  created_date: 'j.id',
};

/** Reads jobs by row id into the wire shape, in the order given. */
export function readJobs(scope: PartnerScope, ids: readonly number[]): Job[] {
  // Named columns, not *: a job's Merkle tree is 64 bytes per credential (64 MB for 1,000,000).
  const rows = rowsInOrder<JobRow & JobProgressRow>(
    scope.db,
    `SELECT j.id, j.uid, j.engine, j.status, j.created_date, j.start_date, j.issued_date, j.finished_date, j.failed_date, j.scheduled_date, j.tags,
       j.waiting, j.failure, t.id AS tx_id, t.hash, t.state, t.created_date AS tx_created_date, cv.max_fee_per_gas, cv.max_priority_fee_per_gas,
       (SELECT count(*) FROM chain_tx_variants v WHERE v.tx_id = t.id) AS variants
     FROM jobs j LEFT JOIN chain_txs t ON t.id = j.issue_tx LEFT JOIN chain_tx_variants cv ON cv.hash = t.hash`,
    'j.id',
    ids,
  );
  return rows.map(
    (r): Job => ({
      uid: r.uid,
      partner: { ...scope.partner },
      chain: r.engine,
      tags: JSON.parse(r.tags) as string[],
      status: r.status,
      created_date: formatDate(r.created_date),
      start_date: formatDate(r.start_date),
      issued_date: formatDate(r.issued_date),
      finished_date: formatDate(r.finished_date),
      failed_date: formatDate(r.failed_date),
      scheduled_date: formatDate(r.scheduled_date),
      ...jobProgress(scope, r),
    }),
  );
}

/** The row id of one of the Partner's jobs; `missing_job` otherwise. */
export function jobIdOf(scope: PartnerScope, uid: string): number {
  const id = isUuid(uid) ? ownedId(scope, 'jobs', uid) : undefined;
  if (id === undefined) throw new ServiceError('missing_job', `No job ${JSON.stringify(uid)}`);
  return id;
}

/** GET /jobs/<uid>: an unconfirmed job with its progress towards final, as last seen on its chain. */
export function getJob(scope: PartnerScope, uid: string): Job {
  const id = jobIdOf(scope, uid);
  const job = readJobs(scope, [id])[0]!;
  if (job.status !== 'unconfirmed') return job;
  const seen = cached(scope.db, 'SELECT t.confirmations, t.confirmations_required AS required FROM jobs j JOIN chain_txs t ON t.id = j.issue_tx WHERE j.id = ?').get(id) as
    | { confirmations: number | null; required: number | null }
    | undefined;
  return { ...job, finality: { confirmations: seen?.confirmations ?? 1, required: seen?.required ?? null } };
}

/** A job row's columns behind the extension fields (docs/api.md): waiting, failure_reason, transaction. */
interface JobProgressRow {
  engine: string;
  status: JobStatus;
  waiting: string | null;
  failure: string | null;
  tx_id: number | null;
  hash: string;
  state: string;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  tx_created_date: number;
  variants: number;
}

/** The extension fields of a job: what it waits for, its transaction and its failure reason. */
function jobProgress(scope: PartnerScope, row: JobProgressRow): Pick<Job, 'waiting' | 'failure_reason' | 'transaction'> {
  let transaction: JobTransaction | null = null;
  if (row.tx_id !== null) {
    const engine = scope.catalog.find(row.engine);
    transaction = {
      hash: row.hash,
      explorer_url: engine ? explorerTxUrl(engine, row.hash) : null,
      pending_since: row.state === 'signed' || row.state === 'sent' ? formatDate(row.tx_created_date) : null,
      max_fee_gwei: row.max_fee_per_gas === null ? null : formatGweiText(BigInt(row.max_fee_per_gas)),
      tip_gwei: row.max_priority_fee_per_gas === null ? null : formatGweiText(BigInt(row.max_priority_fee_per_gas)),
      variants: Math.max(1, row.variants),
    };
  }
  return { waiting: row.status === 'scheduled' || row.status === 'started' || row.status === 'unconfirmed' ? row.waiting : null, failure_reason: row.status === 'failed' ? row.failure : null, transaction };
}

/** The Partner's open (scheduled) job for an engine, if any. */
export function findScheduledJob(scope: PartnerScope, engine: string): number | undefined {
  return cached(scope.db, "SELECT id FROM jobs WHERE partner_id = ? AND engine = ? AND status = 'scheduled'").pluck().get(scope.partner.id, engine) as
    | number
    | undefined;
}

/**
 * The Partner's open job for an engine, created when there is none. It is due at the
 * Partner's next issuing date: its creation plus the issuing interval.
 */
export function openScheduledJob(scope: PartnerScope, engine: string): number {
  const existing = findScheduledJob(scope, engine);
  if (existing !== undefined) return existing;
  const now = scope.clock.now();
  const interval = cached(scope.db, 'SELECT issuing_interval_s FROM partners WHERE id = ?').pluck().get(scope.partner.id) as number;
  return cached(scope.db, "INSERT INTO jobs (uid, partner_id, engine, status, created_date, scheduled_date) VALUES (?, ?, ?, 'scheduled', ?, ?)").run(
    uuidV7(now),
    scope.partner.id,
    engine,
    now,
    now + interval * 1000,
  ).lastInsertRowid as number;
}

/** GET /jobs */
export function listJobs(scope: PartnerScope, query: JobQuery | undefined): Page<Job> {
  const page = parsePageQuery(query, ['status', 'chain', 'start_date', 'issued_date', 'ready_date', 'failed_date'], 'created_date');
  const q = query ?? {};
  const where = new Conditions('j.partner_id = ?', scope.partner.id);
  if (q.uid !== undefined && q.uid !== '') {
    if (!isUuid(q.uid)) throw new ServiceError('invalid_value', `uid must be a credential UUID, got ${JSON.stringify(q.uid)}`);
    where.add('j.id IN (SELECT jc.job_id FROM job_credentials jc JOIN credentials c ON c.id = jc.credential_id WHERE c.uid = ? AND c.partner_id = ?)', q.uid, scope.partner.id);
  }
  if (q.status !== undefined && q.status !== '') {
    if (!(JOB_STATUSES as readonly string[]).includes(q.status)) {
      throw new ServiceError('invalid_value', `status must be one of ${JOB_STATUSES.join(', ')}, got ${JSON.stringify(q.status)}`);
    }
    where.add('j.status = ?', q.status);
  }
  where
    .range('j.start_date', parseDateFilter(q.start_date_from, 'start_date_from'), parseDateFilter(q.start_date_until, 'start_date_until'))
    .range('j.issued_date', parseDateFilter(q.issued_date_from, 'issued_date_from'), parseDateFilter(q.issued_date_until, 'issued_date_until'))
    .range('j.created_date', parseDateFilter(q.created_date_from, 'created_date_from'), parseDateFilter(q.created_date_until, 'created_date_until'))
    .tags('job_tags', 'job_id', scope.partner.id, parseTagFilter(q.and_tags, 'and_tags'), parseTagFilter(q.or_tags, 'or_tags'));
  const { total, ids } = selectPage(scope.db, 'jobs j', 'j.id', where, JOB_SORT, page);
  return makePage(page, total, readJobs(scope, ids));
}
