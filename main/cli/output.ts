/** Renders rows as an aligned text table (for people; `--json` is for programs). */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** The line under a listing: where in the pages we are. */
export function pageSummary(page: { page: number; total_pages: number; total_items: number }, noun: string): string {
  if (page.total_items === 0) return `no ${noun}`;
  if (page.page > page.total_pages) return `page ${page.page} is past the last page (${page.total_pages}); ${page.total_items} ${noun}`;
  return `page ${page.page} of ${page.total_pages}, ${page.total_items} ${noun}`;
}

/** Prints one page of a list command: as JSON with --json, else a table and where in the pages we are. */
export function printPage<T>(
  out: (text: string) => void,
  asJson: boolean | undefined,
  page: { items: T[]; page: number; total_pages: number; total_items: number },
  noun: string,
  headers: string[],
  toRow: (item: T) => string[],
): void {
  if (asJson) {
    out(json(page));
    return;
  }
  out(table(headers, page.items.map(toRow)));
  out(pageSummary(page, noun));
}
