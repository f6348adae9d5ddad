/**
 * Proof export and the issued/revoked states of the records view, on a real engine issuing
 * on the local chain (anvil): one NAME.proof.json and/or NAME.vc.json per certificate, written atomically.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RECORD_SORT } from '../../common/records.js';
import type { TaskContext } from '../../common/tasks.js';
import type { Credential, Job } from '../../common/wire-types.js';
import type { PartnerScope } from '../../main/engine/scope.js';
import { staticDocumentLoader } from '../../main/engine/vc/document-loader.js';
import { exportProofs, proofFileName } from '../../main/workspace/proof-export.js';
import { recordWindow } from '../../main/workspace/record-query.js';
import { addIssuingPartner, createCredentials, issueNowAndFinish, makeTempDir, openIssuingEngine, removeTempDirs, type IssuingFixture, type IssuingPartner } from '../support/issuing-fixture.js';

let fixture: IssuingFixture;
let partner: IssuingPartner;
let scope: PartnerScope;
let credentials: Credential[];
let job: Job;

function task(): TaskContext & { controller: AbortController; done: number[] } {
  const controller = new AbortController();
  const done: number[] = [];
  return { controller, done, signal: controller.signal, progress: (d) => done.push(d) };
}

beforeAll(async () => {
  fixture = openIssuingEngine();
  partner = await addIssuingPartner(fixture.engine, 'University A');
  scope = fixture.engine.scopeFor(partner.id);
  credentials = await createCredentials(partner.service, 5, 'Diploma/ of "Ada"');
  await partner.service.scheduleCredentials({ engine: 'local', credentials: credentials.slice(0, 3).map((c) => c.uid) });
  job = await issueNowAndFinish(fixture.engine, partner.service, 'local');
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  removeTempDirs();
});

describe('proof export', () => {
  it('writes one proof per certificate of a job, named by title and certificate, and rewrites the same files again', async () => {
    const folder = makeTempDir('proofdesk-export-');
    const run = task();
    const result = await exportProofs(scope, { source: { kind: 'job', jobUid: job.uid }, folder }, run);
    expect(result).toEqual({ folder, written: 3, withoutCertificate: 0 });
    const files = readdirSync(folder).sort();
    expect(files).toHaveLength(3);
    for (const name of files) {
      expect(name).toMatch(/^Diploma_ of _Ada_ \d [0-9a-f-]{36}\.proof\.json$/);
      const proof = JSON.parse(readFileSync(join(folder, name), 'utf8')) as { format: string; chain: { engine: string }; leaf: string };
      expect(proof.format).toBe('proofdesk-proof/1');
      expect(proof.chain.engine).toBe('local');
    }
    expect(run.done.at(-1)).toBe(3);
    await exportProofs(scope, { source: { kind: 'job', jobUid: job.uid }, folder }, task());
    expect(readdirSync(folder).sort()).toEqual(files);
  });

  it('exports a selection: only credentials with an issued certificate, counting the others', async () => {
    const folder = makeTempDir('proofdesk-export-');
    const result = await exportProofs(scope, { source: { kind: 'selection', selection: { kind: 'uids', uids: credentials.slice(1).map((c) => c.uid) }, engine: 'local' }, folder }, task());
    expect(result).toEqual({ folder, written: 2, withoutCertificate: 2 });
    expect(readdirSync(folder)).toHaveLength(2);
  });

  it('exports Verifiable Credentials beside or instead of proofs, each one verifying offline and naming its certificate', async () => {
    const both = makeTempDir('proofdesk-export-');
    expect(await exportProofs(scope, { source: { kind: 'job', jobUid: job.uid }, folder: both, format: 'both' }, task())).toEqual({ folder: both, written: 3, withoutCertificate: 0 });
    const names = readdirSync(both).sort();
    expect(names.filter((n) => n.endsWith('.proof.json'))).toHaveLength(3);
    expect(names.filter((n) => n.endsWith('.vc.json'))).toHaveLength(3);
    for (const name of names.filter((n) => n.endsWith('.vc.json'))) {
      const credential = JSON.parse(readFileSync(join(both, name), 'utf8')) as Record<string, unknown>;
      const certificateUid = /([0-9a-f-]{36})\.vc\.json$/.exec(name)![1]!;
      expect(credential.id).toBe(`urn:uuid:${certificateUid}`);
      expect(existsSync(join(both, name.replace(/\.vc\.json$/, '.proof.json')))).toBe(true);
      const third = await vc.verifyCredential({ credential, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: staticDocumentLoader });
      expect(third.verified).toBe(true);
    }
    const vcOnly = makeTempDir('proofdesk-export-');
    await exportProofs(scope, { source: { kind: 'job', jobUid: job.uid }, folder: vcOnly, format: 'vc' }, task());
    expect(readdirSync(vcOnly).sort()).toEqual(names.filter((n) => n.endsWith('.vc.json')));
  });

  it('refuses a missing folder, a selection with nothing issued, and stops on cancel', async () => {
    const folder = makeTempDir('proofdesk-export-');
    await expect(exportProofs(scope, { source: { kind: 'job', jobUid: job.uid }, folder: join(folder, 'absent') }, task())).rejects.toMatchObject({ id: 'invalid_value' });
    expect(existsSync(join(folder, 'absent'))).toBe(false);
    await expect(
      exportProofs(scope, { source: { kind: 'selection', selection: { kind: 'uids', uids: [credentials[4]!.uid] } }, folder }, task()),
    ).rejects.toMatchObject({ id: 'missing_certificate' });
    const cancelled = task();
    cancelled.controller.abort();
    await expect(exportProofs(scope, { source: { kind: 'job', jobUid: job.uid }, folder }, cancelled)).rejects.toMatchObject({ name: 'AbortError' });
    expect(readdirSync(folder)).toEqual([]);
  });

  it('names files safely whatever the title', () => {
    expect(proofFileName('../../etc/passwd', 'u')).toBe('_.._etc_passwd u.proof.json');
    expect(proofFileName('', 'u')).toBe('u.proof.json');
    expect(proofFileName('Diploma', 'u', 'vc')).toBe('Diploma u.vc.json');
  });
});

describe('records view states after issuing', () => {
  it('shows issued, then revoked, and filters by them', async () => {
    const window = (states: ('issued' | 'revoked' | 'not_scheduled')[]) =>
      recordWindow(scope, { filter: { state: { engine: 'local', states } }, sort: DEFAULT_RECORD_SORT, offset: 0, limit: 50 });
    expect(window(['issued']).rows.map((r) => r.uid)).toEqual(credentials.slice(0, 3).map((c) => c.uid));
    expect(window(['not_scheduled']).total).toBe(2);
    await partner.service.revokeCredential(credentials[0]!.uid, 'local');
    for (let i = 0; i < 40 && window(['revoked']).total === 0; i++) {
      await fixture.engine.issuing.tick();
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(window(['revoked']).rows.map((r) => [r.uid, r.states.local])).toEqual([[credentials[0]!.uid, 'revoked']]);
    expect(window(['issued']).total).toBe(2);
  });
});
