/**
 * Long work in main as tasks (common/tasks.ts): each gets an id, reports progress as `task`
 * events (throttled, so 100,000 steps do not flood the renderer), can be cancelled, and ends
 * with a result or a ServiceError. Free of Electron.
 */
import { randomUUID } from 'node:crypto';
import { isServiceError } from '../../common/errors.js';
import type { AppEventSink, TaskContext, TaskInfo, TaskKind, TaskLabel, TaskRunner } from '../../common/tasks.js';

/** How often a running task's progress is pushed at most. */
const PROGRESS_INTERVAL_MS = 100;
/** Finished tasks kept for `tasks:list`. */
const KEEP_FINISHED = 50;

export class InProcessTaskRunner implements TaskRunner {
  readonly #tasks = new Map<string, TaskInfo>();
  readonly #controllers = new Map<string, AbortController>();

  constructor(private readonly emit: AppEventSink) {}

  start<R>(kind: TaskKind, named: string | TaskLabel, work: (task: TaskContext) => Promise<R>, total: number | null = null): TaskInfo<R> {
    const label = typeof named === 'string' ? named : named.text;
    const info: TaskInfo = {
      id: randomUUID(),
      kind,
      label,
      ...(typeof named === 'string' ? {} : { label_code: named.code }),
      done: 0,
      total,
      state: 'running',
      started_at: new Date().toISOString(),
      finished_at: null,
    };
    const controller = new AbortController();
    this.#tasks.set(info.id, info);
    this.#controllers.set(info.id, controller);
    let lastPush = 0;
    const context: TaskContext = {
      signal: controller.signal,
      progress: (done, newTotal) => {
        info.done = done;
        if (newTotal !== undefined) info.total = newTotal;
        const now = Date.now();
        if (now - lastPush >= PROGRESS_INTERVAL_MS) {
          lastPush = now;
          this.#push(info);
        }
      },
    };
    this.#push(info);
    // Started on the next turn, so the caller gets the task before any of its events.
    void Promise.resolve()
      .then(() => work(context))
      .then(
        (result) => {
          if (controller.signal.aborted) return this.#finish(info, 'cancelled');
          info.result = result;
          if (info.total !== null) info.done = info.total;
          this.#finish(info, 'done');
        },
        (error: unknown) => {
          if (controller.signal.aborted && !isServiceError(error)) return this.#finish(info, 'cancelled');
          if (!isServiceError(error)) console.error(`task ${kind} failed:`, error);
          info.error = isServiceError(error)
            ? { id: error.id, message: error.message }
            : { id: 'internal_error', message: `${label} failed unexpectedly; nothing was changed by the failed step. Try again.` };
          this.#finish(info, 'failed');
        },
      );
    return { ...info } as TaskInfo<R>;
  }

  cancel(id: string): boolean {
    const task = this.#tasks.get(id);
    if (!task || task.state !== 'running') return false;
    this.#controllers.get(id)?.abort();
    return true;
  }

  get(id: string): TaskInfo | undefined {
    const task = this.#tasks.get(id);
    return task && { ...task };
  }

  list(): TaskInfo[] {
    const all = [...this.#tasks.values()].map((t) => ({ ...t }));
    return all.sort((a, b) => Number(b.state === 'running') - Number(a.state === 'running') || b.started_at.localeCompare(a.started_at));
  }

  #finish(info: TaskInfo, state: TaskInfo['state']): void {
    info.state = state;
    info.finished_at = new Date().toISOString();
    this.#controllers.delete(info.id);
    this.#push(info);
    const finished = [...this.#tasks.values()].filter((t) => t.state !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.#tasks.delete(old.id);
  }

  #push(info: TaskInfo): void {
    this.emit({ type: 'task', task: { ...info } });
  }
}
