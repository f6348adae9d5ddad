/**
 * A real drop for the browser benchmarks (staging-ui, verify-ui): the files are read from disk
 * by a file input (a folder with webkitdirectory, so each file carries its path in the folder)
 * into a DataTransfer first, then dropped on the window with dragenter, dragover and drop
 * events, as a person's drag would. The two steps are apart so a figure times the app's work on
 * the drop, not the thousands of `items.add` calls that only the benchmark makes.
 * (test/e2e/drop-files.ts does both in one call, which is what a test wants.)
 */
import type { Page } from 'playwright-core';

/** Reads `paths` (one folder, walked, when `folder`) into the page's pending drop (not timed). */
export async function prepareDrop(page: Page, paths: string | string[], folder = true): Promise<void> {
  // Strings, not functions: the benches compile without the DOM's types.
  await page.evaluate(`(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'bench-drop-source';
    if (${folder}) input.setAttribute('webkitdirectory', '');
    input.hidden = true;
    document.body.append(input);
  })()`);
  await page.setInputFiles('#bench-drop-source', paths);
  await page.evaluate(`(() => {
    const input = document.getElementById('bench-drop-source');
    window.__benchDrop = new DataTransfer();
    for (const file of input.files) window.__benchDrop.items.add(file);
    input.remove();
  })()`);
}

/** Drops the prepared files on the window (dragenter, dragover, drop on `main`). */
export async function fireDrop(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const data = window.__benchDrop;
    if (!data) throw new Error('prepareDrop first');
    delete window.__benchDrop;
    const target = document.querySelector('main') || document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
  })()`);
}
