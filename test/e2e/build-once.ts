/**
 * vitest globalSetup of the e2e project: builds main, preload and renderer once for every
 * browser test of the run (into a temporary directory, never a stale out/); the tests get the
 * renderer's folder through builtRenderer() (shell-harness.ts). Removed after the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The renderer bundle built for this run (its index.html and assets). */
    rendererDir: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(project: TestProject): () => void {
  const workDir = mkdtempSync(join(tmpdir(), 'proofdesk-e2e-build-'));
  const outDir = join(workDir, 'out');
  execFileSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build', '--outDir', outDir, '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  project.provide('rendererDir', join(outDir, 'renderer'));
  return () => rmSync(workDir, { recursive: true, force: true });
}
