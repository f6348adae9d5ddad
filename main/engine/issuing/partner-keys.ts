import { createPublicKey, type KeyObject } from 'node:crypto';
import { ServiceError } from '../../../common/errors.js';
import type { SecretStore } from '../../../common/secret-store.js';
import { accountFromPrivateKey, generatePrivateKey, type Hex } from '../../chain/index.js';
import type { Db } from '../database.js';
import { cached } from '../list-query.js';
import { generateSigningKey, loadPrivateKey } from '../proofs/ed25519.js';
import type { PartnerScope } from '../scope.js';

/** A Partner's public identities: its chain account and its certificate-signing key. */
export interface PartnerIdentity {
  address: Hex;
  signingPublicKey: string;
}

const chainKeyAccount = (partnerId: string) => `partner/${partnerId}/chain-key`;
const signingKeyAccount = (partnerId: string) => `partner/${partnerId}/signing-key`;

function requireSecrets(secrets: SecretStore | undefined): SecretStore {
  if (!secrets) {
    throw new ServiceError('internal_error', 'No secret store is configured: issuing needs the keychain, or PROOFDESK_PASSPHRASE for an encrypted file');
  }
  return secrets;
}

/** The public parts of the Partner's keys as recorded, if they are made. */
function recordedKeys(db: Db, partnerId: string): { chain_address: Hex; signing_public_key: string } | undefined {
  return cached(db, 'SELECT chain_address, signing_public_key FROM partner_keys WHERE partner_id = ?').get(partnerId) as { chain_address: Hex; signing_public_key: string } | undefined;
}

/** The Partner's signing public key (hex), or null before its keys are made (the app's Settings view shows it). */
export function signingPublicKey(scope: PartnerScope): string | null {
  return recordedKeys(scope.db, scope.partner.id)?.signing_public_key ?? null;
}

/**
 * The Partner's keys, made on first need: a secp256k1 chain account and an Ed25519 signing
 * key. Private keys go only to the SecretStore (written before the public parts are recorded,
 * so a crash between the two leaves nothing unusable); SQLite keeps the public parts.
 */
export async function ensurePartnerKeys(db: Db, secrets: SecretStore | undefined, partnerId: string): Promise<PartnerIdentity> {
  const known = recordedKeys(db, partnerId);
  if (known) return { address: known.chain_address, signingPublicKey: known.signing_public_key };
  const store = requireSecrets(secrets);
  const chainKey = generatePrivateKey();
  const signing = generateSigningKey();
  await store.set(chainKeyAccount(partnerId), chainKey);
  await store.set(signingKeyAccount(partnerId), signing.privateKeyPkcs8);
  const address = accountFromPrivateKey(chainKey).address;
  cached(db, 'INSERT INTO partner_keys (partner_id, chain_address, signing_public_key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(partnerId, address, signing.publicKeyHex);
  return ensurePartnerKeys(db, secrets, partnerId);
}

async function readSecret(secrets: SecretStore | undefined, account: string): Promise<string> {
  const value = await requireSecrets(secrets).get(account);
  if (value === null) {
    throw new ServiceError('internal_error', `The secret store (${secrets!.kind}) lacks a key of this Partner (${account}): restore it from a backup of the keychain or secrets file`);
  }
  return value;
}

/** The Partner's chain account private key, from the SecretStore. */
export async function loadChainKey(secrets: SecretStore | undefined, partnerId: string): Promise<Hex> {
  return (await readSecret(secrets, chainKeyAccount(partnerId))) as Hex;
}

/** The Partner's certificate-signing key, from the SecretStore: PKCS#8 base64 and as a KeyObject. */
export async function loadSigningKey(secrets: SecretStore | undefined, partnerId: string): Promise<{ pkcs8: string; key: KeyObject }> {
  const pkcs8 = await readSecret(secrets, signingKeyAccount(partnerId));
  return { pkcs8, key: loadPrivateKey(pkcs8) };
}

// Key backup and restore: the Partner's key material as a backup carries it.
/** Both private keys with their public parts; only for an encrypted backup, never for disk in clear. */
export interface PartnerKeyMaterial {
  chainKey: Hex;
  signingKeyPkcs8: string;
  address: Hex;
  signingPublicKey: string;
}

/** The Partner's keys as they are (made first when it has none yet). */
export async function exportPartnerKeys(db: Db, secrets: SecretStore | undefined, partnerId: string): Promise<PartnerKeyMaterial> {
  const identity = await ensurePartnerKeys(db, secrets, partnerId);
  const chainKey = await loadChainKey(secrets, partnerId);
  const signing = await loadSigningKey(secrets, partnerId);
  return { chainKey, signingKeyPkcs8: signing.pkcs8, address: identity.address, signingPublicKey: identity.signingPublicKey };
}

/**
 * Puts restored keys in place: checked first (each private key must give its recorded public
 * part), then into the SecretStore, then the public parts into SQLite, as ensurePartnerKeys does.
 * A Partner that already has other keys is refused: restoring must never replace an identity.
 */
export async function importPartnerKeys(db: Db, secrets: SecretStore | undefined, partnerId: string, keys: PartnerKeyMaterial): Promise<PartnerIdentity> {
  const store = requireSecrets(secrets);
  if (accountFromPrivateKey(keys.chainKey).address.toLowerCase() !== keys.address.toLowerCase()) {
    throw new ServiceError('invalid_value', 'The backup is damaged: its chain key does not give its chain account.');
  }
  const publicKeyHex = createPublicKey(loadPrivateKey(keys.signingKeyPkcs8)).export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  if (publicKeyHex !== keys.signingPublicKey.toLowerCase()) {
    throw new ServiceError('invalid_value', 'The backup is damaged: its signing key does not give its public key.');
  }
  const known = recordedKeys(db, partnerId);
  if (known && (known.chain_address.toLowerCase() !== keys.address.toLowerCase() || known.signing_public_key !== publicKeyHex)) {
    throw new ServiceError('invalid_value', 'This Partner already has other keys here; restoring would replace its identity, so nothing was changed.');
  }
  await store.set(chainKeyAccount(partnerId), keys.chainKey);
  await store.set(signingKeyAccount(partnerId), keys.signingKeyPkcs8);
  cached(db, 'INSERT INTO partner_keys (partner_id, chain_address, signing_public_key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(partnerId, keys.address, publicKeyHex);
  return ensurePartnerKeys(db, secrets, partnerId);
}
