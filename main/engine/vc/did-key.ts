/** did:key identifiers of Ed25519 keys: resolvable from the identifier alone, offline. */

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
// The multicodec header of an Ed25519 public key (0xed, as an unsigned varint).
const ED25519_HEADER = Buffer.from([0xed, 0x01]);

function base58btc(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let text = '';
  while (n > 0n) {
    text = BASE58[Number(n % 58n)]! + text;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

function fromBase58btc(text: string): Buffer | undefined {
  let n = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return undefined;
    n = n * 58n + BigInt(digit);
  }
  const hex = n === 0n ? '' : n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = text.match(/^1*/)![0].length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** The multibase (`z` + base58btc) of an Ed25519 public key with its multicodec header: `z6Mk…`. */
export function ed25519Multibase(publicKeyHex: string): string {
  return `z${base58btc(Buffer.concat([ED25519_HEADER, Buffer.from(publicKeyHex, 'hex')]))}`;
}

/** The did:key of an Ed25519 public key (hex). */
export function didKeyOf(publicKeyHex: string): string {
  return `did:key:${ed25519Multibase(publicKeyHex)}`;
}

/** The verification method id of a did:key: the DID, `#`, its multibase key. */
export function verificationMethodOf(publicKeyHex: string): string {
  const multibase = ed25519Multibase(publicKeyHex);
  return `did:key:${multibase}#${multibase}`;
}

/** The Ed25519 public key (hex) of a did:key or its verification method; undefined for anything else. */
export function publicKeyOfDidKey(didOrMethod: string): string | undefined {
  const match = /^did:key:(z[1-9A-HJ-NP-Za-km-z]+)(?:#(z[1-9A-HJ-NP-Za-km-z]+))?$/.exec(didOrMethod);
  if (!match || (match[2] !== undefined && match[2] !== match[1])) return undefined;
  const bytes = fromBase58btc(match[1]!.slice(1));
  if (!bytes || bytes.length !== 34 || !bytes.subarray(0, 2).equals(ED25519_HEADER)) return undefined;
  return bytes.subarray(2).toString('hex');
}
