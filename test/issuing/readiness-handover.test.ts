/**
 * Readiness across an issuing hand-over: between the leader letting the lease go and the next
 * tick of another process taking it, a process that runs a scheduler stays ready (`standby`), so
 * a load balancer's check landing in that moment does not take every node out at once. Two
 * engines with schedulers on one real SQLite data directory.
 */
import { afterEach, expect, it } from 'vitest';
import { makeTempDir, openIssuingEngine, removeTempDirs, waitFor, type IssuingFixture } from '../support/issuing-fixture.js';

const open: IssuingFixture[] = [];
afterEach(async () => {
  for (const fx of open.splice(0)) await fx.close();
  removeTempDirs();
});

it('the lease let go: the other scheduler\'s process is ready in standby with no leader, then issues', async () => {
  const dataDir = makeTempDir();
  const leader = openIssuingEngine({ dataDir, keepDir: true, issuing: { scheduler: true, tickMs: 100 } });
  open.push(leader);
  await waitFor('the first to hold the lease', () => leader.engine.readiness().scheduler === 'here');
  // The second ticks at its start, then only an hour later: the hand-over is caught before it.
  const standby = openIssuingEngine({ dataDir, keepDir: true, issuing: { scheduler: true, tickMs: 3_600_000 } });
  open.push(standby);
  await waitFor('the second to see the leader', () => standby.engine.readiness().scheduler === 'elsewhere');
  expect(standby.engine.readiness()).toMatchObject({ ready: true, leader: expect.any(String) });

  await leader.close(); // a graceful stop lets the lease go
  expect(standby.engine.readiness()).toEqual({ ready: true, database: 'ok', migrations: 'current', scheduler: 'standby', leader: null });

  await standby.engine.issuing.tick(); // its next tick
  expect(standby.engine.readiness()).toMatchObject({ ready: true, scheduler: 'here', leader: expect.any(String) });
});
