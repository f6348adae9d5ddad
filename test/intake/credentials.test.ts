/**
 * A watched folder with `format: both` on the real engine and local chain: each issued file's
 * Verifiable Credential (NAME.vc.json) is written beside its proof, names the same certificate
 * and verifies offline with Digital Bazaar's verifier; `watch --format vc` is refused (watch
 * always writes the proof file).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/run.js';
import type { EmbeddedService } from '../../main/engine/index.js';
import { staticDocumentLoader } from '../../main/engine/vc/document-loader.js';
import type { FolderIntake } from '../../main/intake/index.js';
import { filesUnder, readJson, tempDir, usePartner, waitFor, watchInbox } from './helpers.js';

let service: EmbeddedService;
let dataDir: string;
const running: FolderIntake[] = [];
usePartner('Wallet Folder University', { running, opened: (opened) => ({ service, dataDir } = opened) });

describe('watched folder writing Verifiable Credentials', () => {
  it('format both: NAME.vc.json beside each NAME.proof.json, the same certificate, verifying offline', async () => {
    const { root, intake } = await watchInbox(running, { service, dataDir, tag: 'wallet', folder: { format: 'both' } });
    const names = ['ada.txt', 'class-b/grace.txt', 'class-b/alan.txt'];
    mkdirSync(join(root, 'class-b'));
    for (const name of names) writeFileSync(join(root, name), `${name}: BSc in Chemistry\n`);
    await waitFor('3 originals in done/', () => filesUnder(join(root, 'done')).length === 3, 60_000);
    await waitFor('the intake to finish', () => intake.pending() === 0, 60_000);
    expect(filesUnder(join(root, 'proofs'))).toEqual(names.flatMap((n) => [`${n}.proof.json`, `${n}.vc.json`]).sort());
    for (const name of names) {
      const proof = readJson<{ certificate: { uid: string } }>(join(root, 'proofs', `${name}.proof.json`));
      const credential = readJson(join(root, 'proofs', `${name}.vc.json`));
      expect(credential.id).toBe(`urn:uuid:${proof.certificate.uid}`);
      const third = await vc.verifyCredential({ credential, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: staticDocumentLoader });
      expect(third.verified).toBe(true);
    }
  });

  it('watch --format vc is refused before anything is watched', async () => {
    const err: string[] = [];
    const code = await runCli(['watch', tempDir(), '--format', 'vc', '--data', join(tempDir(), 'data')], { stdout: () => undefined, stderr: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('--format must be proof or both');
  });
});
