/** The intake sender on a real engine: batches on the embedded service, single requests without its batched call. */
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { IssuingService } from '../../common/issuing-service.js';
import { openEngineWithPartner, type EngineFixture, type TestPartner } from '../../test/support/engine-fixture.js';
import { IntakeSender } from './sender.js';

let fixture: EngineFixture;
let partner: TestPartner;
afterEach(() => fixture?.close());

/** The real service, counting the calls made to it. */
function counting(service: IssuingService, batched: boolean): { service: IssuingService; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrapped = new Proxy(service, {
    get(target, name: string) {
      if (name === 'createAndScheduleCredentials' && !batched) return undefined;
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { service: wrapped, calls };
}

const request = (i: number) => ({ file: { data: Buffer.from(`file ${i}`), name: `f${i}.txt` }, credential_details: { title: `t${i}`, metadata: {} } });

describe('IntakeSender', () => {
  it('gathers single requests made together into one batched call on the embedded engine; each caller gets its own outcome', async () => {
    ({ fixture, partner } = openEngineWithPartner());
    const { service, calls } = counting(partner.service, true);
    const sender = new IntakeSender(service);
    const results = await Promise.allSettled([...Array.from({ length: 20 }, (_, i) => sender.createAndSchedule('local', request(i))), sender.createAndSchedule('local', request(3))]);
    expect(results.slice(0, 20).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results[20]).toMatchObject({ status: 'rejected', reason: { id: 'file_already_exists' } });
    expect(calls).toEqual({ createAndScheduleCredentials: 1 });
    expect((await partner.service.listCredentials({ per_page: 1 })).total_items).toBe(20);
  });

  it('sends a streamed file alone, and everything as single requests on a service without the batched call', async () => {
    ({ fixture, partner } = openEngineWithPartner());
    const batched = counting(partner.service, true);
    await new IntakeSender(batched.service).createAndSchedule('local', { file: { data: Readable.from([Buffer.from('streamed')]), name: 's.txt' }, credential_details: { title: 's', metadata: {} } });
    expect(batched.calls).toEqual({ createAndScheduleCredential: 1 });

    const single = counting(partner.service, false);
    const sender = new IntakeSender(single.service, { concurrency: 3 });
    const outcomes = await sender.createAndScheduleMany('local', Array.from({ length: 7 }, (_, i) => request(100 + i)));
    expect(outcomes.every((o) => o.credential)).toBe(true);
    expect(single.calls).toEqual({ createAndScheduleCredential: 7 });
    const created = await sender.createAndScheduleMany(null, [request(200)]);
    expect(created[0]!.credential!.files).toHaveLength(1);
    expect(single.calls).toMatchObject({ uploadFile: 1, createCredential: 1 });
    expect((await partner.service.listJobs({ uid: created[0]!.credential!.uid })).items).toEqual([]);
  });
});
