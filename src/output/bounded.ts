/**
 * A table is laid out from all of its rows at once (column widths), so it is
 * rendered from a bounded buffer: past TABLE_MAX_ROWS rows srs stops reading and
 * says to use a streaming format or --limit, instead of holding an endless list
 * in memory. JSON, NDJSON and CSV stream and have no such bound. A --query sees
 * the whole list as one document, so it is bounded too (QUERY_MAX_ITEMS).
 */
import { SrsError, ExitCode } from '../errors.js';

/** The most rows a table shows (documented in README.md, "Reliability"). */
export const TABLE_MAX_ROWS = 10_000;

/** The most items a --query holds (about 35 MB of typical items). */
export const QUERY_MAX_ITEMS = 100_000;

const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);

/** A list too long for a bounded buffer. Exit 1. */
export class TooManyRowsError extends SrsError {
  constructor(message: string) {
    super('runtime', ExitCode.failure, message);
    this.name = 'TooManyRowsError';
  }
}

/** Every item of `items`, or `tooMany()` as soon as there are more than `max`. */
async function collectBounded<T>(items: AsyncIterable<T> | Iterable<T>, max: number, tooMany: () => Error): Promise<T[]> {
  const rows: T[] = [];
  for await (const it of items) {
    if (rows.length >= max) throw tooMany();
    rows.push(it);
  }
  return rows;
}

/** The rows of a table, at most `max` (TABLE_MAX_ROWS). */
export function collectTableRows<T>(items: AsyncIterable<T> | Iterable<T>, what: string, max = TABLE_MAX_ROWS): Promise<T[]> {
  return collectBounded(items, max, () => new TooManyRowsError(`more than ${fmt(max)} ${what}: too many for a table; use -o ndjson (or -o csv, -o json) to list them all, or --limit N`));
}

/** The whole list a --query sees, at most `max` items (QUERY_MAX_ITEMS). */
export function collectQueryItems<T>(items: AsyncIterable<T> | Iterable<T>, max = QUERY_MAX_ITEMS): Promise<T[]> {
  return collectBounded(items, max, () => new TooManyRowsError(`more than ${fmt(max)} items for --query, which holds the whole list in memory: use --limit N, or -o ndjson piped to jq`));
}
