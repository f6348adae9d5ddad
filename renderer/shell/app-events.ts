import type { AppEvent, AppEventType } from '../../common/tasks.js';

type Listener<T extends AppEventType> = (event: Extract<AppEvent, { type: T }>) => void;

const listeners = new Map<AppEventType, Set<(event: AppEvent) => void>>();
let connected = false;

/**
 * Subscribes to one type of main's events. Every feature store listens here; the page keeps one
 * connection to main (`window.proofdesk.onEvent`), opened on the first subscription.
 *
 * @example useEffect(() => onAppEvent('counts', () => void reload()), [])
 */
export function onAppEvent<T extends AppEventType>(type: T, listener: Listener<T>): () => void {
  if (!connected) {
    connected = true;
    window.proofdesk.onEvent((event) => {
      for (const l of listeners.get(event.type) ?? []) l(event);
    });
  }
  const set = listeners.get(type) ?? new Set();
  listeners.set(type, set);
  const wrapped = listener as (event: AppEvent) => void;
  set.add(wrapped);
  return () => {
    set.delete(wrapped);
  };
}
