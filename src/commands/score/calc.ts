import { completeScoreResult, leftOutOf, type ReceivedScoreResult, type ScoreCalculationRequest, type ScoreResult, type Scorecard } from '../../api/contract.js';
import type { ApiClient } from '../../api/client.js';
import { RetryBudget } from '../../api/retry.js';
import type { Context } from '../../context.js';
import { ApiError, AuthError, QueryError, SrsError, ExitCode, UsageError } from '../../errors.js';
import { listFraming, renderList } from '../../output/render.js';
import { oneLine } from '../../output/sanitize.js';
import { BufferPool } from '../../util/buffer-pool.js';
import { chunk, mapConcurrent, mapOrdered } from '../../util/concurrency.js';
import { optString, type Opts } from '../kit.js';
// The bundle, the score model and the views load only where they are used (not for piped JSON).
import type { Breakdown } from './view.js';
import { checkId, gatherIds } from './ids.js';
import { checkNotAnInput, checkOutputFile } from './paths.js';
import { filesNoOutputMayReplace } from '../protect.js';
import { count } from '../../util/plural.js';
import { suggest } from '../../util/suggest.js';
import { existsSync } from 'node:fs';
import { isOffScale, OFF_SCALE_LABEL } from '../../scoring/labels.js';

export const BATCH_SIZE = 100;
/** Batches in flight (score calc --concurrency; score check uses it as is). */
export const DEFAULT_CONCURRENCY = 8;

export interface CalcResult {
  items: ScoreResult[];
}

/**
 * Requested ids without a usable result, and why (one line naming the
 * supplier): the service sent none for it, or several that differ.
 */
export class Missing extends Map<string, string> {
  /** Ids the service sent a result for in an answer to a request that did not ask for them (left out). */
  readonly unasked = new Set<string>();

  /** One warning naming the results left out because nobody asked for them, or undefined. */
  unaskedWarning(): string | undefined {
    return unaskedWarning(this.unasked);
  }
}

/** At most this many unasked-for ids are named in the warning. */
const MAX_UNASKED_NAMED = 5;

/**
 * A result for a supplier the request did not name is left out, and said so: the service may have changed an
 * id (letter case, a merged supplier), and the result of the id that was asked then reads as missing.
 */
export function unaskedWarning(unasked: ReadonlySet<string>): string | undefined {
  if (!unasked.size) return undefined;
  const named = [...unasked].slice(0, MAX_UNASKED_NAMED).map(oneLine).join(', ');
  return `the service sent ${unasked.size === 1 ? 'a result' : `${unasked.size} results`} for ${unasked.size === 1 ? 'a supplier' : 'suppliers'} srs did not ask for in that request (${named}${unasked.size > MAX_UNASKED_NAMED ? ', …' : ''}): left out of the output${unasked.size === 1 ? '' : 's'} and of any bundle; if the service changed an id, use the id it sent`;
}

/**
 * Sends the ids in batches of at most 100 with at most `concurrency` batches
 * in flight, and yields the results in input order as soon as the earliest
 * batch is in. Memory is bounded by the window (src/util/concurrency.ts), not
 * by the number of ids.
 */
export function calculateInOrder(client: ApiClient, requests: ScoreCalculationRequest[], concurrency: number, missing: Missing, warn?: (message: string) => void): AsyncGenerator<ScoreResult> {
  const leftOut = warn ? leftOutWarner(warn) : undefined;
  return inOrder(requests, concurrency, missing, (r) => client.calculateScores(r), leftOut);
}

/**
 * calculateInOrder for -o json|ndjson with --fields, --query or pretty output: the results as received (nothing
 * completed), in request order, without those of suppliers the service does not know (or srs could not find out
 * about), which go to `unknown`.
 */
async function* receivedInOrder(client: ApiClient, requests: ScoreCalculationRequest[], concurrency: number, missing: Missing, unknown: Map<string, NoResult>): AsyncGenerator<ReceivedScoreResult> {
  const classify = classifierInTurn(client, concurrency);
  const fetch = async (r: ScoreCalculationRequest) => {
    const received = client.parseScoreCalculationReceived(await client.calculateScoresRaw(r));
    // Looked up before the batch is handed on, so `unknown` holds its suppliers by the time they come out.
    for (const [id, why] of await classify(received.items)) unknown.set(id, why);
    return received;
  };
  for await (const it of inOrder(requests, concurrency, missing, fetch)) if (!unknown.has(it.supplierId)) yield it;
}

/** The batches' results in request order, each handed to `each` first; ids without a usable result go to `missing`. */
async function* inOrder<T extends { supplierId: string }>(
  requests: ScoreCalculationRequest[],
  concurrency: number,
  missing: Missing,
  fetch: (r: ScoreCalculationRequest) => Promise<{ items: T[] }>,
  each?: (item: T) => void,
): AsyncGenerator<T> {
  let i = 0;
  for await (const { items } of mapOrdered(requests, concurrency, fetch)) {
    for (const k of resultsInRequestOrder(requests[i++]!, items.map((it) => it.supplierId), missing, sameParsed(items))) {
      each?.(items[k]!);
      yield items[k]!;
    }
  }
}

/** At most this many suppliers are named for parts left out of their results, then one line says more were. */
const MAX_LEFT_OUT_LINES = 10;

/**
 * Warns, once per supplier, about parts of a result the service sent that could not be attributed (a
 * data entry without an id, a parameter score without its policyParameterId: completeScoreResult leaves
 * them out), so that a breakdown or recomputation without them does not pass for the whole answer.
 */
export function leftOutWarner(warn: (message: string) => void): (item: ScoreResult) => void {
  let n = 0;
  let offScale = 0;
  return (item) => {
    // A value off the -3..+3 scale is shown and saved as sent, said once per supplier: it is no score srs can label,
    // explain or gate on (check says unknown; a saved bundle with it does not verify).
    const off = offScalePart(item);
    if (off) {
      offScale++;
      if (offScale <= MAX_LEFT_OUT_LINES) warn(`the service's result for supplier ${item.supplierId} holds ${off.said}, outside the scale -3..+3: shown "${OFF_SCALE_LABEL}"; score check takes it for unknown, and a bundle that saves it does not verify`);
      else if (offScale === MAX_LEFT_OUT_LINES + 1) warn('more results hold values outside the scale; not every one is named');
    }
    const parts = leftOutOf(item);
    if (!parts.length) return;
    n++;
    if (n <= MAX_LEFT_OUT_LINES) {
      warn(`the service's result for supplier ${item.supplierId} is incomplete (${parts.join('; ')}): tables, breakdowns and recomputation work without what was left out (-o json prints the result as received)`);
    } else if (n === MAX_LEFT_OUT_LINES + 1) warn('more results are incomplete; not every one is named');
  };
}

/**
 * The first value of a result off the -3..+3 scale (overall, a parameter's, a data source's), and what it is ("score
 * 3.5", "parameter ID's score 3.5"), or undefined: calc warns of it, explain and report cannot draw it.
 */
export function offScalePart(item: ScoreResult): { value: number; said: string } | undefined {
  if (isOffScale(item.score?.value)) return { value: item.score.value, said: `score ${item.score.value}` };
  for (const p of item.policyParameterScores ?? []) if (isOffScale(p.score?.value)) return { value: p.score.value, said: `parameter ${p.policyParameterId}'s score ${p.score.value}` };
  for (const d of item.dataSourceScores ?? []) if (isOffScale(d.score?.value)) return { value: d.score.value, said: `data source ${d.dataSourceId}'s score ${d.score.value}` };
  return undefined;
}

/** Two parsed results are the same when they serialise alike. */
const sameParsed = (items: readonly unknown[]) => (j: number, k: number) => JSON.stringify(items[j]) === JSON.stringify(items[k]);

/**
 * For each id of a batch, the index of its result among `resultIds`, or why
 * it has none usable: no result, or several results that differ (`same`
 * compares two of them; identical copies are one result). Which of two
 * different results is right nobody can tell: the supplier is unknown.
 */
export function resultIndex(request: ScoreCalculationRequest, resultIds: readonly string[], same: (j: number, k: number) => boolean, unasked?: Set<string>): Map<string, number | string> {
  const byId = new Map<string, number[]>();
  for (let k = 0; k < resultIds.length; k++) {
    const list = byId.get(resultIds[k]!);
    if (list) list.push(k);
    else byId.set(resultIds[k]!, [k]);
  }
  const out = new Map<string, number | string>();
  for (const id of request.supplierIds) {
    const list = byId.get(id);
    if (list === undefined) out.set(id, `the service returned no result for supplier ${id}`);
    // A lone result is compared with nothing: comparing it with itself serialised it twice (8% of
    // the CPU of score calc --save, 20,000 suppliers, --cpu-prof, 2026-11-24).
    else if (list.length > 1 && list.some((k, i) => i > 0 && !same(list[0]!, k))) out.set(id, `the service returned ${list.length} different results for supplier ${id} in one answer; srs cannot tell which is right (ask again: srs score calc ${id})`);
    else out.set(id, list[0]!);
  }
  if (unasked && byId.size > out.size) for (const id of byId.keys()) if (!out.has(id)) unasked.add(id);
  return out;
}

/** For each id of a batch, in order, the index of its result; ids without a usable one go to `missing`. */
function* resultsInRequestOrder(request: ScoreCalculationRequest, resultIds: readonly string[], missing: Missing, same: (j: number, k: number) => boolean): Generator<number> {
  for (const [id, k] of resultIndex(request, resultIds, same, missing.unasked)) {
    if (typeof k === 'number') yield k;
    else missing.set(id, k);
  }
}

/**
 * `score calc -o json|ndjson` into a pipe or a file: the same output as
 * renderList (listFraming, one compact result per line, in input order), made of the
 * service's own bytes for each result. A result is ~6 KB of JSON; parsing,
 * validating and re-serialising 10,000 of them cost three times the requests
 * themselves. Each body is still checked before any of it is written: status,
 * content type, well-formed JSON and UTF-8, an `items` array of objects with a
 * string supplierId (src/api/raw-items.ts). Fields inside a result are not
 * type-checked on this path; they are printed as the service sent them. A body
 * the scan does not accept (another shape, pretty-printed results) takes the
 * ordinary path: parsed, validated against the contract, re-serialised.
 */
async function passThrough(ctx: Context, client: ApiClient, requests: ScoreCalculationRequest[], concurrency: number, unknown: Map<string, NoResult>, missing: Missing): Promise<void> {
  const { scanItems } = await import('../../api/raw-items.js');
  const out = new FramedOutput(ctx);
  const bodies = new BufferPool(concurrency * 2);
  let i = 0;
  // Each body is validated as the other outputs validate it (a score "2.5" as a string, or 1e400, was exit 0 here
  // and exit 1 in CSV, tables and --save), then its own bytes are printed.
  // A result without a score is looked up (GET /v1/suppliers/{id}) before its batch is printed: one for a supplier
  // the service does not know (or srs could not find out about) is left out, as it reads like "no data" (review round 16).
  const classify = classifierInTurn(client, concurrency);
  const validated = async (r: ScoreCalculationRequest) => {
    const res = await client.calculateScoresRaw(r, bodies);
    const received = client.parseScoreCalculationReceived(res);
    const notKnown = await classify(received.items);
    return { res, received, notKnown };
  };
  for await (const { res, received, notKnown } of mapOrdered(requests, concurrency, validated)) {
    const request = requests[i++]!;
    for (const [id, why] of notKnown) unknown.set(id, why);
    const raw = scanItems(res.body);
    if (raw) {
      const bytes = (k: number) => res.body.subarray(raw.ranges[2 * k]!, raw.ranges[2 * k + 1]!);
      // Copies that differ in bytes alone ("value":1 and "value":1.0, another key order) are one result, as in the
      // other formats, which compare parsed results: -o json called them different (exit 1) where csv passed.
      const parsedSame = raw.ids.length === received.items.length ? sameParsed(received.items) : () => false;
      for (const k of resultsInRequestOrder(request, raw.ids, missing, (j, k) => bytes(j).equals(bytes(k)) || parsedSame(j, k))) {
        if (!notKnown.has(raw.ids[k]!)) out.add(bytes(k));
      }
    } else {
      // As received: nothing completed (no null for an absent value); only the suppliers srs could not confirm left out.
      const { items } = received;
      for (const k of resultsInRequestOrder(request, items.map((it) => it.supplierId), missing, sameParsed(items))) {
        if (!notKnown.has(items[k]!.supplierId)) out.add(JSON.stringify(items[k]));
      }
    }
    // The results are copied out: the body's buffer can take the next one.
    bodies.release(res.body);
    await out.flush();
  }
  await out.end();
}

/**
 * -o json or ndjson elements, framed (the array's brackets and commas, or one line each) into one output buffer,
 * reused once stdout is done with it: a new 600 KB buffer per batch cost more in garbage collection than the copy.
 */
class FramedOutput {
  readonly #ctx: Context;
  readonly #frame: ReturnType<typeof listFraming>;
  #out = Buffer.allocUnsafeSlow(1 << 20);
  #size = 0;
  #n = 0;

  constructor(ctx: Context) {
    this.#ctx = ctx;
    this.#frame = listFraming(ctx.format === 'ndjson' ? 'ndjson' : 'json');
  }

  get size(): number {
    return this.#size;
  }

  #put(bytes: Uint8Array | string): void {
    if (bytes.length === 0) return;
    const length = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
    if (this.#size + length > this.#out.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.#out.length * 2, this.#size + length));
      this.#out.copy(bigger, 0, 0, this.#size);
      this.#out = bigger;
    }
    if (typeof bytes === 'string') this.#out.write(bytes, this.#size);
    else this.#out.set(bytes, this.#size);
    this.#size += length;
  }

  add(element: Uint8Array | string): void {
    this.#put(this.#frame.before(this.#n));
    this.#put(element);
    this.#put(this.#frame.after);
    this.#n++;
  }

  async flush(): Promise<void> {
    if (this.#size) await this.#ctx.sink.write(this.#out.subarray(0, this.#size));
    this.#size = 0;
  }

  async end(): Promise<void> {
    await this.flush();
    const end = this.#frame.end(this.#n);
    if (end) await this.#ctx.sink.write(end);
  }
}

const hasScore = (item: ScoreResult | ReceivedScoreResult) => item.score?.value !== null && item.score?.value !== undefined;

/** The requests for a list of ids: batches of at most 100, each with the same filters. */
export function batchRequests(ids: string[], filters: Omit<ScoreCalculationRequest, 'supplierIds'>): ScoreCalculationRequest[] {
  return chunk(ids, BATCH_SIZE).map((supplierIds) => ({ supplierIds, ...filters }));
}

/** All results, in input order (for commands that need them together); ids without a result go to `missing`. */
export async function calculate(client: ApiClient, ids: string[], filters: Omit<ScoreCalculationRequest, 'supplierIds'>, concurrency: number, missing: Missing, warn?: (message: string) => void): Promise<CalcResult> {
  const items: ScoreResult[] = [];
  for await (const it of calculateInOrder(client, batchRequests(ids, filters), concurrency, missing, warn)) items.push(it);
  const unasked = missing.unaskedWarning();
  if (unasked) warn?.(unasked);
  return { items };
}

export function filtersFrom(opts: Opts): Omit<ScoreCalculationRequest, 'supplierIds'> {
  // A repeated filter is one filter: deduplicated (first occurrence order), so the request and a saved bundle's options name each once.
  const list = (v: unknown) => (Array.isArray(v) && v.length ? [...new Set(v as string[])] : undefined);
  const f: Omit<ScoreCalculationRequest, 'supplierIds'> = {};
  const pp = list(opts.policyParameter);
  const ds = list(opts.dataSource);
  // Ids look like 26-character lowercase ULIDs (the service's documentation): a typo is exit 2 before anything is sent.
  for (const id of pp ?? []) checkId(id, '--policy-parameter');
  for (const id of ds ?? []) checkId(id, '--data-source');
  if (pp) f.policyParameterIds = pp;
  if (ds) f.dataSourceIds = ds;
  if (opts.excludeZeroValues) f.includeZeroValues = false;
  return f;
}

/** The scorecards that apply to one supplier (GET /v1/scorecards?supplierId=, every page). */
export async function scorecardsOf(client: ApiClient, supplierId: string): Promise<Scorecard[]> {
  const mine: Scorecard[] = [];
  for await (const page of client.listScorecards({ supplierId })) mine.push(...page.items);
  return mine;
}

/** Why a supplier without a score has none, when it is not merely "no data". */
export interface NoResult {
  code: 'not_found' | 'lookup_failed';
  message: string;
}

/**
 * A supplier whose scorecards srs's model cannot take as they are: it is unknown, saying why, rather than saved as
 * evidence that its own verification then refuses, or explains without a part of a scorecard.
 * - Scorecards without an id (the document does not mark the id required): evidence cannot record them, so the
 *   score cannot be recomputed, and srs blamed the service ("recomputation differs", exit 3).
 * - An item of a type other than policy_parameter_item ("other values of type: not shown"), or without a
 *   parameter id: the model does not know what it weighs, and left it out without a word.
 * - A weight that is not a finite number >= 0, or a parameter listed twice in one scorecard: `calc --save` saved
 *   the bundle, and `recompute --verify` refused it as invalid input (exit 2).
 */
/**
 * A result with entries, data source scores or parameter scores that srs left out (no id, no data source: leftOutOf)
 * cannot be saved as evidence: the bundle holds the result as srs completed it, without them, so `check --from` of it
 * gated on what remained and passed where the live check was unknown (a High parameter without its id), and a value
 * they fed failed verification as "recomputation differs", blaming the service for what srs had dropped. Unknown.
 */
function unrecordable(item: ScoreResult): NoResult | undefined {
  const parts = leftOutOf(item).filter((l) => /^(data entries without|data source scores without|policy parameter scores without)/.test(l));
  if (!parts.length) return undefined;
  return {
    code: 'lookup_failed',
    message: `the service's result for supplier ${item.supplierId} is incomplete (${parts.join('; ')}): srs cannot record it as evidence, so it cannot explain or verify this supplier's score (srs score calc ${item.supplierId} -o json shows what the service sent)`,
  };
}

export function unusableScorecards(item: ScoreResult, cards: readonly Scorecard[]): NoResult | undefined {
  if (!cards.length) return undefined;
  // Scorecards weigh the overall score and the parameters' aggregate: without either there is nothing they decide.
  const num = (v: unknown) => typeof v === 'number';
  if (!num(item.score?.value) && !num(item.score?.policyParametersScore?.value)) return undefined;
  const supplierId = item.supplierId;
  const n = cards.filter((c) => typeof c.id !== 'string' || c.id === '').length;
  if (n) return { code: 'lookup_failed', message: `the service sent ${n === 1 ? 'a scorecard' : `${n} scorecards`} without an id for supplier ${supplierId}: srs cannot record ${n === 1 ? 'it' : 'them'} as evidence, so it cannot explain or verify this supplier's score` };
  const cannot = (why: string): NoResult => ({ code: 'lookup_failed', message: `${why}: srs's model cannot take it, so it cannot explain or verify the score of supplier ${supplierId}` });
  for (const card of cards) {
    const seen = new Set<string>();
    for (const it of card.items ?? []) {
      if (it.type !== 'policy_parameter_item') return cannot(`scorecard ${card.id} holds an item ${typeof it.type === 'string' ? `of type ${JSON.stringify(it.type)}` : 'without a type'} (srs knows policy_parameter_item)`);
      const pid = it.policyParameter?.id;
      if (typeof pid !== 'string' || pid === '') return cannot(`scorecard ${card.id} holds an item without a policy parameter id`);
      if (it.weight !== undefined && it.weight !== null && !(Number.isFinite(it.weight) && it.weight >= 0)) return cannot(`scorecard ${card.id} gives parameter ${pid} the weight ${String(it.weight)} (a finite number >= 0 is expected)`);
      if (seen.has(pid)) return cannot(`scorecard ${card.id} lists parameter ${pid} twice`);
      seen.add(pid);
    }
  }
  return undefined;
}

/**
 * The service answers an id it does not know like a supplier without data
 * (all scores null or absent, empty lists). For each id whose overall score
 * is null or absent, GET /v1/suppliers/{id} tells them apart: 404 is
 * "not_found"; any other failure (but a rejected key, which ends the run) is
 * "lookup_failed": srs could not find out, and says so.
 */
export async function classifyNoScore(client: ApiClient, items: ReadonlyArray<ScoreResult | ReceivedScoreResult>, concurrency: number, budget?: RetryBudget): Promise<Map<string, NoResult>> {
  return classifyIds(client, items.filter((i) => !hasScore(i)).map((i) => i.supplierId), concurrency, budget);
}

/**
 * classifyNoScore for batches that come in concurrently, one batch's lookups after another's: at most `concurrency`
 * lookups in flight in all (as when they all ran after the last batch), not `concurrency` per batch, which under
 * faults spent the shared retry budget that the batches themselves needed. They draw on a retry budget of their own:
 * a lookup that gives up makes its supplier unknown, a batch that gives up ends the run.
 */
function classifierInTurn(client: ApiClient, concurrency: number): (items: ReadonlyArray<ScoreResult | ReceivedScoreResult>) => Promise<Map<string, NoResult>> {
  const budget = new RetryBudget();
  let turn: Promise<unknown> = Promise.resolve();
  return (items) => {
    const mine = turn.then(() => classifyNoScore(client, items, concurrency, budget));
    turn = mine.catch(() => undefined);
    return mine;
  };
}

/** classifyNoScore for ids already known to lack a score. */
export async function classifyIds(client: ApiClient, ids: readonly string[], concurrency: number, budget?: RetryBudget): Promise<Map<string, NoResult>> {
  const out = new Map<string, NoResult>();
  if (!ids.length) return out;
  await mapConcurrent(ids, concurrency, async (id) => {
    try {
      await client.getSupplier(id, budget);
    } catch (e) {
      if (e instanceof AuthError) throw e;
      if (e instanceof ApiError && e.status === 404) out.set(id, { code: 'not_found', message: `the service does not know supplier ${id} (GET /v1/suppliers/${id}: 404)` });
      else out.set(id, { code: 'lookup_failed', message: `could not tell whether supplier ${id} exists: ${(e as Error).message}` });
    }
  });
  return out;
}

/** The base URL a bundle records: normalised, so never with userinfo, query or fragment. */
async function recordedBaseUrl(ctx: Context): Promise<string | null> {
  const url = (await ctx.settings()).baseUrl;
  if (!url) return null;
  const { normaliseBaseUrl } = await import('../../api/target.js');
  return normaliseBaseUrl(url);
}

/**
 * `score calc --save`: each batch's results, the scorecards that apply to
 * each supplier and the reason of any id without a usable result are written
 * to the bundle as the batches come in (format 2, evidence.ts), and the
 * results are passed on, in input order, for the output. On any failure the
 * partial bundle is removed and `path` is left as it was.
 */
/** A result of `calculateAndSave`: completed (for tables and the bundle) and as received (its bytes when they could be cut out, for -o json). */
interface SavedResult {
  item: ScoreResult;
  received: Uint8Array | ReceivedScoreResult | undefined;
}

/** The results as received, in -o json or ndjson: their own bytes when plain, else parsed as received for --fields, --query and indentation. */
async function printReceived(ctx: Context, saved: AsyncIterable<SavedResult>): Promise<void> {
  const render = ctx.renderOptions();
  const asValue = (x: SavedResult): unknown => (x.received instanceof Uint8Array ? JSON.parse(Buffer.from(x.received.buffer, x.received.byteOffset, x.received.byteLength).toString('utf8')) : (x.received ?? x.item));
  if (render.pretty || render.query || render.fields) {
    await renderList(ctx.sink, mapAsync(saved, asValue), [], render);
    return;
  }
  const out = new FramedOutput(ctx);
  for await (const x of saved) {
    out.add(x.received instanceof Uint8Array ? x.received : JSON.stringify(x.received ?? x.item));
    if (out.size >= 1 << 20) await out.flush();
  }
  await out.end();
}

async function* calculateAndSave(
  ctx: Context,
  client: ApiClient,
  ids: string[],
  filters: Omit<ScoreCalculationRequest, 'supplierIds'>,
  concurrency: number,
  path: string,
  unknownOut: Map<string, NoResult>,
  asReceived = false,
): AsyncGenerator<SavedResult> {
  const [{ MODEL_VERSION, todayUtc }, { bundleOptions }, { BundleWriter }] = await Promise.all([import('../../scoring/index.js'), import('./bundle.js'), import('./evidence.js')]);
  const scoringOptions = bundleOptions(filters);
  const asOf = todayUtc(ctx.now()); // the day the scores were asked for
  const writer = await BundleWriter.create(path, {
    modelVersion: MODEL_VERSION,
    createdAt: ctx.now().toISOString(),
    asOf,
    // Without credentials or query (normaliseBaseUrl): a bundle is shared, and user:password@ or ?token= would go with it.
    // The key's fingerprint (never the key): score check refuses a baseline saved from another account.
    service: ctx.sandbox ? { baseUrl: null } : { baseUrl: await recordedBaseUrl(ctx), account: (await ctx.target()).account },
    options: scoringOptions,
  }, (s) => ctx.redact(s));
  const requests = batchRequests(ids, filters);
  // Per batch: the scores, then (in parallel) every supplier's scorecards and the lookups of those without a score.
  const inner = Math.max(2, Math.ceil(concurrency / 2));
  const leftOut = leftOutWarner((m) => ctx.warn(m));
  const { scanItems } = await import('../../api/raw-items.js');
  const batch = async (request: ScoreCalculationRequest) => {
    const res = await client.calculateScoresRaw(request);
    const { items } = client.parseScoreCalculation(res);
    let received: Array<Uint8Array | ReceivedScoreResult> | undefined;
    if (asReceived) {
      const raw = scanItems(res.body);
      received =
        raw && raw.ids.length === items.length
          ? items.map((_, k) => res.body.subarray(raw.ranges[2 * k]!, raw.ranges[2 * k + 1]!))
          : client.parseScoreCalculationReceived(res).items;
    }
    for (const it of items) leftOut(it);
    const [cards, noResult] = await Promise.all([mapConcurrent(items, inner, (it) => scorecardsOf(client, it.supplierId)), classifyNoScore(client, items, inner)]);
    items.forEach((it, k) => {
      const unusable = noResult.has(it.supplierId) ? undefined : (unusableScorecards(it, cards[k]!) ?? unrecordable(it));
      if (unusable) noResult.set(it.supplierId, unusable);
    });
    return { request, items, cards, noResult, received };
  };
  let written = 0;
  let unknown = 0;
  const unasked = new Set<string>();
  try {
    for await (const { request, items, cards, noResult, received } of mapOrdered(requests, concurrency, batch)) {
      await writer.request(request);
      const ids = items.map((it) => it.supplierId);
      for (const [id, k] of resultIndex(request, ids, sameParsed(items), unasked)) {
        if (typeof k === 'string') {
          // No result, or several that differ: recorded as an error, never one of them as the value.
          unknown++;
          unknownOut.set(id, { code: 'lookup_failed', message: k });
          await writer.error(id, ids.includes(id) ? 'conflicting_results' : 'no_result', k);
          // A row of its own in tables and CSV, marked unknown (the JSON paths leave unknown suppliers out).
          yield { item: noResultItem(id), received: undefined };
          continue;
        }
        const item = items[k]!;
        const why = noResult.get(id);
        if (why) {
          unknown++;
          unknownOut.set(id, why);
          await writer.error(id, why.code, why.message);
        } else {
          written++;
          await writer.result(item, cards[k]!);
        }
        yield { item, received: received?.[k] };
      }
    }
    await writer.finish();
    const unaskedFor = unaskedWarning(unasked);
    if (unaskedFor) ctx.warn(unaskedFor);
  } catch (e) {
    await writer.abort();
    // An earlier run's bundle left at the path must not pass for this run's evidence (a later check --from reads it).
    if (existsSync(path)) ctx.warn(`the evidence bundle was not saved: ${path} is as it was, an earlier run's bundle, not this run's evidence`);
    throw e;
  }
  ctx.info(`saved the evidence bundle to ${path} (${count(written, 'supplier')} with a result${unknown ? `, ${unknown} recorded as unknown` : ''}, as of ${asOf})`);
}

/**
 * Fails closed on suppliers srs could not score: one UNKNOWN line each on
 * stderr (the first MAX_UNKNOWN_LINES), then exit 1 with a one-line summary.
 * The results of the others have been printed by then.
 */
const MAX_UNKNOWN_LINES = 20;
export function failOnUnknown(ctx: Context, unknown: ReadonlyMap<string, NoResult>, total: number, saved?: string): void {
  if (!unknown.size) return;
  let shown = 0;
  // Those srs could not find out about first: they may pass on a second try.
  const ordered = [...unknown].sort((x, y) => Number(x[1].code === 'not_found') - Number(y[1].code === 'not_found'));
  for (const [id, why] of ordered) {
    if (shown++ === MAX_UNKNOWN_LINES) {
      ctx.stderr(`… and ${count(unknown.size - MAX_UNKNOWN_LINES, 'more unknown supplier')}`);
      break;
    }
    ctx.stderr(`UNKNOWN ${oneLine(id)}: ${oneLine(why.message)}`);
  }
  const notFound = [...unknown.values()].filter((w) => w.code === 'not_found').length;
  const what = notFound === unknown.size ? `${unknown.size === 1 ? 'is' : 'are'} unknown to the service` : `${unknown.size === 1 ? 'is' : 'are'} unknown (not known to the service, or srs could not find out)`;
  // not_found only when the service said so for each: a lookup that failed (429, 5xx, the network) is lookup_failed, which may pass on a second try.
  throw new SrsError(
    notFound === unknown.size ? 'not_found' : 'lookup_failed',
    ExitCode.failure,
    `${unknown.size} of ${count(total, 'supplier')} ${what}; the results of the others were printed${saved ? ` and the bundle ${saved} records why` : ''}`,
  );
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const ids = await gatherIds(ctx, args, opts.idsFile);
  if (typeof opts.save === 'string') {
    const save = checkOutputFile('--save', opts.save);
    opts.save = save; // a symbolic link's target: the file the bundle replaces
    checkNotAnInput('--save', save, { '--ids-file': optString(opts.idsFile) }, await filesNoOutputMayReplace(ctx));
  }
  const filters = filtersFrom(opts);
  const concurrency = typeof opts.concurrency === 'number' ? opts.concurrency : DEFAULT_CONCURRENCY;
  if (!opts.breakdown && (ctx.format === 'json' || ctx.format === 'ndjson') && typeof ctx.globals.fields === 'string') {
    const [{ checkScoreResultFields }, { parseFieldList }] = await Promise.all([import('../../output/shapes.js'), import('../../output/fields.js')]);
    const problem = checkScoreResultFields(parseFieldList(ctx.globals.fields));
    if (problem) throw new UsageError(problem);
  }
  // Tables and CSV print rows of their own (a --query sees the results instead), and a breakdown prints its rows in
  // every format: a field of another view was accepted and printed nothing.
  if (typeof ctx.globals.fields === 'string' && (opts.breakdown || ((ctx.format === 'table' || ctx.format === 'csv') && typeof ctx.globals.query !== 'string'))) {
    const [{ checkScoreRowFields }, { parseFieldList }] = await Promise.all([import('../../output/shapes.js'), import('../../output/fields.js')]);
    const problem = checkScoreRowFields(parseFieldList(ctx.globals.fields), (opts.breakdown as 'sources' | 'parameters' | 'entries' | undefined) ?? 'summary');
    if (problem) throw new UsageError(problem);
  }
  const client = await ctx.client({ connections: concurrency });
  await checkFilterIds(client, filters, () => scorecardParameterIds(client));
  if (typeof opts.save !== 'string' && !opts.breakdown && (ctx.format === 'json' || ctx.format === 'ndjson')) {
    // Scripts get each result as soon as its batch (and every earlier one) is in.
    const render = ctx.renderOptions();
    const unknown = new Map<string, NoResult>();
    const missing = new Missing();
    if (!render.pretty && !render.query && !render.fields) await passThrough(ctx, client, batchRequests(ids, filters), concurrency, unknown, missing);
    else await renderList(ctx.sink, receivedInOrder(client, batchRequests(ids, filters), concurrency, missing, unknown), [], render);
    const unasked = missing.unaskedWarning();
    if (unasked) ctx.warn(unasked);
    failOnUnknown(ctx, withMissing(unknown, missing), ids.length);
    return;
  }
  const breakdown = opts.breakdown as Breakdown | undefined;
  // Tables and CSV show a summary row per supplier; a --query sees the results themselves in every format (README:
  // it runs on the whole document before rendering), so its answer does not depend on -o.
  const summaryRows = (ctx.format === 'table' || ctx.format === 'csv') && !ctx.renderOptions().query;
  const { breakdownRows, breakdownColumns, namesNeeded, summaryColumns, summaryRow } = await import('./view.js');
  // Names for people (table, csv); JSON rows keep the service's ids only, unless --fields asks for a name.
  const asksNames = typeof ctx.globals.fields === 'string' && /(dataSourceName|policyParameterName|scopeName)\b/.test(ctx.globals.fields);
  const names = breakdown && (ctx.format === 'table' || ctx.format === 'csv' || asksNames) ? await (await import('../names.js')).namesFor(ctx, client, namesNeeded(breakdown)) : undefined;
  if (typeof opts.save === 'string') {
    // Streamed: the bundle and the output grow together, batch by batch.
    const unknown = new Map<string, NoResult>();
    // JSON and NDJSON print each result as the service sent it, as without --save (the bundle keeps the completed
    // one): with --save they printed "value": null where the service had sent nothing, one command, two shapes.
    const asReceived = !breakdown && (ctx.format === 'json' || ctx.format === 'ndjson');
    const saved = calculateAndSave(ctx, client, ids, filters, concurrency, opts.save, unknown, asReceived);
    const items = mapAsync(saved, (x) => x.item);
    const row = (it: ScoreResult) => marked(summaryRow(it), unknown);
    const render = async () => {
      // A supplier srs could not confirm has no rows: its empty result read as "no data" (UNKNOWN on stderr says why).
      if (breakdown) emptyBreakdown(ctx, breakdown, await renderList(ctx.sink, flatten(filterAsync(items, (it) => !unknown.has(it.supplierId)), (it) => breakdownRows([it], breakdown, names)), breakdownColumns[breakdown], ctx.renderOptions()));
      else if (summaryRows) await renderList(ctx.sink, mapAsync(items, row), summaryColumns, ctx.renderOptions());
      // The results themselves (JSON, or for a --query) leave out suppliers srs could not confirm: theirs read like "no data".
      else if (asReceived) await printReceived(ctx, filterAsync(saved, (x) => !unknown.has(x.item.supplierId)));
      else await renderList(ctx.sink, filterAsync(items, (it) => !unknown.has(it.supplierId)), [], ctx.renderOptions());
    };
    try {
      await ctx.withSpinner(`Calculating scores for ${count(ids.length, 'supplier')} and saving the evidence…`, render);
    } catch (e) {
      // The bundle is saved: a --query that fails on the results must not read as "nothing done" (exit 2).
      if (e instanceof QueryError && existsSync(opts.save)) throw e.afterTheWork(`the evidence bundle ${opts.save} was saved`);
      throw e;
    }
    failOnUnknown(ctx, unknown, ids.length, opts.save);
    return;
  }
  const missing = new Missing();
  const { items, unknown } = await ctx.withSpinner(`Calculating scores for ${count(ids.length, 'supplier')}…`, async () => {
    const r = await calculate(client, ids, filters, concurrency, missing, (m) => ctx.warn(m));
    return { items: r.items, unknown: withMissing(await classifyNoScore(client, r.items, concurrency), missing) };
  });

  if (breakdown) emptyBreakdown(ctx, breakdown, await renderList(ctx.sink, breakdownRows(items.filter((it) => !unknown.has(it.supplierId)), breakdown, names), breakdownColumns[breakdown], ctx.renderOptions()));
  else if (summaryRows) {
    // Every id in input order, one without a usable result too (none, or several that differ): marked unknown, as
    // the README says (a spreadsheet built from the CSV silently had fewer rows than ids).
    const byId = new Map(items.map((it) => [it.supplierId, it] as const));
    const rows = [...new Set(ids)].flatMap((id) => {
      const it = byId.get(id) ?? (missing.has(id) ? noResultItem(id) : undefined);
      return it ? [marked(summaryRow(it), unknown)] : [];
    });
    await renderList(ctx.sink, rows, summaryColumns, ctx.renderOptions());
  } else await renderList(ctx.sink, items.filter((it) => !unknown.has(it.supplierId)), [], ctx.renderOptions());
  failOnUnknown(ctx, unknown, ids.length);
}

/** An empty breakdown table printed nothing at all, not even a header: it says so, as the other lists do. */
function emptyBreakdown(ctx: Context, breakdown: Breakdown, rows: number): void {
  if (rows === 0 && ctx.format === 'table') ctx.info(`no ${breakdown === 'sources' ? 'data sources' : breakdown === 'parameters' ? 'policy parameters' : 'data entries'} in the results`);
}

/** The policy parameter ids of every scorecard of the service (GET /v1/scorecards, every page). */
export async function scorecardParameterIds(client: ApiClient): Promise<Set<string>> {
  const known = new Set<string>();
  for await (const page of client.listScorecards()) for (const card of page.items) for (const it of card.items ?? []) if (typeof it.policyParameter?.id === 'string') known.add(it.policyParameter.id);
  return known;
}

/**
 * Exit 2 for a --data-source the service does not list, or a --policy-parameter no scorecard of it contains: a
 * typo there left every supplier without data (check, calc, explain and report alike).
 */
export async function checkFilterIds(client: ApiClient, filters: { dataSourceIds?: string[] | undefined; policyParameterIds?: string[] | undefined }, parameters: () => Promise<Set<string>>): Promise<void> {
  if (filters.dataSourceIds?.length) {
    const known = new Set<string>();
    for await (const page of client.listDataSources()) for (const s of page.items) if (typeof s.id === 'string') known.add(s.id);
    const bad = filters.dataSourceIds.find((id) => !known.has(id));
    if (bad) throw new UsageError(`--data-source "${bad}" is no data source of the service${suggest(bad, known)}; srs ref sources lists them`);
  }
  if (filters.policyParameterIds?.length) {
    const known = await parameters();
    const bad = filters.policyParameterIds.find((id) => !known.has(id));
    if (bad) throw new UsageError(`--policy-parameter "${bad}" is in no scorecard of the service${suggest(bad, known)}; srs scorecards get ID lists a scorecard's parameters with their ids (srs scorecards ls gives the scorecard ids)`);
  }
}

/** A stand-in result for an id without a usable one, for its (unknown) summary row: nothing but the id. */
function noResultItem(supplierId: string): ScoreResult {
  return completeScoreResult({ supplierId });
}

/** Ids the service returned no result for join the unknown ones. */
export function withMissing(unknown: Map<string, NoResult>, missing: Missing): Map<string, NoResult> {
  for (const [id, message] of missing) unknown.set(id, { code: 'lookup_failed', message });
  return unknown;
}

/** A summary row of a supplier srs could not score says so in its LABEL ("unknown") rather than "no data". */
function marked<R extends { supplierId: string; label: string }>(row: R, unknown: ReadonlyMap<string, NoResult>): R {
  return unknown.has(row.supplierId) ? { ...row, label: 'unknown' } : row;
}

async function* mapAsync<T, R>(items: AsyncIterable<T>, fn: (item: T) => R): AsyncGenerator<R> {
  for await (const it of items) yield fn(it);
}

async function* filterAsync<T>(items: AsyncIterable<T>, keep: (item: T) => boolean): AsyncGenerator<T> {
  for await (const it of items) if (keep(it)) yield it;
}

async function* flatten<T, R>(items: AsyncIterable<T>, fn: (item: T) => Iterable<R>): AsyncGenerator<R> {
  for await (const it of items) yield* fn(it);
}
