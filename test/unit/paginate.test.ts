import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginate, type PageResult } from '../../src/api/paginate.js';

type LastStyle = 'absent' | 'null' | 'zero' | 'same' | 'past' | 'negative' | 'float';

/** A fake service page function over `total` items with a given last-page convention. */
function service(total: number, lastStyle: LastStyle) {
  const calls: number[] = [];
  const fetch = async (page: number, perPage: number): Promise<PageResult<number>> => {
    calls.push(page);
    const start = (page - 1) * perPage;
    const items = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => start + i);
    const more = start + perPage < total;
    let nextPage: number | null | undefined;
    if (more) nextPage = page + 1;
    else if (lastStyle === 'absent') nextPage = undefined;
    else if (lastStyle === 'null') nextPage = null;
    else if (lastStyle === 'zero') nextPage = 0;
    else if (lastStyle === 'same') nextPage = page;
    else if (lastStyle === 'past') nextPage = page + 1;
    else if (lastStyle === 'negative') nextPage = -1;
    else nextPage = page + 0.5;
    const pagination: { pageSize: number; nextPage?: number | null } = { pageSize: perPage };
    if (nextPage !== undefined) pagination.nextPage = nextPage;
    return { items, pagination };
  };
  return { fetch, calls };
}

async function all(total: number, style: LastStyle, perPage: number) {
  const s = service(total, style);
  const got: number[] = [];
  for await (const p of paginate(s.fetch, { perPage })) got.push(...p.items);
  return { got, calls: s.calls };
}

describe('paginate', () => {
  for (const style of ['absent', 'null', 'zero', 'same', 'past', 'negative', 'float'] as const) {
    it(`ends on the last page when nextPage is ${style}`, async () => {
      const { got, calls } = await all(250, style, 100);
      expect(got).toEqual(Array.from({ length: 250 }, (_, i) => i));
      // "past" costs two extra (empty) requests: neither a short page nor one empty page is taken as the end while a next page is named.
      expect(calls).toEqual(style === 'past' ? [1, 2, 3, 4, 5] : [1, 2, 3]);
    });
    it(`ends when the last page is exactly full and nextPage is ${style}`, async () => {
      const { got, calls } = await all(200, style, 100);
      expect(got).toHaveLength(200);
      expect(got).toEqual(Array.from({ length: 200 }, (_, i) => i));
      // "past" costs two extra (empty) requests; the rest stop at once.
      expect(calls).toEqual(style === 'past' ? [1, 2, 3, 4] : [1, 2]);
    });
  }

  it('a page shorter than the page size does not end the list while the service names a next page', async () => {
    const pages: Record<number, PageResult<string>> = {
      1: { items: ['a'], pagination: { pageSize: 100, nextPage: 2 } },
      2: { items: ['b', 'c'], pagination: { nextPage: 3 } },
      3: { items: ['d'], pagination: { pageSize: 100 } },
    };
    const got: string[] = [];
    for await (const p of paginate(async (page) => pages[page]!, { perPage: 100 })) got.push(...p.items);
    expect(got).toEqual(['a', 'b', 'c', 'd']);
  });

  it('yields nothing and stops for an empty list', async () => {
    const { got, calls } = await all(0, 'past', 100);
    expect(got).toEqual([]);
    expect(calls).toEqual([1, 2]);
    expect((await all(0, 'absent', 100)).calls).toEqual([1]);
  });

  it('one empty page that names a next page does not end the list; two in a row do', async () => {
    const pages: Record<number, PageResult<string>> = {
      1: { items: ['a'], pagination: { pageSize: 100, nextPage: 2 } },
      2: { items: [], pagination: { pageSize: 100, nextPage: 3 } },
      3: { items: ['c'], pagination: { pageSize: 100, nextPage: 4 } },
      4: { items: [], pagination: { nextPage: 5 } },
      5: { items: [], pagination: { nextPage: 6 } },
      6: { items: ['lost'], pagination: {} },
    };
    const calls: number[] = [];
    const got: string[] = [];
    for await (const p of paginate(async (page) => (calls.push(page), pages[page]!), { perPage: 100 })) got.push(...p.items);
    expect(got).toEqual(['a', 'c']);
    expect(calls).toEqual([1, 2, 3, 4, 5]);
    // An empty first page that names a next page: the next page is read.
    const first: Record<number, PageResult<string>> = { 1: { items: [], pagination: { nextPage: 2 } }, 2: { items: ['b'], pagination: {} } };
    const got2: string[] = [];
    for await (const p of paginate(async (page) => first[page]!, { perPage: 100 })) got2.push(...p.items);
    expect(got2).toEqual(['b']);
    // Bounded to one page (--page 1): that page is passed on, empty, with "more" set.
    const one = [];
    for await (const p of paginate(async (page) => first[page]!, { perPage: 100, maxPages: 1 })) one.push(p);
    expect(one).toEqual([{ page: 1, items: [], hasMore: true, next: 2 }]);
  });

  it('never loops when a service always repeats the same page', async () => {
    let n = 0;
    const fetch = async () => {
      n++;
      return { items: [1, 2], pagination: { pageSize: 2, nextPage: 1 } };
    };
    const pages = [];
    for await (const p of paginate(fetch, { perPage: 2 })) pages.push(p);
    expect(pages).toHaveLength(1);
    expect(n).toBe(1);
  });

  it('is bounded by maxPages even against an endless service', async () => {
    const fetch = async (page: number) => ({ items: [page], pagination: { pageSize: 1, nextPage: page + 1 } });
    let count = 0;
    for await (const _ of paginate(fetch, { perPage: 1, maxPages: 50 })) count++;
    expect(count).toBe(50);
  });

  it('reports hasMore only when another page was indicated', async () => {
    const s = service(150, 'null');
    const flags: boolean[] = [];
    for await (const p of paginate(s.fetch, { perPage: 100 })) flags.push(p.hasMore);
    expect(flags).toEqual([true, false]);
  });

  it('property: every item exactly once, in order, in a bounded number of requests', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom<LastStyle>('absent', 'null', 'zero', 'same', 'past', 'negative', 'float'),
        async (total, perPage, style) => {
          const { got, calls } = await all(total, style, perPage);
          expect(got).toEqual(Array.from({ length: total }, (_, i) => i));
          expect(calls.length).toBeLessThanOrEqual(Math.ceil(total / perPage) + 2);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('paginate: pagination that never ends', () => {
  const endless = (fresh: boolean) => async (page: number, perPage: number): Promise<PageResult<number>> => ({
    items: Array.from({ length: perPage }, (_, i) => (fresh ? (page - 1) * perPage + i : i)),
    pagination: { pageSize: perPage, nextPage: page + 1 },
  });

  it('fails when a page holds only items earlier pages held', async () => {
    const got: number[] = [];
    await expect(async () => {
      for await (const p of paginate(endless(false), { perPage: 10, label: 'GET /v1/x' })) got.push(...p.items);
    }).rejects.toThrow('GET /v1/x: the pagination does not end: page 2 holds only items that earlier pages held');
    expect(got).toHaveLength(10);
  });

  it('a last page (naming no next one) of items earlier pages held ends the list: not printed again, no error', async () => {
    // An unstable order on the service's side: page 2 says it is the last and holds an item page 1 held.
    const shaky = async (page: number): Promise<PageResult<string>> =>
      page === 1 ? { items: ['A', 'B', 'C'], pagination: { pageSize: 3, nextPage: 2 } } : { items: ['B'], pagination: { pageSize: 3 } };
    const got: string[] = [];
    for await (const p of paginate(shaky, { perPage: 3, label: 'GET /v1/x' })) got.push(...p.items);
    expect(got).toEqual(['A', 'B', 'C']);
    // A service that answers a page past the end with its last page again: every item once.
    const clamped = async (page: number): Promise<PageResult<string>> =>
      page === 1 ? { items: ['A', 'B'], pagination: { pageSize: 2, nextPage: 2 } } : page === 2 ? { items: ['C'], pagination: { pageSize: 2, nextPage: 3 } } : { items: ['C'], pagination: { pageSize: 2 } };
    const once: string[] = [];
    for await (const p of paginate(clamped, { perPage: 2 })) once.push(...p.items);
    expect(once).toEqual(['A', 'B', 'C']);
  });

  it('a full page of items earlier pages held, after a full page that named it, fails: the service may ignore the page number', async () => {
    // A service that reads other parameter names (the document does not name the scorecards' two) answers every
    // page with page 1 and "next: 2": 20 of 130 items were printed with exit 0.
    const ignoring = async (): Promise<PageResult<number>> => ({ items: Array.from({ length: 20 }, (_, i) => i), pagination: { pageSize: 20, nextPage: 2 } });
    const got: number[] = [];
    await expect(async () => {
      for await (const p of paginate(ignoring, { label: 'GET /v1/scorecards' })) got.push(...p.items);
    }).rejects.toThrow('GET /v1/scorecards: page 2 holds only items that earlier pages held, after a full page that named it: the service may ignore the page number, so the list may be incomplete (compare --page 1 and --page 2)');
    expect(got).toHaveLength(20);
    // Without a page size, a full page is one of the size asked for.
    const bare = async (): Promise<PageResult<number>> => ({ items: [1, 2, 3], pagination: { nextPage: 2 } });
    await expect(async () => {
      for await (const _ of paginate(bare, { perPage: 3 })) void _;
    }).rejects.toThrow(/may ignore the page number/);
  });

  it('the second empty page in a row ends the walk and says which page it names (unread)', async () => {
    const gappy = async (page: number): Promise<PageResult<string>> => (page === 1 ? { items: ['A'], pagination: { pageSize: 1, nextPage: 2 } } : { items: [], pagination: { pageSize: 1, nextPage: page + 1 } });
    const pages: Array<{ page: number; n: number; unread?: number }> = [];
    for await (const p of paginate(gappy, { perPage: 1 })) pages.push({ page: p.page, n: p.items.length, ...(p.unread !== undefined ? { unread: p.unread } : {}) });
    expect(pages).toEqual([{ page: 1, n: 1 }, { page: 3, n: 0, unread: 4 }]);
  });

  it('records that look alike (every field left out, as the document allows) are not taken for a repeat; the page limit still bounds them', async () => {
    const alike = async (page: number): Promise<PageResult<Record<string, never>>> => ({
      items: Array.from({ length: page < 3 ? 10 : 5 }, () => ({})),
      pagination: page < 3 ? { pageSize: 10, nextPage: page + 1 } : { pageSize: 10 },
    });
    let n = 0;
    for await (const p of paginate(alike, { perPage: 10 })) n += p.items.length;
    expect(n).toBe(25);
    const endlessAlike = async (page: number): Promise<PageResult<Record<string, never>>> => ({ items: [{}, {}], pagination: { pageSize: 2, nextPage: page + 1 } });
    await expect(async () => {
      for await (const _ of paginate(endlessAlike, { perPage: 2, pageLimit: 5 })) n++;
    }).rejects.toThrow('the service still names a next page after 5 pages');
    await expect(async () => {
      for await (const _ of paginate(endlessAlike, { perPage: 2, pageLimit: 1 })) n++;
    }).rejects.toThrow('the service still names a next page after 1 page (2 items)');
  });

  it('fails after pageLimit pages when the service still says there is more, having yielded every page read', async () => {
    const got: number[] = [];
    await expect(async () => {
      for await (const p of paginate(endless(true), { perPage: 10, pageLimit: 5 })) got.push(...p.items);
    }).rejects.toThrow('the service still names a next page after 5 pages (50 items), the --max-pages limit: raise --max-pages');
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('a list of exactly pageLimit pages is fine; maxPages (--page) stops quietly', async () => {
    const pages: number[] = [];
    const fetch = async (page: number): Promise<PageResult<number>> => ({ items: [page * 2, page * 2 + 1], pagination: { pageSize: 2, nextPage: page < 5 ? page + 1 : null } });
    for await (const p of paginate(fetch, { perPage: 2, pageLimit: 5 })) pages.push(p.page);
    expect(pages).toEqual([1, 2, 3, 4, 5]);
    const one: number[] = [];
    for await (const p of paginate(endless(true), { perPage: 2, maxPages: 1, pageLimit: 1 })) one.push(p.page);
    expect(one).toEqual([1]);
  });
});

describe('paginate: the seen-items table', () => {
  it('200,000 distinct single-item pages: none is taken for a repeat; the 200,001st (a repeat) is', async () => {
    const N = 200_000;
    const fetch = async (page: number): Promise<PageResult<{ id: string }>> => ({
      items: [{ id: page <= N ? `item-${page}` : 'item-17' }],
      pagination: { pageSize: 1, nextPage: page + 1 },
    });
    let pages = 0;
    await expect(async () => {
      for await (const _ of paginate(fetch, { perPage: 1, pageLimit: N + 10 })) pages++;
    }).rejects.toThrow(`page 200,001 holds only items that earlier pages held`);
    expect(pages).toBe(N);
  });
});
