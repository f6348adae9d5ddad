/**
 * Makes the local chain's current state durable before the engine relies on it: a transaction
 * counts as mined on the local chain only once the state holding it is on disk. anvil's own
 * dumps and our periodic snapshots (anvil-snapshots.ts) trail a new block by up to ~2 s, and a
 * SIGKILL of the process group in that window rolled the chain back on the next start.
 *
 * The dump (`anvil_dumpState`) is written to the snapshot file with a temporary name, fsynced,
 * renamed over it, and the directory fsynced: after a power cut or a SIGKILL the file holds
 * either the previous complete state or this one. It works on an anvil this process did not
 * start (another Proofdesk process may run the data directory's chain), since only the RPC
 * endpoint and the state directory are needed.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { anvilRpc } from './anvil-rpc.js';
import { anvilStatePaths } from './anvil-state-file.js';

/**
 * Writes `data` to `file` so that a crash leaves either the previous file or the whole new one: a
 * temporary name beside it, fsync, rename, fsync of the folder. A failed write removes the
 * temporary file. Private (0600) unless `mode` says otherwise (a proof for the user to share).
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
  // The rename itself lives in the directory: without this it could be lost with the power.
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/**
 * Dumps the state of the anvil at `rpcUrl` (which runs on `stateDir`) into the state directory's
 * snapshot, durably. Resolves once it is on disk; throws when anvil does not answer or the disk refuses.
 */
export async function persistAnvilState(rpcUrl: string, stateDir: string, timeoutMs = 10_000): Promise<void> {
  const dump = String(await anvilRpc(rpcUrl, 'anvil_dumpState', timeoutMs));
  writeFileDurably(anvilStatePaths(stateDir).snapshotFile, gunzipSync(Buffer.from(dump.replace(/^0x/, ''), 'hex')));
}
