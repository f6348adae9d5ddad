/**
 * A watched folder on the embedded engine follows its jobs through the engine's events: with the
 * job timer out of the way (an hour), a dropped file's proof is still written as soon as its job
 * is issued on the local anvil — the job's end is what wakes the intake, not a poll.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onJobEnds, type Engine, type EmbeddedService } from '../../main/engine/index.js';
import { FolderIntake, type FolderIntakeEvent } from '../../main/intake/index.js';
import { usePartner, waitFor, watchInbox } from './helpers.js';

const running: FolderIntake[] = [];
let engine: Engine;
let service: EmbeddedService;
let partnerId: string;

usePartner('Events Watch University', {
  running,
  opened: (partner) => {
    ({ engine, service } = partner);
    partnerId = engine.partners.list()[0]!.id;
  },
});

describe('a watched folder on the embedded engine', () => {
  it("writes a file's proof when its job ends, told by the engine rather than by a job poll", async () => {
    let issued: (event: FolderIntakeEvent) => void = () => undefined;
    const proofWritten = new Promise<FolderIntakeEvent>((resolve) => (issued = resolve));
    const { root } = await watchInbox(running, {
      service,
      dataDir: engine.dataDir,
      tag: 'told',
      jobPollMs: 3_600_000,
      jobMoves: (listener) => onJobEnds(engine.events, partnerId, listener),
      onEvent: (event) => {
        if (event.type === 'issued') issued(event);
      },
    });
    writeFileSync(join(root, 'diploma.txt'), 'Diploma of events');
    const event = await proofWritten;
    expect(event).toMatchObject({ type: 'issued', path: 'diploma.txt' });
    const job = (await service.listJobs({ status: 'finished' })).items[0]!;
    expect((await service.listJobCredentials(job.uid)).items.map((c) => c.uid)).toContain((event as Extract<FolderIntakeEvent, { type: 'issued' }>).credential_uid);
  });

  it('started again after its job ended while nothing watched, writes the proof at once: no event will come, and it does not wait for the job timer', async () => {
    const { root, intake } = await watchInbox(running, { service, dataDir: engine.dataDir, tag: 'while-away', jobPollMs: 3_600_000, jobMoves: (listener) => onJobEnds(engine.events, partnerId, listener) });
    writeFileSync(join(root, 'transcript.txt'), 'Transcript issued while away');
    await waitFor('the file waiting for its job', () => intake.progress().waitingForJob === 1, 30_000);
    await intake.stop();
    const job = await service.issueJobNow({ engine: 'local' });
    await waitFor('the job finished', async () => (await service.getJob(job.uid)).status === 'finished', 60_000);

    let issued: (event: FolderIntakeEvent) => void = () => undefined;
    const proofWritten = new Promise<FolderIntakeEvent>((resolve) => (issued = resolve));
    const again = await FolderIntake.start({
      service,
      dataDir: engine.dataDir,
      folders: [{ path: root, tags: ['while-away'] }],
      target: 'partner:test',
      stableMs: 300,
      jobPollMs: 3_600_000,
      rescanMs: 3_600_000,
      jobMoves: (listener) => onJobEnds(engine.events, partnerId, listener),
      onEvent: (event) => {
        if (event.type === 'issued') issued(event);
      },
    });
    running.push(again);
    expect(await proofWritten).toMatchObject({ type: 'issued', path: 'transcript.txt' });
  });
});
