// How Proofdesk's Node code is bundled for running outside Electron (the CLI, scripts/build-cli.mjs;
// the benchmarks' issuing job, scripts/build-bench-job.mjs): ESM, split at dynamic imports.
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

// Pure-JS packages the engine's start loads, bundled in: left in node_modules, Node resolves,
// reads and links each of their ES module files apart (viem, ox and TypeBox alone are ~600
// files), which was most of a command's start-up. Every other package stays in node_modules:
// the native ones (better-sqlite3, keytar, sodium-native) must, and those of other commands
// (the verify and Verifiable Credential stacks, fastify, exceljs) load only when those run.
const BUNDLED = new Set([
  'viem', 'ox', 'abitype', '@noble/curves', '@noble/hashes', '@scure/base', '@scure/bip32', '@scure/bip39',
  '@sinclair/typebox', 'file-type', 'strtok3', 'token-types', '@tokenizer/inflate', '@tokenizer/token', '@borewit/text-codec',
  'uint8array-extras', 'ieee754', 'csv-parse', 'p-map', 'canonicalize', 'debug', 'ms', 'proper-lockfile',
  'graceful-fs', 'retry', 'signal-exit',
]);

/** The package a bare import names (`@scope/name` or `name`), or undefined for a path or a Node builtin. */
function packageOf(path) {
  if (path.startsWith('.') || path.startsWith('/') || path.startsWith('node:')) return undefined;
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Keeps every package but the BUNDLED ones external (imported from node_modules at run time). */
const externalUnlessBundled = {
  name: 'external-unless-bundled',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageOf(args.path);
      if (name === undefined || BUNDLED.has(name)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * esbuild options of a bundle into `outdir` (inside the repository, so that node_modules is
 * found) with `entries` beside the engine's workers (verify-offline-worker, vc-worker), which
 * main/engine/worker-entry.ts looks for next to the entry.
 */
export function nodeBundleOptions(outdir, entries) {
  return {
    entryPoints: { ...entries, 'verify-offline-worker': resolve(root, 'main/engine/proofs/verify-offline-worker.ts'), 'vc-worker': resolve(root, 'main/engine/vc/vc-worker.ts') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externalUnlessBundled],
    // The bundled CommonJS packages (debug, proper-lockfile) call require() for Node's own modules.
    banner: { js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
  };
}
