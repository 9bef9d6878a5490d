/**
 * Pagination over page/perPage as an async iterator of pages. The spec does not
 * say what nextPage holds on the last page, so the walk stops on any of:
 * - nextPage absent, null, 0, not a whole number, or not greater than the page just read;
 * - an empty page (a nextPage past the end);
 * - a page shorter than the page size the service says it used;
 * - `maxPages` pages read (one page with --page).
 *
 * A service whose pagination never ends (a nextPage that grows forever) is an
 * error, not a long wait: the walk fails with RunawayPaginationError (exit 1) when
 * - a page holds only items that earlier pages already held (a service that
 *   ignores the page number and sends the same items again), or
 * - the service still says there is more after `pageLimit` pages (--max-pages,
 *   default 10,000: a million items at 100 a page).
 */
import { SrsError, ExitCode } from '../errors.js';

export interface PageResult<T> {
  items: T[];
  pagination?: { pageSize?: number | null; nextPage?: number | null } | null;
}

export interface PaginateOptions {
  /** First page to read (default 1). */
  startPage?: number;
  /** Page size to ask for (default 100, the spec's maximum). */
  perPage?: number;
  /** Stop quietly after this many pages (--page reads one). Default: no such stop. */
  maxPages?: number;
  /** More pages than this, with the service still saying there are more, is an error (--max-pages). Default 10,000. */
  pageLimit?: number;
  /** What is listed, for error messages: "GET /v1/countries". */
  label?: string;
}

export interface Page<T> {
  page: number;
  items: T[];
  /** Whether the service indicated a further page after this one. */
  hasMore: boolean;
}

/** The service's pagination does not end. Exit 1. */
export class RunawayPaginationError extends SrsError {
  constructor(message: string) {
    super('bad_response', ExitCode.failure, message);
    this.name = 'RunawayPaginationError';
  }
}

const DEFAULT_PER_PAGE = 100;
export const DEFAULT_PAGE_LIMIT = 10_000;

const fmt = new Intl.NumberFormat('en-US');

export async function* paginate<T>(
  fetchPage: (page: number, perPage: number) => Promise<PageResult<T>>,
  opts: PaginateOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const perPage = opts.perPage ?? DEFAULT_PER_PAGE;
  const maxPages = opts.maxPages ?? Infinity;
  const pageLimit = opts.pageLimit ?? DEFAULT_PAGE_LIMIT;
  const label = opts.label ? `${opts.label}: ` : '';
  const seen = new SeenItems();
  let page = opts.startPage ?? 1;
  let items = 0;
  for (let n = 1; n <= maxPages; n++) {
    const res = await fetchPage(page, perPage);
    if (res.items.length === 0) return;
    if (maxPages > 1 && !seen.addPage(res.items)) {
      throw new RunawayPaginationError(
        `${label}the pagination does not end: page ${fmt.format(page)} holds only items that earlier pages held (the service repeats itself); use --limit or --page to read part of the list`,
      );
    }
    items += res.items.length;
    const next = nextPageAfter(page, res, perPage);
    yield { page, items: res.items, hasMore: next !== undefined };
    if (next === undefined) return;
    if (n >= pageLimit && n < maxPages) {
      throw new RunawayPaginationError(
        `${label}the pagination does not end: more pages after ${fmt.format(n)} pages (${fmt.format(items)} items); raise --max-pages if the list is really that long, or use --limit`,
      );
    }
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

/**
 * The items of the pages read so far, as 53-bit hashes of their JSON (8 bytes
 * each: a million items take ~30 MB; the page limit bounds the count).
 */
class SeenItems {
  readonly #hashes = new Set<number>();

  /** Records a page's items; false when every one of them was seen before. */
  addPage(items: readonly unknown[]): boolean {
    let fresh = false;
    for (const it of items) {
      const h = hash53(JSON.stringify(it) ?? 'undefined');
      if (!this.#hashes.has(h)) {
        this.#hashes.add(h);
        fresh = true;
      }
    }
    return fresh;
  }
}

/** cyrb53 (public domain, bryc): a fast 53-bit string hash. */
function hash53(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
