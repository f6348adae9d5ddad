/**
 * What the page showed at the moment something happened: for the tests that a value changed in
 * the same frame as what announces or causes it, never a frame later.
 */
import type { Page } from 'playwright-core';

/**
 * Watches the page until `condition` (a JavaScript expression, evaluated in the page after each
 * change of the DOM) holds; the answer is what `read` (an expression) gave at that moment,
 * observed as the page changed, not polled later. Call it before the action.
 */
export async function valueWhen<T>(page: Page, condition: string, read: string): Promise<() => Promise<T>> {
  // Set, not answered: the page would wait for the promise before the action is taken.
  await page.evaluate(`void (window.__valueWhen = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!(${condition})) return;
      observer.disconnect();
      resolve(${read});
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }))`);
  return () => page.evaluate('window.__valueWhen') as Promise<T>;
}

/** The values of the fields named `labels` (aria-label; null for a field not on the page), as an expression for valueWhen. */
export function fieldValues(labels: string[]): string {
  return `${JSON.stringify(labels)}.map((label) => document.querySelector('[aria-label="' + label + '"]')?.value ?? null)`;
}

/**
 * Watches for a status line to say `text`; the answer is what the fields named `labels` showed at
 * that moment: what a person sees and a screen reader user finds when the announcement comes.
 */
export function valuesWhenSaid(page: Page, text: string, labels: string[]): Promise<() => Promise<(string | null)[]>> {
  return valueWhen(page, `[...document.querySelectorAll('[role="status"]')].some((s) => s.textContent === ${JSON.stringify(text)})`, fieldValues(labels));
}
