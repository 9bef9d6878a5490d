import type { ScoreCalculationRequest, ScoreResult, Scorecard } from '../../api/contract.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { MODEL_VERSION, todayUtc } from '../../scoring/index.js';
import { renderList } from '../../output/render.js';
import { chunk, mapConcurrent } from '../../util/concurrency.js';
import { writeFileAtomic } from '../../util/fs.js';
import type { Opts } from '../kit.js';
import { BUNDLE_KIND, BUNDLE_VERSION, bundleOptions, type Bundle } from './bundle.js';
import { breakdownRows, breakdownColumns, summaryColumns, summaryRow, type Breakdown } from './view.js';
import { gatherIds } from './ids.js';

export const BATCH_SIZE = 100;
/** Batches in flight (score calc --concurrency; score check uses it as is). */
export const DEFAULT_CONCURRENCY = 8;

export interface CalcResult {
  requests: ScoreCalculationRequest[];
  items: ScoreResult[];
}

/**
 * Sends the ids in batches of at most 100 with at most `concurrency` batches
 * outstanding, and yields the results in input order as soon as the earliest
 * batch is in. Memory is bounded by the window, not by the number of ids.
 */
export async function* calculateInOrder(ctx: Context, client: ApiClient, requests: ScoreCalculationRequest[], concurrency: number): AsyncGenerator<ScoreResult> {
  const pending: Array<Promise<ScoreResult[]> | undefined> = [];
  let started = 0;
  let consumed = 0;
  const fill = () => {
    while (started < requests.length && started - consumed < concurrency) {
      const p = client.calculateScores(requests[started]!).then((r) => r.items);
      p.catch(() => undefined); // surfaced when its turn comes
      pending[started++] = p;
    }
  };
  const missing: string[] = [];
  fill();
  for (let i = 0; i < requests.length; i++) {
    const items = await pending[i]!;
    pending[i] = undefined;
    consumed++;
    fill();
    const byId = new Map<string, ScoreResult>();
    for (const item of items) if (!byId.has(item.supplierId)) byId.set(item.supplierId, item);
    for (const id of requests[i]!.supplierIds) {
      const it = byId.get(id);
      if (it) yield it;
      else missing.push(id);
    }
  }
  if (missing.length) ctx.warn(`the service returned no result for ${missing.length} supplier id(s): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`);
}

/** The requests for a list of ids: batches of at most 100, each with the same filters. */
export function batchRequests(ids: string[], filters: Omit<ScoreCalculationRequest, 'supplierIds'>): ScoreCalculationRequest[] {
  return chunk(ids, BATCH_SIZE).map((supplierIds) => ({ supplierIds, ...filters }));
}

/** All results, in input order (for commands that need them together). */
export async function calculate(ctx: Context, client: ApiClient, ids: string[], filters: Omit<ScoreCalculationRequest, 'supplierIds'>, concurrency: number): Promise<CalcResult> {
  const requests = batchRequests(ids, filters);
  const items: ScoreResult[] = [];
  for await (const it of calculateInOrder(ctx, client, requests, concurrency)) items.push(it);
  return { requests, items };
}

export function filtersFrom(opts: Opts): Omit<ScoreCalculationRequest, 'supplierIds'> {
  const list = (v: unknown) => (Array.isArray(v) && v.length ? (v as string[]) : undefined);
  const f: Omit<ScoreCalculationRequest, 'supplierIds'> = {};
  const pp = list(opts.policyParameter);
  const ds = list(opts.dataSource);
  if (pp) f.policyParameterIds = pp;
  if (ds) f.dataSourceIds = ds;
  if (opts.excludeZeroValues) f.includeZeroValues = false;
  return f;
}

/** The scorecards that apply to each supplier, fetched with GET /v1/scorecards?supplierId=. */
export async function fetchScorecards(client: ApiClient, ids: string[], concurrency: number): Promise<Pick<Bundle, 'scorecards' | 'scorecardDefinitions'>> {
  const scorecards: Record<string, string[]> = {};
  const scorecardDefinitions: Record<string, Scorecard> = {};
  await mapConcurrent(ids, concurrency, async (id) => {
    const mine: string[] = [];
    for await (const page of client.listScorecards({ supplierId: id })) {
      for (const card of page.items) {
        mine.push(card.id);
        scorecardDefinitions[card.id] ??= card;
      }
    }
    scorecards[id] = mine;
  });
  return { scorecards, scorecardDefinitions };
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const ids = await gatherIds(ctx, args, opts.idsFile);
  const filters = filtersFrom(opts);
  const concurrency = typeof opts.concurrency === 'number' ? opts.concurrency : DEFAULT_CONCURRENCY;
  const client = await ctx.client({ connections: concurrency });
  const asOf = todayUtc(ctx.now());
  if (typeof opts.save !== 'string' && !opts.breakdown && (ctx.format === 'json' || ctx.format === 'ndjson')) {
    // Scripts get each result as soon as its batch (and every earlier one) is in.
    await renderList(ctx.sink, calculateInOrder(ctx, client, batchRequests(ids, filters), concurrency), [], ctx.renderOptions());
    return;
  }
  const { requests, items } = await ctx.withSpinner(`Calculating scores for ${ids.length} supplier(s)…`, () => calculate(ctx, client, ids, filters, concurrency));

  if (typeof opts.save === 'string') {
    const cards = await ctx.withSpinner('Fetching the scorecards that apply…', () => fetchScorecards(client, items.map((i) => i.supplierId), concurrency));
    const bundle: Bundle = {
      kind: BUNDLE_KIND,
      bundleVersion: BUNDLE_VERSION,
      modelVersion: MODEL_VERSION,
      createdAt: ctx.now().toISOString(),
      asOf,
      service: { baseUrl: ctx.sandbox ? null : ((await ctx.settings()).baseUrl ?? null) },
      options: bundleOptions(filters),
      requests,
      response: { items },
      ...cards,
    };
    // Readable like any file the user writes (0666 less the umask); it never holds the API key.
    await writeFileAtomic(opts.save, JSON.stringify(bundle, null, 2) + '\n', { mode: 0o666 });
    ctx.info(`saved the evidence bundle to ${opts.save} (${items.length} supplier(s), as of ${asOf})`);
  }

  const breakdown = opts.breakdown as Breakdown | undefined;
  if (breakdown) {
    await renderList(ctx.sink, breakdownRows(items, breakdown), breakdownColumns[breakdown], ctx.renderOptions());
    return;
  }
  if (ctx.format === 'table' || ctx.format === 'csv') {
    await renderList(ctx.sink, items.map(summaryRow), summaryColumns, ctx.renderOptions());
    return;
  }
  await renderList(ctx.sink, items, [], ctx.renderOptions());
}
