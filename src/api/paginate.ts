/**
 * Pagination over page/perPage as an async iterator of pages. The spec does not
 * say what nextPage holds on the last page, so the walk stops on any of:
 * - nextPage absent, null, 0, not a whole number, or not greater than the page just read;
 * - an empty page (a nextPage past the end);
 * - a page shorter than the page size the service says it used;
 * - a hard cap on the number of pages (a misbehaving service cannot loop us forever).
 */
export interface PageResult<T> {
  items: T[];
  pagination?: { pageSize?: number | null; nextPage?: number | null } | null;
}

export interface PaginateOptions {
  /** First page to read (default 1). */
  startPage?: number;
  /** Page size to ask for (default 100, the spec's maximum). */
  perPage?: number;
  /** Stop after this many pages whatever the service says. Default 1,000,000. */
  maxPages?: number;
}

export interface Page<T> {
  page: number;
  items: T[];
  /** Whether the service indicated a further page after this one. */
  hasMore: boolean;
}

const DEFAULT_PER_PAGE = 100;
const MAX_PAGES = 1_000_000;

export async function* paginate<T>(
  fetchPage: (page: number, perPage: number) => Promise<PageResult<T>>,
  opts: PaginateOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const perPage = opts.perPage ?? DEFAULT_PER_PAGE;
  const maxPages = opts.maxPages ?? MAX_PAGES;
  let page = opts.startPage ?? 1;
  for (let n = 0; n < maxPages; n++) {
    const res = await fetchPage(page, perPage);
    if (res.items.length === 0) return;
    const next = nextPageAfter(page, res, perPage);
    yield { page, items: res.items, hasMore: next !== undefined };
    if (next === undefined) return;
    page = next;
  }
}

/** The page to read after `page` (whose items are not empty), or undefined when this was the last. */
function nextPageAfter<T>(page: number, res: PageResult<T>, perPage: number): number | undefined {
  const next = res.pagination?.nextPage;
  if (typeof next !== 'number' || !Number.isSafeInteger(next) || next <= page) return undefined;
  const size = res.pagination?.pageSize;
  const pageSize = typeof size === 'number' && size > 0 ? size : perPage;
  if (res.items.length < pageSize) return undefined;
  return next;
}
