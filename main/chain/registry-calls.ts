/**
 * Calldata for the registry contract: pure functions, no network, so the engine can build a
 * transaction's data before it has a client.
 */
import { encodeDeployData, encodeFunctionData, isHex, type Hex } from 'viem';
import { REGISTRY_ABI, REGISTRY_BYTECODE } from './registry-artifact.js';

/** Throws unless `value` is a 0x-prefixed 32-byte hex string. */
export function assertBytes32(value: Hex, what: string): void {
  if (!isHex(value, { strict: true }) || value.length !== 66) throw new TypeError(`${what} must be 32 bytes as 0x-prefixed hex, got ${JSON.stringify(value)}`);
}

/**
 * Creation data of a registry bound to the Partner's Ed25519 signing public key (32 bytes):
 * send it with no `to` from the Partner's chain account, which becomes the owner.
 */
export function encodeDeploy(signingKey: Hex): Hex {
  assertBytes32(signingKey, 'signingKey');
  return encodeDeployData({ abi: REGISTRY_ABI, bytecode: REGISTRY_BYTECODE, args: [signingKey] });
}

/** Calldata of `issue(root)`: anchors a batch's Merkle root. */
export function encodeIssue(root: Hex): Hex {
  assertBytes32(root, 'root');
  return encodeFunctionData({ abi: REGISTRY_ABI, functionName: 'issue', args: [root] });
}

/** Calldata of `revoke(hash)`: revokes a batch root or a single credential's leaf. */
export function encodeRevoke(hash: Hex): Hex {
  assertBytes32(hash, 'hash');
  return encodeFunctionData({ abi: REGISTRY_ABI, functionName: 'revoke', args: [hash] });
}
