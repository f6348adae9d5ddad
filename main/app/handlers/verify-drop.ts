/**
 * What a drop on the Verify view holds: proof files and original files, from loose files and
 * whole folders. A `NAME.proof.json` is a proof; any other `*.json` is taken as one too (as
 * `verify DIR` does) unless it is the original of a proof in the same drop; everything else is
 * an original. An original is matched to its proof by name (NAME ↔ NAME.proof.json, in the
 * same folder, else anywhere in the drop when the name is unique), else by hash (verify-run).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface DroppedFile {
  path: string;
  /** Relative to what was dropped: `folder/sub/name.pdf`, or `name.pdf` for a loose file. */
  name: string;
}

export interface DropContents {
  proofs: DroppedFile[];
  originals: DroppedFile[];
  skipped: { name: string; reason: string }[];
}

const PROOF_SUFFIX = '.proof.json';
/** Deepest folder walked (a link loop or a mistaken home folder stops here). */
const MAX_DEPTH = 32;

function walk(path: string, name: string, depth: number, out: DroppedFile[], skipped: DropContents['skipped']): void {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    skipped.push({ name, reason: 'it could not be read (it was moved, or permission is denied)' });
    return;
  }
  if (stat.isFile()) {
    out.push({ path, name });
    return;
  }
  if (!stat.isDirectory()) return;
  if (depth >= MAX_DEPTH) {
    skipped.push({ name, reason: `folders deeper than ${MAX_DEPTH} levels are not read` });
    return;
  }
  const entries = readdirSync(path, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    // A regular file is one by its listing: no look of its own (10,000 stat calls a folder of
    // proofs, before the first is read). Links and the rest are looked at (and followed) as ever.
    if (entry.isFile()) out.push({ path: join(path, entry.name), name: `${name}/${entry.name}` });
    else walk(join(path, entry.name), `${name}/${entry.name}`, depth + 1, out, skipped);
  }
}

/** Walks the dropped paths and sorts the files into proofs and originals. */
export function collectDrop(paths: string[]): DropContents {
  const files: DroppedFile[] = [];
  const skipped: DropContents['skipped'] = [];
  for (const path of paths) walk(path, basename(path), 0, files, skipped);
  const names = new Set(files.map((f) => f.name));
  const proofs: DroppedFile[] = [];
  const originals: DroppedFile[] = [];
  for (const file of files) {
    const lower = file.name.toLowerCase();
    if (lower.endsWith(PROOF_SUFFIX)) proofs.push(file);
    else if (lower.endsWith('.json') && !names.has(file.name + PROOF_SUFFIX)) proofs.push(file);
    else originals.push(file);
  }
  return { proofs, originals, skipped };
}

/** The name of the original a proof file names: `a/diploma.pdf.proof.json` → `a/diploma.pdf`; null for other proofs. */
export function originalNameOf(proofName: string): string | null {
  return proofName.toLowerCase().endsWith(PROOF_SUFFIX) ? proofName.slice(0, -PROOF_SUFFIX.length) : null;
}
