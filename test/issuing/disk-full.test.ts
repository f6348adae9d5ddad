/**
 * The engine on a full disk (its data directory on a small tmpfs mounted for the test; the tests
 * run as root): a job that cannot be started for lack of space (its certificates cannot be
 * stored) goes back to `scheduled` with a try_again_later naming the data directory — never left
 * `started`, never failed, its credentials never released — and issues once space is back.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addIssuingPartner, createAndSchedule, errorOf, makeTempDir, openIssuingEngine, removeTempDirs, tickUntil } from '../support/issuing-fixture.js';

describe('issuing on a full disk (tmpfs)', () => {
  const mounted: string[] = [];
  afterAll(() => {
    for (const m of mounted) execFileSync('umount', ['-l', m]);
    removeTempDirs();
  });

  it('a job whose certificates cannot be stored goes back to scheduled with one clear try_again_later, and issues once space is back', async () => {
    const dataDir = join(makeTempDir(), 'data');
    mkdirSync(dataDir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dataDir]);
    mounted.push(dataDir);
    const errors: unknown[] = [];
    const fx = openIssuingEngine({ dataDir, keepDir: true, issuing: { onError: (e) => errors.push(e) } });
    try {
      const partner = await addIssuingPartner(fx.engine, 'Cramped University');
      await fx.engine.issuing.ctx.chains.client('local');
      const { job } = await createAndSchedule(partner.service, 'local', 400, 'A long credential title to make its certificate payload bigger');
      const s = statfsSync(dataDir);
      const filler = join(dataDir, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, s.bavail * s.bsize - 64 * 1024)));

      const refused = await errorOf(partner.service.issueJobNow({ engine: 'local' }));
      expect(refused.id).toBe('try_again_later');
      expect(refused.message).toContain(`The disk holding ${dataDir}`);
      expect(refused.message).not.toMatch(/\n\s+at /);
      const after = await partner.service.getJob(job.uid);
      expect(after.status).toBe('scheduled');
      expect(after.start_date).toBeNull();
      expect((await partner.service.listCertificates({ per_page: 0 })).total_items).toBe(0);

      rmSync(filler);
      await partner.service.issueJobNow({ engine: 'local' });
      const finished = await tickUntil(fx.engine, partner.service, job.uid, 'finished');
      expect((await partner.service.listJobCertificates(finished.uid, { per_page: 0 })).items).toHaveLength(400);
    } finally {
      await fx.close();
    }
  });
});
