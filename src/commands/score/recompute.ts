/**
 * `srs score recompute FILE|-`: re-derives every aggregate of a saved bundle
 * (or a raw response plus --scorecards) with the local model, offline. Never
 * creates a client: no network access at all.
 */
import type { ScoreResult, Scorecard } from '../../api/contract.js';
import { Scorecard as ScorecardSchema, describeZodError } from '../../api/contract.js';
import type { Context } from '../../context.js';
import { CheckFailedError, UsageError } from '../../errors.js';
import { renderList } from '../../output/render.js';
import type { Column } from '../../output/columns.js';
import { compareScores, entriesFromScoreResult, scoreSupplier, todayUtc, type AggregationMode, type ScoringScorecard, type SupplierScore } from '../../scoring/index.js';
import { z } from 'zod';
import { readJsonInput, type Opts } from '../kit.js';
import { parseBundleOrResponse, scorecardsFor, toScoringScorecard, type Bundle, type BundleOptions } from './bundle.js';

export const DEFAULT_TOLERANCE = 0.005;

export interface Recomputed {
  supplierId: string;
  reported: ScoreResult;
  recomputed: SupplierScore;
}

export interface LoadedEvidence {
  items: ScoreResult[];
  asOf: string;
  options: BundleOptions;
  cardsFor: (supplierId: string) => ScoringScorecard[];
  bundle?: Bundle;
}

const ScorecardsInput = z.union([z.array(ScorecardSchema), z.record(z.string(), z.array(ScorecardSchema))]);

/** Loads a bundle, or a raw response with scorecards from --scorecards (an array for everyone, or {supplierId: [...]}). */
export async function loadEvidence(ctx: Context, file: string, opts: Opts): Promise<LoadedEvidence> {
  const parsed = parseBundleOrResponse(await readJsonInput(ctx, file, file === '-' ? 'stdin' : file), file);
  const overrides = optionOverrides(opts);
  if (parsed.bundle) {
    const b = parsed.bundle;
    return { items: b.response.items, asOf: overrides.asOf ?? b.asOf, options: { ...b.options, ...overrides.options }, cardsFor: (id) => scorecardsFor(b, id), bundle: b };
  }
  let cardsFor: (id: string) => ScoringScorecard[] = () => [];
  if (typeof opts.scorecards === 'string') {
    const r = ScorecardsInput.safeParse(await readJsonInput(ctx, opts.scorecards, '--scorecards'));
    if (!r.success) throw new UsageError(`--scorecards: expected a JSON array of scorecards (srs scorecards ls -o json) or {supplierId: [scorecards]}: ${describeZodError(r.error)}`, { code: 'invalid_input' });
    const data = r.data;
    if (Array.isArray(data)) {
      const all = data.map((c: Scorecard) => toScoringScorecard(c));
      cardsFor = () => all;
    } else {
      const map = new Map(Object.entries(data).map(([k, v]) => [k, v.map((c) => toScoringScorecard(c))]));
      cardsFor = (id) => map.get(id) ?? [];
    }
  } else {
    ctx.warn('a raw response without --scorecards: parameter weights are unknown, so every scored parameter weighs 1');
  }
  return {
    items: parsed.response!.items,
    asOf: overrides.asOf ?? todayUtc(ctx.now()),
    options: { includeZeroValues: true, dataSourceIds: [], policyParameterIds: [], claimWeight: 0.5, mode: 'parameters', ...overrides.options },
    cardsFor,
  };
}

function optionOverrides(opts: Opts): { asOf?: string; options: Partial<BundleOptions> } {
  const out: { asOf?: string; options: Partial<BundleOptions> } = { options: {} };
  if (typeof opts.asOf === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(opts.asOf)) throw new UsageError(`--as-of must be a date YYYY-MM-DD (got "${opts.asOf}")`);
    out.asOf = opts.asOf;
  }
  if (typeof opts.claimWeight === 'number') out.options.claimWeight = opts.claimWeight;
  if (typeof opts.mode === 'string') out.options.mode = opts.mode as AggregationMode;
  return out;
}

export function recomputeAll(ev: LoadedEvidence): Recomputed[] {
  return ev.items.map((item) => ({
    supplierId: item.supplierId,
    reported: item,
    recomputed: scoreSupplier(item.supplierId, entriesFromScoreResult(item), ev.cardsFor(item.supplierId), {
      asOf: ev.asOf,
      includeZeroValues: ev.options.includeZeroValues,
      dataSourceIds: ev.options.dataSourceIds,
      policyParameterIds: ev.options.policyParameterIds,
      claimWeight: ev.options.claimWeight,
      mode: ev.options.mode,
    }),
  }));
}

const fmt = (v: unknown) => (typeof v === 'number' ? v.toFixed(4) : v === null || v === undefined ? '—' : String(v));
const columns: Column[] = [
  { path: 'supplierId', header: 'SUPPLIER' },
  { path: 'path', header: 'VALUE' },
  { path: 'reported', header: 'REPORTED', align: 'right', format: fmt },
  { path: 'recomputed', header: 'RECOMPUTED', align: 'right', format: fmt },
  { path: 'delta', header: 'DELTA', align: 'right', format: fmt },
  { path: 'ok', header: 'OK', format: (v) => (v ? 'yes' : 'NO') },
];

export function parseTolerance(v: unknown): number {
  if (v === undefined) return DEFAULT_TOLERANCE;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`--tolerance must be a number >= 0 (got "${String(v)}")`);
  return n;
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const file = args[0] ?? '-';
  const tolerance = parseTolerance(opts.tolerance);
  const ev = await loadEvidence(ctx, file, opts);
  const results = recomputeAll(ev);
  const rows = results.flatMap((r) => compareScores(r.reported, r.recomputed, tolerance).map((d) => ({ supplierId: r.supplierId, ...d })));
  const shown = opts.onlyDifferences ? rows.filter((r) => !r.ok) : rows;
  await renderList(ctx.sink, shown, columns, ctx.renderOptions());
  const bad = rows.filter((r) => !r.ok);
  ctx.info(`recomputed ${results.length} supplier(s) as of ${ev.asOf} (mode ${ev.options.mode}, claim weight ${ev.options.claimWeight}): ${rows.length - bad.length} of ${rows.length} values agree within ${tolerance}`);
  if (opts.verify && bad.length) {
    const first = bad[0]!;
    throw new CheckFailedError(`${bad.length} value(s) differ by more than ${tolerance}; first: ${first.supplierId} ${first.path} reported ${fmt(first.reported)}, recomputed ${fmt(first.recomputed)}`);
  }
}
