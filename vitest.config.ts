import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'out/**', 'build/**', 'dist/**', 'scratch/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A private HOME for the whole run; fails the run if the real ~/.config/Proofdesk is touched.
    globalSetup: ['test/support/private-home.ts'],
    setupFiles: ['test/support/no-default-data-dir.ts'],
    // Under CI also a JSON report, from which .ci/run prints its closing "N passed, N failed".
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'build/vitest-report.json' },
  },
});
