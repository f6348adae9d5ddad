/**
 * The app's main side with Verifiable Credentials: the detail panel's "Download for a wallet",
 * and a Verify view drop holding credentials: Proofdesk's own
 * credentials beside proof files get the six steps on the real local chain (their original
 * matched by the credential's file hash), other issuers' credentials (VC 2.0 with
 * eddsa-rdfc-2022, VC 1.1 with Ed25519Signature2020) the steps that apply, and
 * a credential with an unknown context or a JSON file that is neither an `error` row with the
 * sentence saying which, the rest of the drop verified all the same.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyRow } from '../../common/ipc/verify.js';
import type { TaskInfo } from '../../common/tasks.js';
import { createAppContext, type AppContext } from '../../main/app/app-context.js';
import { createIpcHandlers, type IpcHandlers } from '../../main/app/ipc-handlers.js';
import { didKeyOf, verificationMethodOf } from '../../main/engine/vc/did-key.js';
import { OPEN_BADGES_CONTEXT, staticDocumentLoader, VC_CONTEXT_V2 } from '../../main/engine/vc/document-loader.js';
import { keySigner } from '../../main/engine/vc/sign-credential.js';
import { signedVc11 } from '../support/third-party-credentials.js';
import { addIssuingPartner, issueNowAndFinish, makeTempDir, openIssuingEngine, removeTempDirs, type IssuingFixture, type IssuingPartner } from '../support/issuing-fixture.js';

let fixture: IssuingFixture;
let partner: IssuingPartner;
let ctx: AppContext;
let handlers: IpcHandlers;
let drop: string;
const uids: Record<string, string> = {};

function finished(taskId: string): Promise<TaskInfo> {
  return new Promise((resolve) => {
    const off = ctx.events.subscribe((event) => {
      if (event.type === 'task' && event.task.id === taskId && event.task.state !== 'running') {
        off();
        resolve(event.task);
      }
    });
  });
}

/** A credential of another issuer, signed with eddsa-rdfc-2022 by a key of its own. */
async function foreignCredential(): Promise<Record<string, unknown>> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  const sign = keySigner(privateKey);
  const signer = { id: verificationMethodOf(publicKeyHex), algorithm: 'Ed25519', sign: async ({ data }: { data: Uint8Array }) => sign(data) };
  return vc.issue({
    credential: {
      '@context': [VC_CONTEXT_V2, OPEN_BADGES_CONTEXT],
      id: 'urn:uuid:0b6f1c56-2f40-4b8e-9d1e-3f3c7a1b2c4d',
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      name: 'Badge of another academy',
      issuer: { id: didKeyOf(publicKeyHex), type: ['Profile'], name: 'Another Academy' },
      validFrom: '2025-01-01T00:00:00Z',
      credentialSubject: { type: ['AchievementSubject'], achievement: { id: 'urn:uuid:9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f', type: ['Achievement'], name: 'Badge', description: 'A badge', criteria: { narrative: 'Did it' } } },
    },
    suite: new DataIntegrityProof({ signer, cryptosuite }),
    documentLoader: staticDocumentLoader,
  });
}

beforeAll(async () => {
  fixture = openIssuingEngine();
  partner = await addIssuingPartner(fixture.engine, 'University A');
  ctx = createAppContext({ engine: fixture.engine, partner: { id: partner.id, name: partner.name } });
  handlers = createIpcHandlers(ctx);
  const work = makeTempDir('proofdesk-vc-src-');
  writeFileSync(join(work, 'diploma.pdf'), 'the diploma of Ada');
  const s = partner.service;
  const diploma = await s.createAndScheduleCredential('local', { file: { path: join(work, 'diploma.pdf') }, credential_details: { title: 'Diploma Ada', metadata: { holder: 'Ada' } } });
  const badge = await s.createAndScheduleCredential('local', { credential_details: { title: 'Badge Cy', metadata: { holder: 'Cy' } } });
  await issueNowAndFinish(fixture.engine, s, 'local');
  for (const [k, c] of Object.entries({ diploma, badge })) uids[k] = (await s.listCertificates({ credential_uid: c.uid, per_page: 0 })).items[0]!.certificate.uid;

  drop = makeTempDir('proofdesk-vc-drop-');
  writeFileSync(join(drop, 'ada.vc.json'), await s.downloadCertificateVc(uids.diploma!));
  writeFileSync(join(drop, 'scan.pdf'), 'the diploma of Ada'); // matched by the credential's file hash
  writeFileSync(join(drop, 'cy.proof.json'), await s.downloadCertificate(uids.badge!));
  const cy = JSON.parse(await s.downloadCertificateVc(uids.badge!)) as Record<string, unknown>;
  writeFileSync(join(drop, 'cy.vc.json'), JSON.stringify(cy));
  writeFileSync(join(drop, 'cy-edited.vc.json'), JSON.stringify({ ...cy, name: 'Badge Cy (edited)' }));
  writeFileSync(join(drop, 'cy-unknown-context.vc.json'), JSON.stringify({ ...cy, '@context': [...(cy['@context'] as unknown[]), 'https://example.org/unknown'] }));
  writeFileSync(join(drop, 'other-academy.vc.json'), JSON.stringify(await foreignCredential()));
  writeFileSync(join(drop, 'alumni-1.1.vc.json'), JSON.stringify(await signedVc11({ issuanceDate: '2025-01-01T00:00:00Z' })));
  writeFileSync(join(drop, 'neither.json'), JSON.stringify({ hello: 'world' }));
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  removeTempDirs();
});

describe('Verifiable Credentials in the app', () => {
  it('the detail panel’s "Download for a wallet" hands over the certificate’s credential, named by its title', async () => {
    const saved = await handlers['detail:credential'](uids.diploma!);
    expect(saved.file_name).toBe('Diploma Ada.vc.json');
    expect(saved.text).toBe(await partner.service.downloadCertificateVc(uids.diploma!));
    expect(JSON.parse(saved.text)).toMatchObject({ id: `urn:uuid:${uids.diploma}`, name: 'Diploma Ada' });
  });

  it('lists credential rows beside proof rows, each with its result, and error rows saying why', async () => {
    const { summary: started, task } = await handlers['verify:start']([drop]);
    expect((await finished(task.id)).state).toBe('done');
    const page = await handlers['verify:rows'](started.run_id, { offset: 0, limit: 100, failures_only: false });
    const name = (n: string) => `${drop.split('/').pop()}/${n}`;
    const byName = Object.fromEntries(page.rows.map((r) => [r.name, r])) as Record<string, VerifyRow>;
    expect(page.rows).toHaveLength(8);
    expect(byName[name('ada.vc.json')]).toMatchObject({ result: 'ok', certificate_uid: uids.diploma, title: 'Diploma Ada', issuer: 'University A', engine: 'local', original: name('scan.pdf'), matched_by: 'hash' });
    expect(byName[name('cy.proof.json')]).toMatchObject({ result: 'ok', certificate_uid: uids.badge });
    expect(byName[name('cy.vc.json')]).toMatchObject({ result: 'ok', certificate_uid: uids.badge, title: 'Badge Cy' });
    expect(byName[name('cy-edited.vc.json')]).toMatchObject({ result: 'failed', step: 'Checking certificate integrity' });
    expect(byName[name('other-academy.vc.json')]).toMatchObject({ result: 'ok', issuer: 'Another Academy', title: 'Badge of another academy', engine: '' });
    expect(byName[name('other-academy.vc.json')]!.reason).toMatch(/^Passed where they apply\. Not anchored by Proofdesk: this credential has no anchor proof/);
    expect(byName[name('alumni-1.1.vc.json')]).toMatchObject({ result: 'ok', issuer: expect.stringMatching(/^did:key:z6Mk/), step: '' });
    expect(byName[name('cy-unknown-context.vc.json')]).toMatchObject({ result: 'error' });
    expect(byName[name('cy-unknown-context.vc.json')]!.reason).toContain('"https://example.org/unknown", which is not bundled with Proofdesk');
    expect(byName[name('neither.json')]).toMatchObject({ result: 'error', reason: 'Not a valid proof file: format is missing' });

    const summary = await handlers['verify:summary'](started.run_id);
    expect(summary.counts).toEqual({ ok: 5, pending: 0, expired: 0, revoked: 0, failed: 1, error: 2 });
    const foreign = await handlers['verify:detail'](started.run_id, byName[name('other-academy.vc.json')]!.index);
    expect(foreign.steps.find((s) => s.name === 'Checking certificate is anchored to the blockchain')!.reason).toMatch(/^Not anchored by Proofdesk/);
  });
});
