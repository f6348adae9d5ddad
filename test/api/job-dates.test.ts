/**
 * A job's dates over REST are in the order things happened, on the immediate path on the local
 * chain: created ≤ started ≤ issued (the block's time, whole seconds) ≤ finished. The engine's
 * clock reads .999 of each second, the worst case every time: the block is then stamped with the
 * next whole second, later than the moment the job is seen final.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../common/wire-types.js';
import { startServer, type RunningServer } from '../../main/api/index.js';
import type { Clock } from '../../main/engine/clock.js';
import { openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';
import { expectResult, requestToken, type Answer } from './api-fixture.js';
import { request } from 'undici';

describe('job dates over REST (local chain, issued at once)', () => {
  let fx: IssuingFixture;
  let server: RunningServer;
  let token: string;

  const call = async (method: 'GET' | 'POST', path: string, json?: unknown): Promise<Answer> => {
    const response = await request(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text, body: JSON.parse(text) };
  };

  beforeAll(async () => {
    const clock: Clock = { now: () => Math.floor(Date.now() / 1000) * 1000 + 999 };
    fx = openIssuingEngine({ clock, issuing: { scheduler: true, tickMs: 100 } });
    server = await startServer({ engine: fx.engine, environment: 'demo', log: () => undefined });
    const partner = await fx.engine.addPartner({ name: 'Punctual University', issuingIntervalSeconds: 3600 });
    token = (await requestToken(server.authUrl, partner.client_id, partner.client_secret)).body.access_token;
  });

  afterAll(async () => {
    await server?.close();
    await fx?.close();
    removeTempDirs();
  });

  it('created ≤ started ≤ issued ≤ finished, job after job', async () => {
    for (let round = 0; round < 3; round++) {
      const credential = expectResult<{ uid: string }>(await call('POST', '/credentials', { title: `Round ${round}`, metadata: { round } }), 201);
      expectResult(await call('POST', '/credentials/schedule', { engine: 'local', credentials: [credential.uid] }), 201);
      let job = expectResult<Job>(await call('POST', '/jobs/immediate', { engine: 'local' }), 201);
      // REST has no push: a client polls the job, as here, until it is finished.
      await expect
        .poll(async () => {
          job = expectResult<Job>(await call('GET', `/jobs/${job.uid}`), 200);
          expect(['started', 'unconfirmed', 'finished'], JSON.stringify(job)).toContain(job.status);
          return job.status;
        }, { timeout: 30_000, interval: 50 })
        .toBe('finished');
      const dates = [job.created_date, job.start_date!, job.issued_date!, job.finished_date!].map((d) => Date.parse(d));
      expect(dates, `created ${job.created_date}, started ${job.start_date}, issued ${job.issued_date}, finished ${job.finished_date}`).toEqual([...dates].sort((a, b) => a - b));
    }
  });
});
