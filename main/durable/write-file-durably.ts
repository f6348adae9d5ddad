/** Writing one file so that a crash or a power cut leaves either the previous file or the whole new one. */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `data` to `file`: a temporary name beside it, fsync, rename, fsync of the folder. A failed
 * write removes the temporary file. Private (0600) unless `mode` says otherwise (a proof for the
 * user to share).
 */
export function writeFileDurably(file: string, data: Uint8Array | string, mode = 0o600): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const tmp = `${file}.writing-${process.pid}`;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w', mode);
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
  // The rename itself lives in the folder: without this it could be lost with the power.
  let dir: number;
  try {
    dir = openSync(dirname(file), 'r');
  } catch {
    // Windows cannot open a folder: the rename is still atomic there.
    return;
  }
  try {
    fsyncSync(dir);
  } catch {
    // Not supported by some network file systems: the rename is still atomic there.
  } finally {
    closeSync(dir);
  }
}
