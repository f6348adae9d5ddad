import { decodeDeployData, decodeFunctionData, toFunctionSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import { REGISTRY_ABI, REGISTRY_BYTECODE } from './registry-artifact.js';
import { encodeDeploy, encodeIssue, encodeRevoke } from './registry-calls.js';

const key = `0x${'ab'.repeat(32)}` as const;

describe('registry calldata', () => {
  it('appends the signing key to the creation code', () => {
    const data = encodeDeploy(key);
    expect(data.startsWith(REGISTRY_BYTECODE)).toBe(true);
    expect(decodeDeployData({ abi: REGISTRY_ABI, bytecode: REGISTRY_BYTECODE, data }).args).toEqual([key]);
  });

  it('encodes issue and revoke', () => {
    expect(encodeIssue(key).slice(0, 10)).toBe(toFunctionSelector('issue(bytes32)'));
    expect(decodeFunctionData({ abi: REGISTRY_ABI, data: encodeRevoke(key) })).toEqual({ functionName: 'revoke', args: [key] });
  });

  it('refuses anything but 32 bytes of 0x-prefixed hex', () => {
    for (const bad of ['0x', '0x1234', `0x${'ab'.repeat(33)}`, `0x${'zz'.repeat(32)}`, 'ab'.repeat(32)]) {
      expect(() => encodeIssue(bad as `0x${string}`)).toThrow(TypeError);
    }
  });
});
