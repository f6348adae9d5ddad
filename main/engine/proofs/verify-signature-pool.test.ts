import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSigningKey, loadPrivateKey, signMessage, verifySignature } from './ed25519.js';
import { SignaturePool } from './verify-signature-pool.js';

const pool = new SignaturePool(2);
afterAll(() => pool.close());

function signed(count: number) {
  const keys = [generateSigningKey(), generateSigningKey()];
  return Array.from({ length: count }, (_, i) => {
    const key = keys[i % 2]!;
    const message = randomBytes(32);
    let signature = signMessage(loadPrivateKey(key.privateKeyPkcs8), message);
    // Every third one is forged: a flipped bit, or the other key's signature.
    if (i % 3 === 1) signature = Buffer.from(signature.map((b, j) => (j === 5 ? b ^ 1 : b)));
    if (i % 3 === 2 && i % 2 === 0) signature = signMessage(loadPrivateKey(keys[1]!.privateKeyPkcs8), message);
    return { key: key.publicKeyHex, message, signature };
  });
}

describe('SignaturePool', () => {
  it('answers as verifySignature does, for batches split between the workers and for one alone', async () => {
    const requests = signed(700);
    const pooled = await Promise.all(requests.map((r) => pool.check(r.key, r.message, r.signature)));
    expect(pooled).toEqual(requests.map((r) => verifySignature(r.key, r.message, r.signature)));
    expect(pooled.filter(Boolean).length).toBeGreaterThan(300);
    expect(pooled.filter((ok) => !ok).length).toBeGreaterThan(200);
    const [one] = signed(1);
    expect(await pool.check(one!.key, one!.message, one!.signature)).toBe(true);
  });

  it('answers false, never a throw, for garbage keys, messages and signatures', async () => {
    const [r] = signed(1);
    const answers = await Promise.all([
      pool.check('zz'.repeat(32), r!.message, r!.signature),
      pool.check(r!.key.slice(2), r!.message, r!.signature),
      pool.check(r!.key, r!.message.subarray(1), r!.signature),
      pool.check(r!.key, r!.message, r!.signature.subarray(0, 63)),
      pool.check('00'.repeat(32), r!.message, r!.signature),
    ]);
    expect(answers).toEqual([false, false, false, false, false]);
    expect(answers).toEqual([
      verifySignature('zz'.repeat(32), r!.message, r!.signature),
      verifySignature(r!.key.slice(2), r!.message, r!.signature),
      verifySignature(r!.key, r!.message.subarray(1), r!.signature),
      verifySignature(r!.key, r!.message, r!.signature.subarray(0, 63)),
      verifySignature('00'.repeat(32), r!.message, r!.signature),
    ]);
  });
});
