/**
 * Main's side of the one event channel: whoever shows the app (the Electron window, each
 * browser bridge client) subscribes a sink; handlers, tasks and pollers emit. Free of Electron.
 */
import type { AppEvent, AppEventSink } from '../../common/tasks.js';

export class EventBus {
  readonly #sinks = new Set<AppEventSink>();

  /** Adds a sink; returns the function that removes it. */
  subscribe(sink: AppEventSink): () => void {
    this.#sinks.add(sink);
    return () => {
      this.#sinks.delete(sink);
    };
  }

  /** Sends an event to every sink; a failing sink (a closed window) never stops the others. */
  emit(event: AppEvent): void {
    for (const sink of this.#sinks) {
      try {
        sink(event);
      } catch (error) {
        console.error('event sink failed:', error);
      }
    }
  }

  get size(): number {
    return this.#sinks.size;
  }
}
