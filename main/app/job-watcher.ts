/**
 * Turns job state changes into `job` events: the issuing scheduler runs inside the engine
 * and tells no one, so main looks at the active Partner's jobs once a second (one indexed
 * query over a few hundred rows) while someone is listening, and reports what moved.
 */
import type { JobStatus } from '../../common/wire-types.js';
import { jobStatuses } from '../engine/index.js';
import type { AppContext } from './app-context.js';

const INTERVAL_MS = 1000;

/** Starts watching; returns the function that stops it. The timer never keeps the process alive. */
export function watchJobs(ctx: AppContext): () => void {
  let known = new Map<string, JobStatus>();
  let partnerId: string | null = null;
  const timer = setInterval(() => {
    if (ctx.events.size === 0 || !ctx.engine) return;
    const partner = ctx.partner();
    if (!partner) return;
    try {
      const scope = ctx.scope();
      const rows = jobStatuses(scope);
      const next = new Map(rows.map((r) => [r.uid, r.status]));
      // After a Partner switch the first look only learns what is there.
      if (partnerId === partner.id) {
        let changed = false;
        for (const row of rows) {
          if (known.get(row.uid) !== row.status) {
            changed = true;
            ctx.events.emit({ type: 'job', job_uid: row.uid, engine: row.engine, status: row.status });
          }
        }
        if (changed || rows.length !== known.size) ctx.events.emit({ type: 'counts', scopes: ['jobs', 'credentials'] });
      }
      known = next;
      partnerId = partner.id;
    } catch {
      // The engine is closing: nothing to report.
    }
  }, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
