import { afterAll, describe, expect, it } from 'vitest';
import { leafOf, canonicalJson } from '../proofs/certificate-payload.js';
import { generateSigningKey, loadPrivateKey, signMessage, verifySignature } from '../proofs/ed25519.js';
import { payloadText } from '../proofs/payload-codec.js';
import { SignerPool } from './signer-pool.js';

const pool = new SignerPool(2);
afterAll(() => pool.close());

const texts = [0, 1, 2, 3].map((n) => canonicalJson({ uid: `0192-${n}`, credential: { title: `Diploma ${n}`, metadata: { name: 'Université ✓ 🎓', n } } }));

describe('the signer threads', () => {
  it('give each payload its SHA-256 leaf and the very Ed25519 signature node:crypto makes with the Partner’s key', async () => {
    const key = generateSigningKey();
    const signed = await pool.sign(key.privateKeyPkcs8, texts);
    texts.forEach((text, i) => {
      const leaf = signed.leaves.subarray(32 * i, 32 * (i + 1));
      const signature = signed.signatures.subarray(64 * i, 64 * (i + 1));
      expect(leaf.equals(leafOf(JSON.parse(text)))).toBe(true);
      expect(signature.equals(signMessage(loadPrivateKey(key.privateKeyPkcs8), leaf))).toBe(true);
      expect(verifySignature(key.publicKeyHex, leaf, signature)).toBe(true);
    });
    expect(signed.compressed).toBeUndefined();
  });

  it('sign with whichever Partner’s key each call names, and store each payload so that it reads back as its text', async () => {
    const [first, second] = [generateSigningKey(), generateSigningKey()];
    const dictionary = Buffer.from(texts[0]!);
    const a = await pool.sign(first.privateKeyPkcs8, texts, dictionary);
    const b = await pool.sign(second.privateKeyPkcs8, texts, dictionary);
    expect(verifySignature(first.publicKeyHex, a.leaves.subarray(0, 32), a.signatures.subarray(0, 64))).toBe(true);
    expect(verifySignature(second.publicKeyHex, b.leaves.subarray(0, 32), b.signatures.subarray(0, 64))).toBe(true);
    expect(verifySignature(first.publicKeyHex, b.leaves.subarray(0, 32), b.signatures.subarray(0, 64))).toBe(false);
    expect(a.compressed!.map((stored) => payloadText(stored, dictionary))).toEqual(texts);
  });
});
