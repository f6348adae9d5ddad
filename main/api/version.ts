import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version of the package this server runs from (`meta.version`), read from the nearest
 * package.json named `proofdesk` above this file; `0.0.0` when none is found (a bundle).
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      try {
        const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
        if (pkg.name === 'proofdesk' && typeof pkg.version === 'string') return pkg.version;
      } catch {
        // not ours; keep looking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return '0.0.0';
}
