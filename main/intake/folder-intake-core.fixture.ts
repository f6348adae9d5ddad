/**
 * For the stage tests beside the code: the intake's shared state on a real journal and a real
 * folder, without the coordinator's clocks, so a test drives one stage step by step. The stages
 * tested this way (find and settle, describe, file away) never call the service; the stages
 * that do (upload and schedule, collect proofs) are tested with the real engine under test/intake.
 * The stages read the time from a clock a test moves forward past a stable time instead of
 * waiting for it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IssuingService } from '../../common/issuing-service.js';
import type { Clock } from '../engine/clock.js';
import { FolderIntakeCore, type Folder } from './folder-intake-core.js';
import type { FileRow } from './journal.js';
import type { FolderIntakeEvent, FolderIntakeOptions } from './types.js';

/** Stands where the service goes; these stages never call it, so any call fails the test. */
const NO_SERVICE = new Proxy({} as IssuingService, {
  get: (_target, name) => () => {
    throw new Error(`the stage under test called the service (${String(name)})`);
  },
});

/**
 * The real time moved forward by hand. It keeps the time files are written at (their mtime and
 * ctime, which the stages compare with now): a file looks as old as the clock was moved since.
 */
export class MovedClock implements Clock {
  private moved = 0;
  now(): number {
    return Date.now() + this.moved;
  }
  advance(ms: number): void {
    this.moved += ms;
  }
}

export interface StageFixture {
  base: string;
  root: string;
  core: FolderIntakeCore;
  /** The stages' clock: advance it to let time pass. */
  clock: MovedClock;
  folder: Folder;
  events: FolderIntakeEvent[];
  /** Finds and settles one file (past the stable time): its journal row, ready for the next stage. */
  settled(rel: string): Promise<FileRow>;
  close(): void;
}

export function stageFixture(stableMs = 50, options: Partial<FolderIntakeOptions> = {}): StageFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'proofdesk-stage-')));
  const root = join(base, 'inbox');
  mkdirSync(root);
  const events: FolderIntakeEvent[] = [];
  const clock = new MovedClock();
  const core = new FolderIntakeCore({ service: NO_SERVICE, dataDir: join(base, 'data'), folders: [{ path: root }], stableMs, onEvent: (e) => events.push(e), clock, ...options }, 'stage-test');
  const id = core.journal.claimFolders([root], 'stage-test', clock.now()).get(root)!;
  const folder: Folder = { id, root, realRoot: root, engine: 'local', target: 'test|local', tags: [], metadata: {}, recursive: true, outDir: join(root, 'proofs'), format: 'proof', allowDuplicates: false };
  core.addFolder(folder);
  // No work queue runs by itself: each test takes the steps it means to.
  core.paused = true;
  return {
    base,
    root,
    core,
    clock,
    folder,
    events,
    async settled(rel) {
      await core.settler.rescan();
      await core.settler.settleRound();
      clock.advance(stableMs + 10);
      await core.settler.settleRound();
      return [...core.rows.values()].find((r) => r.rel_path === rel)!;
    },
    close() {
      core.journal.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
