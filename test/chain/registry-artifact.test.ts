/**
 * The checked-in registry artifact is exactly what the installed solc makes of the contract's
 * source: recompiling gives the same bytes. When this fails after changing the contract or
 * upgrading solc, run `npx tsx scripts/compile-contracts.ts` and commit the result.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REGISTRY_ABI, REGISTRY_BUILD, REGISTRY_BYTECODE } from '../../main/chain/registry-artifact.js';
import { compileRegistry, REGISTRY_ARTIFACT_PATH, renderRegistryArtifact } from '../../scripts/registry-compiler.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('registry artifact', () => {
  it('is byte-identical to a fresh compilation', () => {
    const compiled = compileRegistry();
    expect(compiled.compilerVersion).toBe(REGISTRY_BUILD.compilerVersion);
    expect(compiled.sourceSha256).toBe(REGISTRY_BUILD.sourceSha256);
    expect(compiled.bytecode).toBe(REGISTRY_BYTECODE);
    expect(readFileSync(join(ROOT, REGISTRY_ARTIFACT_PATH), 'utf8')).toBe(renderRegistryArtifact(compiled));
  });

  it('exposes the interface the engine and verifiers use', () => {
    const describeItem = (item: (typeof REGISTRY_ABI)[number]) =>
      item.type === 'function'
        ? `${item.name}(${item.inputs.map((i) => i.type).join(',')}) ${item.stateMutability} -> (${item.outputs.map((o) => o.type).join(',')})`
        : item.type === 'event'
          ? `event ${item.name}(${item.inputs.map((i) => `${i.type}${i.indexed ? ' indexed' : ''}`).join(',')})`
          : `constructor(${item.inputs.map((i) => i.type).join(',')})`;
    expect(REGISTRY_ABI.map(describeItem).sort()).toEqual(
      [
        'constructor(bytes32)',
        'event Issued(bytes32 indexed)',
        'event Revoked(bytes32 indexed)',
        'event SigningKeySet(bytes32)',
        'isIssued(bytes32) view -> (bool)',
        'isRevoked(bytes32) view -> (bool)',
        'issue(bytes32) nonpayable -> ()',
        'issuedAt(bytes32) view -> (uint256)',
        'owner() view -> (address)',
        'revoke(bytes32) nonpayable -> ()',
        'revokedAt(bytes32) view -> (uint256)',
        'signingKey() view -> (bytes32)',
      ].sort(),
    );
    expect(REGISTRY_BUILD.evmVersion).toBe('paris');
  });
});
