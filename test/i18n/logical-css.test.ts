import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = join(import.meta.dirname, '../../renderer');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** A physical left/right property or value: it would not mirror in a right-to-left language. */
const PHYSICAL = /(^|[\s;{])((margin|padding|border)-(left|right)[\w-]*|left|right|border-(top|bottom)-(left|right)-radius)\s*:|(text-align|float|clear)\s*:\s*(left|right)\b/;

describe('the renderer CSS lays out right to left', () => {
  it('uses logical properties (inline-start / inline-end), never left or right', () => {
    const found = cssFiles(RENDERER).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line: line.replace(/\/\*.*?\*\//g, ''), at: `${relative(RENDERER, file)}:${i + 1}` }))
        .filter(({ line }) => PHYSICAL.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
