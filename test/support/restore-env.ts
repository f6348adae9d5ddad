/**
 * vitest setupFiles of the integration tests: after each test file, process.env is put back as
 * it was before the file. The files share worker processes (the project does not isolate
 * them), so a variable one file sets for itself (PROOFDESK_PASSPHRASE, PROOFDESK_DATA) must not
 * reach the files that run after it in the same worker.
 */
import { afterAll } from 'vitest';

const before = { ...process.env };

// Registered before the file's own hooks, so it runs after them (vitest runs after-hooks in reverse).
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
});
