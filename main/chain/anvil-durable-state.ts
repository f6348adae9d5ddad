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
import { gunzipSync } from 'node:zlib';
import { writeFileDurably } from '../durable/write-file-durably.js';
import { anvilRpc } from './anvil-rpc.js';
import { anvilStatePaths } from './anvil-state-file.js';

/**
 * Dumps the state of the anvil at `rpcUrl` (which runs on `stateDir`) into the state directory's
 * snapshot, durably. Resolves once it is on disk; throws when anvil does not answer or the disk refuses.
 */
export async function persistAnvilState(rpcUrl: string, stateDir: string, timeoutMs = 10_000): Promise<void> {
  const dump = String(await anvilRpc(rpcUrl, 'anvil_dumpState', timeoutMs));
  writeFileDurably(anvilStatePaths(stateDir).snapshotFile, gunzipSync(Buffer.from(dump.replace(/^0x/, ''), 'hex')));
}
