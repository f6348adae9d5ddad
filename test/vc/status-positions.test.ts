/**
 * Status list positions: given to a certificate at its first export under a public URL, then
 * the same for ever (across a restart of the engine), unique within each Partner's lists and
 * never another Partner's; a full list, or a new public URL, opens the next list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../main/engine/index.js';
import { STATUS_LIST_LENGTH, publicUrlOf, statusPositions } from '../../main/engine/vc/status-list-store.js';
import { certificateUidsOfJob, createAndSchedule, errorOf, issueNowAndFinish, openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';

const PUBLIC_URL = 'https://issuer.example';

describe('status list positions', () => {
  let fx: IssuingFixture;
  let a: string;
  let b: string;
  let ofA: string[];
  let ofB: string[];

  async function issue(engine: Engine, partnerId: string, count: number): Promise<string[]> {
    const service = engine.serviceFor(partnerId);
    const { job } = await createAndSchedule(service, 'local', count);
    await issueNowAndFinish(engine, service, 'local');
    return certificateUidsOfJob(service, job.uid);
  }

  function positions(engine: Engine, partnerId: string, uids: string[]): [number, number][] {
    const found = statusPositions(engine.scopeFor(partnerId), uids);
    return uids.map((u) => {
      const p = found.get(u.toLowerCase());
      return p ? [p.list, p.index] : [0, -1];
    });
  }

  beforeAll(async () => {
    fx = openIssuingEngine({ keepDir: true });
    a = (await fx.engine.addPartner({ name: 'Partner A' })).partner_id;
    b = (await fx.engine.addPartner({ name: 'Partner B' })).partner_id;
    ofA = await issue(fx.engine, a, 3);
    ofB = await issue(fx.engine, b, 2);
  });

  afterAll(async () => {
    await fx?.close();
    removeTempDirs();
  });

  it('are not given without a public URL', () => {
    expect(fx.engine.publicUrl).toBeUndefined();
    expect(statusPositions(fx.engine.scopeFor(a), ofA).size).toBe(0);
  });

  it('are given once, in order, unique within each Partner, and only for the Partner’s own certificates', () => {
    fx.engine.setPublicUrl(`${PUBLIC_URL}/`);
    expect(fx.engine.publicUrl).toBe(PUBLIC_URL);
    expect(positions(fx.engine, a, [ofA[0]!, ofA[1]!])).toEqual([[1, 0], [1, 1]]);
    // Asked again with one new: the known keep theirs, the new one gets the next.
    expect(positions(fx.engine, a, [ofA[2]!, ofA[0]!])).toEqual([[1, 2], [1, 0]]);
    // Another Partner's lists are its own; a certificate of A is nothing to B.
    expect(positions(fx.engine, b, [ofB[1]!, ofB[0]!, ofA[0]!])).toEqual([[1, 0], [1, 1], [0, -1]]);
    const listUrl = statusPositions(fx.engine.scopeFor(b), [ofB[0]!]).get(ofB[0]!.toLowerCase())!;
    expect(listUrl).toEqual({ publicUrl: PUBLIC_URL, partnerId: b, list: 1, index: 1 });
  });

  it('survive a restart, and a full list or a new public URL opens the next list', async () => {
    const before = positions(fx.engine, a, ofA);
    await fx.close();
    fx = openIssuingEngine({ dataDir: fx.dataDir, secrets: fx.secrets, keepDir: true });
    expect(fx.engine.publicUrl).toBe(PUBLIC_URL);
    expect(positions(fx.engine, a, ofA)).toEqual(before);

    // List 1 full (as after 131,072 exports): the next certificate opens list 2.
    fx.engine.issuing.ctx.db.prepare('UPDATE status_lists SET assigned = ? WHERE partner_id = ? AND list = 1').run(STATUS_LIST_LENGTH, a);
    const more = await issue(fx.engine, a, 2);
    expect(positions(fx.engine, a, [more[0]!])).toEqual([[2, 0]]);
    // A new public URL: lists already opened keep theirs; the next position opens a list under the new one.
    fx.engine.setPublicUrl('https://credentials.example/university');
    expect(positions(fx.engine, a, [more[1]!, ofA[0]!])).toEqual([[3, 0], [1, 0]]);
    expect(statusPositions(fx.engine.scopeFor(a), [more[1]!]).get(more[1]!.toLowerCase())!.publicUrl).toBe('https://credentials.example/university');
    expect(publicUrlOf(fx.engine.issuing.ctx.db)).toBe('https://credentials.example/university');
  });

  it('refuses a public URL verifiers could not rely on, and can remove it', async () => {
    for (const bad of ['http://issuer.example', 'ftp://issuer.example', 'https://issuer.example/?list=1', 'https://user:pw@issuer.example', 'issuer.example']) {
      expect((await errorOf(Promise.resolve().then(() => fx.engine.setPublicUrl(bad)))).id, bad).toBe('invalid_value');
    }
    expect(fx.engine.publicUrl).toBe('https://credentials.example/university');
    fx.engine.setPublicUrl(null);
    expect(fx.engine.publicUrl).toBeUndefined();
    // Positions given stay: the credentials exported keep naming them.
    expect(positions(fx.engine, a, [ofA[1]!])).toEqual([[1, 1]]);
  });
});
