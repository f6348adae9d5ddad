import { describe, expect, it } from 'vitest';
import { numberPlaceholders } from './postgres-db.js';

describe('numberPlaceholders', () => {
  it('numbers each ? in order and counts them', () => {
    expect(numberPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (?, ?)')).toEqual({ text: 'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)', count: 3 });
  });

  it('leaves a ? inside string literals, quoted names and comments alone', () => {
    const sql = `SELECT '?', 'it''s ?', "col?" FROM t -- why?\nWHERE x = ? /* and ? */ AND y = ?`;
    expect(numberPlaceholders(sql)).toEqual({ text: `SELECT '?', 'it''s ?', "col?" FROM t -- why?\nWHERE x = $1 /* and ? */ AND y = $2`, count: 2 });
  });

  it('gives text without placeholders back unchanged', () => {
    expect(numberPlaceholders('SELECT 1')).toEqual({ text: 'SELECT 1', count: 0 });
  });
});
