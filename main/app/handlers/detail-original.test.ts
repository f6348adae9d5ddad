/**
 * `detail:openOriginal` through the app's handlers on a real engine, real files and a saved
 * watch folder list. The desktop side is a stand-in recording what Electron's shell.openPath
 * would be asked to open (no Electron here); without it the handler answers the stored copy,
 * as the browser bridge does.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../engine/index.js';
import { writeWatchFolders } from '../../workspace/watch-folders/watch-folder-list.js';
import { taskEnded } from '../../../test/support/task-ended.js';
import { createAppContext, type AppContext } from '../app-context.js';
import { createIpcHandlers, invokeIpcHandler, type IpcHandlers } from '../ipc-handlers.js';
import { setWatchFolderDesktop } from './watch-folders-desktop.js';

let dir: string;
let watched: string;
let engine: Engine;
let ctx: AppContext;
let handlers: IpcHandlers;
let opened: string[];
let credential: { uid: string; hash: string };
let uploaded: { uid: string; hash: string };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proofdesk-detail-original-'));
  watched = join(dir, 'inbox');
  mkdirSync(join(watched, 'done'), { recursive: true });
  engine = Engine.open({ dataDir: join(dir, 'data'), sweepIntervalMs: false });
  const added = engine.partners.add({ name: 'Originals U' });
  const partner = { id: added.partner_id, name: added.name };
  const service = engine.serviceFor(partner.id);
  writeWatchFolders(join(dir, 'data'), [{ id: 'w1', path: watched, partnerId: partner.id, paused: false }]);
  writeFileSync(join(watched, 'done', 'ada.pdf'), '%PDF-1.4 Ada');
  const hash = createHash('sha256').update('%PDF-1.4 Ada').digest('hex');
  await service.uploadFile({ file: { path: join(watched, 'done', 'ada.pdf') } });
  credential = { uid: (await service.createCredential({ title: 'Ada', metadata: { ingest: { sha256: hash, path: 'ada.pdf' } }, files: [hash] })).uid, hash };
  writeFileSync(join(dir, 'by-hand.txt'), 'uploaded by hand');
  const file = await service.uploadFile({ file: { path: join(dir, 'by-hand.txt') } });
  uploaded = { uid: (await service.createCredential({ title: 'By hand', metadata: { a: 1 }, files: [file.file_hash] })).uid, hash: file.file_hash };
  ctx = createAppContext({ engine, partner });
  handlers = createIpcHandlers(ctx);
  opened = [];
});

afterEach(async () => {
  setWatchFolderDesktop(null);
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (uid: string, hash: string) => invokeIpcHandler(handlers, 'detail:openOriginal', [uid, hash]);

describe('detail:openOriginal', () => {
  it('desktop (shell.openPath stand-in): opens the watched file where it is, and says so when it is gone', async () => {
    setWatchFolderDesktop({ openPath: async (path) => (opened.push(path), '') });
    expect(await open(credential.uid, credential.hash)).toEqual({ kind: 'opened', path: join(watched, 'done', 'ada.pdf') });
    expect(opened).toEqual([join(watched, 'done', 'ada.pdf')]);
    rmSync(join(watched, 'done', 'ada.pdf'));
    await expect(open(credential.uid, credential.hash)).rejects.toMatchObject({ id: 'missing_file', message: expect.stringMatching(/no longer in any watch folder/) });
    // No known path: the stored copy is handed over instead.
    expect(await open(uploaded.uid, uploaded.hash)).toMatchObject({ kind: 'download', base64: Buffer.from('uploaded by hand').toString('base64') });
    expect(opened).toHaveLength(1);
  });

  it('browser bridge: answers the stored copy; refuses a hash the credential does not name and a bad argument', async () => {
    expect(await open(credential.uid, credential.hash)).toEqual({ kind: 'download', fileName: 'ada.pdf', type: expect.anything(), base64: Buffer.from('%PDF-1.4 Ada').toString('base64') });
    await expect(open(uploaded.uid, credential.hash)).rejects.toMatchObject({ id: 'missing_file' });
    await expect(open(uploaded.uid, 'not-a-hash')).rejects.toMatchObject({ id: 'invalid_value' });
  });

  it('desktop (shell.openPath stand-in): a file dropped on the window opens where it was dropped from, not a copy; a changed or moved one is refused', async () => {
    setWatchFolderDesktop({ openPath: async (path) => (opened.push(path), '') });
    const path = join(dir, 'dropped', 'grace.pdf');
    mkdirSync(join(dir, 'dropped'));
    writeFileSync(path, '%PDF-1.4 Grace');
    const hash = createHash('sha256').update('%PDF-1.4 Grace').digest('hex');
    const uid = await createByDrop(path);
    expect(await open(uid, hash)).toEqual({ kind: 'opened', path });
    expect(opened).toEqual([path]);
    writeFileSync(path, '%PDF-1.4 Grace, edited');
    await expect(open(uid, hash)).rejects.toMatchObject({ id: 'missing_file', message: expect.stringMatching(/has changed since/) });
    rmSync(path);
    await expect(open(uid, hash)).rejects.toMatchObject({ id: 'missing_file', message: expect.stringMatching(/no longer at/) });
    expect(opened).toHaveLength(1);
  });

  it('browser bridge: a dropped file\'s path (its own temporary upload) is not kept; the stored copy is handed over', async () => {
    const path = join(dir, 'upload-tmp.txt');
    writeFileSync(path, 'an upload');
    const hash = createHash('sha256').update('an upload').digest('hex');
    const uid = await createByDrop(path);
    setWatchFolderDesktop({ openPath: async (p) => (opened.push(p), '') });
    expect(await open(uid, hash)).toMatchObject({ kind: 'download', base64: Buffer.from('an upload').toString('base64') });
    expect(opened).toEqual([]);
  });
});

/** Creates one credential from a file the way staging does (staging:create), and answers its uid. */
async function createByDrop(path: string): Promise<string> {
  const file_hash = createHash('sha256').update(readFileSync(path)).digest('hex');
  const task = await invokeIpcHandler(handlers, 'staging:create', [{ rows: [{ key: path, file: { path, file_hash }, title: 'Dropped', metadata: {}, tags: [], expiry_date: null, links: [] }], engine: null, allow_duplicates: true }]) as { id: string };
  await taskEnded(ctx.events, ctx.tasks, task.id);
  const outcome = (await invokeIpcHandler(handlers, 'staging:outcome', [task.id])) as { outcomes: { status: string; uid?: string }[] } | null;
  const first = outcome?.outcomes[0];
  if (first?.status !== 'created' || !first.uid) throw new Error(`not created: ${JSON.stringify(outcome)}`);
  return first.uid;
}
