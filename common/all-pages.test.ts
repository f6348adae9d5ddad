import { describe, expect, it } from 'vitest';
import { allPages } from './all-pages.js';
import type { Page } from './wire-types.js';

/** A listing of `items` answered `perPage` at a time, as the spec pages it; it notes the pages asked. */
function listing(items: number[], perPage: number): { fetch: (page: number) => Promise<Page<number>>; asked: number[] } {
  const asked: number[] = [];
  const fetch = async (page: number): Promise<Page<number>> => {
    asked.push(page);
    return { page, per_page: perPage, total_items: items.length, total_pages: Math.ceil(items.length / perPage), items: items.slice((page - 1) * perPage, page * perPage) };
  };
  return { fetch, asked };
}

async function drain(fetch: (page: number) => Promise<Page<number>>): Promise<number[]> {
  const all: number[] = [];
  for await (const page of allPages(fetch)) all.push(...page.items);
  return all;
}

describe('allPages', () => {
  it('yields every page in order and asks for none past the last', async () => {
    const { fetch, asked } = listing([1, 2, 3, 4, 5], 2);
    expect(await drain(fetch)).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('asks once for an empty listing', async () => {
    const { fetch, asked } = listing([], 2);
    expect(await drain(fetch)).toEqual([]);
    expect(asked).toEqual([1]);
  });

  it('stops at an empty page even when total_pages says there are more (the listing shrank)', async () => {
    const asked: number[] = [];
    const fetch = async (page: number): Promise<Page<number>> => {
      asked.push(page);
      return { page, per_page: 2, total_items: 10, total_pages: 5, items: page === 1 ? [1, 2] : [] };
    };
    expect(await drain(fetch)).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
  });

  it('asks for no further page once the caller breaks out', async () => {
    const { fetch, asked } = listing([1, 2, 3, 4, 5, 6], 2);
    for await (const page of allPages(fetch)) if (page.items.includes(3)) break;
    expect(asked).toEqual([1, 2]);
  });

  it("rejects with the fetch's error", async () => {
    const failing = async (page: number): Promise<Page<number>> => {
      if (page === 2) throw new Error('the service went away');
      return { page, per_page: 1, total_items: 3, total_pages: 3, items: [page] };
    };
    await expect(drain(failing)).rejects.toThrow('the service went away');
  });
});
