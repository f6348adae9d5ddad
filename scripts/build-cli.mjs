// Builds the headless CLI into out/cli (the `proofdesk` bin of package.json): one ESM bundle
// per command, split at the dynamic imports of main/cli/run.ts, so a call loads only the
// command it runs.
import { chmodSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const outdir = resolve(root, 'out/cli');

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
  plugins: [externalUnlessBundled],
  // The bundled CommonJS packages (debug, proper-lockfile) call require() for Node's own modules.
  banner: { js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
chmodSync(resolve(outdir, 'index.js'), 0o755);
console.log(`built ${outdir}/index.js`);
