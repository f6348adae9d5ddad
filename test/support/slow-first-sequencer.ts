/**
 * vitest's test sequencer, with the integration files known to take longest started first.
 *
 * vitest starts the files of a project longest-first by the durations of the last run it
 * cached; on a machine without that cache (a fresh clone, CI) it starts the largest files first.
 * Some of the longest files are among the smallest (a shared suite run on another store, the
 * torture run): started last, they alone kept the run going for its last minute. Without cached
 * durations, the files of SLOW_FIRST start first, in that order, and the others follow by size.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The integration files that take longest (half a minute to a minute on 2 cores), longest first. */
export const SLOW_FIRST: readonly string[] = [
  'test/behaviour/remote-postgres.test.ts',
  'test/issuing/torture-public-chain.test.ts',
  'test/behaviour/embedded-postgres.test.ts',
  'test/cluster/three-nodes-postgres.test.ts',
  'test/intake/watch-folder.test.ts',
  'test/store/issuing-on-both-stores.test.ts',
  'test/issuing/crash-recovery.test.ts',
  'test/behaviour/remote.test.ts',
  'test/store/files-on-both-stores.test.ts',
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const missing = SLOW_FIRST.filter((path) => !existsSync(join(root, path)));
    if (missing.length > 0) throw new Error(`SLOW_FIRST in test/support/slow-first-sequencer.ts names files that do not exist: ${missing.join(', ')}`);
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      // A duration of the last run (vitest's cache) orders better than this list.
      if (this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`)) return SLOW_FIRST.length;
      const at = SLOW_FIRST.indexOf(relative(root, spec.moduleId));
      return at === -1 ? SLOW_FIRST.length : at;
    };
    // The projects keep their order (BaseSequencer runs them one after the other); sort() is stable.
    const projectAt = new Map<string, number>();
    sorted.forEach((spec, i) => projectAt.set(spec.project.name, projectAt.get(spec.project.name) ?? i));
    const project = (spec: TestSpecification): number => projectAt.get(spec.project.name)!;
    return [...sorted].sort((a, b) => project(a) - project(b) || rank(a) - rank(b));
  }
}
