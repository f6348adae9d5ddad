/**
 * Which names in a watched folder are files to issue, and which are not: hidden, temporary
 * and partial-download files, sidecars, manifests, and the intake's own folders.
 */

/** The intake's own folders at the top of every watched folder. */
export const DONE_DIR = 'done';
export const FAILED_DIR = 'failed';
export const DUPLICATE_DIR = 'duplicate';
/** Where proof files go unless the folder names another output folder. */
export const DEFAULT_PROOFS_DIR = 'proofs';
export const MANIFEST_FILE = 'manifest.csv';

const TEMPORARY = [
  /\.part$/i, // Firefox, wget, curl -C
  /\.partial$/i,
  /\.crdownload$/i, // Chrome, Edge
  /\.download$/i, // Safari
  /\.tmp$/i,
  /\.temp$/i,
  /\.swp$/i,
  /~$/, // editor backups
];

/** Names never taken: dotfiles, Office lock files (`~$...`), partial downloads, temporary files, OS litter. */
export function isIgnoredName(name: string): boolean {
  if (name.startsWith('.') || name.startsWith('~$')) return true;
  if (/^(thumbs\.db|desktop\.ini)$/i.test(name)) return true;
  return TEMPORARY.some((pattern) => pattern.test(name));
}

/**
 * A sidecar carries another file's metadata: `NAME.EXT.json` for `NAME.EXT`. A `.json` file
 * whose name has another extension before `.json` is always taken as a sidecar (never issued
 * itself), so a sidecar that arrives before its file is not issued by mistake.
 */
export function isSidecarName(name: string): boolean {
  if (!/\.json$/i.test(name)) return false;
  const stem = name.slice(0, -'.json'.length);
  return stem.lastIndexOf('.') > 0;
}

export function isManifestName(name: string): boolean {
  return name.toLowerCase() === MANIFEST_FILE;
}

/** Whether a file with this name is a candidate for issuing. */
export function isCandidateName(name: string): boolean {
  return !isIgnoredName(name) && !isSidecarName(name) && !isManifestName(name);
}

/** The sidecar's name for a file. */
export function sidecarNameOf(name: string): string {
  return `${name}.json`;
}

/** The Verifiable Credential's path beside a proof path: FILE.vc.json for FILE.proof.json. */
export function vcPathOf(proofPath: string): string {
  return `${proofPath.slice(0, -'.proof.json'.length)}.vc.json`;
}
