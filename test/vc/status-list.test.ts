/**
 * Revocation outside Proofdesk: a `serve` on loopback whose public URL is itself. Credentials
 * exported there carry a Bitstring Status List entry; Digital Bazaar's verifier with the status
 * list library (fetching the list from the running serve) finds them valid, then revoked once
 * the certificate is revoked over REST, and refuses a tampered list; Proofdesk's verify reads
 * the list only with the network on (`VerifyOptions.network`; the Verify view’s switch), for its own
 * credentials and another issuer’s alike. Certificates are issued on the local chain.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import type { DocumentLoader } from '@digitalbazaar/vc';
import { checkStatus, createCredential, createList, decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../common/wire-types.js';
import { startServer, type RunningServer } from '../../main/api/index.js';
import { createAppContext } from '../../main/app/app-context.js';
import { createIpcHandlers } from '../../main/app/ipc-handlers.js';
import type { EmbeddedService } from '../../main/engine/embedded-service.js';
import { didKeyOf, verificationMethodOf } from '../../main/engine/vc/did-key.js';
import { OPEN_BADGES_CONTEXT, staticDocumentLoader, VC_CONTEXT_V2 } from '../../main/engine/vc/document-loader.js';
import { keySigner } from '../../main/engine/vc/sign-credential.js';
import { verifyCredentialFile } from '../../main/engine/vc/verify-credential.js';
import { requestToken } from '../api/api-fixture.js';
import { expectOk, issueNowAndFinish, makeTempDir, openIssuingEngine, removeTempDirs, stepStatuses, type IssuingFixture } from '../support/issuing-fixture.js';

type Json = Record<string, unknown>;

/** A document loader as a verifier runs it: the bundled contexts and did:key, and status lists fetched over HTTP. */
const fetchingLoader: DocumentLoader = async (url) => {
  if (!url.startsWith('http://127.0.0.1:') || !url.includes('/status/')) return staticDocumentLoader(url);
  const answer = await request(url);
  if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
  return { contextUrl: null, documentUrl: url, document: await answer.body.json() };
};

/** Digital Bazaar's verifier with status checking: whether it verifies, and the status bit it read. */
async function thirdParty(credential: Json, documentLoader: DocumentLoader = fetchingLoader): Promise<{ verified: boolean; revoked: boolean | undefined; error: string | undefined }> {
  const suite = new DataIntegrityProof({ cryptosuite });
  const result = await vc.verifyCredential({ credential, suite, documentLoader, checkStatus });
  return { verified: result.verified, revoked: result.statusResult?.results?.[0]?.status, error: result.statusResult?.error?.message };
}

describe('Bitstring Status List revocation', () => {
  let fx: IssuingFixture;
  let service: EmbeddedService;
  let partnerId: string;
  let publicKey: string;
  let server: RunningServer;
  let token: string;
  let first: Credential;
  let second: Credential;
  let third: Credential;
  let fourth: Credential;
  let beforePublicUrl: Json;
  const certificateOf = new Map<string, string>();

  beforeAll(async () => {
    fx = openIssuingEngine();
    const created = await fx.engine.addPartner({ name: 'University of Status' });
    partnerId = created.partner_id;
    publicKey = created.signing_public_key;
    service = fx.engine.serviceFor(partnerId);
    const made = await service.createCredentials([
      { title: 'Diploma in Statistics', metadata: { student: 'Grace Hopper' } },
      { title: 'Diploma in Logic', metadata: { student: 'Alan Turing' } },
      { title: 'Diploma in Cryptography', metadata: { student: 'Whitfield Diffie' } },
      { title: 'Diploma in Compilers', metadata: { student: 'Frances Allen' } },
    ]);
    [first, second, third, fourth] = made as [Credential, Credential, Credential, Credential];
    await service.scheduleCredentials({ engine: 'local', credentials: made.map((c) => c.uid) });
    const job = await issueNowAndFinish(fx.engine, service, 'local');
    for (const c of (await service.listJobCertificates(job.uid, { per_page: 0 })).items) certificateOf.set(c.certificate.credential.uid, c.certificate.uid);
    beforePublicUrl = JSON.parse(await service.downloadCertificateVc(certificateOf.get(first.uid)!)) as Json;

    server = await startServer({ engine: fx.engine, environment: 'demo', log: () => undefined });
    // The server's own address is its public URL: verifiers fetch the lists from it.
    fx.engine.setPublicUrl(new URL(server.baseUrl).origin);
    token = (await requestToken(server.authUrl, created.client_id, created.client_secret)).body.access_token as string;
  });

  afterAll(async () => {
    await server?.close();
    await fx?.close();
    removeTempDirs();
  });

  async function restVc(credential: Credential): Promise<Json> {
    const answer = await request(`${server.baseUrl}/certificates/${certificateOf.get(credential.uid)}/download?format=vc`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.statusCode).toBe(200);
    return (await answer.body.json()) as Json;
  }

  async function statusListOf(credential: Json): Promise<{ url: string; text: string; headers: Record<string, unknown> }> {
    const url = (credential.credentialStatus as { statusListCredential: string }).statusListCredential;
    const answer = await request(url);
    expect(answer.statusCode).toBe(200);
    return { url, text: await answer.body.text(), headers: answer.headers };
  }

  it('without a public URL a credential carries no credentialStatus', () => {
    expect(beforePublicUrl).not.toHaveProperty('credentialStatus');
  });

  it('with one, every credential exported carries its entry, the same over REST, in bulk and each time', async () => {
    const credential = await restVc(first);
    const origin = new URL(server.baseUrl).origin;
    const listUrl = `${origin}/status/${partnerId}/1`;
    const index = (credential.credentialStatus as { statusListIndex: string }).statusListIndex;
    expect(Number(index)).toBeLessThan(131_072);
    expect(credential.credentialStatus).toEqual({
      id: `${listUrl}#${index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: expect.stringMatching(/^(0|[1-9]\d*)$/),
      statusListCredential: listUrl,
    });
    expect(await restVc(first)).toEqual(credential);
    // The bulk export (worker threads) signs the very same credentials.
    const bulk = (await service.downloadCertificateVcs([certificateOf.get(first.uid)!, certificateOf.get(second.uid)!])).map((t) => JSON.parse(t as string) as Json);
    expect(bulk[0]).toEqual(credential);
    expect(bulk[1]!.credentialStatus).toMatchObject({ statusListCredential: listUrl });
    expect((bulk[1]!.credentialStatus as { statusListIndex: string }).statusListIndex).not.toBe(index);
  });

  it('serve publishes the list signed by the Partner’s key, public and briefly cacheable; a verifier finds the credential valid', async () => {
    const credential = await restVc(first);
    const list = await statusListOf(credential);
    expect(list.headers['cache-control']).toBe('public, max-age=60');
    expect(list.headers['content-type']).toMatch(/^application\/vc/);
    const published = JSON.parse(list.text) as Json;
    expect(published).toMatchObject({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: list.url,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: didKeyOf(publicKey),
      credentialSubject: { id: `${list.url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation' },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' },
    });
    const bits = await decodeList({ encodedList: (published.credentialSubject as { encodedList: string }).encodedList });
    expect(bits.length).toBeGreaterThanOrEqual(131_072);
    expect(await thirdParty(credential)).toEqual({ verified: true, revoked: false, error: undefined });
    // Unchanged lists are not signed again: the same text (and signing date) each time.
    expect((await statusListOf(credential)).text).toBe(list.text);
    // No list there for an unknown Partner or list, with or without a token.
    expect((await request(`${new URL(server.baseUrl).origin}/status/${partnerId}/9`)).statusCode).toBe(404);
    expect((await request(`${new URL(server.baseUrl).origin}/status/not-a-partner/1`)).statusCode).toBe(404);
  });

  it('Proofdesk’s verify reads the list only with the network on', async () => {
    const credential = await restVc(first);
    const offline = await verifyCredentialFile(credential, fx.engine.issuing.verifyOptions());
    expectOk(offline);
    expect(offline.verification.revocation.description.credential_status).toMatchObject({ checked: false, reason: expect.stringMatching(/network is off/) });
    const online = await verifyCredentialFile(credential, { ...fx.engine.issuing.verifyOptions(), network: true });
    expectOk(online);
    const { statusListIndex } = credential.credentialStatus as { statusListIndex: string };
    expect(online.verification.revocation.description.credential_status).toMatchObject({ checked: true, revoked: false, status_list_index: statusListIndex });
  });

  it('revoking over REST flips the list: both verifiers then see the same credential revoked', async () => {
    const credential = await restVc(second);
    const before = await statusListOf(credential);
    expect(await thirdParty(credential)).toMatchObject({ verified: true, revoked: false });

    const revoke = await request(`${server.baseUrl}/certificates/${certificateOf.get(second.uid)}/revoke`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(revoke.statusCode).toBe(200);
    await revoke.body.dump();

    const after = await statusListOf(credential);
    expect(after.text).not.toBe(before.text);
    expect(await thirdParty(credential)).toMatchObject({ verified: true, revoked: true });
    // The other credential of the list stays valid.
    expect(await thirdParty(await restVc(first))).toMatchObject({ verified: true, revoked: false });

    // With no chain to ask, the list alone answers: revoked.
    const listOnly = await verifyCredentialFile(credential, { chainFor: () => undefined, network: true });
    expect(listOnly.result.status).toBe('revoked');
    const { statusListIndex } = credential.credentialStatus as { statusListIndex: string };
    expect(listOnly.verification.revocation.description).toMatchObject({ is_revoked: true, credential_status: { checked: true, revoked: true, status_list_index: statusListIndex } });
    const both = await verifyCredentialFile(credential, { ...fx.engine.issuing.verifyOptions(), network: true });
    expect(both.result.status).toBe('revoked');
    expect(both.verification.revocation.description).toMatchObject({ is_revoked: true, credential_status: { revoked: true } });
    // Offline, the chain still answers as before (the list is not read).
    const offline = await verifyCredentialFile(credential, { chainFor: () => undefined });
    expect(offline.result.status).toBe('pending');
    expect(offline.verification.revocation.description.credential_status).toMatchObject({ checked: false });
  });

  it('a certificate revoked before its first export is revoked in the list from that export on', async () => {
    // The list is signed and kept (as served before); the certificate is revoked, then exported.
    const listUrl = (await restVc(first)).credentialStatus as { statusListCredential: string };
    const before = await request(listUrl.statusListCredential);
    expect(before.statusCode).toBe(200);
    await before.body.dump();
    await service.revokeCertificate(certificateOf.get(fourth.uid)!);
    const credential = await restVc(fourth);
    expect(credential.credentialStatus).toMatchObject({ statusListCredential: listUrl.statusListCredential });
    expect(await thirdParty(credential)).toMatchObject({ verified: true, revoked: true });
  });

  it('the Verify view reads the lists only once the user turns the network on', async () => {
    const ctx = createAppContext({ engine: fx.engine, partner: { id: partnerId, name: 'University of Status' } });
    const handlers = createIpcHandlers(ctx);
    const drop = makeTempDir('proofdesk-status-drop-');
    writeFileSync(join(drop, 'first.vc.json'), JSON.stringify(await restVc(first)));
    writeFileSync(join(drop, 'second.vc.json'), JSON.stringify(await restVc(second)));
    const statuses = async () => {
      const { summary, task } = await handlers['verify:start']([drop]);
      await new Promise<void>((resolve) => {
        const off = ctx.events.subscribe((event) => {
          if (event.type === 'task' && event.task.id === task.id && event.task.state !== 'running') {
            off();
            resolve();
          }
        });
      });
      const { rows } = await handlers['verify:rows'](summary.run_id, { offset: 0, limit: 10, failures_only: false });
      const out: Record<string, { result: string; status: unknown }> = {};
      for (const row of rows) {
        const detail = await handlers['verify:detail'](summary.run_id, row.index);
        out[row.name.split('/').pop()!] = { result: row.result, status: detail.result?.verification.revocation.description.credential_status };
      }
      return out;
    };
    expect(await handlers['verify:network']()).toBe(false);
    expect(await statuses()).toEqual({
      'first.vc.json': { result: 'ok', status: expect.objectContaining({ checked: false }) },
      'second.vc.json': { result: 'revoked', status: expect.objectContaining({ checked: false }) },
    });
    expect(await handlers['verify:setNetwork'](true)).toBe(true);
    expect(await statuses()).toEqual({
      'first.vc.json': { result: 'ok', status: expect.objectContaining({ checked: true, revoked: false }) },
      'second.vc.json': { result: 'revoked', status: expect.objectContaining({ checked: true, revoked: true }) },
    });
    await handlers['verify:setNetwork'](false);
  });

  it('another issuer’s credential with a status list: its revocation step is the list’s answer, with the network on', async () => {
    // Another issuer on loopback: its own key, its own list (position 7 revoked once `revoked` is set).
    const { privateKey, publicKey: foreignPublic } = generateKeyPairSync('ed25519');
    const keyHex = foreignPublic.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
    const sign = keySigner(privateKey);
    const suite = () => new DataIntegrityProof({ signer: { id: verificationMethodOf(keyHex), algorithm: 'Ed25519', sign: async ({ data }: { data: Uint8Array }) => sign(data) }, cryptosuite });
    let revoked = false;
    const academy: Server = createServer((req, res) => {
      void (async () => {
        const bits = await createList({ length: 131_072 });
        if (revoked) bits.setStatus(7, true);
        const id = `http://${req.headers.host}/lists/1`;
        const list = await vc.issue({ credential: { ...(await createCredential({ id, list: bits, statusPurpose: 'revocation' })), issuer: didKeyOf(keyHex), validFrom: '2025-01-01T00:00:00Z' }, suite: suite(), documentLoader: staticDocumentLoader });
        res.writeHead(req.url === '/lists/1' ? 200 : 404, { 'content-type': 'application/vc' });
        res.end(JSON.stringify(list));
      })();
    });
    await new Promise<void>((resolve) => academy.listen(0, '127.0.0.1', resolve));
    try {
      const listUrl = `http://127.0.0.1:${(academy.address() as AddressInfo).port}/lists/1`;
      const issue = (url: string) =>
        vc.issue({
          credential: {
            '@context': [VC_CONTEXT_V2, OPEN_BADGES_CONTEXT],
            id: 'urn:uuid:3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
            type: ['VerifiableCredential', 'OpenBadgeCredential'],
            name: 'Badge of another academy',
            issuer: { id: didKeyOf(keyHex), type: ['Profile'], name: 'Another Academy' },
            validFrom: '2025-01-01T00:00:00Z',
            credentialSubject: { type: ['AchievementSubject'], achievement: { id: 'urn:uuid:9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f', type: ['Achievement'], name: 'Badge', description: 'A badge', criteria: { narrative: 'Did it' } } },
            credentialStatus: { id: `${url}#7`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '7', statusListCredential: url },
          },
          suite: suite(),
          documentLoader: staticDocumentLoader,
        });
      const badge = await issue(listUrl);
      const options = { chainFor: () => undefined };
      const offline = await verifyCredentialFile(badge, options);
      expect(offline.result.status).toBe('ok');
      expect(offline.verification.revocation).toMatchObject({ status: 'not_started', description: { reason: expect.stringMatching(/network is off/) } });
      const valid = await verifyCredentialFile(badge, { ...options, network: true });
      expect(valid.result.status).toBe('ok');
      expect(valid.verification.revocation).toMatchObject({ status: 'passed', description: { is_revoked: false, credential_status: { checked: true, revoked: false } } });
      revoked = true;
      const gone = await verifyCredentialFile(badge, { ...options, network: true });
      expect(gone.result.status).toBe('revoked');
      // A list that cannot be had: pending with the reason, never ok.
      const unreachable = await verifyCredentialFile(await issue(listUrl.replace('/lists/1', '/lists/2')), { ...options, network: true });
      expect(unreachable.result.status).toBe('pending');
      expect(unreachable.verification.revocation.description.reason).toMatch(/could not be fetched: .* answered HTTP 404/);
    } finally {
      await new Promise((resolve) => academy.close(resolve));
    }
  });

  it('a tampered status list fails its signature, for Digital Bazaar’s verifier and for Proofdesk’s', async () => {
    // A proxy on loopback that serves serve's lists with another bit set than the list has.
    const origin = new URL(server.baseUrl);
    const forged = async (text: string) => {
      const list = JSON.parse(text) as { credentialSubject: { encodedList: string } };
      const bits = await createList({ length: 131_072 });
      bits.setStatus(0, true);
      list.credentialSubject.encodedList = await bits.encode();
      return JSON.stringify(list);
    };
    const proxy: Server = createServer((req, res) => {
      void (async () => {
        const upstream = await request(`${origin.origin}${req.url}`);
        const text = await upstream.body.text();
        res.writeHead(upstream.statusCode, { 'content-type': 'application/vc' });
        res.end(upstream.statusCode === 200 ? await forged(text) : text);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      // Lists are kept at the URL they were opened under: the next position opens list 2 at the proxy.
      fx.engine.setPublicUrl(proxyUrl);
      const credential = JSON.parse(await service.downloadCertificateVc(certificateOf.get(third.uid)!)) as Json;
      expect(credential.credentialStatus).toMatchObject({ statusListCredential: `${proxyUrl}/status/${partnerId}/2` });
      // The credentials exported before keep their list (and so their signed entry).
      expect((await restVc(first)).credentialStatus).toMatchObject({ statusListCredential: `${origin.origin}/status/${partnerId}/1` });

      const byThirdParty = await thirdParty(credential);
      expect(byThirdParty.verified).toBe(false);
      expect(byThirdParty.error).toMatch(/not verified/);
      const ours = await verifyCredentialFile(credential, { ...fx.engine.issuing.verifyOptions(), network: true });
      expect(stepStatuses(ours).revocation).toBe('error');
      expect(ours.verification.revocation.description.reason).toMatch(/status list .* does not hold/);
    } finally {
      fx.engine.setPublicUrl(origin.origin);
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
