import { describe, expect, it } from 'vitest';
import type { StagedRow } from '../../common/ipc/staging.js';
import { askLinkTitles, linkedTitlesText, unknownLinks } from './link-titles.js';

const ADA = '0190d6c4-7a1b-7c2d-8e3f-00000000000a';
const GRACE = '0190d6c4-7a1b-7c2d-8e3f-00000000000b';
const GONE = '0190d6c4-7a1b-7c2d-8e3f-00000000000c';

const row = (key: string, links: string[]): StagedRow => ({ key, file: null, title: key, metadata: {}, tags: [], expiry_date: null, links, duplicate_of: [], problem: null });

describe("the staging grid's linked records' titles", () => {
  it('asks once for each uid no row has asked for, whatever its case, and never for a staged row named as a link', () => {
    const rows = [row('a', [ADA.toUpperCase(), 'bob.pdf']), row('b', [ADA, GRACE, GONE])];
    expect(unknownLinks(rows, {}, new Set())).toEqual([ADA, GRACE, GONE]);
    expect(unknownLinks(rows, { [ADA]: 'Diploma — Ada Lovelace', [GONE]: null }, new Set([GRACE]))).toEqual([]);
  });

  it('names the linked credentials in link order, leaving out staged rows and uids of no credential', () => {
    const known = { [ADA]: 'Diploma — Ada Lovelace', [GRACE]: 'Certificate — Grace Hopper', [GONE]: null };
    expect(linkedTitlesText([GRACE, 'bob.pdf', GONE, ADA.toUpperCase()], known)).toBe('Certificate — Grace Hopper, Diploma — Ada Lovelace');
    expect(linkedTitlesText([GONE, 'bob.pdf'], known)).toBe('');
  });

  it('asks a thousand uids a call and answers null for a uid that names no credential', async () => {
    const uids = Array.from({ length: 2_001 }, (_, i) => `0190d6c4-7a1b-7c2d-8e3f-${String(i).padStart(12, '0')}`);
    const calls: number[] = [];
    const answer = await askLinkTitles(uids, async (chunk) => {
      calls.push(chunk.length);
      return Object.fromEntries(chunk.filter((_, i) => i % 2 === 0).map((uid) => [uid, `Title of ${uid.slice(-4)}`]));
    });
    expect(calls).toEqual([1_000, 1_000, 1]);
    expect(answer[uids[0]!]).toBe('Title of 0000');
    expect(answer[uids[1]!]).toBeNull();
    expect(Object.keys(answer)).toHaveLength(2_001);
  });
});
