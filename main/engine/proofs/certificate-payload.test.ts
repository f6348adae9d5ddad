import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './certificate-payload.js';

/** Values whose RFC 8785 text must be the library's, byte for byte (it is what proofs already signed). */
const SAMPLES: unknown[] = [
  null,
  true,
  0,
  -0,
  1e21,
  1e-7,
  0.1 + 0.2,
  -123.456e-300,
  Number.MAX_SAFE_INTEGER,
  '',
  'plain',
  'quote " backslash \\ newline \n tab \t control \u0001 \u001f del \u007f',
  'Université ✓ 🎓 \u2028\u2029',
  [],
  {},
  [1, 'two', [3, [4, {}]], null, false],
  { b: 1, a: 2, A: 3, _: 4, '': 5, é: 6, '\u{1F393}': 7, '\uFB33': 8, aa: { z: [], y: {} } },
  { skipped: undefined, kept: 1 },
  // Keys an object does not keep in insertion order, and a key that is not a prototype when parsed.
  { b: 1, '10': 2, '9': 3, '01': 4, a: { '2': [], '1': {} } },
  JSON.parse('{"z": 1, "__proto__": {"polluted": true}, "a": 2}'),
  // Strings JSON.stringify writes with "\\ud" in them without a lone surrogate.
  { path: 'C:\\udata\\file.txt', pair: '\uD83C\uDF93', escaped: '\\uD800' },
  { deep: Array.from({ length: 40 }).reduce<unknown>((inner, _, i) => ({ [`k${i % 3}`]: inner, at: i }), 'leaf') },
  {
    uid: '0192f0c8-0000-7000-8000-000000000000',
    partner: { id: 'p1', name: 'Bench University', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
    credential: {
      uid: '0192f0c8-0000-7000-8000-000000000001',
      title: 'Diploma 1',
      metadata: { student: 'Student 1', grade: 3.7, transcript: [{ course: 'data ethics law', grade: 9.5, credits: 5 }], remarks: 'x' },
      files: [{ file_hash: 'ab'.repeat(32), file_type: 'application/pdf' }],
      credentials: [],
      upload_date: '2026-01-01T00:00:00.000Z',
      expiry_date: null,
    },
    engine: { id: 'local', chain_id: 31337 },
  },
];

describe('canonical JSON of certificate payloads', () => {
  it('is the canonicalize library’s text, byte for byte, for plain JSON data', () => {
    for (const value of SAMPLES) expect(canonicalJson(value)).toBe(canonicalize(value));
  });

  it('answers like the library for what is not plain JSON data (toJSON, undefined in an array)', () => {
    const date = new Date(Date.UTC(2026, 0, 2));
    expect(canonicalJson({ at: date, list: [undefined, 1] })).toBe(canonicalize({ at: date, list: [undefined, 1] }));
  });

  it('refuses what RFC 8785 cannot represent, as the library does', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow('NaN is not allowed');
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow('Infinity is not allowed');
    expect(() => canonicalJson({ text: 'lone \uD800 high' })).toThrow('Lone surrogate is not allowed');
    expect(() => canonicalJson({ ['\uDC00key']: 1 })).toThrow('Lone surrogate is not allowed');
    const cycle: Record<string, unknown> = {};
    cycle['self'] = { back: cycle };
    expect(() => canonicalJson(cycle)).toThrow('Circular reference detected');
  });
});
