import { describe, expect, it } from 'vitest';
import { matchedKeys, matchParts, searchWords } from './search-highlight.js';

const marked = (text: string, search: string) =>
  matchParts(text, searchWords(search))
    .map((p) => (p.match ? `[${p.text}]` : p.text))
    .join('');

describe('search highlight', () => {
  it('marks whole words, and the last word as a prefix while it is being typed', () => {
    expect(marked('Ada Lovelace', 'lovelace')).toBe('Ada [Lovelace]');
    expect(marked('Ada Lovelace', 'love')).toBe('Ada [Love]lace');
    // Not the last word: whole words only, as the engine matches.
    expect(marked('Ada Lovelace', 'love ada')).toBe('[Ada] Lovelace');
    // A space after the last word: it is whole.
    expect(marked('Ada Lovelace', 'love ')).toBe('Ada Lovelace');
    expect(marked('Grace Hopper, Grace', 'GRACE')).toBe('[Grace] Hopper, [Grace]');
  });

  it('marks nothing for an empty or punctuation-only search, and never inside a word', () => {
    expect(marked('Ada Lovelace', '')).toBe('Ada Lovelace');
    expect(marked('Ada Lovelace', '--')).toBe('Ada Lovelace');
    expect(marked('Dada', 'ada')).toBe('Dada');
    expect(marked('Zürich', 'zür')).toBe('[Zür]ich');
  });

  it('names the metadata keys a search matched', () => {
    expect(matchedKeys({ student: 'Ada Lovelace', number: 'S12', programme: 'Mathematics' }, searchWords('lovelace'))).toEqual(['student']);
    expect(matchedKeys({ student: 'Ada Lovelace' }, searchWords(''))).toEqual([]);
  });
});
