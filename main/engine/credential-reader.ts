import type { Credential } from '../../common/wire-types.js';
import { formatDate } from '../../common/validate.js';
import type { Db } from './database.js';
import { fileRecord } from './files.js';
import { cached } from './list-query.js';
import { jsonIdList } from './store/dialect.js';

interface CredentialRow {
  id: number;
  uid: string;
  title: string;
  metadata: string;
  upload_date: number;
  expiry_date: number | null;
  tags: string;
}

/**
 * Loads credentials by row id into the wire shape, with files, tags and linked credentials
 * nested recursively. Each level is a handful of set-based queries (never one per row);
 * a credential linked from several places is loaded once.
 */
export function readCredentials(db: Db, ids: readonly number[]): Credential[] {
  const loaded = new Map<number, Credential>();
  const links = new Map<number, number[]>();
  let pending = [...new Set(ids)];
  while (pending.length > 0) {
    const list = JSON.stringify(pending);
    for (const row of cached(db, `SELECT id, uid, title, metadata, upload_date, expiry_date, tags FROM credentials WHERE id IN (${jsonIdList(db)})`).all(list) as CredentialRow[]) {
      loaded.set(row.id, {
        uid: row.uid,
        title: row.title,
        metadata: JSON.parse(row.metadata) as Record<string, unknown>,
        files: [],
        credentials: [],
        upload_date: formatDate(row.upload_date),
        tags: JSON.parse(row.tags) as string[],
        expiry_date: formatDate(row.expiry_date),
      });
    }
    const fileSql =
      'SELECT cf.credential_id, f.file_hash, f.file_type FROM credential_files cf JOIN files f ON f.id = cf.file_id ' +
      `WHERE cf.credential_id IN (${jsonIdList(db)}) ORDER BY cf.credential_id, cf.position`;
    for (const f of cached(db, fileSql).all(list) as { credential_id: number; file_hash: string; file_type: string | null }[]) {
      loaded.get(f.credential_id)?.files.push(fileRecord(f));
    }
    const next: number[] = [];
    for (const l of cached(db, `SELECT credential_id, linked_id FROM credential_links WHERE credential_id IN (${jsonIdList(db)}) ORDER BY credential_id, position`).all(list) as { credential_id: number; linked_id: number }[]) {
      const list = links.get(l.credential_id) ?? [];
      list.push(l.linked_id);
      links.set(l.credential_id, list);
      if (!loaded.has(l.linked_id)) next.push(l.linked_id);
    }
    pending = [...new Set(next)];
  }
  for (const [id, linked] of links) {
    loaded.get(id)!.credentials = linked.map((l) => loaded.get(l)!).filter(Boolean);
  }
  return ids.map((id) => loaded.get(id)!).filter(Boolean);
}
