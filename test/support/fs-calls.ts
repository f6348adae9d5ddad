/**
 * For tests: counts calls of some real node:fs functions on paths inside a folder (the real ones
 * still run), to tell what a change costs in looks at or reads of the disk.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

/** Counts calls of `promised` (node:fs/promises) and `plain` (node:fs) on paths inside `root` until `restore`. */
export function countFsCalls(root: string, promised: string[], plain: string[]): { count: () => number; restore: () => void } {
  const require = createRequire(import.meta.url);
  const targets: [Record<string, unknown>, string[]][] = [
    [require('node:fs/promises') as Record<string, unknown>, promised],
    [require('node:fs') as Record<string, unknown>, plain],
  ];
  const saved: [Record<string, unknown>, string, unknown][] = [];
  let calls = 0;
  for (const [target, names] of targets) {
    for (const name of names) {
      const original = target[name] as (...args: unknown[]) => unknown;
      saved.push([target, name, original]);
      target[name] = function (this: unknown, ...args: unknown[]) {
        if (String(args[0]).startsWith(root)) calls++;
        return original.apply(this, args);
      };
    }
  }
  // ESM imports of node:fs see the wrapped functions only after this.
  syncBuiltinESMExports();
  return {
    count: () => calls,
    restore() {
      for (const [target, name, original] of saved) target[name] = original;
      syncBuiltinESMExports();
    },
  };
}

/** Looks at the disk: lstat and stat, in their promise, callback and synchronous forms. */
export const countLooks = (root: string) => countFsCalls(root, ['lstat', 'stat'], ['lstat', 'stat', 'lstatSync', 'statSync']);

/** Opens and reads of a file: open, readFile and streams, in every form. */
export const countOpens = (root: string) => countFsCalls(root, ['open', 'readFile'], ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream']);
