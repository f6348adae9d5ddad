import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `data` to `file` so that a crash leaves either no file or the whole one: a temporary
 * name beside it, fsync, rename, fsync of the folder. A failed write removes the temporary file.
 */
export function writeFileDurably(file: string, data: Uint8Array | string): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const tmp = `${file}.writing-${process.pid}`;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w');
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
