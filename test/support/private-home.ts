/**
 * vitest globalSetup: the whole test run gets a private, empty HOME (and XDG_CONFIG_HOME), so no
 * test, fixture or child process can reach the user's real data directory (~/.config/Proofdesk)
 * or keyrings. Tests must pass --data or PROOFDESK_DATA anyway; this is the net under them.
 *
 * The run fails when the real data directory appeared during it, or when anything fell back to
 * the default data directory inside the private HOME (a test that forgot --data).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir } from '../../main/engine/data-dir.js';

/** The note (in the private HOME) naming the test files that used the default data directory. */
export const DEFAULT_DIR_USED = 'default-data-dir-used.txt';

export default function setup(): () => void {
  const realDataDir = defaultDataDir({ ...process.env, PROOFDESK_DATA: undefined });
  const existedBefore = existsSync(realDataDir);
  const realHome = homedir();
  const home = mkdtempSync(join(tmpdir(), 'proofdesk-test-home-'));
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = join(home, '.config');
  // A PROOFDESK_DATA of the user's must not become every test's data directory.
  delete process.env.PROOFDESK_DATA;
  const fallback = defaultDataDir();
  // For the per-file check (no-default-data-dir.ts), which names the test file at fault.
  process.env.PROOFDESK_TEST_FORBIDDEN_DATA_DIRS = JSON.stringify([fallback, ...(existedBefore ? [] : [realDataDir])]);

  return () => {
    const problems: string[] = [];
    if (!existedBefore && existsSync(realDataDir)) {
      problems.push(`${realDataDir} appeared during the test run: a test or benchmark wrote to the user's real data directory`);
    }
    const used = join(home, DEFAULT_DIR_USED);
    if (existsSync(fallback) || existsSync(used)) {
      const culprits = existsSync(used) ? ` (in ${readFileSync(used, 'utf8').trim().split('\n').join(', ')})` : '';
      problems.push(`${fallback} was created${culprits}: a test ran a command without --data or PROOFDESK_DATA (it would be ${realDataDir} outside tests)`);
    }
    rmSync(home, { recursive: true, force: true });
    process.env.HOME = realHome;
    if (problems.length > 0) {
      // vitest reports an error thrown here but keeps the exit code: set it too.
      process.exitCode = 1;
      throw new Error(problems.join('\n'));
    }
  };
}
