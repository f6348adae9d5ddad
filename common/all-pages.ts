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
