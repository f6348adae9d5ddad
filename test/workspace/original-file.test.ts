/**
 * "Open the original file" on a real SQLite engine and real files: the watch folder's path is
 * found (where it was taken or in done/), checked to be a file this credential names and
 * re-hashed; a changed, missing or unnamed file is refused in a sentence; the stored copy is
 * what the browser bridge downloads.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PartnerScope } from '../../main/engine/scope.js';
import { findOriginalOnDisk, readStoredOriginal } from '../../main/workspace/original-file.js';
import { openEngineWithPartner, type EngineFixture, type TestPartner } from '../support/engine-fixture.js';

let fixture: EngineFixture;
let partner: TestPartner;
let scope: PartnerScope;
let root: string;

beforeEach(() => {
  ({ fixture, partner, scope } = openEngineWithPartner());
  root = mkdtempSync(join(tmpdir(), 'proofdesk-original-'));
});
afterEach(() => {
  fixture.close();
  rmSync(root, { recursive: true, force: true });
});

/** A file in the watched folder and the credential the watch folder made of it. */
async function watched(rel: string, text: string, ingestPath = rel) {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
  const sha256 = createHash('sha256').update(text).digest('hex');
  await partner.service.uploadFile({ file: { path: join(root, rel) } });
  const credential = await partner.service.createCredential({ title: 'Diploma of Ada', metadata: { ingest: { sha256, path: ingestPath } }, files: [sha256] });
  return { uid: credential.uid, hash: sha256 };
}

describe('the original file of a credential', () => {
  it('is found where the watch folder took it, then in done/ after issuing', async () => {
    const { uid, hash } = await watched('class/ada.txt', 'Ada Lovelace, diploma');
    expect(await findOriginalOnDisk(scope, uid, hash, ['/nonexistent', root])).toBe(join(root, 'class/ada.txt'));
    mkdirSync(join(root, 'done', 'class'), { recursive: true });
    renameSync(join(root, 'class/ada.txt'), join(root, 'done', 'class/ada.txt'));
    expect(await findOriginalOnDisk(scope, uid, hash, [root])).toBe(join(root, 'done', 'class/ada.txt'));
  });

  it('says so in a sentence when the file changed, is gone, is a link, or is not this credential\'s', async () => {
    const { uid, hash } = await watched('ada.txt', 'Ada Lovelace, diploma');
    writeFileSync(join(root, 'ada.txt'), 'Ada Lovelace, diploma (edited)');
    await expect(findOriginalOnDisk(scope, uid, hash, [root])).rejects.toMatchObject({ id: 'missing_file', message: expect.stringMatching(/has changed since “Diploma of Ada” was created from it/) });
    rmSync(join(root, 'ada.txt'));
    await expect(findOriginalOnDisk(scope, uid, hash, [root])).rejects.toMatchObject({ id: 'missing_file', message: expect.stringMatching(/no longer in any watch folder/) });
    writeFileSync(join(root, 'elsewhere.txt'), 'Ada Lovelace, diploma');
    symlinkSync(join(root, 'elsewhere.txt'), join(root, 'ada.txt'));
    await expect(findOriginalOnDisk(scope, uid, hash, [root])).rejects.toMatchObject({ id: 'missing_file' });
    const other = await partner.service.createCredential({ title: 'Other', metadata: { a: 1 } });
    await expect(findOriginalOnDisk(scope, other.uid, hash, [root])).rejects.toMatchObject({ id: 'missing_file', message: expect.stringMatching(/has no file/) });
  });

  it('never leaves the watched folder, and knows no path for a file that was uploaded rather than taken from a folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'proofdesk-outside-'));
    try {
      writeFileSync(join(outside, 'x.txt'), 'outside');
      const sneaky = await watched('x.txt', 'outside', `../${outside.split('/').pop()}/x.txt`);
      await expect(findOriginalOnDisk(scope, sneaky.uid, sneaky.hash, [root])).rejects.toMatchObject({ id: 'missing_file' });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    writeFileSync(join(root, 'upload.txt'), 'uploaded by hand');
    const file = await partner.service.uploadFile({ file: { path: join(root, 'upload.txt') } });
    const uploaded = await partner.service.createCredential({ title: 'Uploaded', metadata: { a: 1 }, files: [file.file_hash] });
    expect(await findOriginalOnDisk(scope, uploaded.uid, file.file_hash, [root])).toBeNull();
  });

  it('hands over the stored copy, named after the watched file, for the browser to download', async () => {
    const { uid, hash } = await watched('class/ada.txt', 'Ada Lovelace, diploma');
    rmSync(join(root, 'class/ada.txt'));
    const stored = await readStoredOriginal(scope, uid, hash);
    expect(stored.fileName).toBe('ada.txt');
    expect(stored.bytes.toString()).toBe('Ada Lovelace, diploma');
  });
});
