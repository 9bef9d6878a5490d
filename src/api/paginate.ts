/**
 * Pagination over page/perPage as an async iterator of pages. The spec does not
 * say what nextPage holds on the last page, so the walk stops on any of:
 * - nextPage absent, null, 0, not a whole number, or not greater than the page just read;
 * - two empty pages in a row (a nextPage past the end, and the page after it), or an
 *   empty page that names no further page. One empty page that names a next page does
 *   not end the list: the document does not say that pages hold items, and stopping
 *   there could lose the items after it (it costs a service that points past the end
 *   one request more). The second empty page yields `unread`, the page it names,
 *   when the last page with items was full, so that a listing can say where
 *   items could still follow;
 * - `maxPages` pages read (one page with --page).
 * A page shorter than the page size does not end the walk while the service names
 * a next page: the document does not say pages are full, and stopping there could
 * lose the items after it; a service that names a page past the end costs one
 * request more (the empty page).
 *
 * A service whose pagination never ends (a nextPage that grows forever) is an
 * error, not a long wait: the walk fails with RunawayPaginationError (exit 1) when
 * - a page that names a next one holds only items that earlier pages already
 *   held (a service that ignores the page number and sends the same items
 *   again; a last page may repeat items, and ends the list, unless it is a full page
 *   after a full page that named it: the same items again, which is also what a
 *   service that ignores the page number sends), or
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
  /** false where the command has no --limit (srs api): its errors do not suggest one. */
  limitHint?: boolean;
}

export interface Page<T> {
  page: number;
  items: T[];
  /** Whether the service indicated a further page after this one. */
  hasMore: boolean;
  /** The page the service named next, when it named one. */
  next?: number;
  /**
   * Set on the empty page that ended the walk although the service named a next page (the second empty page in a
   * row): the page srs did not read. Where a service leaves pages empty within a list, items may follow there.
   */
  unread?: number;
  /**
   * Items of this page that an earlier page of the walk held already (the same id, iso3Code or JSON: identityOf), left out of `items`: a list
   * that changed while it was read (a row inserted before page 2 moves page 1's last item onto it) would print
   * them twice. Absent when none.
   */
  repeated?: number;
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

// Made on first use, not at load: the first Intl object of a process initialises ICU
// (~10 ms, 13% of the samples of a `supplier get` that only imports this module).
let numberFormat: Intl.NumberFormat | undefined;
const fmt = { format: (n: number): string => (numberFormat ??= new Intl.NumberFormat('en-US')).format(n) };

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
  let emptyBefore = false;
  // Whether the last page with items was full (as many as its page size) and named a next page.
  let fullBefore = false;
  for (let n = 1; n <= maxPages; n++) {
    const res = await fetchPage(page, perPage);
    if (res.items.length === 0) {
      const next = nextPageAfter(page, res);
      // Where the walk stops at its page bound (--page), an empty page that names a next one says so.
      if (next !== undefined && n >= maxPages) yield { page, items: [], hasMore: true, next };
      // Only after a full page: a last page with fewer items than its size is the end in all likelihood (a service
      // that points past the end, as the emulator's --last-page past does, drew the note on every listing).
      else if (next !== undefined && emptyBefore && fullBefore) yield { page, items: [], hasMore: false, unread: next };
      if (emptyBefore || next === undefined || n >= maxPages) return;
      emptyBefore = true;
      page = next;
      continue;
    }
    emptyBefore = false;
    const next = nextPageAfter(page, res);
    // As many items as the page size the service says (or the one asked for).
    const full = res.items.length >= (res.pagination?.pageSize ?? perPage);
    // Only a page that names a next one can be a runaway's: a last page that repeats earlier items ends the list
    // all the same ("the pagination does not end" was false there). A lone page (the first, naming no next one)
    // is not hashed (one scorecards listing per supplier in score calc --save: hashing it was 3% of its CPU).
    const fresh = maxPages > 1 && !(n === 1 && next === undefined) ? seen.addPage(res.items) : undefined;
    if (fresh && !fresh.includes(true)) {
      // A last page of items printed already (a service that answers a page past the end with its last page, or
      // an unstable order): nothing new, and the list has ended; printed again, they were duplicates, exit 0.
      // Not a full page after a full page that named it: that is also what a service that ignores the page number
      // sends (page 2 answered with page 1, "next: 2"), and taking it for the end printed 20 of 130 scorecards, exit 0.
      if (next === undefined && !(fullBefore && full)) return;
      if (next === undefined) {
        throw new RunawayPaginationError(
          `${label}page ${fmt.format(page)} holds only items that earlier pages held, after a full page that named it: the service may ignore the page number, so the list may be incomplete (compare --page 1 and --page ${fmt.format(page)})`,
        );
      }
      throw new RunawayPaginationError(
        `${label}the pagination does not end: page ${fmt.format(page)} holds only items that earlier pages held (the service repeats itself); use --limit or --page to read part of the list`,
      );
    }
    // Items an earlier page held are printed once: left out here, and counted for the listing to say so.
    const kept = fresh && fresh.includes(false) ? res.items.filter((_, k) => fresh[k]) : res.items;
    const repeated = res.items.length - kept.length;
    items += kept.length;
    fullBefore = next !== undefined && full;
    const more = next === undefined ? { hasMore: false } : { hasMore: true, next };
    yield { page, items: kept, ...more, ...(repeated ? { repeated } : {}) };
    if (next === undefined) return;
    if (n >= pageLimit && n < maxPages) {
      // A service may name a next page past the end: an empty one there means the list has exactly --max-pages
      // pages (that failed with exit 1, after every item was printed).
      const peek = await fetchPage(next, perPage);
      if (peek.items.length === 0) return;
      throw new RunawayPaginationError(
        `${label}the service still names a next page after ${fmt.format(n)} page${n === 1 ? '' : 's'} (${fmt.format(items)} item${items === 1 ? '' : 's'}), the --max-pages limit: raise --max-pages if the list is really that long${opts.limitHint === false ? '' : ', or use --limit'}`,
      );
    }
    page = next;
  }
}

/** The page to read after `page`, or undefined when this was the last. */
function nextPageAfter<T>(page: number, res: PageResult<T>): number | undefined {
  const next = res.pagination?.nextPage;
  if (typeof next !== 'number' || !Number.isSafeInteger(next) || next <= page) return undefined;
  return next;
}

/**
 * What makes an item the same item on another page: its id (or a country's iso3Code), else its whole JSON. By
 * content alone, an item that moved onto the next page and changed on the way (an update while the list shifted)
 * was printed twice. Not an industry's code: the document does not say a code is unique across levels, and two
 * rows sharing one would be taken for one.
 */
function identityOf(it: unknown): string {
  if (it !== null && typeof it === 'object' && !Array.isArray(it)) {
    const o = it as Record<string, unknown>;
    for (const k of ['id', 'iso3Code']) if (typeof o[k] === 'string' && o[k] !== '') return `\u0000${k}\u0000${o[k] as string}`;
  }
  return JSON.stringify(it) ?? 'undefined';
}

/**
 * The items of the pages read so far, as 64-bit hashes of their identity (identityOf), in an
 * open-addressing table of typed arrays: 8 bytes a slot and no object per item,
 * so a million items cost 16 MB and nothing for the garbage collector to trace
 * (a Set of 53-bit numbers held a heap object per item and doubled the GC time
 * of a 10,000-page listing). The page limit bounds the count.
 */
class SeenItems {
  #lo = new Uint32Array(1024);
  #hi = new Uint32Array(1024);
  #size = 0;

  /**
   * Set when one page held the same item twice: the items of this listing
   * cannot be told apart by their content (the document lets a service leave
   * out every field of a record, so a page of bare {} is valid), and a repeat
   * proves nothing. The page limit still bounds the listing.
   */
  #blind = false;

  /** Records a page's items; for each, whether no earlier page held it (all true once the listing is blind). */
  addPage(items: readonly unknown[]): boolean[] {
    const all = (): boolean[] => items.map(() => true);
    if (this.#blind) return all();
    const fresh: boolean[] = [];
    const inPage = new Set<string>();
    for (const it of items) {
      const s = identityOf(it);
      if (inPage.has(s)) {
        this.#blind = true;
        return all();
      }
      inPage.add(s);
      fresh.push(this.#add(s));
    }
    return fresh;
  }

  /** Adds the hash of `s`; false when it was there already. */
  #add(s: string): boolean {
    if ((this.#size + 1) * 2 > this.#lo.length) this.#grow();
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    // cyrb53's mixing (public domain, bryc), kept as two 32-bit halves.
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return this.#insert(h1 >>> 0, (h2 >>> 0) || 1);
  }

  /** Inserts (lo, hi), hi never 0 (0 marks an empty slot); false when present. */
  #insert(lo: number, hi: number): boolean {
    const mask = this.#lo.length - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      if (this.#hi[i] === 0) {
        this.#lo[i] = lo;
        this.#hi[i] = hi;
        this.#size++;
        return true;
      }
      if (this.#lo[i] === lo && this.#hi[i] === hi) return false;
    }
  }

  #grow(): void {
    const [lo, hi] = [this.#lo, this.#hi];
    this.#lo = new Uint32Array(lo.length * 2);
    this.#hi = new Uint32Array(hi.length * 2);
    this.#size = 0;
    for (let i = 0; i < lo.length; i++) if (hi[i] !== 0) this.#insert(lo[i]!, hi[i]!);
  }
}
