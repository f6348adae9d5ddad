/**
 * How tests run one of their TypeScript child scripts as a process of its own.
 *
 * The integration tests bundle every script of CHILD_SCRIPTS once for the run
 * (test/support/child-bundle.ts, the esbuild options of the CLI bundle), so a child starts on
 * plain JavaScript in a tenth of a second instead of tsx resolving and compiling the engine's
 * modules again in each child, which costs one to two seconds of CPU per start. Outside that
 * run (a script started by hand) the child runs the source with tsx.
 */
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The environment variable naming the folder of the bundled child scripts (set by child-bundle.ts). */
export const CHILD_BUNDLE_ENV = 'PROOFDESK_TEST_CHILDREN';

/**
 * The child scripts of the tests, relative to the repository. A test script missing here fails
 * the test that starts it (childArgs) while the bundle is in use: add it, and it is bundled too.
 */
export const CHILD_SCRIPTS: readonly string[] = [
  'test/chain/anvil-child.ts',
  'test/issuing/fixtures/crash-issuer.ts',
  'test/issuing/fixtures/scheduler-child.ts',
  'test/secrets/fixtures/file-writer.ts',
  'test/secrets/fixtures/keychain-child.ts',
  'test/store/fixtures/issue-until-killed.ts',
  'test/support/persistence-writer.ts',
  'test/support/postgres-migrate-child.ts',
  'test/workspace/fixtures/create-then-killed.ts',
];

/** The bundle's entry name of a child script: its path with the folders joined by `.` (the bundle is one flat folder). */
export function childEntryName(script: string): string {
  return script.replace(/\.ts$/, '').split('/').join('.');
}

/**
 * The node arguments that run the child script `script` (absolute, or relative to the
 * repository), before its own arguments. The tools of scripts/ run with tsx, as `npm run` runs
 * them (they find the repository from their own path).
 */
export function childArgs(script: string): string[] {
  const rel = relative(REPO, isAbsolute(script) ? script : join(REPO, script));
  const bundle = process.env[CHILD_BUNDLE_ENV];
  if (!bundle || rel.startsWith('scripts/')) return ['--import', 'tsx', join(REPO, rel)];
  if (!CHILD_SCRIPTS.includes(rel)) throw new Error(`${rel} is not bundled for the tests: add it to CHILD_SCRIPTS in test/support/ts-child.ts`);
  return [join(bundle, `${childEntryName(rel)}.js`)];
}
