/**
 * The check that nothing in a table is cut silently: every cell of every grid or table on the
 * page whose text overflows its box must end in an ellipsis and carry its full text as its title.
 */
import type { Page } from 'playwright-core';

/** The cells cut without "…" or without a full-text title, as readable lines (empty when none). */
export async function silentlyCutCells(page: Page): Promise<string[]> {
  // A string, not a function: the tests compile without the DOM's types.
  return page.evaluate(`(() => {
    const problems = [];
    for (const table of document.querySelectorAll('[role=grid], [role=table]')) {
      const name = table.getAttribute('aria-label') || '(unnamed table)';
      for (const cell of table.querySelectorAll('[role=gridcell], [role=cell]')) {
        // Form fields scroll their own text; they are not cut.
        if (cell.querySelector('input, textarea, select')) continue;
        const boxes = [cell, ...cell.querySelectorAll('*')].filter((el) => el.getClientRects().length > 0 && el.clientWidth > 1);
        const cut = boxes.find((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible');
        if (!cut) continue;
        const shown = [...cell.childNodes].map(function text(node) {
          if (node.nodeType === 3) return node.textContent;
          if (node.nodeType !== 1 || node.getAttribute('aria-hidden') === 'true') return '';
          return [...node.childNodes].map(text).join(' ');
        }).join(' ');
        const what = name + ': "' + cell.textContent + '"';
        if (getComputedStyle(cut).textOverflow !== 'ellipsis') problems.push(what + ' is cut without an ellipsis');
        const title = cut.getAttribute('title') || cell.getAttribute('title') || '';
        const missing = shown.split(/[\\s,]+/).filter((word) => word && !title.includes(word));
        if (missing.length > 0) problems.push(what + ' is cut and its title lacks ' + missing.join(' '));
      }
    }
    return problems;
  })()`) as Promise<string[]>;
}

/**
 * The same check for the text fields in grid and table cells that are not being edited: a field
 * whose text is longer than its box must end in "…" and carry its whole text as its title (the
 * focused field is left out: it scrolls to its caret). Readable lines, empty when none.
 */
export async function silentlyCutFields(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const problems = [];
    for (const table of document.querySelectorAll('[role=grid], [role=table]')) {
      const name = table.getAttribute('aria-label') || '(unnamed table)';
      const fields = table.querySelectorAll('[role=gridcell] input, [role=cell] input');
      for (const field of fields) {
        if (!['text', 'search', 'url', ''].includes(field.getAttribute('type') || '') || field === document.activeElement) continue;
        if (field.getClientRects().length === 0 || field.scrollWidth <= field.clientWidth + 1) continue;
        const what = name + ': ' + (field.getAttribute('aria-label') || '(unnamed field)') + ' "' + field.value + '"';
        if (getComputedStyle(field).textOverflow !== 'ellipsis') problems.push(what + ' is cut without an ellipsis');
        const title = field.getAttribute('title') || '';
        const missing = field.value.split(/[\\s,]+/).filter((word) => word && !title.includes(word));
        if (missing.length > 0) problems.push(what + ' is cut and its title lacks ' + missing.join(' '));
      }
    }
    return problems;
  })()`) as Promise<string[]>;
}
