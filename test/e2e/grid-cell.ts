/**
 * A grid's cell found by its column's heading, not its position: columns can be reordered,
 * hidden and pinned (and are remembered per view), so a position means nothing across views.
 */
import type { Locator } from 'playwright-core';

/** The cell of `row` under the column headed `header` in `grid` (the heading without its sort arrow). */
export async function cellUnder(grid: Locator, row: Locator, header: string): Promise<Locator> {
  const index = await columnIndex(grid, header);
  // A row's header cell (staging's File) sits under its heading like any other cell.
  return row.locator('[role="gridcell"], [role="rowheader"]').nth(index);
}

/**
 * Each data row's text with the cell under the column headed `header` first and the others after
 * it in their shown order, so a row reads e.g. "ok diploma.pdf.proof.json …" wherever that column sits.
 */
export async function rowTextsLedBy(grid: Locator, header: string): Promise<string[]> {
  const index = await columnIndex(grid, header);
  const texts: string[] = [];
  for (const row of await grid.getByRole('row').all()) {
    const cells = await row.getByRole('gridcell').allTextContents();
    if (cells.length === 0) continue;
    texts.push([cells[index] ?? '', ...cells.filter((_, i) => i !== index)].join(''));
  }
  return texts;
}

/** The texts of the column headed `header`, top to bottom, wherever that column sits. */
export async function columnTexts(grid: Locator, header: string): Promise<string[]> {
  const index = await columnIndex(grid, header);
  const texts: string[] = [];
  for (const row of await grid.getByRole('row').all()) {
    const cells = await row.getByRole('gridcell').allTextContents();
    if (cells.length > 0) texts.push(cells[index] ?? '');
  }
  return texts;
}

/** Where the column headed `header` sits among the shown columns (its sort arrow aside). */
async function columnIndex(grid: Locator, header: string): Promise<number> {
  const heads = (await grid.getByRole('columnheader').allTextContents()).map((text) => text.replace(/[▲▼↑↓]/g, '').trim());
  const index = heads.indexOf(header);
  if (index < 0) throw new Error(`No column "${header}" in the grid; its columns: ${heads.join(', ')}`);
  return index;
}
