import { useSyncExternalStore } from 'react';

/** How often relative times ("2 min. ago") are brought up to date. */
const TICK_MS = 30_000;

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // One timer for the whole window, running only while something shows a relative time.
  timer ??= setInterval(() => {
    now = Date.now();
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, re-rendering the caller every 30 s so relative times stay true. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
