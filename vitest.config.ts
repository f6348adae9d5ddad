import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.js';

/** Where vitest never looks for tests. */
const NOT_TESTS = ['**/node_modules/**', 'out/**', 'build/**', 'dist/**', 'scratch/**'];

/**
 * Tests beside the code that start a process, themselves or through the code they test (node,
 * mkfifo, anvil, the syncfs helper of main/durable/syncfs.ts): they run with the integration
 * tests. Every other test beside the code is a unit test, and test/support/no-child-processes.ts fails
 * a unit test file that starts one. The browser tests (test/e2e/) are a project of their own,
 * whose set-up builds the app once for all of them.
 */
const STARTS_PROCESSES = [
  'bench/measure.test.ts',
  'main/app/handlers/settings-passphrase.test.ts',
  // The app's status probes each engine's chain: the local one is started for it.
  'main/app/handlers/app-commands.test.ts',
  'main/app/handlers/records.test.ts',
  'main/app/handlers/show-in-folder.test.ts',
  'main/durable/sync-files.test.ts',
  'main/engine/batch-records.test.ts',
  'main/intake/entries.test.ts',
  'main/intake/proof-round.test.ts',
  // A chunk of INTAKE_BATCH files is synced with one syncfs, by its helper process.
  'main/workspace/rows-intake/create-rows.test.ts',
];

/** What both projects share (globalSetup and the reporters are the run's, set once below). */
const shared = {
  exclude: NOT_TESTS,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks',
  setupFiles: ['test/support/no-default-data-dir.ts'],
} satisfies TestProjectInlineConfiguration['test'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['{main,common,renderer,preload,bench,scripts}/**/*.test.ts'],
          exclude: [...NOT_TESTS, ...STARTS_PROCESSES],
          setupFiles: [...shared.setupFiles, 'test/support/no-child-processes.ts'],
          // The files of a worker share one process and its loaded modules: starting a process
          // and loading the modules again for each file cost more than the tests. A file that
          // mocks a module loads what it tests after the mock (vi.resetModules, then import()).
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: ['test/**/*.test.ts', ...STARTS_PROCESSES],
          exclude: [...NOT_TESTS, 'test/e2e/**'],
          // As in the unit project, the files of a worker share one process and its loaded modules
          // (loading the engine again for each file cost about a second of CPU per file);
          // restore-env.ts puts back the environment variables a file set.
          isolate: false,
          setupFiles: [...shared.setupFiles, 'test/support/restore-env.ts'],
          // A throwaway PostgreSQL cluster for the store tests on PostgreSQL; the CLI and the
          // tests' child scripts bundled once for the tests that start them as child processes.
          globalSetup: ['test/support/postgres-cluster.ts', 'test/support/cli-bundle.ts', 'test/support/child-bundle.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // The app built once; the CLI bundled once for the tests that start `serve` or `watch`.
          globalSetup: ['test/e2e/build-once.ts', 'test/support/cli-bundle.ts'],
        },
      },
    ],
    // Most integration test files spend their time waiting on other processes (anvil, the CLI,
    // Chromium), so on a small machine more files run at once than it has cores (vitest's
    // default, one less than the cores, runs them one at a time on 2).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // The longest integration files first, also where vitest has no durations of a last run.
    sequence: { sequencer: SlowFirstSequencer },
    // A private HOME for the whole run; fails the run if the real ~/.config/Proofdesk is touched.
    globalSetup: ['test/support/private-home.ts'],
    // Under CI also a JSON report, from which .ci/run prints its closing "N passed, N failed".
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'build/vitest-report.json' },
  },
});
