/**
 * How to start one of the engine's worker threads (a module of its own, `<name>.ts` beside the
 * module that starts it). Under tsx and vitest it is the TypeScript source, run with tsx's
 * loader; in the CLI bundle (scripts/build-cli.mjs) and the app's main bundle
 * (electron.vite.config.ts) it is built as `<name>.js` next to the entry.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The entry of worker `name`, which sits beside the module at `here` (its import.meta.url). */
export function workerEntry(name: string, here: string): { entry: URL | string; eval?: true } {
  if (here.endsWith('.ts')) {
    // The source (tsx, vitest): the worker is TypeScript too; tsx's loader is registered in the
    // worker itself (a worker's --import flag is not honoured by every Node 20).
    // (require.resolve finds the CommonJS build of the API; its ESM build is beside it, .mjs.)
    const api = pathToFileURL(createRequire(fileURLToPath(here)).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const source = new URL(`./${name}.ts`, here).href;
    return { entry: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, eval: true };
  }
  // A bundle: the worker is an entry of its own, beside the entry file (this code may sit in a chunk one folder down).
  for (const rel of [`./${name}.js`, `../${name}.js`]) {
    const url = new URL(rel, here);
    if (existsSync(url)) return { entry: url };
  }
  throw new Error(`The worker ${name}.js is missing beside ${fileURLToPath(here)}: the build is incomplete`);
}
