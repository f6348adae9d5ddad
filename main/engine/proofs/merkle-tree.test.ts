import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMerkleTree, buildPackedMerkleTree, deserializeMerkleTree, hashPair, MerklePairMemo, merklePath, merkleRoot, rootFromHexPath, rootFromPath, serializeMerkleTree } from './merkle-tree.js';

const leaf = (i: number) => createHash('sha256').update(`leaf ${i}`).digest();

describe('Merkle tree', () => {
  it('a single leaf is its own root, with an empty path', () => {
    const tree = buildMerkleTree([leaf(0)]);
    expect(merkleRoot(tree)).toEqual(leaf(0));
    expect(merklePath(tree, 0)).toEqual([]);
  });

  it('two leaves hash in sorted order, so either order gives one root', () => {
    expect(merkleRoot(buildMerkleTree([leaf(1), leaf(2)]))).toEqual(merkleRoot(buildMerkleTree([leaf(2), leaf(1)])));
    expect(hashPair(leaf(1), leaf(2))).toEqual(merkleRoot(buildMerkleTree([leaf(1), leaf(2)])));
  });

  it.each([1, 2, 3, 5, 8, 13, 100, 1025])('every one of %i leaves leads to the root by its path', (n) => {
    const leaves = Array.from({ length: n }, (_, i) => leaf(i));
    const tree = buildMerkleTree(leaves);
    const root = merkleRoot(tree);
    leaves.forEach((l, i) => expect(rootFromPath(l, merklePath(tree, i))).toEqual(root));
    expect(merklePath(tree, n - 1).length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
  });

  it.each([1, 2, 3, 5, 8, 13, 100, 1025])('over hex hashes, every one of %i leaves leads to the root rootFromPath gives', (n) => {
    const leaves = Array.from({ length: n }, (_, i) => leaf(i));
    const tree = buildMerkleTree(leaves);
    const root = merkleRoot(tree).toString('hex');
    leaves.forEach((l, i) => {
      const path = merklePath(tree, i);
      expect(rootFromHexPath(l.toString('hex'), path.map((h) => h.toString('hex')))).toBe(root);
    });
  });

  it('over hex hashes, a tampered or malformed path gives what rootFromPath gives for it', () => {
    const tree = buildMerkleTree(Array.from({ length: 9 }, (_, i) => leaf(i)));
    const path = merklePath(tree, 4).map((h) => h.toString('hex'));
    for (const bad of [[...path.slice(0, 2), 'ab'.repeat(32), ...path.slice(3)], [...path, 'cd'.repeat(32)], [path[0]!.slice(0, 40), ...path.slice(1)], [path[0]!.toUpperCase(), ...path.slice(1)], ['zz', ...path]]) {
      expect(rootFromHexPath(leaf(4).toString('hex'), bad)).toBe(rootFromPath(leaf(4), bad.map((h) => Buffer.from(h, 'hex'))).toString('hex'));
    }
    expect(rootFromHexPath(leaf(4).toString('hex'), [...path.slice(0, 2), 'ab'.repeat(32)])).not.toBe(merkleRoot(tree).toString('hex'));
  });

  it.each([1, 2, 3, 100, 1025])('with a pair memo, every one of %i leaves gets the root rootFromHexPath gives, each pair of the tree hashed once', (n) => {
    const leaves = Array.from({ length: n }, (_, i) => leaf(i));
    const tree = buildMerkleTree(leaves);
    const memo = new MerklePairMemo();
    leaves.forEach((l, i) => {
      const path = merklePath(tree, i).map((h) => h.toString('hex'));
      expect(memo.rootFromHexPath(l.toString('hex'), path)).toBe(rootFromHexPath(l.toString('hex'), path));
    });
    // A tree of n leaves has n - 1 pairs (an odd node carried up is not hashed).
    expect(memo.hashes).toBe(n - 1);
  });

  it('with a pair memo, a tampered or malformed path gives what rootFromHexPath gives for it, after its honest neighbours', () => {
    const tree = buildMerkleTree(Array.from({ length: 9 }, (_, i) => leaf(i)));
    const memo = new MerklePairMemo();
    for (let i = 0; i < 9; i++) memo.rootFromHexPath(leaf(i).toString('hex'), merklePath(tree, i).map((h) => h.toString('hex')));
    const path = merklePath(tree, 4).map((h) => h.toString('hex'));
    for (const bad of [[...path.slice(0, 2), 'ab'.repeat(32), ...path.slice(3)], [...path, 'cd'.repeat(32)], [path[0]!.slice(0, 40), ...path.slice(1)], [path[0]!.toUpperCase(), ...path.slice(1)], ['zz', ...path], path.slice(1)]) {
      expect(memo.rootFromHexPath(leaf(4).toString('hex'), bad)).toBe(rootFromHexPath(leaf(4).toString('hex'), bad));
    }
    expect(memo.rootFromHexPath(leaf(99).toString('hex'), path)).toBe(rootFromHexPath(leaf(99).toString('hex'), path));
  });

  it('a pair memo past its limit starts over, and still answers the same roots', () => {
    const leaves = Array.from({ length: 64 }, (_, i) => leaf(i));
    const tree = buildMerkleTree(leaves);
    const memo = new MerklePairMemo(8);
    leaves.forEach((l, i) => {
      const path = merklePath(tree, i).map((h) => h.toString('hex'));
      expect(memo.rootFromHexPath(l.toString('hex'), path)).toBe(merkleRoot(tree).toString('hex'));
    });
    expect(memo.size).toBeLessThanOrEqual(8);
  });

  it('a leaf not in the tree, or a tampered path, does not reach the root', () => {
    const tree = buildMerkleTree(Array.from({ length: 9 }, (_, i) => leaf(i)));
    const path = merklePath(tree, 4);
    expect(rootFromPath(leaf(99), path)).not.toEqual(merkleRoot(tree));
    const tampered = path.map((p, i) => (i === 1 ? Buffer.from(p).fill(0, 0, 1) : p));
    expect(rootFromPath(leaf(4), tampered)).not.toEqual(merkleRoot(tree));
  });

  it('survives being stored and read back', () => {
    const tree = buildMerkleTree(Array.from({ length: 37 }, (_, i) => leaf(i)));
    const copy = deserializeMerkleTree(serializeMerkleTree(tree));
    expect(merkleRoot(copy)).toEqual(merkleRoot(tree));
    expect(merklePath(copy, 36)).toEqual(merklePath(tree, 36));
  });

  it.each([1, 2, 3, 7, 64, 65, 1000])('built packed from %i leaves in one buffer, it is the very same tree, byte for byte', (n) => {
    const leaves = Array.from({ length: n }, (_, i) => leaf(i));
    const tree = buildMerkleTree(leaves);
    const { root, packed } = buildPackedMerkleTree(Buffer.concat(leaves));
    expect(packed.equals(serializeMerkleTree(tree))).toBe(true);
    expect(root.equals(merkleRoot(tree))).toBe(true);
  });
});
