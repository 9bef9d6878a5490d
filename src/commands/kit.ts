/**
 * The shape of a command: a definition (Commander options and help, cheap to
 * build) and a run function loaded only when the command runs. Also the
 * shared pieces of list commands and input parsing.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readsSpecialFile } from '../util/signals.js';
import { Option, type Command } from 'commander';
import type { Context } from '../context.js';
import { QueryError, UsageError } from '../errors.js';
import type { Page } from '../api/paginate.js';
import type { Column } from '../output/columns.js';
import { collectTableRows } from '../output/bounded.js';
import { renderList, type RenderOptions } from '../output/render.js';
import { count, singularOf } from '../util/plural.js';

export type Opts = Record<string, unknown>;
export type Handler = (ctx: Context, args: string[], opts: Opts) => Promise<void>;
/** Wraps a lazily loaded handler into a Commander action (provided by src/cli.ts). */
export type Invoke = (load: () => Promise<Handler>) => (...args: unknown[]) => Promise<void>;

/** Adds a multi-line example block to a command's --help. */
export function examples(cmd: Command, ...lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => wrapExample(l)).join('\n')}\n`);
}

/** The widest line help prints (src/cli.ts HELP_WIDTH is 80; one column spare). */
const EXAMPLE_WIDTH = 79;

/**
 * One example command as help prints it: `  $ srs ...`, continued with ` \` on lines of its own (as a
 * shell reads it) where it would pass EXAMPLE_WIDTH. Words are split at spaces outside quotes, never inside one,
 * and an option is kept with its value. (The examples of supplier create ran to 144 columns.)
 */
export function wrapExample(line: string): string {
  const tokens = line.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [line];
  // An option stays with its value (--customer-id SUPP-12345 is never split).
  const words: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const v = tokens[i + 1];
    // A comment runs to the end of the line: a backslash in it continues nothing.
    if (t.startsWith('#')) {
      words.push(tokens.slice(i).join(' '));
      break;
    }
    if (t.startsWith('-') && v !== undefined && !v.startsWith('-') && !/^[|>&<]/.test(v) && !t.includes('=')) {
      words.push(`${t} ${v}`);
      i++;
    } else words.push(t);
  }
  const out: string[] = [];
  let current = '  $';
  for (const w of words) {
    const next = `${current} ${w}`;
    if (next.length + 2 > EXAMPLE_WIDTH && current.trim() !== '$' && current.length > 6) {
      out.push(`${current} \\`);
      current = `      ${w}`;
    } else current = next;
  }
  out.push(current);
  return out.join('\n');
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function positiveInt(name: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`;
      throw new UsageError(`${name} must be a whole number ${range} (got "${value}")`);
    }
    return n;
  };
}

/** --limit, --page, --per-page, --all on a list command. */
export function listOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--limit <n>', 'stop after N items (says on stderr when more exist)').argParser(positiveInt('--limit')))
    .addOption(new Option('--page <n>', 'fetch only this page').argParser(positiveInt('--page')))
    .addOption(new Option('--per-page <n>', 'page size to request, 1 to 100').argParser(positiveInt('--per-page', 1, 100)))
    .option('--all', 'fetch every page (the default)');
}

export interface ListFlags {
  limit?: number;
  page?: number;
  perPage?: number;
  all?: boolean;
}

export function listFlags(opts: Opts): ListFlags {
  const f: ListFlags = {};
  if (typeof opts.limit === 'number') f.limit = opts.limit;
  if (typeof opts.page === 'number') f.page = opts.page;
  if (typeof opts.perPage === 'number') f.perPage = opts.perPage;
  if (opts.all === true) f.all = true;
  if (f.all && (f.page !== undefined || f.limit !== undefined)) {
    throw new UsageError('--all cannot be combined with --page or --limit');
  }
  return f;
}

/** Whether the page a peek reads holds items; a page that could not be read leaves "more exist" the service's word. */
async function holdsItems<T>(peek: Promise<IteratorResult<Page<T>, void>>): Promise<boolean> {
  try {
    const p = await peek;
    return !p.done && p.value.items.length > 0;
  } catch {
    return true;
  }
}

/**
 * Prints a paged list: every page by default, one page with --page, the first N
 * items with --limit. Items stream to the renderer as pages arrive.
 */
export async function printPages<T>(
  ctx: Context,
  pages: (opts: { startPage?: number; perPage?: number; maxPages?: number; pageLimit?: number }) => AsyncGenerator<Page<T>, void, undefined>,
  columns: Column[],
  flags: ListFlags,
  what: string,
): Promise<void> {
  if (ctx.format !== 'table' && flags.page === undefined && flags.limit === undefined) {
    // A full listing in a machine format may stream millions of items: favour a
    // small heap over peak speed (the work here is I/O bound anyway).
    (await import('node:v8')).setFlagsFromString('--optimize-for-size');
  }
  const startPage = flags.page ?? 1;
  const iter = pages({
    startPage,
    // --limit alone asks for no bigger pages than it needs; with --page, the page size decides which items page N holds.
    ...(flags.perPage !== undefined ? { perPage: flags.perPage } : flags.limit !== undefined && flags.page === undefined ? { perPage: Math.min(100, flags.limit) } : {}),
    ...(flags.page !== undefined ? { maxPages: 1 } : {}),
    pageLimit: ctx.maxPages(),
  });
  // Whether items exist beyond what was printed (for the note on stderr); `cut`: --limit stopped inside a page.
  let more = false;
  let cut = false;
  let lastPage = startPage;
  let nextPage: number | undefined;
  // The page the service named after two empty pages, where the walk stopped (paginate: Page.unread).
  let unread: number | undefined;
  // Items a later page repeated, printed once (paginate: Page.repeated).
  let repeated = 0;
  async function* items(): AsyncGenerator<T> {
    let n = 0;
    const walk = iter[Symbol.asyncIterator]();
    try {
      for (let r = await walk.next(); !r.done; r = await walk.next()) {
        const p = r.value;
        lastPage = p.page;
        unread = p.unread;
        repeated += p.repeated ?? 0;
        for (const item of p.items) {
          if (flags.limit !== undefined && n >= flags.limit) {
            more = true;
            cut = true;
            return;
          }
          yield item;
          n++;
        }
        more = p.hasMore;
        nextPage = p.next;
        if (flags.page !== undefined) {
          // The page the service names next may be past the end (an empty page naming yet another): read it before
          // saying "more on page N" (--page 3 of 3 pages pointed to page 4, page 4 to page 5, without end).
          if (more && nextPage !== undefined && !cut) more = await holdsItems(pages({ startPage: nextPage, ...(flags.perPage !== undefined ? { perPage: flags.perPage } : {}), maxPages: 1, pageLimit: 1 }).next());
          return;
        }
        if (flags.limit !== undefined && n >= flags.limit) {
          // --limit ends at a page's end and the service names a next page, which may be past the end: read it
          // before saying "more exist" (12 of 12 categories said so).
          if (more) more = await holdsItems(walk.next());
          return;
        }
      }
    } finally {
      await walk.return?.(undefined);
    }
    // The listing ended (a named next page may have turned out empty): nothing more exists.
    more = false;
  }
  // A table needs all its rows at once: from a bounded buffer (src/output/bounded.ts).
  const source = ctx.format === 'table' ? await ctx.withSpinner(`Fetching ${what}…`, () => collectTableRows(items(), what)) : items();
  const n = await renderList(ctx.sink, source, columns, ctx.renderOptions());
  if (flags.page !== undefined && n === 0 && more) {
    // The service sent an empty page and names a next one: not the end (the document does not say pages hold items).
    ctx.warn(`page ${lastPage} of the ${what} is empty, but the service names a next page that holds some: use --page ${nextPage ?? lastPage + 1}, or drop --page to fetch everything`);
  } else if (flags.page !== undefined && n === 0 && startPage > 1) {
    // Said in every format: an empty answer to --page N usually means N is wrong, not that nothing exists.
    ctx.warn(`page ${startPage} is past the end of the ${what}${flags.perPage !== undefined ? ` at ${flags.perPage} per page` : ''}: try a lower --page, or drop --page to fetch everything`);
  } else if (flags.page !== undefined && cut) ctx.info(`showing the first ${count(n, singularOf(what), what)} of page ${lastPage}; more exist (raise --limit)`);
  else if (flags.page !== undefined && more) ctx.info(`more ${what} on page ${nextPage ?? lastPage + 1}: use --page ${nextPage ?? lastPage + 1}, or drop --page to fetch everything`);
  else if (flags.limit !== undefined && more) ctx.info(`showing the first ${count(n, singularOf(what), what)}; more exist (raise --limit, or drop it to fetch everything)`);
  else if (n === 0 && ctx.format === 'table') ctx.info(`no ${what}`);
  // Two empty pages end a listing (a service that points past the end would otherwise be asked without end), but
  // the document does not say pages hold items: where the service still names a page, say so rather than be sure.
  if (unread !== undefined && flags.page === undefined && !cut) {
    ctx.info(`the service sent two empty pages in a row (the second, page ${lastPage}, names page ${unread}): taken as the end of the ${what}; if the service leaves pages empty within a list, more may follow (--page ${unread})`);
  }
  // A list that changed while it was read: what moved onto a later page was printed once; what moved onto an
  // earlier page, already read, may be missing, which only a second listing can show.
  if (repeated) {
    ctx.warn(repeatedItemsWarning(count(repeated, singularOf(what), what)));
  }
}


/** Reads a whole text input from a file or "-" for stdin. */
export async function readInput(ctx: Context, path: string, what: string): Promise<string> {
  if (path === '') throw new UsageError(`${what}: empty path; name the file to read (or - for stdin)`);
  if (path === '-') {
    if (ctx.io.stdinIsTTY) throw new UsageError(`${what}: "-" reads from stdin, but stdin is a terminal; pipe the input in`);
    const chunks: Buffer[] = [];
    for await (const c of ctx.io.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
    return decodeText(Buffer.concat(chunks), `${what}: stdin`);
  }
  let bytes: Buffer;
  try {
    // A regular file synchronously: nothing else runs yet, and it skips the thread pool's round trip (~5 ms). Anything
    // else (a FIFO, <(...)) through the thread pool: a FIFO with no writer waits in open(), and a synchronous open
    // blocked the event loop, so neither Ctrl-C nor SIGTERM ended it (src/util/signals.ts ends the async wait).
    bytes = readsSpecialFile(path) ? await readFile(path) : readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${what}: cannot read ${path}${code === 'ENOENT' ? ' (no such file)' : code ? ` (${code})` : ''}`);
  }
  return decodeText(bytes, `${what}: ${path}`);
}

/**
 * Text as its byte order mark says: UTF-16 (what PowerShell 5's `>` writes, so likely on Windows runners) with its
 * mark, UTF-8 otherwise. An ids file in UTF-16 read as UTF-8 was every id "not a ULID", with NULs in the message.
 */
function decodeText(bytes: Buffer, where: string): string {
  const [encoding, body] = bytes[0] === 0xff && bytes[1] === 0xfe ? ['utf-16le', bytes.subarray(2)] : bytes[0] === 0xfe && bytes[1] === 0xff ? ['utf-16be', bytes.subarray(2)] : ['utf-8', bytes];
  try {
    // Strict: a Latin-1 file's "Café" was sent as "Caf\uFFFD" and stored so, exit 0 (ignoreBOM: a UTF-8 mark is kept
    // for the reader that strips it, as before).
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new UsageError(`${where} is not valid ${encoding.toUpperCase()} (saved in another encoding, such as Windows-1252 or Latin-1?): save it as UTF-8; read as UTF-8 anyway, its accented letters would become U+FFFD`, { code: 'invalid_input' });
  }
}

export async function readJsonInput(ctx: Context, path: string, what: string): Promise<unknown> {
  const text = await readInput(ctx, path, what);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UsageError(`${what}: ${path === '-' ? 'stdin' : path} is not valid JSON (${(e as Error).message})`, { code: 'invalid_input' });
  }
}

/** An option's value when it is text (Commander gives true, false or a list for other options), else undefined. */
export const optString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function requireArg(args: string[], i: number, name: string): string {
  const v = args[i];
  if (v === undefined || v.trim() === '') throw new UsageError(`missing ${name}`);
  return v;
}

/**
 * Renders a command's result once its work is done (suppliers created, a verdict reached). A --query that fails on
 * that data (a function given the wrong type) does not read as "usage, nothing done": the result is printed without
 * --query and --fields, said on stderr (`shown`: "the summary is"), and the problem is returned, for the command to
 * throw (QueryError.afterTheWork, exit 1) once its own outcome is reported.
 */
export async function renderAfterWork(ctx: Context, shown: string, render: (ro: RenderOptions) => Promise<unknown>): Promise<QueryError | undefined> {
  try {
    await render(ctx.renderOptions());
    return undefined;
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    ctx.warn(`${e.message}: ${shown} printed without it`);
    await render({ ...ctx.renderOptions(), query: undefined, fields: undefined });
    return e;
  }
}

/**
 * Node reads the command line as UTF-8 and puts U+FFFD where bytes were not (a Latin-1 terminal's "Café"): such a
 * value would be sent as "Caf\uFFFD" and stored, exit 0. Refused, naming the option, as a file in another encoding is.
 */
export function refuseReplacementChar(option: string, values: unknown): void {
  if ((Array.isArray(values) ? (values as unknown[]) : [values]).some((s) => typeof s === 'string' && s.includes('\uFFFD'))) {
    throw new UsageError(`${option} holds U+FFFD, the mark of bytes that were not UTF-8 (a terminal or script in another encoding?): give it in UTF-8`, { code: 'invalid_input' });
  }
}

/** What a listing says once when pages repeated items (paginate: Page.repeated), `things` counted ("2 countries"). */
export function repeatedItemsWarning(things: string): string {
  return `the service sent ${things} again on a later page (the list changed while srs read it?): each was printed once, as first sent; items may also have moved onto pages already read, so list again to be sure`;
}
