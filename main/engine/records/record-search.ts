/**
 * The records view's search box → an FTS5 query over credentials_fts (migration 3).
 *
 * Every word typed must occur in the title or in a metadata value; the last word also
 * matches as a prefix, so results follow the typing ("dipl" finds "Diploma"). Words are
 * quoted, so FTS5 operators typed by a user (AND, NEAR, *, ") are plain text, never syntax.
 */
const WORD = /[\p{L}\p{N}]+/gu;

/** Most words a search uses; a longer text is cut (the last words would hardly narrow it). */
const MAX_WORDS = 16;

/** The MATCH expression for a search text, or undefined when it holds no word. */
export function searchMatch(text: string): string | undefined {
  // NFC first: a decomposed accent (e + U+0301) would otherwise split a word in two.
  const words = text.normalize('NFC').match(WORD)?.slice(0, MAX_WORDS);
  if (!words || words.length === 0) return undefined;
  const endsInWord = /[\p{L}\p{N}]$/u.test(text);
  return words.map((w, i) => (i === words.length - 1 && endsInWord ? `"${w}"*` : `"${w}"`)).join(' ');
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
