/**
 * Compiles the registry contract and writes main/chain/registry-artifact.ts.
 *
 *   npx tsx scripts/compile-contracts.ts           write the artifact
 *   npx tsx scripts/compile-contracts.ts --check   exit 1 when the checked-in artifact is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileRegistry, REGISTRY_ARTIFACT_PATH, renderRegistryArtifact } from './registry-compiler.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', REGISTRY_ARTIFACT_PATH);
const compiled = compileRegistry();
const text = renderRegistryArtifact(compiled);

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== text) {
    console.error(`${REGISTRY_ARTIFACT_PATH} is stale: run npx tsx scripts/compile-contracts.ts`);
    process.exit(1);
  }
  console.log(`${REGISTRY_ARTIFACT_PATH} is up to date (solc ${compiled.compilerVersion})`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${REGISTRY_ARTIFACT_PATH} (solc ${compiled.compilerVersion}, ${(compiled.bytecode.length - 2) / 2} bytes of creation code)`);
}
