/**
 * Every page of a paged listing, one request after the other: the one way Proofdesk drains a
 * listing of the spec (credentials, jobs, a job's certificates or credentials).
 *
 * @example
 * for await (const page of allPages((page) => service.listJobCredentials(jobUid, { per_page: 1000, page }))) {
 *   for (const credential of page.items) uids.add(credential.uid);
 * }
 */
import type { Page } from './wire-types.js';

/**
 * Yields page 1, 2, … as `fetchPage` answers them, up to the last page (`total_pages`), or an
 * empty page (the listing shrank meanwhile). Breaking out of the loop asks for no further page.
 */
export async function* allPages<T>(fetchPage: (page: number) => Promise<Page<T>>): AsyncGenerator<Page<T>, void, undefined> {
  for (let page = 1; ; page++) {
    const result = await fetchPage(page);
    yield result;
    if (page >= result.total_pages || result.items.length === 0) return;
  }
}

/**
 * Items `offset .. offset+limit-1` of a listing read `limit` per page: the page that holds
 * `offset`, and the next one when the window is not aligned to the pages.
 */
export async function pageWindow<T>(offset: number, limit: number, fetchPage: (page: number) => Promise<Page<T>>): Promise<{ items: T[]; total: number }> {
  const page = Math.floor(offset / limit) + 1;
  const skip = offset % limit;
  const first = await fetchPage(page);
  let items = first.items.slice(skip);
  if (skip !== 0 && page < first.total_pages) items = items.concat((await fetchPage(page + 1)).items.slice(0, skip));
  return { items, total: first.total_items };
}
