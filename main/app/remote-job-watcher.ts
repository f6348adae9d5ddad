/**
 * A remote service tells no one when its jobs move: main asks for the newest jobs when the
 * connection comes into use, then every few seconds while a window listens, and reports what
 * changed (`job` events, then `counts`). The app's one poller; the embedded engine announces its
 * changes itself (job-watcher.ts).
 */
import type { IssuingService } from '../../common/issuing-service.js';
import type { Partner } from '../../common/wire-types.js';
import type { EventBus } from './event-bus.js';

/** How often a remote service's jobs are looked at while a window listens. */
const REMOTE_JOBS_EVERY_MS = 3_000;
/** The newest jobs looked at each time (the spec pages; older jobs rarely move). */
const REMOTE_JOBS_PAGE = 200;

/**
 * Starts watching the remote service's jobs; returns the function that stops it. The first look
 * is at once, listener or not: it is what later moves are measured from (a job that moved before
 * a later first look would never be reported) and it names the Partner without waiting.
 */
export function watchRemoteJobs(events: EventBus, service: IssuingService, onPartner: (partner: Partner) => void): () => void {
  let known: Map<string, string> | null = null;
  let busy = false;
  let stopped = false;
  const look = (): void => {
    if (busy || stopped) return;
    busy = true;
    service
      .listJobs({ sort_by: 'created_date', order: 'desc', per_page: REMOTE_JOBS_PAGE })
      .then((page) => {
        if (stopped) return;
        const next = new Map(page.items.map((job) => [job.uid, job.status]));
        if (page.items[0]) onPartner(page.items[0].partner);
        if (known) {
          let changed = next.size !== known.size;
          for (const job of page.items) {
            if (known.get(job.uid) === job.status) continue;
            changed = true;
            events.emit({ type: 'job', job_uid: job.uid, engine: job.chain, status: job.status });
          }
          if (changed) events.emit({ type: 'counts', scopes: ['jobs', 'credentials'] });
        }
        known = next;
      })
      // A service that does not answer now may answer next time; the views say so when asked.
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(() => {
    if (events.size > 0) look();
  }, REMOTE_JOBS_EVERY_MS);
  timer.unref();
  look();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
