/**
 * The README and docs/ stand alone in a clone: no link or path points outside
 * the repository (the ../shared/ folder exists only beside it on the developers' machine), and
 * every relative link leads to a file of the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

const FILES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

it('README.md and docs/ name no path outside the repository', () => {
  for (const file of FILES) {
    const text = readFileSync(file, 'utf8');
    expect(text, relative(ROOT, file)).not.toMatch(/\.\.\/shared\/|`shared\/|\/work\/shared/);
  }
});

it('every relative link of README.md and docs/ leads to a file in the repository', () => {
  for (const file of FILES) {
    const text = readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      const path = resolve(dirname(file), target!.split('#')[0]!);
      expect(relative(ROOT, path).startsWith('..'), `${relative(ROOT, file)} → ${target}`).toBe(false);
      expect(existsSync(path), `${relative(ROOT, file)} → ${target}`).toBe(true);
    }
  }
});
