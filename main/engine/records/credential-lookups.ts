/**
 * Small reads about a Partner's credentials for the app's detail panel and intake: which uids
 * exist and their titles, which credentials hold a file hash, and a credential's named file.
 */
import { ServiceError } from '../../../common/errors.js';
import type { ExistingCredential } from '../../../common/ipc/staging.js';
import { cached } from '../list-query.js';
import type { PartnerScope } from '../scope.js';
import { isOneOf, jsonPathText, unindexed } from '../store/dialect.js';

/** The subset of `uids` (lowercase) that are existing credentials of the Partner: one query per 500. */
export function existingCredentialUids(scope: PartnerScope, uids: readonly string[]): Set<string> {
  return new Set(credentialTitlesOf(scope, uids).keys());
}

/** The titles of those of `uids` (lowercase) that are existing credentials of the Partner, by uid: one query per 500. */
export function credentialTitlesOf(scope: PartnerScope, uids: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (let i = 0; i < uids.length; i += 500) {
    const oneOf = isOneOf(scope.db, 'uid', uids.slice(i, i + 500), 'text');
    const rows = scope.db
      .prepare(`SELECT uid, title FROM credentials WHERE ${oneOf.sql} AND ${unindexed(scope.db, 'partner_id')} = ?`)
      .all(...oneOf.params, scope.partner.id) as { uid: string; title: string }[];
    for (const r of rows) found.set(r.uid, r.title);
  }
  return found;
}

/**
 * The Partner's credentials holding each of these file hashes.
 * One query per 500 hashes: a drop of thousands of files costs a few milliseconds.
 */
export function findExistingByHash(scope: PartnerScope, hashes: string[]): Map<string, ExistingCredential[]> {
  const found = new Map<string, ExistingCredential[]>();
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += 500) {
    const oneOf = isOneOf(scope.db, 'f.file_hash', unique.slice(i, i + 500), 'text');
    const rows = scope.db
      .prepare(
        `SELECT f.file_hash AS file_hash, c.uid AS uid, c.title AS title
           FROM files f
           JOIN credential_files cf ON cf.file_id = f.id
           JOIN credentials c ON c.id = cf.credential_id
          WHERE f.partner_id = ? AND ${oneOf.sql}
          ORDER BY c.id`,
      )
      .all(scope.partner.id, ...oneOf.params) as { file_hash: string; uid: string; title: string }[];
    for (const row of rows) {
      const list = found.get(row.file_hash) ?? [];
      list.push({ uid: row.uid, title: row.title });
      found.set(row.file_hash, list);
    }
  }
  return found;
}

export interface NamedFile {
  title: string;
  type: string | null;
  /** The watch folder's record of where this file came from, when it names this file. */
  ingestPath: string | null;
}

/** The file `hash` of credential `uid`, or a missing_file error when the credential names no such file. */
export function fileOfCredential(scope: PartnerScope, uid: string, hash: string): NamedFile {
  const row = cached(
    scope.db,
    `SELECT c.title, f.file_type AS type, ${jsonPathText(scope.db, 'c.metadata', ['ingest', 'sha256'])} AS ingest_sha256,
       ${jsonPathText(scope.db, 'c.metadata', ['ingest', 'path'])} AS ingest_path
     FROM credentials c JOIN credential_files cf ON cf.credential_id = c.id JOIN files f ON f.id = cf.file_id
     WHERE c.partner_id = ? AND c.uid = ? AND f.file_hash = ?`,
  ).get(scope.partner.id, uid.toLowerCase(), hash.toLowerCase()) as { title: string; type: string | null; ingest_sha256: unknown; ingest_path: unknown } | undefined;
  if (!row) throw new ServiceError('missing_file', `Credential ${uid} has no file ${hash}; refresh the detail panel.`);
  const ingestPath = row.ingest_sha256 === hash.toLowerCase() && typeof row.ingest_path === 'string' ? row.ingest_path : null;
  return { title: row.title, type: row.type, ingestPath };
}
