/**
 * A grid's cell found by its column's heading, not its position: columns can be reordered,
 * hidden and pinned (and are remembered per view), so a position means nothing across views.
 */
import type { Locator } from 'playwright-core';

/** The cell of `row` under the column headed `header` in `grid` (the heading without its sort arrow). */
export async function cellUnder(grid: Locator, row: Locator, header: string): Promise<Locator> {
  const heads = (await grid.getByRole('columnheader').allTextContents()).map((text) => text.replace(/[▲▼↑↓]/g, '').trim());
  const index = heads.indexOf(header);
  if (index < 0) throw new Error(`No column "${header}" in the grid; its columns: ${heads.join(', ')}`);
  return row.getByRole('gridcell').nth(index);
}
