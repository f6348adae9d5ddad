/**
 * Certificates issued on the local chain, exported as Verifiable Credentials: every one verifies
 * with Digital Bazaar's verifier (`@digitalbazaar/vc` with the static document loader, nothing
 * fetched) and fails after any signed field is changed; Proofdesk's six steps pass, and a changed
 * anchor proof (root, path, transaction) or credential field fails them; another issuer's
 * credential gets the steps that apply; what is not a credential is refused with a sentence.
 */
import { generateKeyPairSync } from 'node:crypto';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../common/wire-types.js';
import type { ProofFile } from '../../main/engine/proofs/proof-file.js';
import { didKeyOf, publicKeyOfDidKey, verificationMethodOf } from '../../main/engine/vc/did-key.js';
import { OPEN_BADGES_CONTEXT, staticDocumentLoader, VC_CONTEXT_V2 } from '../../main/engine/vc/document-loader.js';
import { keySigner } from '../../main/engine/vc/sign-credential.js';
import { verifyCredentialFile } from '../../main/engine/vc/verify-credential.js';
import {
  addIssuingPartner,
  errorOf,
  expectOk,
  issueNowAndFinish,
  openIssuingEngine,
  proofOf,
  removeTempDirs,
  sha256Hex,
  stepStatuses,
  type IssuingFixture,
  type IssuingPartner,
} from '../support/issuing-fixture.js';
import { setAt, tamperings, type Json } from '../support/third-party-credentials.js';

const DIPLOMA = new TextEncoder().encode('%PDF-1.7 the diploma of Ada Lovelace');

/** Digital Bazaar's verifier, offline: what a third-party verifier or wallet runs. */
async function thirdPartyVerifies(credential: Json, now?: string): Promise<boolean> {
  const result = await vc.verifyCredential({ credential, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: staticDocumentLoader, ...(now ? { now } : {}) });
  return result.verified;
}

describe('certificates as Verifiable Credentials', () => {
  let fx: IssuingFixture;
  let partner: IssuingPartner;
  let withFile: Credential;
  let plain: Credential;
  const certificateOf = new Map<string, string>();

  beforeAll(async () => {
    fx = openIssuingEngine();
    partner = await addIssuingPartner(fx.engine, 'University of Testing');
    plain = await partner.service.createCredential({ title: 'Certificate of Attendance', metadata: { student: 'Ada Lovelace', '@odd key': [1, { deep: null }], ects: 5.5 } });
    withFile = await partner.service.createAndScheduleCredential('local', {
      file: { data: DIPLOMA, name: 'diploma.pdf' },
      credential_details: { title: 'Bachelor of Science in Chemistry', metadata: { description: 'Three years of chemistry', grade: 'A' }, credentials: [plain.uid], expiry_date: '2031-05-01' },
    });
    await partner.service.scheduleCredentials({ engine: 'local', credentials: [plain.uid] });
    const job = await issueNowAndFinish(fx.engine, partner.service, 'local');
    for (const c of (await partner.service.listJobCertificates(job.uid, { per_page: 0 })).items) certificateOf.set(c.certificate.credential.uid, c.certificate.uid);
  });

  afterAll(async () => {
    await fx?.close();
    removeTempDirs();
  });

  async function exported(credential: Credential): Promise<Json> {
    return JSON.parse(await partner.service.downloadCertificateVc(certificateOf.get(credential.uid)!)) as Json;
  }

  it('maps the certificate onto an OpenBadgeCredential signed by the Partner’s did:key', async () => {
    const uid = certificateOf.get(withFile.uid)!;
    const proof = await proofOf(partner.service, uid);
    const credential = await exported(withFile);
    expect(credential).toMatchObject({
      '@context': [VC_CONTEXT_V2, OPEN_BADGES_CONTEXT, expect.any(Object)],
      id: `urn:uuid:${uid}`,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      name: 'Bachelor of Science in Chemistry',
      issuer: { id: didKeyOf(partner.signingPublicKey), type: ['Profile'], name: 'University of Testing' },
      validFrom: proof.issued_date,
      validUntil: '2031-05-01T00:00:00.000Z',
      credentialSubject: {
        type: ['AchievementSubject'],
        achievement: {
          id: `urn:uuid:${withFile.uid}`,
          name: 'Bachelor of Science in Chemistry',
          description: 'Three years of chemistry',
          criteria: { narrative: 'Bachelor of Science in Chemistry' },
          proofdeskMetadata: { description: 'Three years of chemistry', grade: 'A' },
        },
      },
      relatedResource: [
        { digestSRI: `sha256-${Buffer.from(sha256Hex(DIPLOMA), 'hex').toString('base64')}`, mediaType: 'application/pdf' },
        { id: `urn:uuid:${plain.uid}` },
      ],
    });
    const [dataIntegrity, anchor] = credential.proof as Json[];
    expect(dataIntegrity).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod', verificationMethod: verificationMethodOf(partner.signingPublicKey) });
    expect(anchor).toMatchObject({
      type: 'ProofdeskAnchorProof',
      proofPurpose: 'assertionMethod',
      certificate: proof.certificate,
      leaf: proof.leaf,
      merklePath: proof.merkle_path,
      merkleRoot: proof.root,
      chain: 'eip155:31337',
      registry: proof.chain.registry_address,
      transaction: proof.chain.transaction_id,
      genesisHash: proof.chain.genesis_hash,
      leafSignature: proof.issuer.signature,
    });
    expect(publicKeyOfDidKey(didKeyOf(partner.signingPublicKey))).toBe(partner.signingPublicKey);
    // The same certificate always gives the same credential.
    expect(await exported(withFile)).toEqual(credential);
  });

  it('every exported credential verifies with Digital Bazaar’s verifier, and fails after any field is changed', async () => {
    for (const c of [withFile, plain]) {
      const credential = await exported(c);
      expect(await thirdPartyVerifies(credential), c.title).toBe(true);
      const changes = tamperings(credential);
      expect(changes.length).toBeGreaterThan(15);
      for (const { path, changed } of changes) {
        expect(await thirdPartyVerifies(setAt(credential, path, changed), credential.validFrom as string), `changed ${path.join('.')}`).toBe(false);
      }
    }
  });

  it('Digital Bazaar’s verifier refuses a credential past its validUntil', async () => {
    const credential = await exported(withFile);
    expect(await thirdPartyVerifies(credential, '2031-06-01T00:00:00Z')).toBe(false);
  });

  it('passes Proofdesk’s six steps on the local chain, with the original file too', async () => {
    const options = fx.engine.issuing.verifyOptions(sha256Hex(DIPLOMA));
    expectOk(await verifyCredentialFile(await exported(withFile), options));
    expectOk(await verifyCredentialFile(await exported(plain), fx.engine.issuing.verifyOptions()));
    const wrongFile = await verifyCredentialFile(await exported(withFile), fx.engine.issuing.verifyOptions(sha256Hex('another file')));
    expect(wrongFile.result.status).toBe('failed');
    expect(stepStatuses(wrongFile).file).toBe('failed');
  });

  it('a changed anchor proof or credential field fails Proofdesk’s steps (a transaction the chain does not hold is pending)', async () => {
    const credential = await exported(withFile);
    const options = fx.engine.issuing.verifyOptions();
    const anchorChange = async (field: string, value: unknown) => {
      const changed = structuredClone(credential);
      (changed.proof as Json[])[1]![field] = value;
      return verifyCredentialFile(changed, options);
    };
    const proof = (credential.proof as Json[])[1] as unknown as { merkleRoot: string; merklePath: string[]; transaction: string; certificate: ProofFile['certificate'] };
    const otherHash = 'ab'.repeat(32);

    const root = await anchorChange('merkleRoot', otherHash);
    expect(root.result.status).toBe('failed');
    expect(stepStatuses(root).blockchain).toBe('failed');

    const path = await anchorChange('merklePath', [...proof.merklePath.slice(1), otherHash]);
    expect(stepStatuses(path).blockchain).toBe('failed');

    // A transaction the chain does not hold is what a reorganisation leaves too: never ok, and
    // pending (not failed) with the reason, as for proof files.
    const tx = await anchorChange('transaction', `0x${otherHash}`);
    expect(tx.result.status).toBe('pending');
    expect(stepStatuses(tx).blockchain).toBe('pending');

    // The anchored payload must be the one the credential is derived from.
    const payload = await anchorChange('certificate', { ...proof.certificate, credential: { ...proof.certificate.credential, title: 'Doctor of Philosophy' } });
    expect(stepStatuses(payload).certificate).toBe('failed');

    // A changed credential field is no longer the credential derived from the anchored payload.
    const renamed = setAt(credential, ['name'], 'Doctor of Philosophy');
    expect(stepStatuses(await verifyCredentialFile(renamed, options)).certificate).toBe('failed');
    const later = setAt(credential, ['validUntil'], '2041-05-01T00:00:00.000Z');
    expect((await verifyCredentialFile(later, options)).result.status).toBe('failed');
  });

  it('revoking the certificate shows in the credential’s revocation step', async () => {
    const credential = await exported(plain);
    await partner.service.revokeCertificate(certificateOf.get(plain.uid)!);
    const result = await verifyCredentialFile(credential, fx.engine.issuing.verifyOptions());
    expect(result.result.status).toBe('revoked');
    expect(result.verification.revocation.description).toMatchObject({ is_revoked: true });
  });

  it('another issuer’s eddsa-rdfc-2022 credential gets the steps that apply, and says why the others do not', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const publicKeyHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
    const sign = keySigner(privateKey);
    const signer = { id: verificationMethodOf(publicKeyHex), algorithm: 'Ed25519', sign: async ({ data }: { data: Uint8Array }) => sign(data) };
    const credential = await vc.issue({
      credential: {
        '@context': [VC_CONTEXT_V2, OPEN_BADGES_CONTEXT],
        id: 'urn:uuid:0b6f1c56-2f40-4b8e-9d1e-3f3c7a1b2c4d',
        type: ['VerifiableCredential', 'OpenBadgeCredential'],
        name: 'Open Badge of another issuer',
        issuer: { id: didKeyOf(publicKeyHex), type: ['Profile'], name: 'Another Academy' },
        validFrom: '2025-01-01T00:00:00Z',
        validUntil: '2030-01-01T00:00:00Z',
        credentialSubject: { type: ['AchievementSubject'], achievement: { id: 'urn:uuid:9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f', type: ['Achievement'], name: 'Badge', description: 'A badge', criteria: { narrative: 'Did it' } } },
      },
      suite: new DataIntegrityProof({ signer, cryptosuite }),
      documentLoader: staticDocumentLoader,
    });
    const now = () => new Date('2026-01-01T00:00:00Z');
    const result = await verifyCredentialFile(credential, { chainFor: () => undefined, now });
    expect(result.result.status).toBe('ok');
    expect(stepStatuses(result)).toEqual({ certificate: 'passed', blockchain: 'not_started', issuer: 'passed', file: 'not_started', expiry: 'passed', revocation: 'not_started' });
    expect(result.verification.blockchain.description.reason).toMatch(/^Not anchored by Proofdesk: this credential has no anchor proof/);
    expect(result.verification.issuer.description).toMatchObject({ issuer_name: 'Another Academy' });

    const expired = await verifyCredentialFile(credential, { chainFor: () => undefined, now: () => new Date('2031-01-01T00:00:00Z') });
    expect(expired.result.status).toBe('expired');
    const tampered = await verifyCredentialFile({ ...credential, name: 'Forged' }, { chainFor: () => undefined, now });
    expect(tampered.result.status).toBe('failed');

    // Signed by a did:web key: not resolvable offline, so refused with the URL named (not "failed").
    const webSigner = { ...signer, id: 'did:web:academy.example#key-1' };
    const { proof: _signed, ...unsigned } = credential;
    const byWeb = await vc.issue({
      credential: { ...unsigned, issuer: { id: 'did:web:academy.example', type: ['Profile'], name: 'Another Academy' } },
      suite: new DataIntegrityProof({ signer: webSigner, cryptosuite }),
      documentLoader: staticDocumentLoader,
    });
    const refused = await errorOf(verifyCredentialFile(byWeb, { chainFor: () => undefined, now }));
    expect(refused).toMatchObject({ id: 'invalid_value', message: expect.stringContaining('needs "did:web:academy.example#key-1", which Proofdesk cannot resolve offline') });
  });

  it('refuses with a sentence what it cannot verify: unknown context, unknown cryptosuite, no proof, not a credential', async () => {
    const credential = await exported(plain);
    const options = fx.engine.issuing.verifyOptions();
    const contexts = credential['@context'] as unknown[];
    const unknown = await errorOf(verifyCredentialFile({ ...credential, '@context': [...contexts, 'https://example.org/contexts/unknown.json'] }, options));
    expect(unknown).toMatchObject({ id: 'invalid_value', message: expect.stringMatching(/JSON-LD context "https:\/\/example\.org\/contexts\/unknown\.json", which is not bundled/) });
    const [dataIntegrity, anchor] = credential.proof as Json[];
    const suite = await errorOf(verifyCredentialFile({ ...credential, proof: [{ ...dataIntegrity, cryptosuite: 'ecdsa-rdfc-2019' }, anchor] }, options));
    expect(suite.message).toBe('This Verifiable Credential has a Proofdesk anchor proof but is secured with DataIntegrityProof with cryptosuite "ecdsa-rdfc-2019"; Proofdesk\'s own credentials carry a DataIntegrityProof with eddsa-rdfc-2022');
    const { proof: _proof, ...unsigned } = credential;
    expect((await errorOf(verifyCredentialFile(unsigned, options))).message).toMatch(/has no proof/);
    expect((await errorOf(verifyCredentialFile({ hello: 'world' }, options))).message).toMatch(/neither a Proofdesk proof file nor a Verifiable Credential/);
  });
});
