/**
 * Key backup and restore (main/workspace/settings/key-backup.ts) on real engines in temporary
 * data directories, each with its own secret store: a backup made in one restores the same
 * Partner (id, client credentials, chain account, signing key) in another; a wrong passphrase, a
 * damaged file or a too-short passphrase is refused with nothing changed; the file holds no key
 * in clear.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../common/errors.js';
import { Engine } from '../../main/engine/index.js';
import { MemorySecretStore } from '../../main/secrets/index.js';
import { backUpPartnerKeys, restorePartnerKeys } from '../../main/workspace/settings/key-backup.js';
import { makeTempDir } from '../support/engine-fixture.js';

const PASSPHRASE = 'correct horse battery staple';
const opened: Array<{ engine: Engine; dir: string }> = [];

function openEngine(): { engine: Engine; secrets: MemorySecretStore; dir: string } {
  const dir = makeTempDir('proofdesk-keys-');
  const secrets = new MemorySecretStore();
  const engine = Engine.open({ dataDir: join(dir, 'data'), secrets, sweepIntervalMs: false, issuing: { scheduler: false } });
  opened.push({ engine, dir });
  return { engine, secrets, dir };
}

afterEach(async () => {
  for (const { engine, dir } of opened.splice(0)) {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function refusal(promise: Promise<unknown>): Promise<{ id: string; message: string }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { id: error.id, message: error.message };
}

describe('key backup and restore', () => {
  it('restores the same Partner, chain account and signing key into another data directory', async () => {
    const first = openEngine();
    const added = await first.engine.addPartner({ name: 'Acme University', issuingIntervalSeconds: 600 });
    const path = join(first.dir, 'acme.proofdesk-keys');
    const made = await backUpPartnerKeys(first.engine, added.partner_id, path, PASSPHRASE);
    expect(made.address).toBe(added.address);

    const second = openEngine();
    const restored = await restorePartnerKeys(second.engine, path, PASSPHRASE);
    expect(restored).toMatchObject({ id: added.partner_id, name: 'Acme University', client_id: added.client_id, issuing_interval_seconds: 600, chain_address: added.address });
    // The same client credentials work there, and the same private keys are in its secret store.
    expect(second.engine.partners.authenticate(added.client_id, added.client_secret)).toEqual({ id: added.partner_id, name: 'Acme University' });
    const again = await second.engine.backupPartner(added.partner_id);
    const original = await first.engine.backupPartner(added.partner_id);
    expect(again.keys).toEqual(original.keys);
    expect(again.keys.signingPublicKey).toBe(added.signing_public_key);
  });

  it('writes no key, secret hash or public key material in clear', async () => {
    const first = openEngine();
    const added = await first.engine.addPartner({ name: 'Acme University' });
    const path = join(first.dir, 'acme.proofdesk-keys');
    await backUpPartnerKeys(first.engine, added.partner_id, path, PASSPHRASE);
    const text = readFileSync(path, 'utf8');
    const { keys, partner } = await first.engine.backupPartner(added.partner_id);
    for (const secret of [keys.chainKey, keys.chainKey.slice(2), keys.signingKeyPkcs8, partner.secret_hash, added.client_secret, PASSPHRASE]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(keys.address.slice(2).toLowerCase());
  });

  it('refuses a wrong passphrase with a clear message and changes nothing', async () => {
    const first = openEngine();
    const added = await first.engine.addPartner({ name: 'Acme University' });
    const path = join(first.dir, 'acme.proofdesk-keys');
    await backUpPartnerKeys(first.engine, added.partner_id, path, PASSPHRASE);
    const second = openEngine();
    const error = await refusal(restorePartnerKeys(second.engine, path, 'not the right passphrase'));
    expect(error.id).toBe('invalid_value');
    expect(error.message).toMatch(/passphrase does not open this backup/);
    expect(second.engine.partners.list()).toEqual([]);
    expect(await second.secrets.get(`partner/${added.partner_id}/chain-key`)).toBeNull();
  });

  it('refuses a damaged file (a changed byte, a cut file, not JSON) and changes nothing', async () => {
    const first = openEngine();
    const added = await first.engine.addPartner({ name: 'Acme University' });
    const path = join(first.dir, 'acme.proofdesk-keys');
    await backUpPartnerKeys(first.engine, added.partner_id, path, PASSPHRASE);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { keys: { ciphertext: string } };
    const bytes = Buffer.from(file.keys.ciphertext, 'base64');
    bytes[10] = bytes[10]! ^ 0x01;
    const flipped = join(first.dir, 'flipped.proofdesk-keys');
    writeFileSync(flipped, JSON.stringify({ ...file, keys: { ...file.keys, ciphertext: bytes.toString('base64') } }));
    const cut = join(first.dir, 'cut.proofdesk-keys');
    writeFileSync(cut, readFileSync(path, 'utf8').slice(0, 200));
    const renamed = join(first.dir, 'renamed.proofdesk-keys');
    writeFileSync(renamed, JSON.stringify({ ...file, partner_name: 'Someone Else' }));

    const second = openEngine();
    for (const bad of [flipped, cut, renamed]) {
      const error = await refusal(restorePartnerKeys(second.engine, bad, PASSPHRASE));
      expect(error.id).toBe('invalid_value');
      expect(error.message).toMatch(/damaged|passphrase does not open/);
    }
    expect((await refusal(restorePartnerKeys(second.engine, flipped, PASSPHRASE))).message).toMatch(/is damaged or is not a Proofdesk key backup/);
    expect(second.engine.partners.list()).toEqual([]);
  });

  it('refuses a short passphrase or a relative path before writing anything', async () => {
    const first = openEngine();
    const added = await first.engine.addPartner({ name: 'Acme University' });
    const error = await refusal(backUpPartnerKeys(first.engine, added.partner_id, join(first.dir, 'x'), 'short'));
    expect(error).toMatchObject({ id: 'invalid_value' });
    expect(error.message).toMatch(/at least 10 characters/);
    const relative = await refusal(backUpPartnerKeys(first.engine, added.partner_id, 'acme.proofdesk-keys', PASSPHRASE));
    expect(relative.message).toMatch(/full path/);
    expect((await refusal(restorePartnerKeys(first.engine, 'acme.proofdesk-keys', PASSPHRASE))).message).toMatch(/full path/);
  });

  it('refuses to replace a Partner that already has other keys here', async () => {
    const first = openEngine();
    const added = await first.engine.addPartner({ name: 'Acme University' });
    const path = join(first.dir, 'acme.proofdesk-keys');
    await backUpPartnerKeys(first.engine, added.partner_id, path, PASSPHRASE);
    const second = openEngine();
    await restorePartnerKeys(second.engine, path, PASSPHRASE);
    const other = openEngine();
    const otherPartner = await other.engine.addPartner({ name: 'Acme University' });
    const otherPath = join(other.dir, 'other.proofdesk-keys');
    await backUpPartnerKeys(other.engine, otherPartner.partner_id, otherPath, PASSPHRASE);
    // A backup of a different Partner restores beside it; the same Partner again is a no-op.
    await expect(restorePartnerKeys(second.engine, path, PASSPHRASE)).resolves.toMatchObject({ id: added.partner_id });
    await expect(restorePartnerKeys(second.engine, otherPath, PASSPHRASE)).resolves.toMatchObject({ id: otherPartner.partner_id });
    expect(second.engine.partners.list()).toHaveLength(2);
    // The same Partner id with another Partner's keys: refused, its own keys stay.
    const mixed = { partner: (await first.engine.backupPartner(added.partner_id)).partner, keys: (await other.engine.backupPartner(otherPartner.partner_id)).keys };
    const error = await refusal(second.engine.restorePartner(mixed));
    expect(error.message).toMatch(/would replace its identity, so nothing was changed/);
    expect(second.engine.partners.find(added.partner_id)?.chain_address).toBe(added.address);
  });
});
