/**
 * Proofs for intake, per job: which certificate each credential of a finished job got is read
 * with one paged query per job (never one per credential), and proof files are written many at
 * a time, each durably (temporary name, fsync, rename) with one fsync per folder for the renames.
 */
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { IssuingService } from '../../common/issuing-service.js';

const PAGE = 1_000;

/** A finished job's certificates: credential uid → certificate uid. */
export async function certificatesOfJob(service: IssuingService, jobUid: string): Promise<Map<string, string>> {
  const byCredential = new Map<string, string>();
  for (let page = 1; ; page++) {
    const result = await service.listJobCertificates(jobUid, { per_page: PAGE, page });
    for (const c of result.items) byCredential.set(c.certificate.credential.uid, c.certificate.uid);
    if (page >= result.total_pages || result.items.length === 0) return byCredential;
  }
}

/** A failed job's credential uids (its certificates are gone; the credentials were released). */
export async function credentialsOfJob(service: IssuingService, jobUid: string): Promise<Set<string>> {
  const uids = new Set<string>();
  for (let page = 1; ; page++) {
    const result = await service.listJobCredentials(jobUid, { per_page: PAGE, page });
    for (const c of result.items) uids.add(c.uid);
    if (page >= result.total_pages || result.items.length === 0) return uids;
  }
}

async function writeSynced(path: string, text: string, mode: number): Promise<void> {
  const handle = await open(path, 'w', mode);
  try {
    await handle.writeFile(text);
    // The data and the size needed to read it back: a new file's other metadata does not matter here.
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes files durably, all or each failing alone: every file goes to a temporary name, is
 * synced and renamed into place, then each folder is synced once (the renames live there).
 * Resolves with one error (or undefined) per file; a file that failed leaves no temporary file.
 */
export async function writeFilesDurably(files: { path: string; text: string }[], mode = 0o644, concurrency = 16): Promise<(unknown | undefined)[]> {
  const errors: (unknown | undefined)[] = new Array(files.length).fill(undefined);
  const folders = new Set<string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, files.length) }, async () => {
      while (next < files.length) {
        const i = next++;
        const { path, text } = files[i]!;
        const tmp = `${path}.writing-${process.pid}`;
        try {
          await writeSynced(tmp, text, mode);
          await rename(tmp, path);
          folders.add(dirname(path));
        } catch (error) {
          await rm(tmp, { force: true });
          errors[i] = error;
        }
      }
    }),
  );
  for (const folder of folders) {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  return errors;
}
