/**
 * vitest globalSetup of the integration and browser tests: bundles the CLI once for the run (what `npm run
 * build` ships as the `proofdesk` bin, scripts/build-cli.mjs) into a folder of its own under
 * build/, and names its entry in PROOFDESK_TEST_CLI. Tests that start the CLI as a child process
 * (cliArgs in test/cli/cli-child.ts) run that bundle: the same code as main/cli/index.ts, without
 * tsx compiling and resolving every module again in each child, which costs a second or more of
 * CPU per start. Removed after the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(): () => void {
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  // build/NAME/index.js is as deep as out/cli/index.js: paths the CLI finds from its own module resolve alike.
  const outDir = mkdtempSync(join(ROOT, 'build', 'cli-under-test-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs'), outDir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  process.env.PROOFDESK_TEST_CLI = join(outDir, 'index.js');
  return () => rmSync(outDir, { recursive: true, force: true });
}
