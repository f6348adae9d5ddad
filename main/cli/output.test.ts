import { describe, expect, it } from 'vitest';
import { printPage } from './output.js';

const page = { items: [{ uid: 'a1', n: 3 }], page: 1, total_pages: 1, total_items: 1 };

describe('printPage', () => {
  it('prints a table and where in the pages we are', () => {
    const lines: string[] = [];
    printPage((text) => lines.push(text), false, page, 'things', ['uid', 'n'], (item) => [item.uid, String(item.n)]);
    expect(lines).toEqual(['uid  n\n---  -\na1   3', 'page 1 of 1, 1 things']);
  });

  it('prints the page as JSON with --json', () => {
    const lines: string[] = [];
    printPage((text) => lines.push(text), true, page, 'things', ['uid'], (item) => [item.uid]);
    expect(JSON.parse(lines.join(''))).toEqual(page);
  });
});
