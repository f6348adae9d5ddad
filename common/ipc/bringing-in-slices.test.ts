/** The argument checks of the bringing-in IPC slices (staging, CSV import, detail): what a compromised or buggy renderer sends is refused with `invalid_value`. */
import { describe, expect, it } from 'vitest';
import { CSV_IMPORT_IPC } from './csv-import.js';
import { DETAIL_IPC } from './detail.js';
import { STAGING_IPC, checkRowFields } from './staging.js';

const UID = '019b76da-a800-7a0b-bae2-d7ffb565b121';
const row = { key: 'a', file: null, title: 'T', metadata: { a: '1' }, tags: [], expiry_date: null, links: [] };

function refused(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as { id: string }).id;
  }
  return 'accepted';
}

describe('staging slice', () => {
  it('takes well-formed calls', () => {
    expect(STAGING_IPC['staging:addPaths']([['/tmp/a']])).toEqual([['/tmp/a']]);
    expect(STAGING_IPC['staging:create']([{ rows: [row], engine: 'local', allow_duplicates: false }])[0].rows).toHaveLength(1);
  });

  it('refuses bad ones', () => {
    for (const args of [[], [[]], ['/tmp/a'], [[1]], [['/tmp/a'], 'extra']]) expect(refused(() => STAGING_IPC['staging:addPaths'](args)), JSON.stringify(args)).toBe('invalid_value');
    const bad = [
      { rows: [], engine: null, allow_duplicates: false },
      { rows: [row, row], engine: null, allow_duplicates: false },
      { rows: [{ ...row, metadata: [] }], engine: null, allow_duplicates: false },
      { rows: [{ ...row, tags: 'a,b' }], engine: null, allow_duplicates: false },
      { rows: [{ ...row, file: { path: 3 } }], engine: null, allow_duplicates: false },
      { rows: [row], engine: null, allow_duplicates: 'no' },
      { rows: [row], engine: '', allow_duplicates: false },
    ];
    for (const request of bad) expect(refused(() => STAGING_IPC['staging:create']([request])), JSON.stringify(request)).toBe('invalid_value');
  });

  it('checks a row as the spec does, naming the field', () => {
    const now = Date.parse('2026-11-23T00:00:00Z');
    expect(checkRowFields(row, false, now)).toEqual([]);
    const problems = checkRowFields({ ...row, title: ' ', metadata: {}, tags: ['ab', 'ok-tag', 'ok-tag'], expiry_date: '2020-01-01', links: [UID, UID] }, false, now);
    expect(problems.map((p) => [p.field, p.id])).toEqual([
      ['title', 'missing_field'],
      ['metadata', 'missing_file_and_metadata'],
      ['tags', 'invalid_tag'],
      ['expiry_date', 'invalid_expiry_date'],
      ['links', 'invalid_value'],
    ]);
    expect(checkRowFields({ ...row, metadata: {}, tags: ['ok-tag', 'ok-tag'] }, true, now).map((p) => p.id)).toEqual(['duplicated_tags']);
  });
});

describe('CSV import and detail slices', () => {
  const mapping = { title: 'title', tags: null, expiry_date: null, key: null, link: null, metadata: [{ column: 'grade', key: 'grade' }] };

  it('take well-formed calls', () => {
    expect(CSV_IMPORT_IPC['csvImport:preview'](['/tmp/a.csv', null, []])).toEqual(['/tmp/a.csv', null, []]);
    const edits = [{ row: 3, column: 'title', value: '' }];
    expect(CSV_IMPORT_IPC['csvImport:run'](['/tmp/a.csv', mapping, { engine: null, rows: [3, 4], edits }])[2]).toEqual({ engine: null, rows: [3, 4], edits });
    expect(DETAIL_IPC['detail:revoke']([UID, 'local'])).toEqual([UID, 'local']);
  });

  it('refuse bad ones', () => {
    expect(refused(() => CSV_IMPORT_IPC['csvImport:preview'](['', null, []]))).toBe('invalid_value');
    expect(refused(() => CSV_IMPORT_IPC['csvImport:preview'](['/a.csv', { ...mapping, metadata: 'grade' }, []]))).toBe('invalid_value');
    expect(refused(() => CSV_IMPORT_IPC['csvImport:preview'](['/a.csv', null, [{ row: 0, column: 'title', value: 'x' }]]))).toBe('invalid_value');
    expect(refused(() => CSV_IMPORT_IPC['csvImport:preview'](['/a.csv', null, [{ row: 1, column: 'title', value: 7 }]]))).toBe('invalid_value');
    expect(refused(() => CSV_IMPORT_IPC['csvImport:run'](['/a.csv', mapping, { engine: null, rows: [0], edits: [] }]))).toBe('invalid_value');
    expect(refused(() => CSV_IMPORT_IPC['csvImport:run'](['/a.csv', mapping, { engine: null, rows: [], edits: [] }]))).toBe('invalid_value');
    expect(refused(() => CSV_IMPORT_IPC['csvImport:run'](['/a.csv', mapping, { engine: null, rows: null }]))).toBe('invalid_value');
    expect(refused(() => CSV_IMPORT_IPC['csvImport:template'](['x']))).toBe('invalid_value');
    expect(refused(() => DETAIL_IPC['detail:get'](['not-a-uid']))).toBe('invalid_value');
    expect(refused(() => DETAIL_IPC['detail:unschedule']([UID]))).toBe('invalid_value');
  });
});
