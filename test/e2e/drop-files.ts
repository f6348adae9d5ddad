/**
 * A real drop for the e2e tests: the files are read by a file input (a folder with
 * webkitdirectory, so each file carries its path in the folder), put into a DataTransfer and
 * dropped on the window with dragenter, dragover and drop events, as a person's drag would.
 */
import type { Page } from 'playwright-core';

export async function dropFiles(page: Page, paths: string | string[], folder = false): Promise<void> {
  // Strings, not functions: the tests compile without the DOM's types.
  await page.evaluate(`(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'e2e-drop-source';
    if (${folder}) input.setAttribute('webkitdirectory', '');
    input.hidden = true;
    document.body.append(input);
  })()`);
  await page.setInputFiles('#e2e-drop-source', paths);
  await page.evaluate(`(() => {
    const input = document.getElementById('e2e-drop-source');
    const data = new DataTransfer();
    for (const file of input.files) data.items.add(file);
    input.remove();
    const target = document.querySelector('main') || document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  })()`);
}
