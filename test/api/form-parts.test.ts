/**
 * Forms the client built by hand: a part with no name in its Content-Disposition is a clear
 * 400 (never a 500), and a form with no file at all is `no_file_on_payload` whatever else it
 * carries (the spec's id for "no file in the request"), on every upload endpoint. Nothing of
 * such a request is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRecord, Page } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectError, expectResult, startApiFixture, type ApiFixture } from './api-fixture.js';

const BOUNDARY = 'proofdesk-form-parts-3c9e';
const FILE_ENDPOINTS = ['/files', '/verify/upload/certificate', '/verify/upload/file'];
const DETAILS = JSON.stringify({ title: 'T', metadata: { a: 1 } });

/** A multipart body from raw part heads (the Content-Disposition parameters) and contents. */
function rawForm(parts: [disposition: string, content: string][]): { headers: Record<string, string>; body: string } {
  const body = parts.map(([disposition, content]) => `--${BOUNDARY}\r\nContent-Disposition: form-data${disposition}\r\n\r\n${content}\r\n`).join('') + `--${BOUNDARY}--\r\n`;
  return { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body };
}

describe('multipart forms with missing names and missing files', () => {
  let api: ApiFixture;
  const internal: string[] = [];
  const files = async () => expectResult<Page<FileRecord>>(await api.call('GET', '/files?per_page=0'), 200).total_items;

  beforeAll(async () => {
    api = await startApiFixture({ scheduler: false, log: (line) => internal.push(line) });
  });
  afterAll(async () => {
    expect(internal).toEqual([]);
    await api?.close();
    removeTempDirs();
  });

  it('answers a part without a name with 400 invalid_value, saying so, on every upload endpoint', async () => {
    for (const path of [...FILE_ENDPOINTS, '/credentials/schedule/local']) {
      const details: [string, string][] = path.includes('schedule') ? [['; name="credential_details"', DETAILS]] : [];
      // A file part with a filename but no name.
      const file = await api.call('POST', path, rawForm([...details, ['; filename="diploma.txt"', 'the file']]));
      expectError(file, 'invalid_value');
      expect(file.body.error.message, path).toMatch(/no name/);
      // A file part named "file" beside a nameless text part.
      const text = await api.call('POST', path, rawForm([...details, ['', 'stray'], ['; name="file"; filename="a.txt"', 'the file']]));
      expectError(text, 'invalid_value');
      expect(text.body.error.message, path).toMatch(/no name/);
    }
    expect(await files()).toBe(0);
  });

  it('answers no_file_on_payload for a form with no file, whatever fields it has besides', async () => {
    for (const path of FILE_ENDPOINTS) {
      expectError(await api.call('POST', path, rawForm([['; name="zzz"', 'x']])), 'no_file_on_payload');
      expectError(await api.call('POST', path, rawForm([['; name="zzz"', 'x'], ['; name="other"', 'y']])), 'no_file_on_payload');
      expectError(await api.call('POST', path, rawForm([['', 'a part without a name']])), 'no_file_on_payload');
      const unnamedFile = await api.call('POST', path, rawForm([['; name="zzz"', 'x'], ['; filename="a.txt"', 'a file without a name']]));
      expectError(unnamedFile, 'invalid_value');
      // With the file there, the unknown field is what is wrong.
      expectError(await api.call('POST', path, rawForm([['; name="zzz"', 'x'], ['; name="file"; filename="a.txt"', 'the file']])), 'invalid_value');
      expectError(await api.call('POST', path, rawForm([['; name="file"; filename="a.txt"', 'the file'], ['; name="zzz"', 'x']])), 'invalid_value');
    }
    // Where the file is optional, an unknown field stays invalid_value.
    expectError(await api.call('POST', '/credentials/schedule/local', rawForm([['; name="credential_details"', DETAILS], ['; name="zzz"', 'x']])), 'invalid_value');
    expect(await files()).toBe(0);
  });
});
