/**
 * Turns dropped or chosen files into paths main can read, without their bytes crossing IPC:
 * in Electron the preload gives each File's path (webUtils.getPathForFile, folders included);
 * in the browser the files are uploaded to the web bridge (file-upload.ts), which answers where
 * it put them. `window.proofdeskFiles`, set by the preload or the bridge's script, says which.
 */
import { t } from '../i18n/i18n-store.js';
import { uploadFiles } from './file-upload.js';

/** A file with its path relative to what was dropped (`folder/sub/name.pdf`, or `name.pdf`). */
export interface PickedFile {
  file: File;
  relPath: string;
}

/** Progress and cancel of bringing files in (only uploads take long enough to need them). */
export interface IntakeOptions {
  /** Aborting it stops the upload and removes whatever it wrote, even after it finished. */
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** What the preload (Electron) or the bridge (browser) offers for files. */
export type FileIntakeBridge = { kind: 'paths'; pathOf(file: File): string } | { kind: 'upload' };

declare global {
  interface Window {
    readonly proofdeskFiles?: FileIntakeBridge;
  }
}

function intake(): FileIntakeBridge {
  const bridge = window.proofdeskFiles;
  if (!bridge) throw new Error(t('staging.noBridge'));
  return bridge;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((done, fail) => entry.file(done, fail));
}

async function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  // readEntries answers in batches (about 100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((done, fail) => reader.readEntries(done, fail));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** The files under a dropped folder's entry, in its listing's order (each folder's files asked for all at once). */
async function walkEntry(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  const relPath = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
  if (entry.isFile) {
    out.push({ file: await fileOf(entry as FileSystemFileEntry), relPath });
    return;
  }
  if (!entry.isDirectory) return;
  const children = await readAll(entry as FileSystemDirectoryEntry);
  // One entry.file() after another costs a round trip to the browser each: 1,000 of them add up.
  const files = await Promise.all(children.map((c) => (c.isFile ? fileOf(c as FileSystemFileEntry) : null)));
  for (const [i, child] of children.entries()) {
    const file = files[i];
    if (file) out.push({ file, relPath: `${relPath}/${child.name}` });
    else await walkEntry(child, relPath, out);
  }
}

/**
 * Everything in a drop as files with relative paths (the browser's view; folders walked).
 * Files chosen from a folder picker carry their `webkitRelativePath`.
 */
async function pickedFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const entries = [...data.items].map((item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null));
  const files = [...data.files];
  for (const [i, file] of files.entries()) {
    const entry = entries[i];
    if (entry?.isDirectory) await walkEntry(entry, '', out);
    else out.push({ file, relPath: file.webkitRelativePath || file.name });
  }
  return out;
}

/** Paths main can read for files chosen in a file dialog (or a folder picker). */
export async function pathsOfFiles(files: File[], options: IntakeOptions = {}): Promise<string[]> {
  const bridge = intake();
  if (bridge.kind === 'paths') return files.map((f) => bridge.pathOf(f));
  return uploadFiles(
    files.map((file) => ({ file, relPath: file.webkitRelativePath || file.name })),
    options,
  );
}

/** Paths main can read for a drop: loose files and whole folders. */
export async function pathsOfDrop(data: DataTransfer, options: IntakeOptions = {}): Promise<string[]> {
  const bridge = intake();
  // Electron: a dropped folder is a File whose path is the folder's; main walks it.
  if (bridge.kind === 'paths') return [...data.files].map((f) => bridge.pathOf(f)).filter((p) => p !== '');
  return uploadFiles(await pickedFromDrop(data), options);
}

/** Whether a drag carries files (not text or a link being dragged about). */
export function carriesFiles(data: DataTransfer | null): boolean {
  return !!data && [...data.types].includes('Files');
}
