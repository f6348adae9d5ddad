/**
 * The records view's search box → an FTS5 query over credentials_fts (migration 3) on SQLite,
 * a tsquery over credentials.search (postgres-migrations.ts: search_query) on PostgreSQL.
 *
 * Every word typed must occur in the title or in a metadata value; the last word also
 * matches as a prefix, so results follow the typing ("dipl" finds "Diploma"). Words are
 * quoted, so FTS5 operators typed by a user (AND, NEAR, *, ") are plain text, never syntax.
 */
import type { Db } from '../store/db.js';
import { sqliteOf } from '../store/dialect.js';

const WORD = /[\p{L}\p{N}]+/gu;

/** Most words a search uses; a longer text is cut (the last words would hardly narrow it). */
const MAX_WORDS = 16;

/** The words a search text holds (at most MAX_WORDS), and whether the last is a prefix; undefined when none. */
function searchWords(text: string): { words: string[]; prefix: boolean } | undefined {
  // NFC first: a decomposed accent (e + U+0301) would otherwise split a word in two.
  const words = text.normalize('NFC').match(WORD)?.slice(0, MAX_WORDS);
  if (!words || words.length === 0) return undefined;
  return { words, prefix: /[\p{L}\p{N}]$/u.test(text) };
}

/** The MATCH expression for a search text, or undefined when it holds no word. */
export function searchMatch(text: string): string | undefined {
  const search = searchWords(text);
  if (!search) return undefined;
  const { words, prefix } = search;
  return words.map((w, i) => (i === words.length - 1 && prefix ? `"${w}"*` : `"${w}"`)).join(' ');
}

/** The token naming a Partner in credentials_fts's `partner` column (migration 3: 'p' || hex(partner_id)). */
export function partnerToken(partnerId: string): string {
  return `p${Buffer.from(partnerId, 'utf8').toString('hex')}`;
}

/**
 * The MATCH expression for one Partner's search: its own credentials whose title or metadata
 * values hold every word. Undefined when the text holds no word.
 */
export function partnerSearchMatch(partnerId: string, text: string): string | undefined {
  const words = searchMatch(text);
  return words === undefined ? undefined : `partner : "${partnerToken(partnerId)}" AND {title meta} : (${words})`;
}

/**
 * The condition "credential `c` holds every word of the search", for a listing already limited
 * to the Partner's credentials; undefined when the text holds no word. SQLite asks its search
 * index for the Partner's matching row ids; PostgreSQL matches the row's own tsvector (its GIN
 * index finds the rows), the words cut and folded by the database as the index's were.
 */
export function searchCondition(db: Db, partnerId: string, text: string): { sql: string; params: unknown[] } | undefined {
  if (sqliteOf(db)) {
    const match = partnerSearchMatch(partnerId, text);
    return match === undefined ? undefined : { sql: 'c.id IN (SELECT rowid FROM credentials_fts WHERE credentials_fts MATCH ?)', params: [match] };
  }
  const search = searchWords(text);
  return search === undefined ? undefined : { sql: 'c.search @@ search_query(?, ?)', params: [search.words.join(' '), search.prefix] };
}
