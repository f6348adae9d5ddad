/** What the palette filters on: an option's label, the words of its menu, whether it can run. */
export interface Filterable {
  label: string;
  /** Other words the query matches (the command's menu: `Edit`, `View`, ...). */
  context: string;
  disabled: boolean;
}

/**
 * The command palette's options matching a query: every word typed appears in the label or
 * its menu, in any order and case. Labels starting with the first word come first, what can
 * run before what cannot; otherwise the table's order holds.
 *
 * @example filterOptions(options, 'verify') // [{ label: 'Verify', ... }]
 */
export function filterOptions<T extends Filterable>(options: T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = options.filter((o) => {
    const text = `${o.label} ${o.context}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
  const rank = (o: T) => (o.label.toLowerCase().startsWith(words[0] ?? '') ? 0 : 1) + (o.disabled ? 2 : 0);
  return matching
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i)
    .map(({ o }) => o);
}
