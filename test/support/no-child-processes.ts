/**
 * vitest setupFiles of the unit project: fails a test file that started a child process.
 *
 * Unit tests run in seconds and in any order because they start nothing; a test beside the code
 * that needs a process (itself or through the code it tests) belongs to the integration project:
 * list it in vitest.config.ts's STARTS_PROCESSES. The process still runs, so that the file's own
 * results stay true; the file fails after its tests, naming what it started.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll } from 'vitest';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

/** What this worker started since the current file began (a worker may run several files). */
const started = ((globalThis as { __startedChildProcesses?: string[] }).__startedChildProcesses ??= []);
started.length = 0;

const wrapped = Symbol.for('proofdesk.no-child-processes');
const module = childProcess as unknown as Record<string, unknown> & { [wrapped]?: true };
if (module[wrapped] !== true) {
  for (const name of STARTERS) {
    const original = module[name] as (...args: unknown[]) => unknown;
    module[name] = function (this: unknown, ...args: unknown[]) {
      started.push(`${name}(${String(args[0])})`);
      return original.apply(this, args);
    };
  }
  module[wrapped] = true;
  // `import { spawn } from 'node:child_process'` sees the wrapped functions too.
  syncBuiltinESMExports();
}

afterAll(() => {
  if (started.length === 0) return;
  throw new Error(`a unit test file started a child process (${[...new Set(started)].join(', ')}): list it in vitest.config.ts's STARTS_PROCESSES`);
});
