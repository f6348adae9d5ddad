/** The metadata keys of a Partner's credentials, most used first: the metadata columns the Records table offers. */
import type { MetadataKeyCount } from '../../../common/records.js';
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { sqliteOf } from '../store/dialect.js';
import { untilWritten, type KeptReads } from './records-window.js';

/** The key counts: the keys of scalar values (text, number, boolean), keys in byte order among equal counts. */
const SQLITE_KEY_COUNTS = `SELECT j.key AS key, count(*) AS count FROM credentials c, json_each(c.metadata) j
  WHERE c.partner_id = ? AND j.type IN ('text', 'integer', 'real', 'true', 'false')
  GROUP BY j.key ORDER BY count DESC, j.key LIMIT ?`;
const POSTGRES_KEY_COUNTS = `SELECT j.key AS key, count(*) AS count FROM credentials c, jsonb_each(CAST(c.metadata AS jsonb)) j
  WHERE c.partner_id = ? AND jsonb_typeof(j.value) IN ('string', 'number', 'boolean')
  GROUP BY j.key ORDER BY count DESC, j.key COLLATE "C" LIMIT ?`;

/** Per database, Partner and limit: the key counts as of one database version. */
const keyCounts: KeptReads<MetadataKeyCount[]> = new WeakMap();

/**
 * The top-level metadata keys with a text, number or boolean value among the Partner's
 * credentials, with how many credentials have each, most used first (then by key); at most
 * `limit`. One scan of the Partner's metadata, then kept until anything is written.
 */
export function partnerMetadataKeyCounts(scope: PartnerScope, limit: number): MetadataKeyCount[] {
  const { db } = scope;
  return untilWritten(keyCounts, db, `${scope.partner.id}\u0000${limit}`, () =>
    cached(db, sqliteOf(db) ? SQLITE_KEY_COUNTS : POSTGRES_KEY_COUNTS).all(scope.partner.id, limit) as MetadataKeyCount[],
  );
}
