/**
 * Where each certificate's revocation bit is published: the data directory's public URL
 * (`serve --public-url`), the Partner's Bitstring Status Lists, and each certificate's position
 * in one of them, assigned at its first export as a credential and kept for ever (the
 * credential is signed with it). docs/verifiable-credentials.md#revocation-status.
 */
import { randomInt } from 'node:crypto';
import { ServiceError } from '../../../common/errors.js';
import { inWriteLock, type Db } from '../database.js';
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { jsonTexts } from '../store/dialect.js';
import { statusListUrl, type StatusPosition } from './status-entry.js';

/**
 * Positions per list: the W3C minimum (16 KiB of bits), so a list hides which of at least
 * 131,072 credentials a verifier asks about (herd privacy), and gzips to almost nothing.
 */
export const STATUS_LIST_LENGTH = 131_072;

/**
 * A public URL as `serve --public-url` takes it, normalized (no trailing slash); throws
 * `invalid_value` for anything but an https URL, or http on loopback (a test or a local proxy),
 * without query, fragment or credentials.
 */
export function normalizePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServiceError('invalid_value', `The public URL ${JSON.stringify(text)} is not a URL (e.g. https://issuer.example)`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) {
    throw new ServiceError('invalid_value', `The public URL ${JSON.stringify(text)} must be https (plain http only on loopback): verifiers fetch status lists from it`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ServiceError('invalid_value', `The public URL ${JSON.stringify(text)} must have no query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The data directory's public URL, or undefined when it has none (credentials then carry no status). */
export function publicUrlOf(db: Db): string | undefined {
  return cached(db, 'SELECT public_url FROM status_publication WHERE id = 1').pluck().get() as string | undefined;
}

/** Sets (or, with null, removes) the data directory's public URL. Lists already opened keep theirs. */
export function setPublicUrl(db: Db, url: string | null): void {
  if (url === null) cached(db, 'DELETE FROM status_publication WHERE id = 1').run();
  else cached(db, 'INSERT INTO status_publication (id, public_url) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET public_url = excluded.public_url').run(normalizePublicUrl(url));
}

interface PositionRow {
  uid: string;
  public_url: string;
  list: number;
  list_index: number;
}

function positionsOf(scope: PartnerScope, uids: readonly string[]): Map<string, StatusPosition> {
  const rows = cached(
    scope.db,
    `SELECT c.uid, l.public_url, e.list, e.list_index
     FROM ${jsonTexts(scope.db, '?', 'u')} JOIN certificates c ON c.uid = lower(u.value) AND c.partner_id = ?
     JOIN status_entries e ON e.certificate_id = c.id
     JOIN status_lists l ON l.partner_id = e.partner_id AND l.list = e.list`,
  ).all(JSON.stringify(uids), scope.partner.id) as PositionRow[];
  return new Map(rows.map((r) => [r.uid, { publicUrl: r.public_url, partnerId: scope.partner.id, list: r.list, index: r.list_index }]));
}

/** Random draws for a free position before taking the lowest free one (a list nearly full). */
const RANDOM_DRAWS = 16;

/**
 * A free position of a list that is not full, drawn at random: positions in order would tell a
 * verifier which credentials were exported around the same time (and so, roughly, when).
 */
export function freePosition(db: Db, partnerId: string, list: number): number {
  const taken = cached(db, 'SELECT 1 FROM status_entries WHERE partner_id = ? AND list = ? AND list_index = ?').pluck();
  for (let draw = 0; draw < RANDOM_DRAWS; draw++) {
    const index = randomInt(STATUS_LIST_LENGTH);
    if (taken.get(partnerId, list, index) === undefined) return index;
  }
  // Most of the list is taken: the lowest free position (each taken one not followed by a taken one).
  return cached(
    db,
    `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM status_entries WHERE partner_id = ? AND list = ? AND list_index = 0) THEN 0
       ELSE (SELECT min(e.list_index) + 1 FROM status_entries e WHERE e.partner_id = ? AND e.list = ?
             AND NOT EXISTS (SELECT 1 FROM status_entries f WHERE f.partner_id = ? AND f.list = ? AND f.list_index = e.list_index + 1)) END`,
  )
    .pluck()
    .get(partnerId, list, partnerId, list, partnerId, list) as number;
}

/**
 * The status positions of the Partner's certificates `uids` (lowercase uid → position). A
 * certificate that has none yet gets a free position (at random) of the Partner's newest list, when
 * the data directory has a public URL; a list that is full, or was opened under another public
 * URL, is followed by a new one. Certificates without a position and no public URL to give one
 * are left out: their credentials carry no status, as before any public URL was set.
 */
export function statusPositions(scope: PartnerScope, uids: readonly string[]): Map<string, StatusPosition> {
  const known = positionsOf(scope, uids);
  const missing = [...new Set(uids.map((u) => u.toLowerCase()))].filter((u) => !known.has(u));
  if (missing.length === 0) return known;
  const publicUrl = publicUrlOf(scope.db);
  if (publicUrl === undefined) return known;
  // Under the write lock: two processes (serve and the app) never hand out the same position.
  return inWriteLock(scope.db, () => {
    const partnerId = scope.partner.id;
    for (const uid of missing) {
      const certificateId = cached(scope.db, 'SELECT c.id FROM certificates c WHERE c.uid = ? AND c.partner_id = ? AND NOT EXISTS (SELECT 1 FROM status_entries e WHERE e.certificate_id = c.id)')
        .pluck()
        .get(uid, partnerId) as number | undefined;
      if (certificateId === undefined) continue;
      let list = cached(scope.db, 'SELECT list, public_url, assigned FROM status_lists WHERE partner_id = ? ORDER BY list DESC LIMIT 1').get(partnerId) as
        | { list: number; public_url: string; assigned: number }
        | undefined;
      if (list === undefined || list.public_url !== publicUrl || list.assigned >= STATUS_LIST_LENGTH) {
        const next = (list?.list ?? 0) + 1;
        cached(scope.db, 'INSERT INTO status_lists (partner_id, list, public_url) VALUES (?, ?, ?)').run(partnerId, next, publicUrl);
        list = { list: next, public_url: publicUrl, assigned: 0 };
      }
      cached(scope.db, 'INSERT INTO status_entries (certificate_id, partner_id, list, list_index) VALUES (?, ?, ?, ?)').run(certificateId, partnerId, list.list, freePosition(scope.db, partnerId, list.list));
      // A certificate revoked before its first export sets its bit at once: the list changed.
      cached(
        scope.db,
        'UPDATE status_lists SET assigned = assigned + 1, revision = revision + (SELECT CASE WHEN revoked_date IS NULL THEN 0 ELSE 1 END FROM certificates WHERE id = ?) WHERE partner_id = ? AND list = ?',
      ).run(certificateId, partnerId, list.list);
    }
    return positionsOf(scope, uids);
  });
}

/** One of the Partner's lists as it stands: its URL, revision and the positions whose certificate is revoked. */
export interface StatusListState {
  url: string;
  revision: number;
  revoked: number[];
}

/** The Partner's list `list` as it stands now, or undefined when the Partner has no such list. */
export function statusListState(scope: PartnerScope, list: number): StatusListState | undefined {
  // One statement, so one snapshot on either store: the revision read is the one the bits belong to.
  const rows = cached(
    scope.db,
    `SELECT l.public_url, l.revision, r.list_index FROM status_lists l
     LEFT JOIN (SELECT e.list_index FROM status_entries e JOIN certificates c ON c.id = e.certificate_id WHERE e.partner_id = ? AND e.list = ? AND c.revoked_date IS NOT NULL) r ON TRUE
     WHERE l.partner_id = ? AND l.list = ?`,
  ).all(scope.partner.id, list, scope.partner.id, list) as { public_url: string; revision: number; list_index: number | null }[];
  const row = rows[0];
  if (row === undefined) return undefined;
  const revoked = rows.flatMap((r) => (r.list_index === null ? [] : [r.list_index]));
  return { url: statusListUrl(row.public_url, scope.partner.id, list), revision: row.revision, revoked };
}

/** The revision of the Partner's list, or undefined when there is no such list: cheap, read on every request. */
export function statusListRevision(scope: PartnerScope, list: number): number | undefined {
  return cached(scope.db, 'SELECT revision FROM status_lists WHERE partner_id = ? AND list = ?').pluck().get(scope.partner.id, list) as number | undefined;
}
