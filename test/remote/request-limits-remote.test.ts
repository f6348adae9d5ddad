/**
 * The remote client under a live server's request limits: it paces itself by the RateLimit
 * fields (no refusal while it alone uses the Partner's quota), retries a call refused with
 * 429 `too_many_requests` once the window resets (any method: the service did nothing), and
 * gives up at once with the service's sentence when the day's limit is used up. A real
 * `serve` on loopback, the system clock.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../main/api/server.js';
import { REALM } from '../../main/engine/index.js';
import { RemoteService } from '../../main/remote/index.js';
import { serveEngine, type ServedEngine, type ServedPartner } from './remote-fixture.js';

describe('the remote client under request limits', () => {
  let served: ServedEngine;
  let server: RunningServer;
  let partner: ServedPartner;
  const log: { status: number; partner_id?: string }[] = [];
  const clients: RemoteService[] = [];

  const client = () => {
    const service = new RemoteService({ baseUrl: server.baseUrl, authUrl: server.authUrl, realm: REALM, clientId: partner.clientId, clientSecret: partner.clientSecret });
    clients.push(service);
    return service;
  };
  const refusals = () => log.filter((line) => line.status === 429 && line.partner_id === partner.partnerId).length;

  beforeAll(async () => {
    served = await serveEngine();
    partner = await served.addPartner('University A');
    // A live node of our own whose request log we read.
    server = await startServer({
      engine: served.engine,
      environment: 'live',
      log: () => undefined,
      requestLog: { format: 'json', write: (line) => log.push(JSON.parse(line) as { status: number; partner_id?: string }) },
    });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await server?.close();
    await served?.close();
  });

  it('paces itself by the RateLimit fields: 9 calls at 3 per second, all answered, none refused', async () => {
    served.engine.partners.setRequestLimits(partner.partnerId, { perSecond: 3, perDay: null });
    const remote = client();
    const before = refusals();
    for (let i = 0; i < 9; i++) expect((await remote.listCredentials()).items).toEqual([]);
    expect(refusals()).toBe(before);
    expect(log.filter((line) => line.status === 200 && line.partner_id === partner.partnerId).length).toBeGreaterThanOrEqual(9);
  });

  it('retries a POST refused with too_many_requests after Retry-After, and it is done once', async () => {
    served.engine.partners.setRequestLimits(partner.partnerId, { perSecond: 2, perDay: null });
    const remote = client();
    await remote.listCredentials(); // its token, and limits read by the node
    // Another program of the same Partner uses up the second's quota first. The window is the
    // wall clock's second, which may turn between that refusal and the client's POST (then the
    // POST goes through unrefused): the scenario runs again, each time with a new credential,
    // until the POST met a refusal.
    const token = await remote.tokens.token();
    const titles: string[] = [];
    let refused = false;
    for (let attempt = 0; attempt < 5 && !refused; attempt++) {
      let refusedOther = false;
      while (!refusedOther) {
        const answer = await request(`${server.baseUrl}/credentials`, { headers: { authorization: `Bearer ${token}` } });
        await answer.body.dump();
        refusedOther = answer.statusCode === 429;
      }
      const before = refusals();
      const title = `Diploma of Ada ${attempt}`;
      const created = await remote.createCredential({ title, metadata: { name: 'Ada' } });
      expect(created.title).toBe(title);
      titles.push(title);
      refused = refusals() > before;
    }
    expect(refused).toBe(true);
    const all = await remote.listCredentials({ per_page: 0 });
    for (const title of titles) expect(all.items.filter((c) => c.title === title)).toHaveLength(1);
  });

  it("gives up at once when the day's limit is used up, with the service's sentence", async () => {
    served.engine.partners.setRequestLimits(partner.partnerId, { perSecond: null, perDay: 1 });
    // The node re-reads a Partner's limits every 5 s: a fresh node reads them now.
    const freshLog: { status: number }[] = [];
    const fresh = await startServer({
      engine: served.engine,
      environment: 'live',
      log: () => undefined,
      requestLog: { format: 'json', write: (line) => freshLog.push(JSON.parse(line) as { status: number }) },
    });
    try {
      const remote = new RemoteService({ baseUrl: fresh.baseUrl, authUrl: fresh.authUrl, realm: REALM, clientId: partner.clientId, clientSecret: partner.clientSecret });
      clients.push(remote);
      const error = await remote
        .listCredentials()
        .then(() => remote.listCredentials())
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toMatchObject({ id: 'too_many_requests', status: 429 });
      expect((error as Error).message).toMatch(/may make 1 request per day \(UTC\); try again in \d+ (h|min|s)/);
      // Asked once, not again: the window is hours away.
      expect(freshLog.filter((line) => line.status === 429)).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});
