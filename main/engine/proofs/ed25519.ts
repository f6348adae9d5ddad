import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

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

export function signMessage(privateKey: KeyObject, message: Buffer): Buffer {
  return sign(null, message, privateKey);
}

/** The one libsodium call used (sodium-native has no types of its own). */
interface Sodium {
  crypto_sign_verify_detached(signature: Buffer, message: Buffer, publicKey: Buffer): boolean;
}

/**
 * Checking signatures is the costliest step of verifying a proof: libsodium's check takes about
 * half the time of Node's (OpenSSL's), which a folder of thousands of proofs feels. It ships prebuilt for every platform the app is built for (N-API, so the
 * same binary loads in Electron). Certificates are signed with it too, on the signer threads
 * (issuing/signer-pool.ts); other signatures stay with node:crypto (the keys are PKCS#8 there).
 * libsodium also refuses what RFC 8032 lets a verifier refuse (non-canonical or small-order
 * points): no signature made by a real signer is among them. Loaded on first use: commands
 * that never check a signature do not load it.
 */
let sodium: Sodium | undefined;

function loadSodium(): Sodium {
  return (sodium ??= createRequire(import.meta.url)('sodium-native') as Sodium);
}

const PUBLIC_KEY = /^[0-9a-f]{64}$/i;
// Proofs of one Partner share its key: its bytes are decoded once.
const publicKeys = new Map<string, Buffer>();

function publicKeyBytes(publicKeyHex: string): Buffer | undefined {
  let key = publicKeys.get(publicKeyHex);
  if (!key) {
    if (!PUBLIC_KEY.test(publicKeyHex)) return undefined;
    key = Buffer.from(publicKeyHex, 'hex');
    if (publicKeys.size >= 256) publicKeys.delete(publicKeys.keys().next().value!);
    publicKeys.set(publicKeyHex, key);
  }
  return key;
}

/** Whether the signature is the key's over the message; false (never a throw) for garbage. */
export function verifySignature(publicKeyHex: string, message: Buffer, signature: Buffer): boolean {
  const key = publicKeyBytes(publicKeyHex);
  if (!key || signature.length !== 64) return false;
  return loadSodium().crypto_sign_verify_detached(signature, message, key);
}
