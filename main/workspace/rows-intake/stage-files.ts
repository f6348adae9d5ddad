/**
 * Staging: the files of a drop become rows to review before anything is created. Each file is
 * hashed (streamed from disk), its sidecar and manifest.csv row applied with the intake's own
 * code (main/intake/file-metadata.ts), and its content looked up among the Partner's existing
 * credentials so a second upload of the same diploma is flagged before it is made.
 */
import { sep } from 'node:path';
import type { StagedRow, StagingIntake } from '../../../common/ipc/staging.js';
import { MetadataSource, type Lookup } from '../../intake/file-metadata.js';
import pMap from 'p-map';
import { findExistingByHash, stage, type PartnerScope } from '../../engine/index.js';
import { walkPaths, type FoundFile } from './walk-paths.js';
import { hashFile } from '../../files/hash-file.js';
import { readableTitle } from '../../../common/readable-title.js';

/** What the intake's lookup answers for a file with no sidecar and no manifest. */
const NOTHING_TO_APPLY: Lookup = { kind: 'ok', fields: {}, sidecar: null };

/** How many files are read at once: enough to keep the disk busy, few enough for 2 cores. */
const HASH_CONCURRENCY = 16;

/**
 * Hashes of files main wrote itself and nobody else can change: the browser bridge's uploads
 * (main/app/bridge-uploads.ts) are hashed from the bytes as they arrive, so staging
 * them does not read 1,000 files back from disk. Keyed by absolute path.
 */
const writtenHashes = new Map<string, { sha256: string; size: number }>();

/** Notes the hash of a file main has just written (and keeps private) for stagePaths. */
export function rememberWrittenHash(path: string, hash: string, size: number): void {
  writtenHashes.set(path, { sha256: hash, size });
}

/** Forgets the hashes of files under this folder (it was removed). */
export function forgetWrittenHashes(folder: string): void {
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  for (const path of writtenHashes.keys()) if (path.startsWith(prefix)) writtenHashes.delete(path);
}

export interface StageOptions {
  /** The embedded engine's scope, for duplicate detection; null (remote mode) skips it. */
  scope: PartnerScope | null;
  now?: number;
}

/**
 * Stages the files and folders at these paths.
 *
 * @example const { rows, skipped } = await stagePaths(['/tmp/drop/diplomas'], { scope })
 */
export async function stagePaths(paths: string[], options: StageOptions): Promise<StagingIntake> {
  const now = options.now ?? Date.now();
  const { files, skipped } = await stage('staging: walk', () => walkPaths(paths));
  // Files are taken as they are now: nothing waits for a sidecar still being written.
  const metadata = new MetadataSource(0);
  const rows = await stage('staging: read+hash', () => pMap(files, async (file: FoundFile): Promise<StagedRow | null> => {
    let fileHash: string;
    let size: number;
    try {
      ({ sha256: fileHash, size } = writtenHashes.get(file.path) ?? (await hashFile(file.path)));
    } catch (error) {
      skipped.push({ path: file.path, reason: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return null;
    }
    const lookup = file.bare ? NOTHING_TO_APPLY : await metadata.lookup(file.root, file.relPath, now);
    const name = file.relPath.slice(file.relPath.lastIndexOf('/') + 1);
    const fields = lookup.kind === 'ok' ? lookup.fields : {};
    return {
      key: file.path,
      file: { path: file.path, rel_path: file.relPath, size, file_hash: fileHash },
      title: fields.title ?? readableTitle(name),
      metadata: fields.metadata ?? {},
      tags: fields.tags ?? [],
      expiry_date: fields.expiry_date ?? null,
      links: fields.credentials ?? [],
      duplicate_of: [],
      problem: lookup.kind === 'fail' ? { id: lookup.error.id, message: lookup.error.message } : null,
    };
  }, { concurrency: HASH_CONCURRENCY }));
  const staged = rows.filter((r): r is StagedRow => r !== null);
  if (options.scope) {
    const scope = options.scope;
    const existing = stage('staging: duplicates', () => findExistingByHash(scope, staged.map((r) => r.file!.file_hash)));
    for (const row of staged) row.duplicate_of = existing.get(row.file!.file_hash) ?? [];
  }
  return { rows: staged, skipped };
}
