// Builds the benchmarks' issuing job (bench/issuing-job.ts) into out/bench, bundled as the CLI
// is (scripts/node-bundle.mjs): the job's process then starts as a user's does, not with tsx
// compiling the engine's TypeScript first.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { nodeBundleOptions } from './node-bundle.mjs';

const root = resolve(import.meta.dirname, '..');
const outdir = resolve(root, 'out/bench');
rmSync(outdir, { recursive: true, force: true });
await build(nodeBundleOptions(outdir, { 'issuing-job': resolve(root, 'bench/issuing-job.ts') }));
console.log(`built ${outdir}/issuing-job.js`);
