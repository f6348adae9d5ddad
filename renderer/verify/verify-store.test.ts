/**
 * The Verify store against a stand-in for window.proofdesk and the preload's file paths (this
 * runs in Node, without a page or main): what it shows when a run's task ends.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VerifyRunSummary } from '../../common/ipc/verify.js';
import type { TaskInfo } from '../../common/tasks.js';
import { useVerifyStore } from './verify-store.js';

const counts = (ok: number) => ({ ok, pending: 0, expired: 0, revoked: 0, failed: 0, error: 0 });
const summaryOf = (done: number, state: VerifyRunSummary['state']): VerifyRunSummary => ({
  run_id: 'run-1',
  task_id: 'task-1',
  total: 10_000,
  done,
  counts: counts(done),
  unmatched_originals: [],
  skipped: [],
  endpoints: [],
  started_at: '2026-11-24T00:00:00.000Z',
  finished_at: state === 'running' ? null : '2026-11-24T00:00:02.000Z',
  state,
});
const taskOf = (state: TaskInfo['state'], done: number, result?: VerifyRunSummary): TaskInfo => ({
  id: 'task-1',
  kind: 'verify',
  label: 'Verifying 10,000 proof files',
  done,
  total: 10_000,
  state,
  started_at: '2026-11-24T00:00:00.000Z',
  finished_at: state === 'running' ? null : '2026-11-24T00:00:02.000Z',
  ...(result ? { result } : {}),
});

let summaryAsked = 0;
let warmed = 0;
/** Answers the summary requests main has not answered yet, in order. */
let answers: ((summary: VerifyRunSummary) => void)[] = [];

beforeEach(async () => {
  summaryAsked = 0;
  answers = [];
  (globalThis as unknown as { window: unknown }).window = {
    proofdeskFiles: { kind: 'paths', pathOf: () => '/drop/folder' },
    proofdesk: {
      verifyStart: async () => ({ summary: summaryOf(0, 'running'), task: taskOf('running', 0) }),
      // Main is slow to answer: what the view shows meanwhile is what the events said.
      verifySummary: () => {
        summaryAsked++;
        return new Promise((resolve) => answers.push(resolve));
      },
      verifyRows: async () => ({ total: 0, rows: [] }),
      verifyWarm: async () => {
        warmed++;
        throw new Error('main is busy');
      },
    },
  };
  await useVerifyStore.getState().verifyFiles([{ name: 'folder' } as File]);
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// Main's answers still owed are given (for a run no longer shown), so no refresh is left waiting.
afterEach(async () => {
  for (let i = 0; i < 5 && answers.length > 0; i++) {
    for (const answer of answers.splice(0)) answer({ ...summaryOf(0, 'running'), run_id: 'gone' });
    await settle();
  }
});

describe('verify store', () => {
  it('shows the end of a run from the task event that ends it, without waiting for main to answer a summary', () => {
    expect(useVerifyStore.getState().summary?.done).toBe(0);
    expect(summaryAsked).toBe(1);
    useVerifyStore.getState().onTask(taskOf('done', 10_000, summaryOf(10_000, 'done')));
    const { summary, task, total } = useVerifyStore.getState();
    expect(task?.state).toBe('done');
    expect(summary?.done).toBe(10_000);
    expect(summary?.counts.ok).toBe(10_000);
    expect(summary?.state).toBe('done');
    expect(total).toBe(10_000);
  });

  it('a summary main answers late, asked for while the run was going, does not undo the end already shown', async () => {
    useVerifyStore.getState().onTask(taskOf('done', 10_000, summaryOf(10_000, 'done')));
    expect(answers).toHaveLength(1);
    answers.shift()!(summaryOf(9_800, 'running'));
    await settle();
    expect(useVerifyStore.getState().summary?.done).toBe(10_000);
    expect(useVerifyStore.getState().summary?.state).toBe('done');
  });

  it('a drag over the window tells main to start its workers once, not at every element it crosses; a refusal changes nothing', async () => {
    for (let i = 0; i < 20; i++) useVerifyStore.getState().warm();
    await settle();
    expect(warmed).toBe(1);
    expect(useVerifyStore.getState().error).toBeNull();
  });

  it('takes no summary from the task of another run', () => {
    useVerifyStore.getState().onTask({ ...taskOf('done', 10_000, { ...summaryOf(10_000, 'done'), run_id: 'run-0' }), id: 'task-0' });
    useVerifyStore.getState().onTask(taskOf('done', 10_000, { ...summaryOf(10_000, 'done'), run_id: 'run-0' }));
    expect(useVerifyStore.getState().summary?.done).toBe(0);
    expect(useVerifyStore.getState().task?.state).toBe('done');
  });
});
