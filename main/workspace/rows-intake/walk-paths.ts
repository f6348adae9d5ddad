/**
 * Which files a drop (or `Add files`) brings in: loose files as they are, folders walked with
 * the watch folder's rules (main/intake/names.ts): hidden, temporary and partial files are
 * skipped, sidecars and manifest.csv are applied to their files rather than issued, the
 * intake's own done/failed/duplicate folders are left alone, and links are never followed.
 */
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DONE_DIR, DUPLICATE_DIR, FAILED_DIR, isIgnoredName, isManifestName, isSidecarName, sidecarNameOf } from '../../intake/names.js';

/** A file to stage: where it is, and the folder its sidecars and manifests are looked up in. */
export interface FoundFile {
  path: string;
  /** The dropped folder (or a loose file's own folder). */
  root: string;
  /** Relative to root, with forward slashes. */
  relPath: string;
  /**
   * The walk saw no sidecar beside the file and no manifest.csv in its folder or any above it
   * (up to the dropped folder): the intake's lookup would find nothing, so it is not asked
   * (1,000 stats fewer for a folder of diplomas). Absent for loose files, which are looked up.
   */
  bare?: boolean;
}

export interface WalkResult {
  files: FoundFile[];
  skipped: { path: string; reason: string }[];
}

const INTAKE_DIRS = new Set([DONE_DIR, FAILED_DIR, DUPLICATE_DIR]);

/** Why a file with this name is not staged, or null when it is. */
function skipReason(name: string): string | null {
  if (isIgnoredName(name)) return 'a hidden or temporary file';
  if (isManifestName(name)) return 'a manifest: its rows are applied to the files it names';
  if (isSidecarName(name)) return "a sidecar: it is applied to its file's credential";
  return null;
}

/**
 * Lists the files to stage under the given paths, in a stable order (each folder's names sorted).
 *
 * @example const { files, skipped } = await walkPaths(['/home/me/diplomas'])
 */
export async function walkPaths(paths: string[]): Promise<WalkResult> {
  const files: FoundFile[] = [];
  const skipped: WalkResult['skipped'] = [];
  const seen = new Set<string>();

  const add = (file: FoundFile) => {
    if (seen.has(file.path)) return;
    seen.add(file.path);
    files.push(file);
  };

  const walk = async (root: string, dir: string, rel: string, manifestAbove: boolean): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      skipped.push({ path: dir, reason: `the folder cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const names = new Set(entries.map((e) => e.name));
    // Any entry so named counts (a link or a folder too): the lookup then says what it makes of it.
    const manifest = manifestAbove || entries.some((e) => isManifestName(e.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        skipped.push({ path, reason: 'a link: only regular files inside the folder are taken' });
      } else if (entry.isDirectory()) {
        // The intake's own folders of a watched folder hold work already done.
        if (isIgnoredName(entry.name) || (rel === '' && INTAKE_DIRS.has(entry.name))) continue;
        await walk(root, path, relPath, manifest);
      } else if (entry.isFile()) {
        const reason = skipReason(entry.name);
        if (reason) {
          // Sidecars and manifests are expected company; only say why a real file was left out.
          if (!isSidecarName(entry.name) && !isManifestName(entry.name)) skipped.push({ path, reason });
          continue;
        }
        // The directory entry already says it is a regular file (not a link): no stat needed.
        add({ path, root, relPath, bare: !manifest && !names.has(sidecarNameOf(entry.name)) });
      }
    }
  };

  for (const given of paths) {
    const path = resolve(given);
    const info = await lstat(path).catch(() => null);
    if (!info) skipped.push({ path, reason: 'it is not there any more' });
    else if (info.isSymbolicLink()) skipped.push({ path, reason: 'a link: only regular files are taken' });
    else if (info.isDirectory()) await walk(path, path, '', false);
    else if (!info.isFile()) skipped.push({ path, reason: 'not a regular file' });
    else {
      const reason = skipReason(basename(path));
      if (reason) skipped.push({ path, reason });
      else add({ path, root: dirname(path), relPath: basename(path) });
    }
  }
  return { files, skipped };
}
