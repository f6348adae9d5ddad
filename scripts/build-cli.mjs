// Builds the headless CLI into out/cli (the `proofdesk` bin of package.json): one ESM bundle
// per command, split at the dynamic imports of main/cli/run.ts, so a call loads only the
// command it runs. Dependencies stay in node_modules (better-sqlite3 and keytar are native).
// An argument names another folder to build into (the tests build their own copy, beside out/
// at the same depth, so that the bundle finds node_modules and the repository as out/cli does).
import { chmodSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const outdir = resolve(root, process.argv[2] ?? 'out/cli');
rmSync(outdir, { recursive: true, force: true });
await build({
  // The workers (proof checking for `verify DIR`, Verifiable Credentials) are entries of their
  // own, found beside the others (main/engine/worker-entry.ts).
  entryPoints: { index: resolve(root, 'main/cli/index.ts'), 'verify-offline-worker': resolve(root, 'main/engine/proofs/verify-offline-worker.ts'), 'vc-worker': resolve(root, 'main/engine/vc/vc-worker.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
chmodSync(resolve(outdir, 'index.js'), 0o755);
console.log(`built ${outdir}/index.js`);
