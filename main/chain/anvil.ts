/**
 * The local dev chain: an anvil process on 127.0.0.1 and a free port, its state persisted in a
 * directory so that a stop and a start keep every block, transaction, contract and balance.
 *
 * anvil is started with
 *   --host 127.0.0.1 --port <free> --chain-id <id> --quiet --accounts 0
 *   --state <dir>/state.json --state-interval 60   load at start, dump on SIGTERM and every 60 s
 *   --prune-history 64 --cache-path <dir>/anvil-cache
 *   [--block-time <s>]                              interval mining; automine when omitted
 * with umask 077 (its own files are 0600, like the rest of the data directory; see
 * docs/data-directory.md),
 * and, while it runs, this process snapshots its state (anvil_dumpState) into
 * <dir>/state.snapshot.json within 2 s of each change, atomically (anvil-snapshots.ts). A crash
 * of anvil or of this process loses at most those seconds; the next start loads the newer
 * complete one of the two files (anvil-state-file.ts).
 *
 * --prune-history keeps the last 64 per-block states in memory and never spills them to disk:
 * without it anvil writes one file per block beyond the 500th into a temporary folder
 * (~/.foundry/anvil/tmp/anvil-state-*, or under --cache-path) and never removes it. The folder is
 * still pointed into the state directory and cleared at start and stop, in case a future anvil
 * spills anyway. Historical state (eth_call at an old block) is not needed by Proofdesk, and anvil
 * does not keep it across restarts in any case.
 *
 * --accounts 0: no unlocked dev accounts. Proofdesk signs every transaction with the Partner's own
 * key and funds accounts with anvil_setBalance, and deriving anvil's ten accounts from its mnemonic
 * was about a third of its start. A chain loaded from its state file keeps its genesis block either way.
 *
 * @example
 * const node = await startAnvil({ stateDir: join(dataDir, 'chain') });
 * const chain = await ChainClient.connect({ rpcUrl: node.rpcUrl, chainId: node.chainId });
 * ...
 * await node.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveAnvilBinary } from './anvil-binary.js';
import { anvilRpc } from './anvil-rpc.js';
import { releaseLock, takeOverLock, writeLock } from './anvil-lock.js';
import { startStateSnapshots, type StateSnapshots } from './anvil-snapshots.js';
import { anvilStatePaths, clearStateCache, prepareStateFile, syncSnapshotWithStateFile, type AnvilStateOrigin, type AnvilStatePaths } from './anvil-state-file.js';
import { LOCAL_CHAIN_ID } from './dev-chain.js';
import { ChainError } from './errors.js';
import { findFreePort } from './free-port.js';
import { startReaper, type Reaper } from './process-reaper.js';

export interface StartAnvilParameters {
  /** Directory for the chain's state (created if missing). One anvil per directory. */
  stateDir: string;
  /** Chain id (default 31337). */
  chainId?: number | undefined;
  /** Seconds between blocks (interval mining). Default: none, a block per transaction (automine). */
  blockTime?: number | undefined;
  /** How often to snapshot the state when it changed, in ms (default 2000): about the most a crash can lose. */
  snapshotIntervalMs?: number | undefined;
  /** How long to wait for anvil to answer (default 15 s). */
  startTimeoutMs?: number | undefined;
  /**
   * Unix time (seconds) of the genesis block when the chain starts empty (`new` or `reset`):
   * a chain rebuilt from stored transactions needs a genesis older than their original block times.
   */
  genesisTimestamp?: number | undefined;
  /** The anvil executable (default: the one @foundry-rs/anvil installed for this platform). */
  binary?: string | undefined;
}

export interface AnvilExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AnvilNode {
  /** JSON-RPC endpoint, e.g. http://127.0.0.1:40123. */
  rpcUrl: string;
  chainId: number;
  /** anvil's process id. */
  pid: number;
  stateDir: string;
  /** How the chain's state came about: new, loaded, restored from the snapshot, or reset after damage. */
  stateOrigin: AnvilStateOrigin;
  /** Settles when anvil exits, for whatever reason (watch it to notice a crash). */
  exited: Promise<AnvilExit>;
  /** Stops anvil (SIGTERM, so it dumps its state; SIGKILL after 10 s) and cleans up. Idempotent. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
/** Per-block states kept in memory (never on disk); see the module comment. */
const PRUNE_HISTORY_STATES = 64;
/** Grace between SIGTERM and SIGKILL, for anvil to dump its state. */
const STOP_GRACE_MS = 10_000;
/** anvil's own periodic dump, a fallback behind our snapshots (it rewrites the whole file each time). */
const ANVIL_STATE_INTERVAL_S = 60;
const START_ATTEMPTS = 3;

/** Running anvils of this process, for the exit hook. */
const running = new Set<ChildProcess>();
/** State directories on which this process is starting an anvil right now. */
const starting = new Set<string>();
let exitHookInstalled = false;

/** On any exit of this process, SIGTERM the anvils it still runs (they dump their state and go). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) {
      try {
        child.kill('SIGTERM');
      } catch {
        // already gone
      }
    }
  });
}

/** The environment for anvil: ours without the variables that would reconfigure it. */
function anvilEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(FOUNDRY_|ANVIL_|DAPP_|ETH_RPC_URL$|RUST_LOG$|ELECTRON_RUN_AS_NODE$)/.test(key)) continue;
    env[key] = value;
  }
  env.NO_COLOR = '1';
  return env;
}

/**
 * The command that runs `binary` with umask 077, so that the files anvil writes itself (its
 * state dumps, its cache) are 0600 from their first byte. Through `sh -c 'umask 077; exec …'`:
 * only anvil's umask changes, never this process's (the engine is a library; its host's umask is
 * not ours to change), and exec keeps the pid anvil's. Windows has no modes to set.
 */
function privateSpawn(binary: string, args: string[]): [string, string[]] {
  if (process.platform === 'win32') return [binary, args];
  return ['/bin/sh', ['-c', 'umask 077 && exec "$0" "$@"', binary, ...args]];
}

/** The last lines of anvil's log, for error messages. */
function logTail(paths: AnvilStatePaths, max = 2000): string {
  try {
    const text = readFileSync(paths.logFile, 'utf8').trim();
    return text.length > max ? `…${text.slice(-max)}` : text;
  } catch {
    return '';
  }
}

/** Asks `rpcUrl` for its chain id; undefined when it does not answer (yet). */
async function queryChainId(rpcUrl: string, timeoutMs: number): Promise<number | undefined> {
  try {
    return Number(BigInt(String(await anvilRpc(rpcUrl, 'eth_chainId', timeoutMs))));
  } catch {
    return undefined;
  }
}

/** Whether `exited` settles within `ms` (the timer does not outlive the answer). */
async function exitsWithin(exited: Promise<AnvilExit>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Validates and resolves the parameters. */
function settings(params: StartAnvilParameters) {
  const chainId = params.chainId ?? LOCAL_CHAIN_ID;
  const snapshotIntervalMs = params.snapshotIntervalMs ?? 2000;
  const startTimeoutMs = params.startTimeoutMs ?? 15_000;
  if (!Number.isSafeInteger(chainId) || chainId < 1) throw new TypeError(`chainId must be a positive integer, got ${chainId}`);
  if (params.blockTime !== undefined && !(params.blockTime > 0)) throw new TypeError(`blockTime must be positive, got ${params.blockTime}`);
  if (!(snapshotIntervalMs >= 100)) throw new TypeError(`snapshotIntervalMs must be at least 100, got ${snapshotIntervalMs}`);
  if (!params.stateDir) throw new TypeError('stateDir is required');
  return { chainId, snapshotIntervalMs, startTimeoutMs, stateDir: resolve(params.stateDir), blockTime: params.blockTime, genesisTimestamp: undefined as number | undefined };
}

/** anvil's command line. */
function anvilArgs(port: number, paths: AnvilStatePaths, s: ReturnType<typeof settings>): string[] {
  const args = ['--host', HOST, '--port', String(port), '--chain-id', String(s.chainId), '--quiet', '--accounts', '0'];
  args.push('--state', paths.stateFile, '--state-interval', String(ANVIL_STATE_INTERVAL_S));
  args.push('--prune-history', String(PRUNE_HISTORY_STATES), '--cache-path', paths.cacheDir);
  if (s.blockTime !== undefined) args.push('--block-time', String(s.blockTime));
  if (s.genesisTimestamp !== undefined) args.push('--timestamp', String(s.genesisTimestamp));
  return args;
}

type Launch = { ok: true; child: ChildProcess; exited: Promise<AnvilExit>; rpcUrl: string } | { ok: false; portTaken: boolean; message: string };

/** Spawns anvil on `port` and waits until it answers eth_chainId, exits, or the deadline passes. */
async function launch(binary: string, port: number, paths: AnvilStatePaths, s: ReturnType<typeof settings>, deadline: number): Promise<Launch> {
  if (existsSync(paths.logFile)) renameSync(paths.logFile, `${paths.logFile}.previous`);
  const log = openSync(paths.logFile, 'w', 0o600);
  let child: ChildProcess;
  try {
    // stdout and stderr go to a file: no pipe that could fill up, nothing to drain.
    child = spawn(...privateSpawn(binary, anvilArgs(port, paths, s)), { cwd: s.stateDir, env: anvilEnv(), stdio: ['ignore', log, log], windowsHide: true });
  } finally {
    closeSync(log);
  }
  let spawnError: Error | undefined;
  let exit: AnvilExit | undefined;
  const exited = new Promise<AnvilExit>((settle) => {
    child.once('error', (error) => {
      spawnError = error;
      settle({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => settle({ code, signal }));
  });
  void exited.then((e) => (exit = e));
  const rpcUrl = `http://${HOST}:${port}`;
  while (Date.now() < deadline) {
    if (exit || spawnError) break;
    const id = await queryChainId(rpcUrl, 1000);
    if (id !== undefined && !exit) {
      if (id !== s.chainId) {
        child.kill('SIGTERM');
        await exited;
        return { ok: false, portTaken: false, message: `anvil answered with chain id ${id}, expected ${s.chainId}` };
      }
      return { ok: true, child, exited, rpcUrl };
    }
    await Promise.race([sleep(25), exited]);
  }
  if (spawnError) return { ok: false, portTaken: false, message: `could not run ${binary}: ${spawnError.message}` };
  if (exit) {
    const tail = logTail(paths);
    return { ok: false, portTaken: /address already in use/i.test(tail), message: `anvil exited (code ${exit.code ?? exit.signal}) before answering${tail ? `:\n${tail}` : ''}` };
  }
  child.kill('SIGTERM');
  if (!(await exitsWithin(exited, STOP_GRACE_MS))) child.kill('SIGKILL');
  const tail = logTail(paths);
  return { ok: false, portTaken: false, message: `anvil did not answer on ${rpcUrl} within ${s.startTimeoutMs} ms${tail ? `:\n${tail}` : ''}` };
}

/**
 * Starts anvil on `stateDir` and resolves once it answers. Throws ChainError with the tail of
 * anvil's log when it exits early or does not answer within the start timeout, and when another
 * live process already runs a chain on the directory.
 */
export async function startAnvil(params: StartAnvilParameters): Promise<AnvilNode> {
  const s = settings(params);
  // The lock file only exists once anvil answers: two starts racing in this process meet here.
  if (starting.has(s.stateDir)) throw new ChainError(`The local chain in ${s.stateDir} is already starting`);
  starting.add(s.stateDir);
  try {
    return await start(params, s);
  } finally {
    starting.delete(s.stateDir);
  }
}

async function start(params: StartAnvilParameters, s: ReturnType<typeof settings>): Promise<AnvilNode> {
  // Private, as the whole data directory is (the chain's state holds every issued root).
  mkdirSync(s.stateDir, { recursive: true, mode: 0o700 });
  const paths = anvilStatePaths(s.stateDir);
  await takeOverLock(paths.lockFile, s.stateDir, STOP_GRACE_MS);
  clearStateCache(paths);
  const stateOrigin = prepareStateFile(paths);
  if ((stateOrigin === 'new' || stateOrigin === 'reset') && params.genesisTimestamp !== undefined) s.genesisTimestamp = params.genesisTimestamp;
  const binary = params.binary ?? resolveAnvilBinary();
  const deadline = Date.now() + s.startTimeoutMs;

  let launched: Launch | undefined;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    launched = await launch(binary, await findFreePort(HOST), paths, s, deadline);
    // Another process may take the free port between our probe and anvil's bind: try another.
    if (launched.ok || !launched.portTaken || Date.now() >= deadline) break;
  }
  if (!launched?.ok) throw new ChainError(`The local chain did not start: ${launched?.message ?? 'no attempt made'}`);

  const { child, exited, rpcUrl } = launched;
  const pid = child.pid!;
  installExitHook();
  running.add(child);
  const reaper: Reaper | undefined = startReaper(pid, STOP_GRACE_MS / 1000);
  writeLock(paths.lockFile, { pid, ownerPid: process.pid, rpcUrl, startedAt: new Date().toISOString() });
  let snapshots: StateSnapshots | undefined;
  void exited.then(() => {
    running.delete(child);
    reaper?.release();
    void snapshots?.stop();
  });

  let stopping: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      // No SIGTERM on Windows: kill() terminates at once, without anvil's final dump, so the
      // snapshot takes it (and wins at the next start, being newer).
      if (process.platform === 'win32') await snapshots?.flush();
      await snapshots?.stop();
      child.kill('SIGTERM');
      if (!(await exitsWithin(exited, STOP_GRACE_MS))) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    await snapshots?.stop();
    running.delete(child);
    reaper?.release();
    releaseLock(paths.lockFile, pid);
    clearStateCache(paths);
    syncSnapshotWithStateFile(paths);
  };

  try {
    snapshots = await startStateSnapshots(rpcUrl, paths.snapshotFile, s.snapshotIntervalMs);
  } catch (error) {
    await stop();
    throw new ChainError('The local chain did not start: it stopped answering', { cause: error, details: logTail(paths) });
  }

  return {
    rpcUrl,
    chainId: s.chainId,
    pid,
    stateDir: s.stateDir,
    stateOrigin,
    exited,
    stop: () => (stopping ??= stop()),
  };
}
