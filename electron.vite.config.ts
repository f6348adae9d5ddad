/**
 * Build of the three bundles into out/: main (ESM, Node), preload (CommonJS: a sandboxed
 * preload runs as a classic script, not a module) and the renderer (the web page).
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;

/**
 * The dev server injects CSS as <style> elements (for hot reload), which the strict
 * `style-src 'self'` of index.html blocks. Relax that one directive in dev only; the
 * built app keeps the strict policy.
 */
const devStyleCsp: Plugin = {
  name: 'proofdesk:dev-style-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      lib: { entry: resolve(root, 'main/app/index.ts'), formats: ['es'], fileName: () => 'index.js' },
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
    plugins: [react(), devStyleCsp],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
