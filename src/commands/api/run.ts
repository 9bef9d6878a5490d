/**
 * `srs api METHOD PATH`: any endpoint through the client's transport, so the
 * key header, retries (a POST is resent only to /v1/score-calculation), the
 * timeouts, the body-size cap and the redacted --debug trace are the same as
 * for every other command, and HTTP errors become the same typed errors (and
 * exit codes). The answer must be JSON.
 */
import * as z from 'zod/mini';
import type { HttpTransport, Query, SendArgs } from '../../api/http.js';
import { AttemptWatch, parseResponse } from '../../api/http.js';
import { paginate } from '../../api/paginate.js';
import type { Context } from '../../context.js';
import { BadResponseError, OutcomeUnknownError, UsageError } from '../../errors.js';
import type { Column } from '../../output/columns.js';
import { leafPaths, unionKeys } from '../../output/fields.js';
import { collectTableRows } from '../../output/bounded.js';
import { renderItem, renderList } from '../../output/render.js';
import { onHardExit, signalExitCode, stoppedWord } from '../../util/signals.js';
import { optString, readJsonInput, refuseReplacementChar, repeatedItemsWarning, requireArg, type Opts } from '../kit.js';
import { count } from '../../util/plural.js';
import { closest } from '../../util/suggest.js';

/** POSTs that are safe to repeat (the others are never resent after they may have reached the service). */
const IDEMPOTENT_POSTS: ReadonlySet<string> = new Set(['/v1/score-calculation']);

const AnyJson = z.unknown();

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** The path without the query string. */
  path: string;
  query: Record<string, string>;
  body?: unknown;
  idempotent: boolean;
}

export function parseMethod(raw: string): 'GET' | 'POST' {
  const m = raw.trim().toUpperCase();
  if (m !== 'GET' && m !== 'POST') throw new UsageError(`method must be GET or POST (got "${raw}")`);
  return m;
}

/** Splits "key=value"; the key must not be empty. */
export function parseField(raw: string): [string, string] {
  const i = raw.indexOf('=');
  if (i <= 0) throw new UsageError(`--field expects key=value (got "${raw}")`);
  refuseReplacementChar(`--field ${raw.slice(0, i)}`, raw);
  return [raw.slice(0, i), raw.slice(i + 1)];
}

/** A body field's value: JSON when it parses as JSON (numbers, booleans, null, arrays, objects, "quoted"), else the text itself. */
export function fieldValue(text: string): unknown {
  const t = text.trim();
  if (t === '') return text;
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}

/** Checks the arguments and builds the request. Throws UsageError before anything is sent. */
export async function buildRequest(ctx: Context, args: string[], opts: Opts): Promise<ApiRequest> {
  const method = parseMethod(requireArg(args, 0, 'method (GET or POST)'));
  const rawPath = requireArg(args, 1, 'path (for example /v1/countries)').trim();
  if (!rawPath.startsWith('/')) throw new UsageError(`path must start with / (for example /v1/countries), got "${rawPath}"`);
  if (rawPath.includes('#')) throw new UsageError(`path must not contain a fragment (#): "${rawPath}"`);
  const q = rawPath.indexOf('?');
  // Characters a path may not hold as they are (a space, "é") are percent-encoded, as query values are: sent raw, a
  // space failed locally as "invalid request path" and was retried as a network fault. %XX already there is kept.
  const path = (q >= 0 ? rawPath.slice(0, q) : rawPath).replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeURIComponent(c));
  if (path.startsWith('//')) throw new UsageError(`path must name an endpoint, not start with // (read as a host by some servers): "${rawPath}"`);
  if (!path.startsWith('/v1/')) ctx.warn(`${path} is outside /v1/, where every endpoint of the service lives; sending it anyway`);

  const query: Record<string, string> = {};
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(rawPath.slice(q + 1))) {
      // One value a parameter (every endpoint of the interface takes one): the first of two was dropped in silence.
      if (Object.hasOwn(query, k)) throw new UsageError(`the path's query names ${k} twice: give each parameter once (srs does not guess which value was meant)`);
      query[k] = v;
    }
  }

  const fields = Array.isArray(opts.field) ? (opts.field as string[]) : [];
  const input = optString(opts.input);
  if (input !== undefined && fields.length) throw new UsageError('--input gives the whole body: do not combine it with --field');
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate follows the pages of a GET list; it does not apply to POST');

  const seen = new Set<string>();
  const pairs = fields.map(parseField);
  for (const [k] of pairs) {
    if (seen.has(k)) throw new UsageError(`--field ${k} given twice`);
    seen.add(k);
  }

  if (method === 'GET') {
    if (input !== undefined) throw new UsageError('--input is the body of a POST; a GET takes --field key=value query parameters');
    for (const [k, v] of pairs) {
      if (Object.hasOwn(query, k)) throw new UsageError(`--field ${k} is also in the path's query: give it once`);
      query[k] = v;
    }
    return { method, path, query, idempotent: true };
  }
  let body: unknown;
  if (input !== undefined) body = await readJsonInput(ctx, input, '--input');
  else body = Object.fromEntries(pairs.map(([k, v]) => [k, fieldValue(v)]));
  return { method, path, query, body, idempotent: IDEMPOTENT_POSTS.has(path.replace(/\/+$/, '')) };
}

/** Sends one request (with the transport's retries) and returns the parsed JSON answer; HTTP errors throw the usual typed errors. */
export async function call(http: HttpTransport, req: ApiRequest, query: Query = req.query): Promise<unknown> {
  return (await callRaw(http, req, query)).data;
}

/** call(), with the body's text as received beside its parse (-o json prints that text). */
async function callRaw(http: HttpTransport, req: ApiRequest, query: Query = req.query, watch?: AttemptWatch): Promise<{ data: unknown; text: string; status: number }> {
  const args: SendArgs = { method: req.method, path: req.path, query, idempotent: req.idempotent, onSend: watch?.onSend, onAttempt: watch?.onAttempt };
  if (req.body !== undefined) args.body = req.body;
  const res = await http.sendWithRetry(args);
  if (res.status === 204 && res.text.trim() === '') return { data: undefined, text: '', status: res.status };
  return { data: parseResponse(req.method, req.path, res, AnyJson), text: res.text, status: res.status };
}

const isRecord = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const isScalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A table header from a field name: commonName -> COMMON NAME (CSV keeps the field name). */
export function header(key: string, format: string): string {
  return format === 'csv' ? key : key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toUpperCase();
}

/**
 * Table and CSV columns of a list: the first item's top-level scalar fields (all its fields when it has none).
 * A table too wide for the terminal hides the later columns first (the first two stay), as the curated
 * tables of the other commands do, before it cuts any text.
 */
export function listColumns(items: readonly unknown[], format: string): Column[] {
  const records = items.filter(isRecord);
  if (records.length === 0) return [{ path: 'value', header: header('value', format) }];
  // Every key any item has, in the order first seen (the document marks no field required: the first item may lack some).
  const keys = unionKeys(records);
  const scalar = keys.filter((k) => records.every((r) => r[k] === undefined || r[k] === null || isScalar(r[k])));
  // Fewer than two plain fields (a score result: an id and objects) would show next to nothing: show them all.
  const shown = scalar.length >= 2 ? scalar : keys;
  return shown.map((k, i) => ({ path: k, header: header(k, format), ...(i >= 2 ? { hide: shown.length - i } : {}) }));
}

/** Lists of scalars are shown as one {value} row each in tables and CSV. */
function rowsOf(items: unknown[]): unknown[] {
  return items.map((x) => (isRecord(x) ? x : { value: x }));
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const req = await buildRequest(ctx, args, opts);
  const http = (await ctx.client()).http;
  if (opts.paginate) return printAllPages(ctx, http, req);

  let data: unknown;
  let text = '';
  // Ctrl-C or SIGTERM during a POST that is not safe to repeat: it may have taken effect, and srs says so as it leaves
  // (it ended 130/143 with nothing said, where an HTTP 500 said "outcome unknown"). While no attempt is in flight
  // (before the first, or waiting out a 429 that refused it) it was not sent: said as such (as supplier create does).
  const watch = new AttemptWatch();
  const offHardExit =
    req.method === 'POST' && !req.idempotent
      ? onHardExit((sig) => {
          const [code, message] = watch.inFlight
            ? ['outcome_unknown', `outcome unknown: ${stoppedWord(sig)} while the request was in flight. The request may have reached the service and taken effect (a supplier may have been created): check before sending it again`]
            : ['interrupted', `${stoppedWord(sig)} ${watch.notInFlightWhen('took effect')}: nothing was done`];
          ctx.io.stderr.write(ctx.errorLine(code, message, signalExitCode(sig)));
        })
      : () => undefined;
  try {
    ({ data, text } = await ctx.withSpinner(`${req.method} ${req.path}…`, () => callRaw(http, req, req.query, watch)));
  } catch (e) {
    // A POST that may have reached the service without a usable answer has an unknown effect (a create may
    // exist): said as supplier create says it, never worded like a refusal that invites sending it again.
    if (req.method === 'POST' && !req.idempotent) {
      const { classifyCreateFailure } = await import('../../api/outcome.js');
      const outcome = classifyCreateFailure(e);
      if (outcome.state === 'unknown' && !(outcome.fatal && outcome.fatal.code === 'auth')) {
        throw new OutcomeUnknownError(
          `outcome unknown: ${(e as Error).message}. The request may have reached the service and taken effect (a supplier may have been created): check before sending it again`,
          { cause: e },
        );
      }
    }
    throw e;
  } finally {
    offHardExit();
  }
  if (data === undefined) {
    ctx.info(`${req.method} ${req.path}: no content`);
    return;
  }
  const ro = ctx.renderOptions();
  if (ro.fields && !ro.query) {
    // --fields select fields of the items of a list, or of the resource of a read ({ item: {...} }), in every format.
    const fields = ro.fields.map((c) => c.path);
    const items = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.items) ? (data.items as unknown[]) : undefined;
    if (items) checkAnswerFields(fields, items.filter(isRecord), true);
    else if (isRecord(data)) {
      if (Object.keys(data).length === 1 && isRecord(data.item)) data = data.item;
      checkAnswerFields(fields, [data as Record<string, unknown>], false);
    }
  }
  // A --query sees the whole document in every format (README), and its answer is what is rendered: ndjson printed
  // `null` and csv an empty row where json printed the answer. --fields select fields of the items of a list in every
  // format (json applied them to the document: `{}`).
  if (ctx.format === 'json' && !ro.fields && !ro.query && !ro.pretty) {
    // The body as received: a number past 2^53 or a repeated key would change when parsed and printed again. Its
    // text went through parsing (it is JSON), and is made safe for a terminal and masked like any output.
    await ctx.sink.write(text.replace(/\s+$/, '') + '\n');
    return;
  }
  if (ctx.format === 'json' && !ro.fields) {
    await renderItem(ctx.sink, data, [], ro);
    return;
  }
  if (ro.query) {
    await renderItem(ctx.sink, data, [], ro);
    return;
  }
  const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.items) ? (data.items as unknown[]) : undefined;
  if (list) {
    const cols = listColumns(list, ctx.format);
    await renderList(ctx.sink, ctx.format === 'ndjson' ? list : rowsOf(list), cols, ro);
    // Fields that are objects or lists are not columns: said, so a CSV without them is not read as the whole answer.
    if (ctx.format !== 'ndjson' && !ro.fields) {
      const shown = new Set(cols.map((c) => c.path));
      const left = unionKeys(list.filter(isRecord)).filter((k) => !shown.has(k));
      if (left.length) ctx.info(`not shown as columns (objects or lists): ${left.join(', ')}; -o json has them, --fields can pick their parts`);
    }
    if (list.length === 0 && ctx.format === 'table') ctx.info('no items');
    // The pagination object is not an item: when it names a next page, say so (json keeps it in the document).
    const next = isRecord(data) && isRecord(data.pagination) ? data.pagination.nextPage : undefined;
    if (typeof next === 'number' && Number.isSafeInteger(next) && next > 0) ctx.info(`more items on page ${next}: add page=${next} to the path's query, or use --paginate for every page`);
    return;
  }
  // { item: {...} } (a read of one resource) on a table: the resource itself, field by field (csv keeps item.* paths).
  if (ctx.format === 'table' && isRecord(data) && Object.keys(data).length === 1 && isRecord(data.item)) data = data.item;
  if (isRecord(data)) {
    const cols: Column[] =
      ctx.format === 'csv'
        ? leafPaths(data).map((p) => ({ path: p, header: p }))
        : Object.keys(data).map((k) => ({ path: k, header: header(k, ctx.format) }));
    await renderItem(ctx.sink, data, cols, ro);
    return;
  }
  // A bare scalar.
  await renderItem(ctx.sink, { value: data }, [{ path: 'value', header: header('value', ctx.format) }], ro);
}

/** Every path into `v` that --fields can name: keys at any depth, through arrays (indexes left out), empty objects too. */
function answerPaths(v: unknown, prefix: string, out: Set<string>): void {
  if (Array.isArray(v)) {
    for (const el of v) answerPaths(el, prefix, out);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const p = prefix ? `${prefix}.${k}` : k;
    out.add(p);
    answerPaths(x, p, out);
  }
}

/**
 * `srs api` prints whatever the service answers, so its --fields are checked against the answer: a path that no
 * item (or the resource) holds is exit 2 with the closest paths that exist, as every other command's --fields are
 * checked against its shape. It printed `{}` rows and empty CSV columns with exit 0. An empty list proves nothing.
 */
export function checkAnswerFields(fields: readonly string[], records: readonly Record<string, unknown>[], list: boolean): void {
  if (!records.length) return;
  // Through arrays and into empty objects: items.0.type and a score sent as {} are fields (they were refused).
  const known = new Set<string>();
  for (const r of records) answerPaths(r, '', known);
  for (const f of fields) {
    const bare = f.split('.').filter((part) => !/^\d+$/.test(part)).join('.');
    if (known.has(bare)) continue;
    const near = closest(bare, known, true);
    const top = [...known].filter((p) => !p.includes('.'));
    throw new UsageError(`--fields: ${list ? 'no item of the answer has a' : 'the answer has no'} field "${f}" (${near.length ? `did you mean ${near.slice(0, 3).join(' or ')}?` : `its fields: ${top.slice(0, 12).join(', ')}`})`);
  }
}

const PageShape = z.looseObject({
  items: z.array(z.unknown()),
  pagination: z.optional(
    z.nullable(z.looseObject({ pageSize: z.optional(z.nullable(z.number())), nextPage: z.optional(z.nullable(z.number())) })),
  ),
});

function wholeNumber(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--field ${name} must be a whole number >= 1 with --paginate (got "${v}")`);
  return n;
}

/** GET every page (page/perPage; perPage 100 unless given) and print the items of all pages as one list. */
async function printAllPages(ctx: Context, http: HttpTransport, req: ApiRequest): Promise<void> {
  const { page: pageField, perPage: perPageField, ...rest } = req.query;
  const startPage = wholeNumber('page', pageField, 1);
  const perPage = wholeNumber('perPage', perPageField, 100);
  // "Every page" from the one the query names: said, not left to be noticed in a shorter list.
  if (startPage > 1) ctx.info(`--paginate starts at page ${startPage} (page=${startPage} in the query): the pages before it are not read; leave page out to read them all`);
  const pages = paginate(
    async (page, size) => {
      const { data, status } = await callRaw(http, req, { ...rest, page, perPage: size });
      const parsed = PageShape.safeParse(data);
      if (!parsed.success) {
        const got = data === undefined ? 'the answer has no body' : 'the answer is not one';
        throw new BadResponseError({ method: req.method, path: req.path, status, reason: `--paginate needs a list answer {items: [...], pagination: {...}}; ${got}` });
      }
      return parsed.data;
    },
    { startPage, perPage, pageLimit: ctx.maxPages(), label: `GET ${req.path}`, limitHint: false },
  );

  const first = await ctx.withSpinner(`GET ${req.path}…`, () => pages.next());
  const firstItems = first.done ? [] : first.value.items;
  // --fields checked against the first page's items (a path none of them holds printed an empty column for every page).
  const fieldsGiven = ctx.renderOptions();
  if (fieldsGiven.fields && !fieldsGiven.query) checkAnswerFields(fieldsGiven.fields.map((c) => c.path), firstItems.filter(isRecord), true);
  // Items a later page repeated (paginate: Page.repeated), printed once: said at the end, as every paged list says it.
  let repeated = 0;
  async function* items(): AsyncGenerator<unknown> {
    for (const it of firstItems) yield it;
    if (first.done) return;
    for await (const p of pages) {
      repeated += p.repeated ?? 0;
      for (const it of p.items) yield it;
    }
  }
  const sayRepeated = () => {
    if (repeated) ctx.warn(repeatedItemsWarning(count(repeated, 'item')));
  };
  async function* rows(onRecord?: (it: Record<string, unknown>) => void): AsyncGenerator<unknown> {
    for await (const it of items()) {
      if (isRecord(it)) onRecord?.(it);
      yield isRecord(it) ? it : { value: it };
    }
  }
  if (ctx.format === 'table') {
    // A table has every row before it prints: its columns are those of every page.
    const all = await ctx.withSpinner(`Fetching ${req.path}…`, () => collectTableRows(rows(), 'items'));
    const n = await renderList(ctx.sink, all, listColumns(all, ctx.format), ctx.renderOptions());
    if (n === 0) ctx.info('no items');
    sayRepeated();
    return;
  }
  const machine = ctx.format === 'json' || ctx.format === 'ndjson';
  const columns = listColumns(firstItems, ctx.format);
  const known = new Set(columns.map((c) => c.path));
  const later = new Set<string>();
  const noteLater = (it: Record<string, unknown>) => {
    for (const k of Object.keys(it)) if (!known.has(k) && isScalar(it[k])) later.add(k);
  };
  // Streamed: the columns are those of the first page (every key its items have); fields that appear only later
  // are not dropped in silence.
  await renderList(ctx.sink, machine ? items() : rows(noteLater), columns, ctx.renderOptions());
  sayRepeated();
  if (later.size && ctx.format === 'csv') ctx.warn(`fields that first appear after page ${startPage} are not in the CSV (its columns come from the first page): ${[...later].slice(0, 5).join(', ')}${later.size > 5 ? ', …' : ''}; -o json or ndjson has every field`);
}

