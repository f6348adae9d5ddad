/**
 * A certificate's `last_verification` is the issuer's record of its own certificate: only a
 * verification of the stored certificate may change it (GET /verify/<uid>, by credential, by
 * original file, or an uploaded proof whose content is the stored proof's). Anyone holding a
 * proof can upload a forged copy of it; that answers `failed` to the caller and leaves the
 * record alone. Over HTTP, on the local chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate, Job, Page, VerificationResult } from '../../common/wire-types.js';
import { removeTempDirs } from '../support/issuing-fixture.js';
import { expectResult, formOf, startApiFixture, type ApiFixture } from './api-fixture.js';

describe('verifying an uploaded proof', () => {
  let api: ApiFixture;
  let uid: string;
  let proof: string;

  const record = async () => expectResult<Page<Certificate>>(await api.call('GET', `/certificates?uid=${uid}`), 200).items[0]!.last_verification;
  const upload = async (text: string) =>
    expectResult<VerificationResult>(await api.call('POST', '/verify/upload/certificate', { body: formOf([], { data: text, name: 'x.proof.json' }) }), 200).result;
  /** Waits past the millisecond, so that a new verification has a new timestamp. */
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  beforeAll(async () => {
    api = await startApiFixture();
    const credential = expectResult<{ uid: string }>(await api.call('POST', '/credentials', { json: { title: 'BSc', metadata: { student: 'Ada' } } }), 201);
    const job = expectResult<Job>(await api.call('POST', '/credentials/schedule', { json: { engine: 'local', credentials: [credential.uid] } }), 201);
    expectResult(await api.call('POST', '/jobs/immediate', { json: { engine: 'local' } }), 201);
    for (let i = 0; i < 300 && expectResult<Job>(await api.call('GET', `/jobs/${job.uid}`), 200).status !== 'finished'; i++) await tick();
    uid = expectResult<Page<Certificate>>(await api.call('GET', `/jobs/${job.uid}/certificates`), 200).items[0]!.certificate.uid;
    proof = (await api.call('GET', `/certificates/${uid}/download`)).text;
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    removeTempDirs();
  });

  it('leaves last_verification alone when the proof is forged, and answers failed', async () => {
    expect(expectResult<VerificationResult>(await api.call('GET', `/verify/${uid}`), 200).result.status).toBe('ok');
    const before = await record();
    expect(before?.status).toBe('ok');

    const forgeries: string[] = [];
    const parsed = JSON.parse(proof);
    forgeries.push(JSON.stringify({ ...parsed, certificate: { ...parsed.certificate, credential: { ...parsed.certificate.credential, title: 'MSc' } } }));
    forgeries.push(JSON.stringify({ ...parsed, issuer: { ...parsed.issuer, signature: parsed.issuer.signature.replace(/^./, (c: string) => (c === '0' ? '1' : '0')) } }));
    forgeries.push(JSON.stringify({ ...parsed, leaf: parsed.leaf.replace(/^./, (c: string) => (c === '0' ? '1' : '0')) }));
    for (const forged of forgeries) {
      await tick();
      expect(['failed', 'error']).toContain((await upload(forged)).status);
      expect(await record()).toEqual(before);
    }
    // A list filtered by status still finds it as the issuer last verified it.
    expect(expectResult<Page<Certificate>>(await api.call('GET', '/certificates?verification_status=failed'), 200).total_items).toBe(0);
  });

  it('records the verification of a proof whose content is the stored one, however it is laid out', async () => {
    const before = await record();
    await tick();
    expect((await upload(proof)).status).toBe('ok');
    const after = await record();
    expect(after?.status).toBe('ok');
    expect(Date.parse(after!.timestamp)).toBeGreaterThan(Date.parse(before!.timestamp));
    await tick();
    // The same content, compact and with its keys in another order.
    const parsed = JSON.parse(proof) as Record<string, unknown>;
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(parsed).reverse()));
    expect((await upload(reordered)).status).toBe('ok');
    expect(Date.parse((await record())!.timestamp)).toBeGreaterThan(Date.parse(after!.timestamp));
  });
});
