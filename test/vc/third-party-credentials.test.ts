/**
 * Other issuers' Verifiable Credentials, signed in the test with Digital Bazaar's libraries by a
 * fresh did:key (VC 2.0 with eddsa-rdfc-2022 and eddsa-jcs-2022, VC 1.1 with
 * Ed25519Signature2020): each verifies `ok` on the steps that apply, says in a sentence why the
 * Proofdesk-only steps do not, and fails after any field is changed. What cannot be verified
 * (malformed, unknown context, unknown cryptosuite, neither a proof nor a credential) is refused
 * with a sentence saying which.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../common/errors.js';
import type { VerifyOptions } from '../../main/engine/proofs/verify-proof.js';
import { verifyCredentialFile } from '../../main/engine/vc/verify-credential.js';
import { errorOf, sha256Hex, stepStatuses } from '../support/issuing-fixture.js';
import { setAt, signedByDidWeb, signedOpenBadge, signedVc11, tamperings, type Json } from '../support/third-party-credentials.js';

const at = (iso: string): VerifyOptions => ({ chainFor: () => undefined, now: () => new Date(iso) });
const NOW = '2026-06-01T00:00:00Z';
const APPLICABLE = { certificate: 'passed', blockchain: 'not_started', issuer: 'passed', file: 'not_started', expiry: 'passed', revocation: 'not_started' };

/** The result status, or `error` with the message when the credential is refused. */
async function outcome(credential: Json, options = at(NOW)): Promise<string> {
  try {
    return (await verifyCredentialFile(credential, options)).result.status;
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return 'error';
  }
}

async function expectTamperingCaught(credential: Json): Promise<void> {
  const changes = tamperings(credential);
  expect(changes.length).toBeGreaterThanOrEqual(8);
  for (const { path, changed } of changes) {
    expect(await outcome(setAt(credential, path, changed)), `changed ${path.join('.')}`).not.toBe('ok');
  }
}

describe.each(['eddsa-rdfc-2022', 'eddsa-jcs-2022'] as const)('a VC 2.0 Open Badge of another issuer secured with %s', (cryptosuite) => {
  it('verifies ok on the steps that apply; anchoring, revocation and the file say why they do not apply', async () => {
    const credential = await signedOpenBadge(cryptosuite, { validFrom: '2025-01-01T00:00:00Z', validUntil: '2030-01-01T00:00:00Z' });
    expect(credential.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite });
    const result = await verifyCredentialFile(credential, at(NOW));
    expect(result.result.status).toBe('ok');
    expect(stepStatuses(result)).toEqual(APPLICABLE);
    expect(result.verification.certificate.description).toMatchObject({ cryptosuite });
    expect(result.verification.issuer.description).toMatchObject({ issuer_name: 'Another Academy', issuer_id: expect.stringMatching(/^did:key:z6Mk/) });
    expect(result.verification.blockchain.description.reason).toBe('Not anchored by Proofdesk: this credential has no anchor proof, so there is no chain to check it on');
    expect(result.verification.revocation.description.reason).toMatch(/^Not revocable on a Proofdesk chain: this credential has no anchor proof/);
    expect(result.verification.file.description.reason).toMatch(/names no file digest/);
  });

  it('is expired after validUntil and not valid before validFrom', async () => {
    const credential = await signedOpenBadge(cryptosuite, { validFrom: '2025-01-01T00:00:00Z', validUntil: '2030-01-01T00:00:00Z' });
    const late = await verifyCredentialFile(credential, at('2030-02-01T00:00:00Z'));
    expect(late.result.status).toBe('expired');
    expect(late.verification.expiry.description.reason).toBe('Expired: this credential was valid until 2030-01-01T00:00:00Z');
    const early = await verifyCredentialFile(credential, at('2024-06-01T00:00:00Z'));
    expect(stepStatuses(early).expiry).toBe('failed');
    expect(early.verification.expiry.description.reason).toBe('Not valid yet: this credential is valid from 2025-01-01T00:00:00Z');
  });

  it('fails after any field is changed', async () => {
    await expectTamperingCaught(await signedOpenBadge(cryptosuite, { validFrom: '2025-01-01T00:00:00Z', validUntil: '2030-01-01T00:00:00Z' }));
  });

  it('checks an original file against its relatedResource digest', async () => {
    const bytes = 'the badge image';
    const digestSRI = `sha256-${Buffer.from(sha256Hex(bytes), 'hex').toString('base64')}`;
    const credential = await signedOpenBadge(cryptosuite, { validFrom: '2025-01-01T00:00:00Z' }, { relatedResource: [{ id: 'https://academy.example/badge.png', digestSRI }] });
    const matching = await verifyCredentialFile(credential, { ...at(NOW), originalFileHash: sha256Hex(bytes) });
    expect(matching.result.status).toBe('ok');
    expect(stepStatuses(matching).file).toBe('passed');
    const other = await verifyCredentialFile(credential, { ...at(NOW), originalFileHash: sha256Hex('another image') });
    expect(other.result.status).toBe('failed');
    expect(stepStatuses(other).file).toBe('failed');
    const none = await verifyCredentialFile(credential, at(NOW));
    expect(stepStatuses(none).file).toBe('not_started');
    expect(none.verification.file.description.reason).toMatch(/no original file was given/);
  });
});

describe('a VC 1.1 credential of another issuer secured with Ed25519Signature2020', () => {
  it('verifies ok on the steps that apply, expires at expirationDate, and fails after any field is changed', async () => {
    const credential = await signedVc11({ issuanceDate: '2025-01-01T00:00:00Z', expirationDate: '2030-01-01T00:00:00Z' });
    expect(credential.proof).toMatchObject({ type: 'Ed25519Signature2020', verificationMethod: expect.stringMatching(/^did:key:z6Mk.*#z6Mk/) });
    const result = await verifyCredentialFile(credential, at(NOW));
    expect(result.result.status).toBe('ok');
    expect(stepStatuses(result)).toEqual(APPLICABLE);
    expect(result.verification.expiry.description).toEqual({ issued_date: '2025-01-01T00:00:00Z', expiry_date: '2030-01-01T00:00:00Z' });
    expect((await verifyCredentialFile(credential, at('2031-01-01T00:00:00Z'))).result.status).toBe('expired');
    await expectTamperingCaught(credential);
  });
});

describe('a credential with a credentialStatus', () => {
  it('is verified on its signature and dates, the revocation step saying the status list is not fetched', async () => {
    const credentialStatus = { id: 'https://academy.example/status/3#94567', type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '94567', statusListCredential: 'https://academy.example/status/3' };
    const credential = await signedOpenBadge('eddsa-rdfc-2022', { validFrom: '2025-01-01T00:00:00Z' }, { credentialStatus });
    const result = await verifyCredentialFile(credential, at(NOW));
    expect(result.result.status).toBe('ok');
    expect(result.verification.revocation.description.reason).toBe('its credentialStatus was not checked: checking it fetches https://academy.example/status/3, and the network is off (verify --network turns it on)');
    const moved = await verifyCredentialFile({ ...credential, credentialStatus: { ...credentialStatus, statusListIndex: '1' } }, at(NOW));
    expect(moved.result.status).toBe('failed');
  });
});

describe('what cannot be verified is refused with a sentence saying which', () => {
  it('a malformed credential: a proof that is not an object, a required property missing, a date that is not one', async () => {
    const credential = await signedOpenBadge('eddsa-jcs-2022', { validFrom: '2025-01-01T00:00:00Z' });
    expect((await errorOf(verifyCredentialFile({ ...credential, proof: ['not a proof'] }, at(NOW)))).message).toBe('This Verifiable Credential has a proof that is not a JSON object');
    const { credentialSubject: _subject, ...subjectless } = credential;
    expect((await errorOf(verifyCredentialFile(subjectless, at(NOW)))).message).toMatch(/^This Verifiable Credential is malformed: .*credentialSubject/);
    expect((await errorOf(verifyCredentialFile({ ...credential, validUntil: 'next summer' }, at(NOW)))).message).toMatch(/^This Verifiable Credential is malformed: .*validUntil/);
  });

  it('an unknown context (the loader refuses it)', async () => {
    const credential = await signedOpenBadge('eddsa-jcs-2022', { validFrom: '2025-01-01T00:00:00Z' });
    const error = await errorOf(verifyCredentialFile({ ...credential, '@context': [...(credential['@context'] as unknown[]), 'https://academy.example/context.json'] }, at(NOW)));
    expect(error).toMatchObject({ id: 'invalid_value', message: expect.stringContaining('the JSON-LD context "https://academy.example/context.json", which is not bundled with Proofdesk') });
  });

  it('an unknown cryptosuite', async () => {
    const credential = await signedOpenBadge('eddsa-jcs-2022', { validFrom: '2025-01-01T00:00:00Z' });
    const error = await errorOf(verifyCredentialFile({ ...credential, proof: { ...(credential.proof as Json), cryptosuite: 'bbs-2023' } }, at(NOW)));
    expect(error.message).toBe('This Verifiable Credential is secured with DataIntegrityProof with cryptosuite "bbs-2023"; Proofdesk verifies DataIntegrityProof with eddsa-rdfc-2022 or eddsa-jcs-2022, or Ed25519Signature2020');
  });

  it('a JSON file that is neither a proof file nor a credential', async () => {
    expect((await errorOf(verifyCredentialFile({ name: 'a list of students' }, at(NOW)))).message).toBe('This file is neither a Proofdesk proof file nor a Verifiable Credential');
  });
});

describe('an issuer known by a did:web (its web server on this machine)', () => {
  let server: Server;
  let did: string;
  let served: Json | null = null;
  let asked = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      asked++;
      if (request.url !== '/.well-known/did.json' || served === null) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/did+json' }).end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    did = `did:web:127.0.0.1%3A${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is resolved only with the network on: then its signature is checked by the key its DID document lists', async () => {
    const { credential, document } = await signedByDidWeb(did, { validFrom: '2025-01-01T00:00:00Z' });
    served = document;
    asked = 0;
    // Network off: nothing is fetched, and the row says which URL it would need.
    const offline = await errorOf(verifyCredentialFile(credential, at(NOW)));
    expect(offline.message).toContain(did);
    expect(offline.message).toContain('verify --network');
    expect(asked).toBe(0);

    const online = await verifyCredentialFile(credential, { ...at(NOW), network: true });
    expect(online.result.status).toBe('ok');
    expect(online.verification.issuer.description).toMatchObject({ issuer_id: did });
    expect(asked).toBe(1);
    // Tampered: the fetched key does not sign it.
    expect((await verifyCredentialFile(setAt(credential, ['name'], 'Forged badge'), { ...at(NOW), network: true })).result.status).toBe('failed');
  });

  it('a DID document listing another key, or none at all, never lets the credential pass', async () => {
    const { credential } = await signedByDidWeb(did, { validFrom: '2025-01-01T00:00:00Z' });
    served = (await signedByDidWeb(did, { validFrom: '2025-01-01T00:00:00Z' })).document; // the same DID, another key
    expect((await verifyCredentialFile(credential, { ...at(NOW), network: true })).result.status).toBe('failed');
    served = null;
    const missing = await errorOf(verifyCredentialFile(credential, { ...at(NOW), network: true }));
    expect(missing.message).toBe(`This Verifiable Credential's issuer ${did} could not be resolved: http://${did.slice('did:web:'.length).replace('%3A', ':')}/.well-known/did.json answered HTTP 404`);
  });
});

