/**
 * Status list positions: given to a certificate at its first export under a public URL, at
 * random, then the same for ever (across a restart of the engine), unique within each Partner's
 * lists and never another Partner's; a full list, or a new public URL, opens the next list; a
 * nearly full list still gives its last free positions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/engine/database.js';
import type { Engine } from '../../main/engine/index.js';
import { STATUS_LIST_LENGTH, freePosition, publicUrlOf, statusPositions } from '../../main/engine/vc/status-list-store.js';
import { certificateUidsOfJob, createAndSchedule, errorOf, issueNowAndFinish, openIssuingEngine, removeTempDirs, type IssuingFixture } from '../support/issuing-fixture.js';

const PUBLIC_URL = 'https://issuer.example';

describe('status list positions', () => {
  let fx: IssuingFixture;
  let a: string;
  let b: string;
  let ofA: string[];
  let ofB: string[];
  /** Partner A's positions, as given before the restart. */
  let before: [number, number][];

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

  it('are given once, unique within each Partner, and only for the Partner’s own certificates', () => {
    fx.engine.setPublicUrl(`${PUBLIC_URL}/`);
    expect(fx.engine.publicUrl).toBe(PUBLIC_URL);
    const [a0, a1] = positions(fx.engine, a, [ofA[0]!, ofA[1]!]);
    // Asked again with one new: the known keep theirs, the new one gets another.
    const [a2, a0again] = positions(fx.engine, a, [ofA[2]!, ofA[0]!]);
    expect(a0again).toEqual(a0);
    const ofPartnerA = [a0!, a1!, a2!];
    expect(ofPartnerA.every(([list, index]) => list === 1 && index >= 0 && index < STATUS_LIST_LENGTH)).toBe(true);
    expect(new Set(ofPartnerA.map(([, index]) => index)).size).toBe(3);
    // Not in export order: positions are drawn at random (three in a row by chance: 1 in ~10^10).
    expect(ofPartnerA.map(([, index]) => index)).not.toEqual([0, 1, 2]);
    // Another Partner's lists are its own; a certificate of A is nothing to B.
    const ofPartnerB = positions(fx.engine, b, [ofB[1]!, ofB[0]!, ofA[0]!]);
    expect(ofPartnerB.map(([list]) => list)).toEqual([1, 1, 0]);
    expect(ofPartnerB[0]![1]).not.toBe(ofPartnerB[1]![1]);
    expect(ofPartnerB[2]).toEqual([0, -1]);
    const position = statusPositions(fx.engine.scopeFor(b), [ofB[0]!]).get(ofB[0]!.toLowerCase())!;
    expect(position).toEqual({ publicUrl: PUBLIC_URL, partnerId: b, list: 1, index: ofPartnerB[1]![1] });
  });

  it('survive a restart, and a full list or a new public URL opens the next list', async () => {
    before = positions(fx.engine, a, ofA);
    await fx.close();
    fx = openIssuingEngine({ dataDir: fx.dataDir, secrets: fx.secrets, keepDir: true });
    expect(fx.engine.publicUrl).toBe(PUBLIC_URL);
    expect(positions(fx.engine, a, ofA)).toEqual(before);

    // List 1 full (as after 131,072 exports): the next certificate opens list 2.
    fx.engine.issuing.ctx.db.prepare('UPDATE status_lists SET assigned = ? WHERE partner_id = ? AND list = 1').run(STATUS_LIST_LENGTH, a);
    const more = await issue(fx.engine, a, 2);
    expect(positions(fx.engine, a, [more[0]!])[0]![0]).toBe(2);
    // A new public URL: lists already opened keep theirs; the next position opens a list under the new one.
    fx.engine.setPublicUrl('https://credentials.example/university');
    const [newer, older] = positions(fx.engine, a, [more[1]!, ofA[0]!]);
    expect(newer![0]).toBe(3);
    expect(older).toEqual(before[0]);
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
    expect(positions(fx.engine, a, [ofA[1]!])).toEqual([before[1]]);
  });
});

describe('a nearly full status list', () => {
  it('gives its last free positions, each once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'proofdesk-status-full-'));
    const db = openDatabase(dir);
    try {
      // The positions alone, without the certificates they would belong to.
      db.pragma('foreign_keys = OFF');
      const free = [0, 4_242, STATUS_LIST_LENGTH - 1];
      const insert = db.prepare("INSERT INTO status_entries (certificate_id, partner_id, list, list_index) VALUES (?, 'p', 1, ?)");
      db.transaction(() => {
        for (let i = 0; i < STATUS_LIST_LENGTH; i++) if (!free.includes(i)) insert.run(i + 1, i);
      })();
      const given: number[] = [];
      for (let n = 0; n < free.length; n++) {
        const index = freePosition(db, 'p', 1);
        given.push(index);
        insert.run(STATUS_LIST_LENGTH + n + 1, index);
      }
      expect(given.sort((x, y) => x - y)).toEqual(free);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
