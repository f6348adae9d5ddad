// Builds the headless CLI into out/cli (the `proofdesk` bin of package.json): one ESM bundle
// per command, split at the dynamic imports of main/cli/run.ts, so a call loads only the
// command it runs (what is bundled and what stays in node_modules: scripts/node-bundle.mjs).
// An argument names another folder to build into (the tests build their own copy, beside out/
// at the same depth, so that the bundle finds node_modules and the repository as out/cli does).
import { chmodSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { nodeBundleOptions } from './node-bundle.mjs';

const root = resolve(import.meta.dirname, '..');
const outdir = resolve(root, process.argv[2] ?? 'out/cli');
rmSync(outdir, { recursive: true, force: true });
await build(nodeBundleOptions(outdir, { index: resolve(root, 'main/cli/index.ts') }));
chmodSync(resolve(outdir, 'index.js'), 0o755);
console.log(`built ${outdir}/index.js`);
