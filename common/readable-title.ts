/**
 * A title a person would write for a file, from its name: `diploma-0000.pdf` → `Diploma 0000`.
 * The extension goes, `-`, `_`, `.` and runs of spaces become one space, camelCase is split,
 * and the first letter is capitalised; words already in capitals (`BSc`, `MIT`) are kept as
 * they are. A name with no
 * words left (`---.pdf`) keeps the file's name.
 *
 * @example readableTitle('msc/bob_smith-final.PDF') // 'Bob smith final'
 */
export function readableTitle(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  // A leading dot is a hidden file's name, not an extension.
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const words = stem
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_.\s]+/g, ' ')
    .trim();
  if (words === '') return base;
  return words.charAt(0).toLocaleUpperCase() + words.slice(1);
}
