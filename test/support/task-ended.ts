/** A task's end, awaited from the `task` event that says it stopped running (never polled). */
import type { AppEventSink, TaskInfo } from '../../common/tasks.js';

/** Where a task's events go (main/app/event-bus.ts). */
interface EventSource {
  subscribe(sink: AppEventSink): () => void;
}

/** Resolves with the task once it is done, failed or cancelled: at once if it already is. */
export function taskEnded(events: EventSource, tasks: { get(id: string): TaskInfo | undefined }, id: string): Promise<TaskInfo> {
  return new Promise((resolve) => {
    const off = events.subscribe((event) => {
      if (event.type !== 'task' || event.task.id !== id || event.task.state === 'running') return;
      off();
      resolve(event.task);
    });
    const now = tasks.get(id);
    if (now !== undefined && now.state !== 'running') {
      off();
      resolve(now);
    }
  });
}
