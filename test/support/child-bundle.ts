/**
 * vitest globalSetup of the integration tests: bundles the tests' child scripts once for the run.
 *
 * Every script of CHILD_SCRIPTS (test/support/ts-child.ts) becomes one entry of one esbuild build,
 * with the options of the CLI bundle (scripts/node-bundle.mjs: the engine's workers beside the
 * entries, native packages left in node_modules), into a folder of its own under build/ as deep
 * as out/cli, so paths the engine finds from its own modules resolve as in the shipped CLI. Its
 * path is PROOFDESK_TEST_CHILDREN, from which childArgs starts a child. Removed after the run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { nodeBundleOptions } from '../../scripts/node-bundle.mjs';
import { CHILD_BUNDLE_ENV, CHILD_SCRIPTS, childEntryName } from './ts-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(): Promise<() => void> {
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, 'build', 'children-under-test-'));
  const entries = Object.fromEntries(CHILD_SCRIPTS.map((script) => [childEntryName(script), join(ROOT, script)]));
  await build(nodeBundleOptions(outDir, entries));
  process.env[CHILD_BUNDLE_ENV] = outDir;
  return () => rmSync(outDir, { recursive: true, force: true });
}
