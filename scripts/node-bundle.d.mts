/** Types of node-bundle.mjs, for the TypeScript that builds with it (the tests' child scripts). */
import type { BuildOptions } from 'esbuild';

/** esbuild options of a bundle into `outdir` with `entries` (name → source) beside the engine's workers. */
export function nodeBundleOptions(outdir: string, entries: Record<string, string>): BuildOptions;
