/** `npm run bench -- --only PATTERN`: which benchmarks to run. */

/** The value of `--only PATTERN` / `--only=PATTERN`, if given. */
export function onlyPattern(argv: string[]): RegExp | undefined {
  const at = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (at < 0) return undefined;
  const pattern = argv[at]!.startsWith('--only=') ? argv[at]!.slice('--only='.length) : argv[at + 1];
  if (!pattern) throw new Error('--only needs a pattern, e.g. npm run bench -- --only api');
  return new RegExp(pattern, 'i');
}
