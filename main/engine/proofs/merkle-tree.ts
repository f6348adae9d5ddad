import * as crypto from 'node:crypto';

const HASH_BYTES = 32;

// crypto.hash (Node 20.12+, 21.7+) hashes in one call, without a Hash object per hash.
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'buffer') => Buffer }).hash;

function sha256(data: Buffer): Buffer {
  return oneShot ? oneShot('sha256', data, 'buffer') : crypto.createHash('sha256').update(data).digest();
}

/**
 * Hashes a pair in sorted order (as OpenAttestation does), so a proof's path needs no
 * left/right flags: parent = SHA-256(min(a, b) || max(a, b)).
 */
export function hashPair(a: Buffer, b: Buffer): Buffer {
  return Buffer.compare(a, b) <= 0 ? sha256(Buffer.concat([a, b])) : sha256(Buffer.concat([b, a]));
}

/** A Merkle tree: every level, leaves first, each level one buffer of 32-byte hashes. */
export interface MerkleTree {
  levels: Buffer[];
}

function count(level: Buffer): number {
  return level.length / HASH_BYTES;
}

function node(level: Buffer, index: number): Buffer {
  return level.subarray(index * HASH_BYTES, (index + 1) * HASH_BYTES);
}

/**
 * Builds the tree over the leaves, in the order given. An odd node at the end of a level is
 * carried up unchanged (never paired with itself, which would allow a second preimage).
 */
export function buildMerkleTree(leaves: readonly Buffer[]): MerkleTree {
  if (leaves.length === 0) throw new Error('A Merkle tree needs at least one leaf');
  const levels = [Buffer.concat(leaves as Buffer[])];
  while (count(levels[levels.length - 1]!) > 1) {
    const below = levels[levels.length - 1]!;
    const n = count(below);
    const above = Buffer.alloc(Math.ceil(n / 2) * HASH_BYTES);
    for (let i = 0; i < n; i += 2) {
      const parent = i + 1 < n ? hashPair(node(below, i), node(below, i + 1)) : node(below, i);
      parent.copy(above, (i / 2) * HASH_BYTES);
    }
    levels.push(above);
  }
  return { levels };
}

export function merkleRoot(tree: MerkleTree): Buffer {
  return node(tree.levels[tree.levels.length - 1]!, 0);
}

/** The sibling hashes from a leaf up to the root (an odd node carried up has none at that level). */
export function merklePath(tree: MerkleTree, leafIndex: number): Buffer[] {
  const path: Buffer[] = [];
  let index = leafIndex;
  for (let l = 0; l < tree.levels.length - 1; l++) {
    const level = tree.levels[l]!;
    const sibling = index ^ 1;
    if (sibling < count(level)) path.push(Buffer.from(node(level, sibling)));
    index >>= 1;
  }
  return path;
}

/** The root a leaf and its path lead to. */
export function rootFromPath(leaf: Buffer, path: readonly Buffer[]): Buffer {
  return path.reduce((acc, sibling) => hashPair(acc, sibling), leaf);
}

const HASH_HEX = /^[0-9a-f]{64}$/;

/**
 * rootFromPath over hashes as 64 lowercase hex digits (as a checked proof holds them), the root
 * in hex: what verifying thousands of proofs does per proof, here without a Buffer per step
 * (the pair is decoded into one scratch buffer and hashed in sorted order in place).
 */
export function rootFromHexPath(leafHex: string, pathHex: readonly string[]): string {
  if (!HASH_HEX.test(leafHex) || !pathHex.every((h) => HASH_HEX.test(h))) {
    return rootFromPath(Buffer.from(leafHex, 'hex'), pathHex.map((h) => Buffer.from(h, 'hex'))).toString('hex');
  }
  // [acc | sibling], and the same swapped when the sibling sorts first.
  const pair = Buffer.allocUnsafe(2 * HASH_BYTES);
  const swapped = Buffer.allocUnsafe(2 * HASH_BYTES);
  pair.write(leafHex, 0, 'hex');
  for (const h of pathHex) {
    pair.write(h, HASH_BYTES, 'hex');
    let parent: Buffer;
    if (pair.compare(pair, HASH_BYTES, 2 * HASH_BYTES, 0, HASH_BYTES) <= 0) parent = sha256(pair);
    else {
      pair.copy(swapped, 0, HASH_BYTES, 2 * HASH_BYTES);
      pair.copy(swapped, HASH_BYTES, 0, HASH_BYTES);
      parent = sha256(swapped);
    }
    parent.copy(pair, 0);
  }
  return pair.toString('hex', 0, HASH_BYTES);
}

/** Hashes a MerklePairMemo keeps before it starts over (two a pair, each about 250 bytes). */
export const PAIR_MEMO_LIMIT = 16_384;

/**
 * rootFromHexPath for many proofs of one job, each distinct pair of the tree hashed once: the
 * proofs of a batch share the upper part of their paths (100 neighbouring leaves share all but
 * their lowest seven levels), which is otherwise hashed again for each (14 hashes a proof in a
 * job of 10,000, the costliest offline check after the signature). A parent is kept by its pair
 * exactly (both hashes, in the sorted order hashPair uses), so a memo answers what hashing
 * answers, for a tampered path too. Meant to live for one batch: it is bounded, not a cache
 * across runs.
 */
export class MerklePairMemo {
  /** By each hash of a pair: the other one and their parent (a pair is found from either side). */
  private readonly parents = new Map<string, { other: string; parent: string }>();
  /** Pairs hashed so far (the others were answered from the memo). */
  hashes = 0;

  constructor(private readonly limit = PAIR_MEMO_LIMIT) {}

  get size(): number {
    return this.parents.size;
  }

  /**
   * What rootFromHexPath(leafHex, pathHex) answers. `lowercaseHex`: every hash is already known
   * to be 64 lowercase hex digits (a proof that passed validateProofFile), so not tested again.
   */
  rootFromHexPath(leafHex: string, pathHex: readonly string[], lowercaseHex = false): string {
    // Lowercase hex of one length sorts as its bytes do; anything else is computed as ever.
    if (!lowercaseHex && (!HASH_HEX.test(leafHex) || !pathHex.every((h) => HASH_HEX.test(h)))) return rootFromHexPath(leafHex, pathHex);
    let acc = leafHex;
    for (const sibling of pathHex) {
      const known = this.parents.get(sibling);
      if (known !== undefined && known.other === acc) {
        acc = known.parent;
        continue;
      }
      const parent = sha256(Buffer.from(acc <= sibling ? acc + sibling : sibling + acc, 'hex')).toString('hex');
      this.hashes++;
      if (this.parents.size + 2 > this.limit) this.parents.clear();
      this.parents.set(sibling, { other: acc, parent });
      this.parents.set(acc, { other: sibling, parent });
      acc = parent;
    }
    return acc;
  }
}

/** Packs a tree into one buffer to store it with its job: a level count, sizes, then the levels. */
export function serializeMerkleTree(tree: MerkleTree): Buffer {
  const header = Buffer.alloc(4 + 4 * tree.levels.length);
  header.writeUInt32BE(tree.levels.length, 0);
  tree.levels.forEach((level, i) => header.writeUInt32BE(count(level), 4 + 4 * i));
  return Buffer.concat([header, ...tree.levels]);
}

export function deserializeMerkleTree(data: Buffer): MerkleTree {
  const depth = data.readUInt32BE(0);
  let at = 4 + 4 * depth;
  const levels: Buffer[] = [];
  for (let i = 0; i < depth; i++) {
    const bytes = data.readUInt32BE(4 + 4 * i) * HASH_BYTES;
    levels.push(data.subarray(at, at + bytes));
    at += bytes;
  }
  return { levels };
}

/**
 * The tree over `leaves` (32-byte hashes back to back, in order) built straight into its
 * packed form — the bytes serializeMerkleTree(buildMerkleTree(...)) gives, without a leaf
 * object per credential or a second copy of the levels: a 1,000,000-leaf job needs 64 MB here.
 */
export function buildPackedMerkleTree(leaves: Buffer): { root: Buffer; packed: Buffer } {
  const n = leaves.length / HASH_BYTES;
  if (n === 0 || !Number.isInteger(n)) throw new Error('A Merkle tree needs at least one leaf');
  const counts = [n];
  while (counts[counts.length - 1]! > 1) counts.push(Math.ceil(counts[counts.length - 1]! / 2));
  const header = 4 + 4 * counts.length;
  const packed = Buffer.alloc(header + counts.reduce((a, c) => a + c, 0) * HASH_BYTES);
  packed.writeUInt32BE(counts.length, 0);
  counts.forEach((c, i) => packed.writeUInt32BE(c, 4 + 4 * i));
  leaves.copy(packed, header);
  let below = packed.subarray(header, header + n * HASH_BYTES);
  let at = header + n * HASH_BYTES;
  for (let l = 1; l < counts.length; l++) {
    const above = packed.subarray(at, at + counts[l]! * HASH_BYTES);
    const m = counts[l - 1]!;
    for (let i = 0; i < m; i += 2) {
      const parent = i + 1 < m ? hashPair(node(below, i), node(below, i + 1)) : node(below, i);
      parent.copy(above, (i / 2) * HASH_BYTES);
    }
    below = above;
    at += above.length;
  }
  return { root: Buffer.from(node(below, 0)), packed };
}
