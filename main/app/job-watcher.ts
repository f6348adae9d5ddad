/**
 * Turns the embedded engine's events into the views' `job` and `counts` events for the active
 * Partner: the engine announces every job move once it is committed (by this process at once,
 * by another process sharing the data directory within a second), so nothing here reads jobs.
 */
import type { Engine, EngineEvent } from '../engine/index.js';
import type { EventBus } from './event-bus.js';

/** Starts forwarding; returns the function that stops it. `activePartnerId` is asked on every event (null in remote mode). */
export function watchJobs(engine: Engine, events: EventBus, activePartnerId: () => string | null): () => void {
  return engine.events.subscribe((event: EngineEvent) => {
    if (event.partnerId !== activePartnerId()) return;
    if (event.type === 'job-state') {
      events.emit({ type: 'job', job_uid: event.jobUid, engine: event.engine, status: event.to });
      events.emit({ type: 'counts', scopes: ['jobs', 'credentials'] });
    } else if (event.type === 'counts' && event.of === 'jobs') {
      events.emit({ type: 'counts', scopes: ['jobs', 'credentials'] });
    }
  });
}
