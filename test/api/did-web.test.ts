/**
 * `serve --did-web-partner`: the Partner's did:web document at /.well-known/did.json on a real
 * server on loopback, naming this server's host and listing the Partner's signing key (the key
 * of its did:key and its credentials); nothing there without the option, nor for another Host.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../main/api/index.js';
import { ed25519Multibase } from '../../main/engine/vc/did-key.js';
import { addIssuingPartner, openIssuingEngine, removeTempDirs, type IssuingFixture, type IssuingPartner } from '../support/issuing-fixture.js';

describe('did:web document', () => {
  let fx: IssuingFixture;
  let partner: IssuingPartner;
  let withDid: RunningServer;
  let without: RunningServer;

  beforeAll(async () => {
    fx = openIssuingEngine();
    partner = await addIssuingPartner(fx.engine, 'University of the Web');
    await addIssuingPartner(fx.engine, 'Another University');
    withDid = await startServer({ engine: fx.engine, environment: 'demo', didWebPartner: partner.id, log: () => undefined });
    without = await startServer({ engine: fx.engine, environment: 'demo', log: () => undefined });
  });

  afterAll(async () => {
    await withDid?.close();
    await without?.close();
    await fx?.close();
    removeTempDirs();
  });

  function didUrl(server: RunningServer): string {
    return new URL('/.well-known/did.json', server.baseUrl).href;
  }

  it('lists the Partner’s signing key under did:web:<host>, public, as application/did+json', async () => {
    const answer = await request(didUrl(withDid));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/did\+json/);
    const document = (await answer.body.json()) as { id: string; verificationMethod: { id: string; type: string; controller: string; publicKeyMultibase: string }[]; assertionMethod: string[] };
    const port = new URL(withDid.baseUrl).port;
    expect(document.id).toBe(`did:web:127.0.0.1%3A${port}`);
    const multibase = ed25519Multibase(partner.signingPublicKey);
    expect(document.verificationMethod).toEqual([{ id: `${document.id}#${multibase}`, type: 'Multikey', controller: document.id, publicKeyMultibase: multibase }]);
    expect(document.assertionMethod).toEqual([`${document.id}#${multibase}`]);
  });

  it('is not there without the option, nor for a Host this server does not answer to', async () => {
    expect((await request(didUrl(without))).statusCode).toBe(404);
    expect((await request(didUrl(withDid), { headers: { host: 'elsewhere.example' } })).statusCode).toBe(404);
  });
});
