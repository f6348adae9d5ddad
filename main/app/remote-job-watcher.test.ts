import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IssuingService } from '../../common/issuing-service.js';
import type { AppEvent } from '../../common/tasks.js';
import type { JobStatus, Partner } from '../../common/wire-types.js';
import { EventBus } from './event-bus.js';
import { watchRemoteJobs } from './remote-job-watcher.js';

const PARTNER = { id: 'p-1', name: 'Remote College' } as Partner;

/** A stand-in for a remote service: one job whose status the test moves; only listJobs answers. */
function standInService(): { service: IssuingService; move: (status: JobStatus) => void } {
  let status: JobStatus = 'started';
  const listJobs = () => Promise.resolve({ items: [{ uid: 'job-1', status, chain: 'local', partner: PARTNER }], total_items: 1 });
  return { service: { listJobs } as unknown as IssuingService, move: (next) => (status = next) };
}

/** Lets the stand-in's answers (promises) settle without moving the clock. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('remote job watcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports a job that moves right after the watch starts, and names the Partner from the start', async () => {
    const { service, move } = standInService();
    const bus = new EventBus();
    const events: AppEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const partners: Partner[] = [];
    const stop = watchRemoteJobs(bus, service, (p) => partners.push(p));
    try {
      await settle();
      // What the views showed when the connection came into use is what a move is measured from.
      expect(partners).toEqual([PARTNER]);
      move('finished');
      await vi.advanceTimersToNextTimerAsync();
      await settle();
      expect(events).toContainEqual({ type: 'job', job_uid: 'job-1', engine: 'local', status: 'finished' });
      expect(events).toContainEqual({ type: 'counts', scopes: ['jobs', 'credentials'] });
    } finally {
      stop();
    }
  });

  it('asks nothing more once stopped', async () => {
    const { service } = standInService();
    const listJobs = vi.spyOn(service, 'listJobs');
    const bus = new EventBus();
    bus.subscribe(() => undefined);
    const stop = watchRemoteJobs(bus, service, () => undefined);
    await settle();
    const asked = listJobs.mock.calls.length;
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(listJobs.mock.calls.length).toBe(asked);
  });
});
