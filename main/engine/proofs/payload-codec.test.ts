import { describe, expect, it } from 'vitest';
import { compressPayload, payloadText } from './payload-codec.js';

const payload = (n: number) => JSON.stringify({ uid: `0192-${n}`, partner: { id: 'p', name: 'Université ✓' }, credential: { title: `Diploma ${n}`, metadata: { emoji: '🎓', n } } });

describe('certificate payload storage', () => {
  it('gives back the very bytes stored, with the job’s dictionary, in less room than the text', () => {
    const dictionary = Buffer.from(payload(0));
    for (const n of [0, 1, 12345]) {
      const stored = compressPayload(payload(n), dictionary);
      expect(payloadText(stored, dictionary)).toBe(payload(n));
      expect(stored.length).toBeLessThan(Buffer.byteLength(payload(n)) / 2);
    }
  });

  it('reads a payload stored as text (schema 3) as it is', () => {
    expect(payloadText(payload(3), null)).toBe(payload(3));
  });
});
