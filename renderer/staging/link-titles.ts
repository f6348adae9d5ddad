/**
 * The staging grid's linked records named by their titles: each linked uid is asked of main
 * once, when a row first links to it, and the answers are kept for every later render.
 */
import { MAX_LINK_TITLES, type StagedRow } from '../../common/ipc/staging.js';
import { isUuid } from '../../common/validate.js';

/** Titles of linked credentials by lowercase uid; null: no credential of the Partner has that uid. */
export type LinkTitles = Readonly<Record<string, string | null>>;

/** The uids the rows link to whose titles are neither known nor being asked for, each once. */
export function unknownLinks(rows: readonly StagedRow[], known: LinkTitles, asking: ReadonlySet<string>): string[] {
  const wanted = new Set<string>();
  for (const row of rows) {
    for (const link of row.links) {
      if (!isUuid(link)) continue;
      const uid = link.toLowerCase();
      if (!(uid in known) && !asking.has(uid)) wanted.add(uid);
    }
  }
  return [...wanted];
}

/** A row's linked credentials' titles, comma-separated in link order; '' when none is known. */
export function linkedTitlesText(links: readonly string[], known: LinkTitles): string {
  return links
    .flatMap((link) => {
      const title = isUuid(link) ? known[link.toLowerCase()] : undefined;
      return title ? [title] : [];
    })
    .join(', ');
}

/** Asks main for the titles of `uids`, a thousand a call: each uid's title, or null when it names no credential. */
export async function askLinkTitles(uids: readonly string[], ask: (uids: string[]) => Promise<Record<string, string>>): Promise<Record<string, string | null>> {
  const answer: Record<string, string | null> = {};
  for (let i = 0; i < uids.length; i += MAX_LINK_TITLES) {
    const chunk = uids.slice(i, i + MAX_LINK_TITLES);
    const titles = await ask(chunk);
    for (const uid of chunk) answer[uid] = titles[uid] ?? null;
  }
  return answer;
}
