import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSheet } from './sheet-writer.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-sheet-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sheet writer', () => {
  it('writes CSV with a byte order mark, CRLF lines, plain numbers, empty cells and defused formulas', async () => {
    const sheet = openSheet('csv', join(dir, 'a.csv'), 'Records');
    await sheet.write([['title', 'files', 'expiry_date']]);
    await sheet.write([
      ['=1+2', 1234567, null],
      ['a,b', 0, '2026-11-26T10:00:00.000Z'],
    ]);
    await sheet.close();
    expect(readFileSync(join(dir, 'a.csv'), 'utf8')).toBe("\uFEFFtitle,files,expiry_date\r\n'=1+2,1234567,\r\n\"a,b\",0,2026-11-26T10:00:00.000Z\r\n");
  });

  it.each(['csv', 'xlsx'] as const)('fails the %s export, not the process, when the file cannot be written', async (format) => {
    const sheet = openSheet(format, join(dir, 'missing-folder', `a.${format}`), 'Records');
    const outcome = (async () => {
      await sheet.write([['title']]);
      await sheet.write([['x']]);
      await sheet.close();
    })();
    await expect(outcome).rejects.toMatchObject({ code: 'ENOENT' });
    await sheet.abort();
  });
});
