/** The intake's public types: folder and intake options, events, live counts. */
import type { IssuingService } from '../../common/issuing-service.js';
import type { Clock } from '../engine/clock.js';
/** One watched folder and what its files become. */
export interface WatchFolderOptions {
  path: string;
  /** The blockchain engine its credentials are scheduled on (default `local`). */
  engine?: string;
  /** Tags every credential from this folder gets (before the file's own). */
  tags?: string[];
  /** Merged into each credential's metadata (the file's own metadata wins). */
  metadata?: Record<string, unknown>;
  /** Take files in subfolders too (default true). */
  recursive?: boolean;
  /** Where proof files go (default `<path>/proofs`). */
  outDir?: string;
  /** `both`: each proof's Verifiable Credential (NAME.vc.json) is written beside it (default `proof`). */
  format?: 'proof' | 'both';
  /** Issue identical content again instead of filing it under duplicate/ (default false). */
  allowDuplicates?: boolean;
}

export interface FolderIntakeOptions {
  service: IssuingService;
  /** Where the journal (`ingest.sqlite`) lives: the data directory. */
  dataDir: string;
  /**
   * The journal's file name in `dataDir` (default `ingest.sqlite`); a remote service has its
   * own (remoteJournalFile), so the same folder watched against two services never mixes.
   */
  journalFile?: string;
  folders: WatchFolderOptions[];
  /**
   * Who the service issues for (e.g. `partner:<id>` or a remote base URL and client): identical
   * content is recognised as a duplicate within one target and engine. Default `default`.
   */
  target?: string;
  /** How long size and modification time must stay unchanged before a file is taken (default 1,000 ms). */
  stableMs?: number;
  /** Full rescans of every folder, to find what the watcher missed (default 30 s). */
  rescanMs?: number;
  /** How often jobs in progress are looked at (default 1,000 ms; 30 s as a safety net when `jobMoves` tells of every move). */
  jobPollMs?: number;
  /**
   * Tells of job moves as they happen (the embedded engine's events); returns the function that
   * stops telling. With it, jobs are looked at on each move rather than on a timer.
   */
  jobMoves?: (listener: () => void) => () => void;
  /** Files taken (hashed, uploaded) at the same time (default: 1,000 on a service with batched create-and-schedule, the embedded engine; 4 otherwise). */
  concurrency?: number;
  /** Bytes of small files read and held until they are sent, at most (default 64 MiB; tests make it small). */
  heldBytes?: number;
  /** Use the file-system watcher (default true; without it only rescans find files). */
  watch?: boolean;
  /** Poll instead of native events (network shares): every folder is scanned each second (default false). */
  usePolling?: boolean;
  onEvent?: (event: FolderIntakeEvent) => void;
  /** The first wait after a failed try, doubling with each (default 500 ms; tests make it short). */
  retryBaseMs?: number;
  /** Where the stages read the time (default the system clock; tests move a ManualClock by hand). */
  clock?: Clock;
}

/** What happened to a file, or a problem worth telling (the service unreachable, a job failed). */
export type FolderIntakeEvent =
  | { type: 'issued'; folder: string; path: string; proof: string; credential_uid: string }
  | { type: 'failed'; folder: string; path: string; id: string; message: string }
  | { type: 'duplicate'; folder: string; path: string; message: string }
  | { type: 'job-failed'; job_uid: string; credentials: number }
  /** Files whose request was sent before a crash or a lost answer: found = their credential existed, resent = it did not. */
  | { type: 'recovered'; found: number; resent: number }
  | { type: 'warning'; message: string };

/** Live counts for the status line. */
export interface FolderIntakeProgress {
  /** Files seen since start (including those resumed from the journal). */
  seen: number;
  /** Waiting to settle, being hashed, uploaded or scheduled. */
  inProgress: number;
  /** Scheduled, waiting for their job to be issued. */
  waitingForJob: number;
  issued: number;
  failed: number;
  duplicates: number;
}

/** A file that failed, with its reason (FolderIntake.failedFiles). */
export interface FailedFile {
  /** The watched folder. */
  folder: string;
  /** The file's path relative to it. */
  path: string;
  /** The spec's error id. */
  id: string;
  message: string;
  /** Where it was filed (`failed/...`), or null when it was left in place (a link, a name that is not UTF-8). */
  failed_path: string | null;
  when: string;
}
