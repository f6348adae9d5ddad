/** CSV import's reading and checking, on real files, before anything is created. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test/support/engine-fixture.js';
import { PREVIEW_ROWS } from '../../../common/ipc/csv-import.js';
import { CSV_TEMPLATE, applyEdits, checkCsvRows, guessMapping, readCsvTable, toPreview } from './csv-rows.js';

const NOW = Date.parse('2026-11-23T00:00:00Z');
const EXISTING = '018f0000-0000-7000-8000-000000000001';

async function table(text: string, name = 'import.csv') {
  const path = join(makeTempDir('proofdesk-csv-'), name);
  writeFileSync(path, text);
  return readCsvTable(path);
}

describe('CSV rows', () => {
  it('guesses the mapping from the header and reads quoted cells, semicolon files and line numbers', async () => {
    const t = await table('\ufefftitle;key;tags;expires;links;meta.course;grade\r\n"Transcript; Alice";a1;x-tag|y-tag;2030-01-01;;"Maths\nII";A\r\nResult;r1;;;a1;Maths;B\r\n');
    expect(t.file_error).toBeNull();
    const mapping = guessMapping(t.columns);
    expect(mapping).toEqual({
      title: 'title',
      key: 'key',
      tags: 'tags',
      expiry_date: 'expires',
      link: 'links',
      metadata: [
        { column: 'meta.course', key: 'course' },
        { column: 'grade', key: 'grade' },
      ],
    });
    const { checks } = checkCsvRows(t, mapping, () => false, NOW);
    expect(checks.map((c) => [c.row, c.line, c.title, c.tags, c.metadata, c.links, c.errors])).toEqual([
      [1, 2, 'Transcript; Alice', ['x-tag', 'y-tag'], { course: 'Maths\nII', grade: 'A' }, [], []],
      [2, 4, 'Result', [], { course: 'Maths', grade: 'B' }, ['a1'], []],
    ]);
  });

  it('lists every row error with the spec id before anything is created', async () => {
    const t = await table(
      [
        'title,key,tags,expiry_date,link,meta.grade',
        'Good,g1,ok-tag,,,A',
        'Bad tag,b1,no!,,,A',
        'Old,b2,,1999-01-01,,A',
        ',b3,,,,A',
        'No data,b4,,,,',
        'Twin,g1,,,,A',
        'Lost,b5,,,nowhere,A',
        'Loop 1,l1,,,l2,A',
        'Loop 2,l2,,,l1,A',
        `Existing,e1,,,${EXISTING},A`,
        'After bad,a1,,,b1,A',
        'Too,many,fields-tag,,,A,extra',
      ].join('\n'),
    );
    const { checks } = checkCsvRows(t, guessMapping(t.columns), (uid) => uid === EXISTING, NOW);
    const ids = Object.fromEntries(checks.map((c) => [c.title || `row ${c.row}`, c.errors.map((e) => e.id)]));
    expect(ids).toEqual({
      Good: [],
      'Bad tag': ['invalid_tag'],
      Old: ['invalid_expiry_date'],
      'row 4': ['missing_field'],
      'No data': ['missing_file_and_metadata'],
      Twin: ['invalid_value'],
      Lost: ['missing_credential'],
      'Loop 1': ['invalid_value'],
      'Loop 2': ['invalid_value'],
      Existing: [],
      'After bad': ['invalid_value'],
      Too: ['invalid_value'],
    });
    expect(checks.find((c) => c.title === 'After bad')!.errors[0]!.message).toContain('row 2');
    // Each problem names the cell it is in (null: the row as a whole) and why, as a code the dialog words.
    const where = Object.fromEntries(checks.map((c) => [c.title || `row ${c.row}`, c.errors.map((e) => `${e.column}:${e.reason}`)]));
    expect(where).toMatchObject({
      'Bad tag': ['tags:tags_invalid'],
      Old: ['expiry_date:date_invalid'],
      'row 4': ['title:title_missing'],
      'No data': ['meta.grade:metadata_missing'],
      Twin: ['key:key_duplicate'],
      Lost: ['link:link_unknown'],
      'Loop 1': ['link:link_circle'],
      'After bad': ['link:link_blocked'],
      Too: ['null:too_many_fields'],
    });
  });

  it('re-checks a row with the cells fixed in the dialog: what then passes, and what a fix changes for the rows linking to it', async () => {
    const t = await table(['title,key,expiry_date,link,meta.grade', ',a,,,A', 'Old,b,1999-01-01,,B', 'After,c,,b,C', 'Lost,d,,nowhere,D'].join('\n'));
    const mapping = guessMapping(t.columns);
    const errorsOf = (edited: typeof t) => checkCsvRows(edited, mapping, () => false, NOW).checks.map((c) => c.errors.map((e) => e.reason));
    expect(errorsOf(t)).toEqual([['title_missing'], ['date_invalid'], ['link_blocked'], ['link_unknown']]);

    const fixed = applyEdits(t, [
      { row: 1, column: 'title', value: 'Ada' },
      { row: 2, column: 'expiry_date', value: '2030-06-30' },
    ]);
    // Row 3 linked to the row with the bad date: fixing that date lets it through too.
    expect(errorsOf(fixed)).toEqual([[], [], [], ['link_unknown']]);
    expect(checkCsvRows(fixed, mapping, () => false, NOW).checks[1]!.cells).toEqual(['Old', 'b', '2030-06-30', '', 'B']);
    // The table read from disk is left as it was; the last edit of a cell wins; emptying a cell is an edit.
    expect(t.records[0]!.fields[0]).toBe('');
    expect(errorsOf(applyEdits(fixed, [{ row: 1, column: 'title', value: '' }]))[0]).toEqual(['title_missing']);
    // A cell past the end of a short line can be filled in.
    const short = await table('title,meta.grade\nAda\n');
    expect(checkCsvRows(applyEdits(short, [{ row: 1, column: 'meta.grade', value: 'A' }]), guessMapping(short.columns), () => false, NOW).checks[0]!.errors).toEqual([]);
    expect(() => applyEdits(t, [{ row: 5, column: 'title', value: 'x' }])).toThrow(/no row 5/);
    expect(() => applyEdits(t, [{ row: 1, column: 'nope', value: 'x' }])).toThrow(/no column "nope"/);
  });

  it('previews one list of rows: the first ones, every row with a problem, and every edited row', async () => {
    const lines = Array.from({ length: PREVIEW_ROWS + 20 }, (_, i) => `Row ${i + 1},${i + 1 === PREVIEW_ROWS + 10 ? '' : 'A'}`);
    const t = await table(['title,meta.grade', ...lines].join('\n'));
    const mapping = guessMapping(t.columns);
    const edits = [{ row: PREVIEW_ROWS + 15, column: 'title', value: 'Changed' }];
    const edited = applyEdits(t, edits);
    const preview = toPreview(edited, mapping, checkCsvRows(edited, mapping, () => false, NOW), edits);
    expect([preview.total_rows, preview.valid_rows]).toEqual([PREVIEW_ROWS + 20, PREVIEW_ROWS + 19]);
    expect(preview.rows.slice(PREVIEW_ROWS).map((r) => [r.row, r.title, r.errors.length])).toEqual([
      [PREVIEW_ROWS + 10, `Row ${PREVIEW_ROWS + 10}`, 1],
      [PREVIEW_ROWS + 15, 'Changed', 0],
    ]);
  });

  it('says what is wrong with a file that cannot be imported at all', async () => {
    expect((await table('')).file_error?.message).toMatch(/empty/);
    expect((await table('title,title\nA,B\n')).file_error?.message).toMatch(/appears twice/);
    expect((await table('title,grade\nA,B\n"Broken,C\n', 'broken.csv')).file_error?.message).toBe('broken.csv line 3: a quoted field is never closed');
    const noTitle = await table('name2,grade\nA,B\n');
    expect(checkCsvRows(noTitle, guessMapping(noTitle.columns), () => false, NOW).file_error).toMatchObject({ id: 'missing_field' });
  });

  it('reads a semicolon file whose quoted header names hold commas, as the manifest reader of a watched folder does', async () => {
    const t = await table('"title, full";grade\nDiploma;A\n');
    expect(t.columns).toEqual(['title, full', 'grade']);
    expect(t.records).toEqual([{ line: 2, fields: ['Diploma', 'A'] }]);
  });

  it('offers a template that imports without errors', async () => {
    const t = await table(CSV_TEMPLATE);
    const { checks, file_error } = checkCsvRows(t, guessMapping(t.columns), () => false, NOW);
    expect(file_error).toBeNull();
    expect(checks).toHaveLength(2);
    expect(checks.flatMap((c) => c.errors)).toEqual([]);
  });
});
