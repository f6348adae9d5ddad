import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import type { AppEvent } from '../../common/tasks.js';
import { taskEnded } from '../../test/support/task-ended.js';
import { EventBus } from './event-bus.js';
import { InProcessTaskRunner } from './task-runner.js';

function runner() {
  const events: AppEvent[] = [];
  const bus = new EventBus();
  bus.subscribe((e) => events.push(e));
  const tasks = new InProcessTaskRunner((e) => bus.emit(e));
  const states = (id: string) => events.filter((e): e is Extract<AppEvent, { type: 'task' }> => e.type === 'task' && e.task.id === id).map((e) => e.task.state);
  const finished = (id: string) => taskEnded(bus, tasks, id);
  return { tasks, events, states, finished };
}

describe('task runner', () => {
  it('answers the running task at once, then pushes progress and the result', async () => {
    const { tasks, states, finished } = runner();
    const task = tasks.start('tags-add', 'Adding tags to 2 credentials', async (t) => {
      t.progress(1, 2);
      return { changed: 2 };
    });
    expect(task.state).toBe('running');
    const done = await finished(task.id);
    expect(done).toMatchObject({ state: 'done', result: { changed: 2 }, done: 2, total: 2 });
    expect(states(task.id)[0]).toBe('running');
    expect(states(task.id).at(-1)).toBe('done');
  });

  it("ends failed with the ServiceError's id and message, and hides a bug's details", async () => {
    const { tasks, finished } = runner();
    const refused = tasks.start('schedule', 'Scheduling', async () => {
      throw new ServiceError('wrong_blockchain_engine', 'No engine nope');
    });
    expect(await finished(refused.id)).toMatchObject({ state: 'failed', error: { id: 'wrong_blockchain_engine', message: 'No engine nope' } });
    const bug = tasks.start('schedule', 'Scheduling', async () => {
      throw new TypeError('x is undefined at line 12');
    });
    const failed = await finished(bug.id);
    expect(failed.error?.id).toBe('internal_error');
    expect(failed.error?.message).not.toContain('line 12');
  });

  it('cancels: the work sees the abort and the task ends cancelled', async () => {
    const { tasks, finished } = runner();
    const task = tasks.start('export-proofs', 'Exporting', async (t) => {
      // Works until it is cancelled (which may come before it starts).
      if (!t.signal.aborted) await new Promise<void>((resolve) => t.signal.addEventListener('abort', resolve));
      t.signal.throwIfAborted();
    });
    expect(tasks.cancel(task.id)).toBe(true);
    expect((await finished(task.id)).state).toBe('cancelled');
    expect(tasks.cancel(task.id)).toBe(false);
    expect(tasks.cancel('no-such-task')).toBe(false);
  });
});
