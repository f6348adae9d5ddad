/**
 * Keeps an atomic snapshot of a running anvil's state, refreshed within one interval of each
 * change. anvil's own periodic dump rewrites its whole state file in place on every tick, changed
 * or not (on a desktop left running, gigabytes a day); this writes only when the chain changed,
 * and never leaves a half-written file.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { writeFileDurably } from '../durable/write-file-durably.js';
import { anvilStatePaths, assertStatePath, writeFileAtomically } from './anvil-state-file.js';
import { anvilRpc } from './anvil-rpc.js';

export interface StateSnapshots {
  /** Takes a snapshot now (after any one in progress). */
  flush(): Promise<void>;
  /** Stops taking snapshots; waits for one in progress. */
  stop(): Promise<void>;
}

/** A new block is the usual change; state can also change without one (anvil_setBalance), so a full comparison runs this often too. */
const FULL_CHECK_MS = 10_000;

/** anvil's state unzipped, and the dump as `anvil_dumpState` gives it (gzipped JSON in hex). */
async function fetchState(rpcUrl: string, timeoutMs: number): Promise<{ json: Buffer; dump: string }> {
  const dump = String(await anvilRpc(rpcUrl, 'anvil_dumpState', timeoutMs));
  return { json: gunzipSync(Buffer.from(dump.replace(/^0x/, ''), 'hex')), dump };
}

/** Writes the node's current state to `file` through the RPC (`anvil_dumpState`), atomically. */
export async function dumpStateViaRpc(rpcUrl: string, file: string, timeoutMs = 10_000): Promise<void> {
  // Checked before the RPC: a bad target must fail at the call, not after a dump was fetched.
  assertStatePath(file, 'The state dump file');
  writeFileAtomically(file, (await fetchState(rpcUrl, timeoutMs)).json);
}

/**
 * Makes the local chain's current state durable before the engine relies on it: a transaction
 * counts as mined on the local chain only once the state holding it is on disk, and the
 * snapshots below trail a new block by up to an interval. Dumps the anvil at `rpcUrl` (which runs
 * on `stateDir`, in this process or another) into the directory's snapshot file: written beside
 * it, fsynced and renamed, so a power cut or a SIGKILL leaves the previous state or this one.
 * Throws when anvil does not answer or the disk refuses.
 */
export async function persistAnvilState(rpcUrl: string, stateDir: string, timeoutMs = 10_000): Promise<void> {
  writeFileDurably(anvilStatePaths(stateDir).snapshotFile, (await fetchState(rpcUrl, timeoutMs)).json);
}

/**
 * Snapshots anvil at `rpcUrl` into `file` after every `intervalMs` in which it changed. Resolves
 * once it knows the current head (the state at start is on disk already).
 */
export async function startStateSnapshots(rpcUrl: string, file: string, intervalMs: number): Promise<StateSnapshots> {
  assertStatePath(file, 'The state snapshot file');
  let lastHeight = await anvilRpc(rpcUrl, 'eth_blockNumber', 5000);
  let lastDigest: string | undefined;
  let lastFullCheck = Date.now();
  let inFlight: Promise<void> | undefined;

  const snapshot = async (force: boolean): Promise<void> => {
    const height = await anvilRpc(rpcUrl, 'eth_blockNumber', Math.max(intervalMs, 1000));
    if (!force && height === lastHeight && Date.now() - lastFullCheck < FULL_CHECK_MS) return;
    const state = await fetchState(rpcUrl, 10_000);
    const digest = createHash('sha256').update(state.dump).digest('hex');
    lastFullCheck = Date.now();
    lastHeight = height;
    if (digest === lastDigest) return;
    writeFileAtomically(file, state.json);
    lastDigest = digest;
  };
  const run = (force: boolean): Promise<void> => {
    // A failed snapshot is retried on the next tick; anvil's own dumps remain as a fallback.
    const next = (inFlight ?? Promise.resolve()).then(() => snapshot(force)).catch(() => undefined);
    inFlight = next;
    void next.finally(() => {
      if (inFlight === next) inFlight = undefined;
    });
    return next;
  };

  const timer = setInterval(() => {
    if (!inFlight) void run(false);
  }, intervalMs);
  timer.unref();

  return {
    flush: () => run(true),
    stop: async () => {
      clearInterval(timer);
      await inFlight;
    },
  };
}
