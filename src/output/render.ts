/**
 * The only code that writes data to stdout. Every command hands plain records
 * and a column set here:
 * - json: the resource itself, or one array for a list (streamed, never one document per page);
 * - ndjson: one record per line, written as pages arrive;
 * - csv: header row plus flattened dot-path columns (csv-stringify), formula cells guarded;
 * - table: aligned columns (cli-table3) for people, sanitised, coloured headers on a TTY
 *   (./table.ts, loaded only for tables: see there).
 */
import type { Column } from './columns.js';
import { cellText, getPath, pickFields, unionKeys } from './fields.js';
import { collectQueryItems } from './bounded.js';
import { guardCsvCell, sanitizeForTerminal } from './sanitize.js';
import { takeSerialised } from './serialised.js';
import { isTooDeep, tooDeep } from '../errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface Sink {
  /**
   * Writes to stdout and resolves once the stream is done with the chunk
   * (which honours back-pressure, and lets a caller reuse a buffer it wrote).
   */
  write(chunk: string | Uint8Array): Promise<void>;
}

/**
 * How a streamed list is framed: json is one array with each element on its
 * own line, ndjson one element per line. renderList and score calc's
 * pass-through of raw results (src/commands/score/calc.ts) both use it.
 */
export function listFraming(format: 'json' | 'ndjson'): { before: (n: number) => string; after: string; end: (n: number) => string } {
  return format === 'json'
    ? { before: (n) => (n === 0 ? '[\n' : ',\n'), after: '', end: (n) => (n === 0 ? '[]\n' : '\n]\n') }
    : { before: () => '', after: '\n', end: () => '' };
}

export interface RenderOptions {
  format: OutputFormat;
  /**
   * Indent JSON for people (stdout is a terminal). Otherwise a list is still one
   * array, with each element compact on its own line: valid, greppable, and a
   * fraction of the size and time.
   */
  pretty?: boolean;
  /** Explicit columns from --fields (replace the curated ones for table and CSV). */
  fields?: Column[] | undefined;
  color: boolean;
  /** Terminal width for tables (undefined when not a TTY). */
  width?: number | undefined;
  /** Show every column, even when the table is too wide for `width` (--wide). */
  wide?: boolean;
  /** Where a table says which columns it hid to fit (stderr, silenced by --quiet). */
  note?: ((message: string) => void) | undefined;
  /** Turn off the spreadsheet formula guard (--csv-raw). */
  csvRaw?: boolean;
  /** Paint headers (chalk instance or identity). */
  paintHeader?: (s: string) => string;
  /** Masks secrets in table cells before they are cut to width (Context.redact). */
  redact?: ((s: string) => string) | undefined;
  /** A terminal whose locale is not UTF-8: tables mark blanks and cuts with ASCII ("-", "~"), as pictures do. */
  ascii?: boolean | undefined;
  /** A compiled --query (JMESPath) applied to the whole output document before rendering. */
  query?: ((data: unknown) => unknown) | undefined;
}

/** Renders one resource (a single read or a create result). */
export async function renderItem(sink: Sink, item: unknown, columns: Column[], opts: RenderOptions): Promise<void> {
  try {
    return await renderOne(sink, item, columns, opts);
  } catch (e) {
    // JSON nested 100,000 levels deep (which JSON.parse takes) overflows the stack of JSON.stringify: one line, an
    // SrsError (so `supplier create` still names the supplier it created), never "unexpected error".
    throw isTooDeep(e) ? tooDeep(e) : e;
  }
}

async function renderOne(sink: Sink, item: unknown, columns: Column[], opts: RenderOptions): Promise<void> {
  const select = selector(opts);
  if (select) item = select(item);
  if (opts.query) {
    const select = querySelector(opts);
    return renderQueryResult(sink, opts.query(select ? select(item) : item), opts);
  }
  switch (opts.format) {
    case 'json':
      return sink.write(JSON.stringify(item, null, 2) + '\n');
    case 'ndjson':
      return sink.write(JSON.stringify(item) + '\n');
    case 'csv':
      await renderCsv(sink, once(item), opts.fields ?? forCsv(columns), opts);
      return;
    case 'table':
      return sink.write(await (await import('./table.js')).verticalTable(item, (opts.fields ? tableFields(opts.fields, columns) : forTables(columns)), opts));
  }
}

/**
 * Renders a stream of records. Returns how many were written.
 * JSON and NDJSON stream; CSV streams; tables collect (column widths need every row).
 */
export async function renderList(sink: Sink, items: AsyncIterable<unknown> | Iterable<unknown>, columns: Column[], opts: RenderOptions): Promise<number> {
  try {
    return await renderMany(sink, items, columns, opts);
  } catch (e) {
    throw isTooDeep(e) ? tooDeep(e) : e;
  }
}

async function renderMany(sink: Sink, items: AsyncIterable<unknown> | Iterable<unknown>, columns: Column[], opts: RenderOptions): Promise<number> {
  let n = 0;
  if (opts.query) {
    // A query sees the whole document (the array), as in the AWS CLI: from a bounded buffer (./bounded.ts).
    const all = await collectQueryItems(items);
    // --fields selects each item's fields first and the query sees those (as gh's --json and --jq), in every format:
    // the answer to a query does not depend on -o (a filter on a field not selected found nothing under json only).
    const select = querySelector(opts);
    await renderQueryResult(sink, opts.query(select ? all.map(select) : all), opts);
    return all.length;
  }
  switch (opts.format) {
    case 'json':
    case 'ndjson': {
      // Streamed, written in batches: one write per item costs far more than the JSON.
      const frame = listFraming(opts.format);
      const pretty = opts.format === 'json' && opts.pretty;
      const out = new Batcher(sink);
      const select = selector(opts) ?? ((x: unknown) => x);
      try {
        for await (const item of items) {
          const it = select(item);
          await out.add(frame.before(n) + (pretty ? indent(JSON.stringify(it, null, 2)) : (takeSerialised(it) ?? JSON.stringify(it))) + frame.after);
          n++;
        }
      } catch (e) {
        // The source failed (a page that did not come): what it gave is printed, not lost.
        await out.flush();
        throw e;
      }
      await out.add(frame.end(n));
      await out.flush();
      return n;
    }
    case 'csv':
      return renderCsv(sink, items, opts.fields ?? forCsv(columns), opts);
    case 'table': {
      const rows: unknown[] = [];
      for await (const it of items) rows.push(it);
      await sink.write(await (await import('./table.js')).horizontalTable(rows, (opts.fields ? tableFields(opts.fields, columns) : forTables(columns)), opts));
      return rows.length;
    }
  }
}

/** A table's columns: those that CSV alone carries (a spreadsheet keeps every field; a terminal has 80 columns) left out. */
function forTables(columns: Column[]): Column[] {
  return columns.some((c) => c.csvOnly) ? columns.filter((c) => !c.csvOnly) : columns;
}

/**
 * --fields in a table: a field the view has a column for is shown as that column is (its header, dates readable,
 * numbers right-aligned and rounded as everywhere else), never hidden to fit (it was asked for); other fields as
 * they are. `--fields name,createdAt,score` showed the raw timestamp and 0.17540145119943076, left-aligned.
 */
function tableFields(fields: Column[], columns: Column[]): Column[] {
  return fields.map((f) => {
    const curated = columns.find((c) => c.path === f.path && !c.csvOnly);
    if (!curated) return f;
    const { hide: _hide, hideIfConstant: _constant, ...shown } = curated;
    return shown;
  });
}

/** CSV's columns: a list a table draws as text (customFields, articles) is given as its count instead (its csvOnly twin). */
function forCsv(columns: Column[]): Column[] {
  return columns.some((c) => c.tableOnly) ? columns.filter((c) => !c.tableOnly) : columns;
}

/** With --query, --fields selects the fields of each item the query sees, whatever the format. */
function querySelector(opts: RenderOptions): ((item: unknown) => unknown) | undefined {
  if (!opts.fields) return undefined;
  const paths = opts.fields.map((c) => c.path);
  return (item) => pickFields(item, paths);
}

/** Under json and ndjson, --fields selects the fields of each item (as gh --json does); tables and CSV use them as columns. */
function selector(opts: RenderOptions): ((item: unknown) => unknown) | undefined {
  if (!opts.fields || (opts.format !== 'json' && opts.format !== 'ndjson')) return undefined;
  const paths = opts.fields.map((c) => c.path);
  return (item) => pickFields(item, paths);
}

/**
 * Collects output into large writes (~64 KiB of JSON text, 500 CSV rows). A batch is also flushed whenever the
 * source has to wait (the next page is being fetched), so NDJSON and CSV consumers see each page as soon as it
 * arrives, and a listing stopped by Ctrl-C keeps what it had read.
 */
class Batcher<P = string> {
  #parts: P[] = [];
  #size = 0;
  #timer: ReturnType<typeof setImmediate> | undefined;
  /** A failed write of a flush nobody awaited (the producer's pause): given to the next add or flush. */
  #failed: unknown;
  readonly #sink: Sink;
  readonly #text: (parts: P[]) => string;
  readonly #limit: number;
  readonly #sizeOf: (part: P) => number;
  constructor(sink: Sink, shape?: { text: (parts: P[]) => string; limit: number; sizeOf: (part: P) => number }) {
    this.#sink = sink;
    this.#text = shape?.text ?? ((parts) => parts.join(''));
    this.#limit = shape?.limit ?? 65536;
    this.#sizeOf = shape?.sizeOf ?? ((part) => (part as string).length);
  }
  async add(part: P): Promise<void> {
    if (this.#failed !== undefined) throw this.#failed;
    this.#parts.push(part);
    this.#size += this.#sizeOf(part);
    if (this.#size >= this.#limit) return this.flush();
    // Flush when the producer pauses (awaiting network): the macrotask runs only then.
    this.#timer ??= setImmediate(() => {
      this.#timer = undefined;
      this.flush().catch((e: unknown) => {
        this.#failed ??= e;
      });
    });
  }
  async flush(): Promise<void> {
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#timer) {
      clearImmediate(this.#timer);
      this.#timer = undefined;
    }
    if (!this.#parts.length) return;
    const chunk = this.#text(this.#parts);
    this.#parts = [];
    this.#size = 0;
    if (chunk) await this.#sink.write(chunk);
  }
}

/**
 * Renders whatever a --query produced: JSON as JSON; NDJSON one line per array
 * element; tables and CSV as rows when it is an array of objects, one value per
 * line when it is a list of scalars, and key/value lines for a single object.
 */
async function renderQueryResult(sink: Sink, result: unknown, opts: RenderOptions): Promise<void> {
  // The query's answer is shown as it is: --fields already shaped what it saw, and must not pick from it again
  // (CSV of `--fields id,value --query "[].value"` printed the values under the wrong header, or nothing).
  const plain = { ...opts, query: undefined, fields: undefined };
  if (opts.format === 'json') {
    if (opts.pretty) return sink.write(JSON.stringify(result ?? null, null, 2) + '\n');
    // Piped, as every other list: one array, one compact element per line (it was indented over many lines).
    if (Array.isArray(result)) return sink.write(result.length ? `[\n${result.map((x) => JSON.stringify(x ?? null)).join(',\n')}\n]\n` : '[]\n');
    return sink.write(JSON.stringify(result ?? null) + '\n');
  }
  if (opts.format === 'ndjson') {
    const list = Array.isArray(result) ? result : [result];
    return sink.write(list.map((x) => JSON.stringify(x ?? null) + '\n').join(''));
  }
  const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
  // Every key any object has, in the order first seen: a record may lack optional fields (the first one too).
  const keysOf = (xs: Record<string, unknown>[]): Column[] => unionKeys(xs).map((k) => ({ path: k, header: opts.format === 'csv' ? k : k.toUpperCase() }));
  if (Array.isArray(result) && result.length > 0 && result.every(isObj)) {
    // The query's answer is shown as it is: its own keys are the columns (--fields already shaped what it saw).
    await renderList(sink, result, keysOf(result as Record<string, unknown>[]), { ...plain, fields: undefined });
    return;
  }
  if (isObj(result)) return renderItem(sink, result, keysOf([result]), { ...plain, fields: undefined });
  const list = Array.isArray(result) ? result : [result];
  // An empty answer has no columns to name: nothing (a lone "value" header looked like a one-column table).
  if (list.length === 0) return;
  if (opts.format === 'csv') {
    await renderList(sink, list.map((value) => ({ value })), [{ path: 'value', header: 'value' }], plain);
    return;
  }
  return sink.write(list.map((x) => sanitizeForTerminal(typeof x === 'string' ? x : JSON.stringify(x ?? null)) + '\n').join(''));
}

function indent(s: string): string {
  return '  ' + s.replace(/\n/g, '\n  ');
}

function* once<T>(x: T): Iterable<T> {
  yield x;
}

async function renderCsv(sink: Sink, items: AsyncIterable<unknown> | Iterable<unknown>, cols: Column[], opts: RenderOptions): Promise<number> {
  const { stringify } = await import('csv-stringify/sync');
  const cell = (v: unknown): string => {
    const t = cellText(v);
    return opts.csvRaw ? t : guardCsvCell(t);
  };
  // The header goes with the first rows, or at the end of an empty list: a listing whose first page
  // failed prints nothing, as in the other formats (a lone header would look like a valid empty list).
  // Guarded as the cells are: `srs api` takes its column names from the service's keys (=HYPERLINK(...) was written raw).
  let header: string | undefined = stringify([cols.map((c) => cell(c.path))]);
  const text = (rows: string[][]): string => {
    const t = (header ?? '') + (rows.length ? stringify(rows) : '');
    header = undefined;
    return t;
  };
  const out = new Batcher<string[]>(sink, { text, limit: 500, sizeOf: () => 1 });
  let n = 0;
  try {
    for await (const it of items) {
      await out.add(cols.map((c) => cell(getPath(it, c.path))));
      n++;
    }
  } catch (e) {
    // The source failed: the rows it gave are printed, not lost.
    await out.flush();
    throw e;
  }
  await out.flush();
  // An empty list: the header alone, at its end (nothing was batched to carry it).
  if (header !== undefined && n === 0) await sink.write(text([]));
  return n;
}
