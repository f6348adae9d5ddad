/**
 * Where a search matched a row: the words of the search box as the engine reads them (every
 * word in the title or a metadata value, the last one also as a prefix; see
 * main/engine/records/record-search.ts), the spans of a text they match, and the fields that hold them.
 */
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_WORDS = 16;

/** The search's words, lower case; the last one matches as a prefix when the text ends in it. */
export interface SearchWords {
  words: string[];
  lastIsPrefix: boolean;
}

/** The words of a search text (none for empty or punctuation-only text). */
export function searchWords(text: string | undefined): SearchWords {
  const normal = (text ?? '').normalize('NFC');
  const words = (normal.match(WORD) ?? []).slice(0, MAX_WORDS).map((w) => w.toLowerCase());
  return { words, lastIsPrefix: /[\p{L}\p{N}]$/u.test(normal) };
}

/** A part of a text, matched by a search word or not. */
export interface TextPart {
  text: string;
  match: boolean;
}

/** The text cut into parts, the words of the text that a search word matches (whole, or as a prefix for the last) marked. */
export function matchParts(text: string, search: SearchWords): TextPart[] {
  if (search.words.length === 0) return [{ text, match: false }];
  const parts: TextPart[] = [];
  let at = 0;
  for (const found of text.matchAll(WORD)) {
    const token = found[0].toLowerCase();
    let length = 0;
    search.words.forEach((word, i) => {
      const prefix = i === search.words.length - 1 && search.lastIsPrefix;
      if (token === word || (prefix && token.startsWith(word))) length = Math.max(length, prefix && token !== word ? word.length : token.length);
    });
    if (length === 0) continue;
    const start = found.index;
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: text.slice(start, start + length), match: true });
    at = start + length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

/** Whether a search word matches somewhere in the text. */
export function matches(text: string, search: SearchWords): boolean {
  return search.words.length > 0 && matchParts(text, search).some((p) => p.match);
}

/** The metadata keys whose values a search matched (in the row's key order). */
export function matchedKeys(metadata: Record<string, string>, search: SearchWords): string[] {
  return Object.keys(metadata).filter((key) => matches(metadata[key]!, search));
}
