/**
 * vitest setupFiles: after each test file, fails it when the default data directory (of the
 * private HOME private-home.ts gives the run, or the user's real one) has appeared — the file
 * ran something without --data or PROOFDESK_DATA. Files run in parallel, so the one blamed ran
 * at the same time as the culprit at worst; the run fails either way.
 */
import { existsSync } from 'node:fs';
import { afterAll } from 'vitest';

const forbidden = JSON.parse(process.env.PROOFDESK_TEST_FORBIDDEN_DATA_DIRS ?? '[]') as string[];

afterAll(() => {
  const appeared = forbidden.filter((dir) => existsSync(dir));
  if (appeared.length > 0) {
    throw new Error(`${appeared.join(', ')} appeared: a test used the default data directory; pass --data or PROOFDESK_DATA to every command and engine`);
  }
});
