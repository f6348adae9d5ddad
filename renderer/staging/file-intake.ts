/**
 * Turns dropped or chosen files into paths main can read, without their bytes crossing IPC:
 * in Electron the preload gives each File's path (webUtils.getPathForFile, folders included);
 * in the browser bridge the files are uploaded to the bridge, which answers where it put them.
 * Both are exposed as `window.proofdeskFiles` by the preload or the bridge's script.
 */

/** A file with its path relative to what was dropped (`folder/sub/name.pdf`, or `name.pdf`). */
export interface PickedFile {
  file: File;
  relPath: string;
}

/** What the preload (Electron) or the bridge (browser) offers for files. */
export type FileIntakeBridge =
  | { kind: 'paths'; pathOf(file: File): string }
  | { kind: 'upload'; upload(files: PickedFile[]): Promise<string[]> };

declare global {
  interface Window {
    readonly proofdeskFiles?: FileIntakeBridge;
  }
}

function intake(): FileIntakeBridge {
  const bridge = window.proofdeskFiles;
  if (!bridge) throw new Error('This window cannot take files: restart Proofdesk.');
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

async function walkEntry(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  const relPath = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
  if (entry.isFile) out.push({ file: await fileOf(entry as FileSystemFileEntry), relPath });
  else if (entry.isDirectory) for (const child of await readAll(entry as FileSystemDirectoryEntry)) await walkEntry(child, relPath, out);
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
export async function pathsOfFiles(files: File[]): Promise<string[]> {
  const bridge = intake();
  if (bridge.kind === 'paths') return files.map((f) => bridge.pathOf(f));
  return bridge.upload(files.map((file) => ({ file, relPath: file.webkitRelativePath || file.name })));
}

/** Paths main can read for a drop: loose files and whole folders. */
export async function pathsOfDrop(data: DataTransfer): Promise<string[]> {
  const bridge = intake();
  // Electron: a dropped folder is a File whose path is the folder's; main walks it.
  if (bridge.kind === 'paths') return [...data.files].map((f) => bridge.pathOf(f)).filter((p) => p !== '');
  return bridge.upload(await pickedFromDrop(data));
}

/** Whether a drag carries files (not text or a link being dragged about). */
export function carriesFiles(data: DataTransfer | null): boolean {
  return !!data && [...data.types].includes('Files');
}
