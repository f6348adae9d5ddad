import type { FolderIntakeProgress } from './types.js';

/** The status line: `seen 120 · in progress 3 · waiting for job 17 · issued 100 · failed 0 · duplicates 0`. */
export function formatProgress(p: FolderIntakeProgress): string {
  return `seen ${p.seen} · in progress ${p.inProgress} · waiting for job ${p.waitingForJob} · issued ${p.issued} · failed ${p.failed} · duplicates ${p.duplicates}`;
}
