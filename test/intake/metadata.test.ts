/**
 * The per-file data of the intake: the CSV reader, sidecars and manifest.csv, with errors
 * that name the line and the field. (How the intake files such errors under failed/ is in
 * ingest.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../main/files/parse-csv.js';
import { MetadataError, parseManifest, parseSidecar } from '../../main/intake/file-metadata.js';
import { isCandidateName, isSidecarName } from '../../main/intake/names.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function errorOf(fn: () => unknown): MetadataError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MetadataError);
    return error as MetadataError;
  }
  throw new Error('expected a MetadataError');
}

describe('CSV reader', () => {
  it('reads quoted fields with commas, escaped quotes and line breaks, and keeps each record\'s line', () => {
    const { records, errors } = parseCsv('file,title\r\na.pdf,"Hello, ""World"""\nb.pdf,"two\nlines"\n\nc.pdf,plain\n');
    expect(errors).toEqual([]);
    expect(records).toEqual([
      { line: 1, fields: ['file', 'title'] },
      { line: 2, fields: ['a.pdf', 'Hello, "World"'] },
      { line: 3, fields: ['b.pdf', 'two\nlines'] },
      { line: 6, fields: ['c.pdf', 'plain'] },
    ]);
  });

  it('takes semicolons as the delimiter when the header has no comma, and skips a byte-order mark', () => {
    const { records, delimiter } = parseCsv('\ufefffile;title\na.pdf;A');
    expect(delimiter).toBe(';');
    expect(records.map((r) => r.fields)).toEqual([['file', 'title'], ['a.pdf', 'A']]);
  });

  it('an unterminated quote spoils only its own record: reading goes on from the next line', () => {
    const { records, errors } = parseCsv('file,title\nbad.pdf,"never closed\nok.pdf,Fine\n');
    expect(errors).toEqual([{ line: 2, message: 'line 2: a quoted field is never closed', fields: ['bad.pdf'] }]);
    expect(records.map((r) => [r.line, ...r.fields])).toEqual([[1, 'file', 'title'], [3, 'ok.pdf', 'Fine']]);
  });
});

describe('sidecars', () => {
  it('accepts title, metadata, tags, expiry_date and credentials', () => {
    const uid = '01a2032a-4433-77f4-9fc2-3039f92839d7';
    const fields = parseSidecar(JSON.stringify({ title: 'Diploma', metadata: { student: 'Ada' }, tags: ['cs-2026'], expiry_date: '2030-01-01', credentials: [uid] }), 'a.pdf.json', NOW);
    expect(fields).toEqual({ title: 'Diploma', metadata: { student: 'Ada' }, tags: ['cs-2026'], expiry_date: '2030-01-01', credentials: [uid] });
  });

  it('names the line and column of a JSON syntax error', () => {
    const error = errorOf(() => parseSidecar('{\n  "title": "A",\n  "tags": [cs]\n}', 'dir/a.pdf.json', NOW));
    expect(error.id).toBe('no_json');
    expect(error.message).toMatch(/^sidecar dir\/a\.pdf\.json, line 3, column \d+: not valid JSON/);
  });

  it('names the line and field of a bad value', () => {
    const text = '{\n  "title": "A",\n  "metadata": {"x": 1},\n  "expiry_date": "2020-01-01"\n}';
    expect(errorOf(() => parseSidecar(text, 'a.pdf.json', NOW)).message).toBe('sidecar a.pdf.json, line 4, field "expiry_date": "2020-01-01" is not in the future');
    expect(errorOf(() => parseSidecar('{"tags": ["x"]}', 'a.pdf.json', NOW))).toMatchObject({ id: 'invalid_tag', message: expect.stringContaining('line 1, field "tags"') });
    expect(errorOf(() => parseSidecar('{"titel": "A"}', 'a.pdf.json', NOW)).message).toContain('field "titel": unknown field');
    expect(errorOf(() => parseSidecar('{"metadata": {"ingest": 1}}', 'a.pdf.json', NOW)).message).toContain('reserved');
    expect(errorOf(() => parseSidecar('[1]', 'a.pdf.json', NOW)).message).toBe('sidecar a.pdf.json, line 1: must be a JSON object');
  });
});

describe('manifest.csv', () => {
  it('maps rows to files: title, tags split on ; or |, expiry_date and meta.* columns (nested by dots)', () => {
    const manifest = parseManifest('file,title,tags,expiry_date,meta.student,meta.grade.final\nsub/a.pdf,Diploma A,cs-2026; honours|extra,2030-06-01,Ada,A+\n./b.pdf,,,,Bob,\n', 'manifest.csv', NOW);
    expect(manifest.broken).toBeUndefined();
    expect(manifest.rows.get('sub/a.pdf')).toEqual({
      title: 'Diploma A',
      tags: ['cs-2026', 'honours', 'extra'],
      expiry_date: '2030-06-01',
      metadata: { student: 'Ada', grade: { final: 'A+' } },
    });
    expect(manifest.rows.get('b.pdf')).toEqual({ metadata: { student: 'Bob' } });
  });

  it('a bad row fails its own file, naming the line and the column; the other rows stand', () => {
    const text = [
      'file,title,tags,expiry_date,meta.n',
      'good.pdf,Good,ok-tag,,1',
      'badtag.pdf,T,x,,2',
      'baddate.pdf,T,,2026-02-31,3',
      'wide.pdf,T,,,4,surplus',
      'twice.pdf,T,,,5',
      'twice.pdf,T,,,6',
      'quote.pdf,"unterminated,,,7',
      'after.pdf,After,,,8',
    ].join('\n');
    const { rows, broken } = parseManifest(text, 'manifest.csv', NOW);
    expect(broken).toBeUndefined();
    expect(rows.get('good.pdf')).toEqual({ title: 'Good', tags: ['ok-tag'], metadata: { n: '1' } });
    expect((rows.get('badtag.pdf') as MetadataError).message).toMatch(/^manifest\.csv line 3, column "tags": Invalid tag "x"/);
    expect((rows.get('baddate.pdf') as MetadataError).message).toMatch(/^manifest\.csv line 4, column "expiry_date": expiry_date is not a real date/);
    expect((rows.get('wide.pdf') as MetadataError).message).toBe('manifest.csv line 5: 6 fields, but the header has 5');
    expect((rows.get('twice.pdf') as MetadataError).message).toBe('manifest.csv lines 6 and 7 both name "twice.pdf"');
    expect((rows.get('quote.pdf') as MetadataError).message).toBe('manifest.csv line 8: a quoted field is never closed');
    expect(rows.get('after.pdf')).toEqual({ title: 'After', metadata: { n: '8' } });
  });

  it('a row with fewer fields than the header is an error naming its line, like a longer one', () => {
    const text = ['file,title,tags,meta.n', 'short.pdf,Short', 'full.pdf,Full,,1', 'multi.pdf,"two', 'lines",x'].join('\n');
    const { rows, broken } = parseManifest(text, 'manifest.csv', NOW);
    expect(broken).toBeUndefined();
    expect((rows.get('short.pdf') as MetadataError).message).toBe('manifest.csv line 2: 2 fields, but the header has 4');
    expect(rows.get('full.pdf')).toEqual({ title: 'Full', metadata: { n: '1' } });
    // A record that spans lines is named by the line it starts on.
    expect((rows.get('multi.pdf') as MetadataError).message).toBe('manifest.csv line 4: 3 fields, but the header has 4');
  });

  it('a header without a file column, or with an unknown column, spoils the whole manifest', () => {
    expect(parseManifest('name,title\na.pdf,A', 'manifest.csv', NOW).broken?.message).toBe('manifest.csv line 1: no "file" column in the header');
    expect(parseManifest('file,titel\na.pdf,A', 'manifest.csv', NOW).broken?.message).toContain('unknown column "titel"');
  });
});

describe('names', () => {
  it('ignores hidden, temporary and partial-download files, sidecars and manifests', () => {
    for (const name of ['.hidden', '~$report.docx', 'movie.part', 'setup.crdownload', 'x.tmp', 'notes.txt~', 'a.pdf.json', 'manifest.csv', 'Thumbs.db']) {
      expect(isCandidateName(name), name).toBe(false);
    }
    for (const name of ['report.pdf', 'data.json', 'archive.tar.gz', 'README']) expect(isCandidateName(name), name).toBe(true);
    expect(isSidecarName('a.pdf.json')).toBe(true);
    expect(isSidecarName('data.json')).toBe(false);
  });
});

describe('JSON syntax positions', () => {
  it('finds where a JSON text first goes wrong', async () => {
    const { jsonSyntaxError } = await import('../../main/intake/json-position.js');
    expect(jsonSyntaxError('{"a": [1, 2], "b": {"c": null}, "d": "x\\u00e9"}')).toBeUndefined();
    expect(jsonSyntaxError('{"a": 1,}')).toEqual({ offset: 8, message: 'expected a property name in double quotes, found "}"' });
    expect(jsonSyntaxError('{"a" 1}')).toEqual({ offset: 5, message: 'expected ":" after the property name, found "1"' });
    expect(jsonSyntaxError('{"a": "open')).toEqual({ offset: 11, message: 'a string is never closed' });
    expect(jsonSyntaxError('{} x')).toEqual({ offset: 3, message: 'unexpected "x" after the JSON value' });
    expect(jsonSyntaxError('')).toEqual({ offset: 0, message: 'unexpected the end of the text' });
  });
});
