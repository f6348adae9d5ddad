/**
 * Build of the three bundles into out/: main (ESM, Node), preload (CommonJS: a sandboxed
 * preload runs as a classic script, not a module) and the renderer (the web page).
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { withCspMeta } from './main/app/renderer-csp.js';

const root = import.meta.dirname;

/**
 * Writes the renderer's CSP (main/app/renderer-csp.ts, its one definition) into index.html's
 * <meta> tag. The dev server injects CSS as <style> elements (for hot reload), which the
 * strict `style-src 'self'` blocks: in dev only, that one directive is relaxed; the built app
 * keeps the strict policy (and the app: protocol sends it as a header too).
 */
let serving = false;
const cspMeta: Plugin = {
  name: 'proofdesk:csp-meta',
  configResolved: (config) => {
    serving = config.command === 'serve';
  },
  transformIndexHtml: { order: 'pre', handler: (html) => withCspMeta(html, serving) },
};

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // The workers (Verify's proof checking, Verifiable Credentials) are entries of their own,
      // found beside index.js (main/engine/worker-entry.ts).
      lib: {
        entry: { index: resolve(root, 'main/app/index.ts'), 'verify-offline-worker': resolve(root, 'main/engine/proofs/verify-offline-worker.ts'), 'vc-worker': resolve(root, 'main/engine/vc/vc-worker.ts') },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      // Dependencies stay in node_modules (packaged by electron-builder); natives must, since
      // they are rebuilt for Electron's ABI and cannot be bundled.
      externalizeDeps: { include: ['better-sqlite3'] },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      lib: { entry: resolve(root, 'preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
      // A sandboxed preload can require only electron: bundle everything else into it.
      externalizeDeps: false,
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react(), cspMeta],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
