/**
 * A table is laid out from all of its rows at once (column widths), so it is
 * rendered from a bounded buffer: past TABLE_MAX_ROWS rows srs stops reading and
 * says to use a streaming format or --limit, instead of holding an endless list
 * in memory. JSON, NDJSON and CSV stream and have no such bound.
 */
import { SrsError, ExitCode } from '../errors.js';

/** The most rows a table shows (documented in README.md, "Reliability"). */
export const TABLE_MAX_ROWS = 10_000;

/** The table has more rows than TABLE_MAX_ROWS. Exit 1. */
export class TableTooLongError extends SrsError {
  constructor(what: string, max: number) {
    super(
      'runtime',
      ExitCode.failure,
      `more than ${new Intl.NumberFormat('en-US').format(max)} ${what}: too many for a table; use -o ndjson (or -o csv, -o json) to list them all, or --limit N`,
    );
    this.name = 'TableTooLongError';
  }
}

/** Every item of `items`, or TableTooLongError as soon as there are more than `max`. */
export async function collectTableRows<T>(items: AsyncIterable<T> | Iterable<T>, what: string, max = TABLE_MAX_ROWS): Promise<T[]> {
  const rows: T[] = [];
  for await (const it of items) {
    if (rows.length >= max) throw new TableTooLongError(what, max);
    rows.push(it);
  }
  return rows;
}
