/**
 * What `serve` nodes sharing one database coordinate through it — Partners and their client
 * credentials, request limits, token-signing keys and the issuing lease — on both stores, with
 * two connections standing for two nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../common/errors.js';
import { systemClock } from '../../main/engine/clock.js';
import type { Db } from '../../main/engine/database.js';
import { IssuingElsewhereError, IssuingLease, LEASE_MS } from '../../main/engine/issuing/issuing-lease.js';
import { PartnerRegistry } from '../../main/engine/partners.js';
import { DAY_MS, SECOND_MS } from '../../main/engine/request-limits.js';
import { TokenKeyRegistry } from '../../main/engine/token-keys.js';
import { createEngineStore, STORES, type EngineStore } from '../support/engine-stores.js';

describe.each(STORES)('shared state of serve nodes on %s', (kind) => {
  let store: EngineStore;
  let nodeA: Db;
  let nodeB: Db;

  beforeAll(() => {
    store = createEngineStore(kind);
    nodeA = store.connect();
    nodeB = store.connect();
  });

  afterAll(() => store?.remove());

  describe('partners', () => {
    it('a Partner added on one node is found, resolved and authenticated on the other', () => {
      const added = new PartnerRegistry(nodeA, systemClock).add({ name: 'Uni Nord', issuingIntervalSeconds: 60 });
      const other = new PartnerRegistry(nodeB, systemClock);
      expect(other.find(added.partner_id)).toMatchObject({ id: added.partner_id, name: 'Uni Nord', issuing_interval_seconds: 60 });
      expect(other.resolve('Uni Nord').id).toBe(added.partner_id);
      expect(other.authenticate(added.client_id, added.client_secret)).toEqual({ id: added.partner_id, name: 'Uni Nord' });
      expect(other.authenticate(added.client_id, 'wrong')).toBeUndefined();
      expect(other.list().map((p) => p.name)).toContain('Uni Nord');
    });

    it('bad input is refused with invalid_value and changes nothing', () => {
      const partners = new PartnerRegistry(nodeA, systemClock);
      const before = partners.list().length;
      expect(() => partners.add({ name: '  ' })).toThrow(expect.objectContaining({ id: 'invalid_value' }));
      expect(() => partners.setIssuingInterval('no-such-partner', 60)).toThrow(expect.objectContaining({ id: 'invalid_value' }));
      expect(() => partners.resolve('Nobody')).toThrow(ServiceError);
      expect(partners.list()).toHaveLength(before);
    });
  });

  describe('request limits', () => {
    let partnerId: string;

    beforeAll(() => {
      partnerId = new PartnerRegistry(nodeA, systemClock).add({ name: 'Limited' }).partner_id;
    });

    it('limits set on one node are read on the other; a bad limit is refused', () => {
      new PartnerRegistry(nodeA, systemClock).setRequestLimits(partnerId, { perSecond: 5, perDay: 8 });
      expect(new PartnerRegistry(nodeB, systemClock).requestLimits(partnerId)).toEqual({ perSecond: 5, perDay: 8 });
      expect(() => new PartnerRegistry(nodeB, systemClock).setRequestLimits(partnerId, { perSecond: 0, perDay: null })).toThrow(
        expect.objectContaining({ id: 'invalid_value' }),
      );
      expect(new PartnerRegistry(nodeA, systemClock).requestLimits(partnerId)).toEqual({ perSecond: 5, perDay: 8 });
    });

    it('two nodes together never grant more than a window holds', () => {
      const limits = { perSecond: 5, perDay: 8 };
      const second = 1_000 * DAY_MS + 10 * SECOND_MS;
      const a = new PartnerRegistry(nodeA, systemClock);
      const b = new PartnerRegistry(nodeB, systemClock);
      expect(a.claimRequests(partnerId, limits, second, 3)).toEqual({ count: 3, secondLeft: 2, dayLeft: 5 });
      expect(b.claimRequests(partnerId, limits, second + 500, 3)).toEqual({ count: 2, secondLeft: 0, dayLeft: 3 });
      expect(a.claimRequests(partnerId, limits, second + 900, 1)).toEqual({ count: 0, secondLeft: 0, dayLeft: 3 });
      // The next second has room again, but the day has only three left.
      expect(b.claimRequests(partnerId, limits, second + SECOND_MS, 5)).toEqual({ count: 3, secondLeft: 2, dayLeft: 0 });
      // Unused requests of an earlier grant of the day are given back.
      expect(a.claimRequests(partnerId, limits, second + 2 * SECOND_MS, 5, { dayStart: 1_000 * DAY_MS, count: 2 })).toEqual({ count: 2, secondLeft: 3, dayLeft: 0 });
    });
  });

  describe('token keys', () => {
    it('a key published by one node verifies on the other until it expires; retiring only shortens its life', () => {
      const now = Date.now();
      const a = new TokenKeyRegistry(nodeA);
      const b = new TokenKeyRegistry(nodeB);
      a.publish({ kid: 'key-a', publicJwk: '{"kty":"OKP"}', issuer: 'http://node-a/realms/proofdesk' }, now + 60_000);
      a.publish({ kid: 'key-old', publicJwk: '{"kty":"OKP"}', issuer: 'http://node-a/realms/proofdesk' }, now - 1);
      expect(b.find('key-a')).toEqual({ kid: 'key-a', publicJwk: '{"kty":"OKP"}', issuer: 'http://node-a/realms/proofdesk' });
      expect(b.find('key-old')).toBeUndefined();
      expect(b.list().map((k) => k.kid)).toEqual(['key-a']);
      b.retire('key-a', now + 120_000);
      expect(nodeA.prepare('SELECT expires FROM token_keys WHERE kid = ?').pluck().get('key-a')).toBe(now + 60_000);
      b.retire('key-a', now + 30_000);
      expect(nodeA.prepare('SELECT expires FROM token_keys WHERE kid = ?').pluck().get('key-a')).toBe(now + 30_000);
      b.retire('key-a', now - 1);
      expect(a.find('key-a')).toBeUndefined();
    });
  });

  describe('the issuing lease', () => {
    it('one holder at a time; another takes over once it expires, with a higher token, and the old holder is fenced out', () => {
      let now = 5_000_000;
      const clock = () => now;
      const first = new IssuingLease(nodeA, clock, 'node-a');
      const second = new IssuingLease(nodeB, clock, 'node-b');
      expect(first.acquire()).toBe(true);
      expect(first.heldHere).toBe(true);
      expect(second.acquire()).toBe(false);
      expect(second.heldElsewhere()).toMatch(/^node-a\//);
      expect(() => second.fence()).toThrow(IssuingElsewhereError);
      const tokenBefore = nodeA.prepare('SELECT token FROM issuing_lease WHERE id = 1').pluck().get() as number;

      now += LEASE_MS + 1;
      expect(second.acquire()).toBe(true);
      expect(nodeB.prepare('SELECT token FROM issuing_lease WHERE id = 1').pluck().get()).toBe(tokenBefore + 1);
      expect(first.heldHere).toBe(false);
      expect(() => first.fence()).toThrow(IssuingElsewhereError);
      expect(first.acquire()).toBe(false);

      second.release();
      expect(first.acquire()).toBe(true);
      expect(nodeA.prepare('SELECT token FROM issuing_lease WHERE id = 1').pluck().get()).toBe(tokenBefore + 2);
      first.release();
    });
  });
});
