import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** The signature scheme of certificates, as proof files name it. */
export const SIGNATURE_SCHEME = 'Ed25519';

// An Ed25519 SubjectPublicKeyInfo in DER is this 12-byte prefix plus the 32-byte key.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A new certificate-signing key: the private key as PKCS#8 (base64), the public key raw (hex). */
export function generateSigningKey(): { privateKeyPkcs8: string; publicKeyHex: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPkcs8: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKeyHex: publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length).toString('hex'),
  };
}

export function loadPrivateKey(pkcs8Base64: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(pkcs8Base64, 'base64'), format: 'der', type: 'pkcs8' });
}

/** The public key of a raw 32-byte hex Ed25519 key; throws on anything else. */
export function loadPublicKey(publicKeyHex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex)) throw new Error('An Ed25519 public key is 32 bytes of hex');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });
}

export function signMessage(privateKey: KeyObject, message: Buffer): Buffer {
  return sign(null, message, privateKey);
}

// Proofs of one Partner share its key; building the KeyObject costs more than the check itself.
const publicKeys = new Map<string, KeyObject>();

function cachedPublicKey(publicKeyHex: string): KeyObject {
  let key = publicKeys.get(publicKeyHex);
  if (!key) {
    key = loadPublicKey(publicKeyHex);
    if (publicKeys.size >= 256) publicKeys.delete(publicKeys.keys().next().value!);
    publicKeys.set(publicKeyHex, key);
  }
  return key;
}

/** Whether the signature is the key's over the message; false (never a throw) for garbage. */
export function verifySignature(publicKeyHex: string, message: Buffer, signature: Buffer): boolean {
  try {
    return verify(null, message, cachedPublicKey(publicKeyHex), signature);
  } catch {
    return false;
  }
}
