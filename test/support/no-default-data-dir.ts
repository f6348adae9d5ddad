/**
 * vitest setupFiles: after each test file, fails it when the default data directory (of the
 * private HOME private-home.ts gives the run, or the user's real one) has appeared — the file
 * ran something without --data or PROOFDESK_DATA. Files run in parallel, so the one blamed ran
 * at the same time as the culprit at worst; the run fails either way.
 *
 * The private one is then removed (its name is noted for the run's teardown, which fails the
 * run), so that only the file at fault fails, not every file that finishes after it.
 */
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { DEFAULT_DIR_USED } from './private-home.js';

const forbidden = JSON.parse(process.env.PROOFDESK_TEST_FORBIDDEN_DATA_DIRS ?? '[]') as string[];
const privateFallback = forbidden[0];
const testFile = expect.getState().testPath ?? 'a test file';

afterAll(() => {
  const appeared = forbidden.filter((dir) => existsSync(dir));
  if (appeared.length === 0) return;
  if (privateFallback !== undefined && existsSync(privateFallback)) {
    appendFileSync(join(process.env.HOME ?? '.', DEFAULT_DIR_USED), `${testFile}\n`);
    rmSync(privateFallback, { recursive: true, force: true });
  }
  throw new Error(`${appeared.join(', ')} appeared: a test used the default data directory; pass --data or PROOFDESK_DATA to every command and engine`);
});
