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
import { ScoringError, compareScores, entriesFromScoreResult, scoreSupplier, todayUtc, type ScoringScorecard, type SupplierScore } from '../../scoring/index.js';
import * as z from 'zod/mini';
import { readJsonInput, type Opts } from '../kit.js';
import {
  bundleOptions,
  checkScoringOptions,
  parseBundleOrResponse,
  scorecardResolver,
  scoringOverrides,
  toScoringScorecard,
  withOverrides,
  type Bundle,
  type BundleOptions,
} from './bundle.js';
import { DEFAULT_TOLERANCE, finiteNumber } from './options.js';

export { DEFAULT_TOLERANCE };

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

/**
 * Loads a bundle, or a raw response with scorecards from --scorecards (an array for everyone, or {supplierId: [...]}).
 * --as-of, --claim-weight and --mode are checked before anything is read.
 */
export async function loadEvidence(ctx: Context, file: string, opts: Opts): Promise<LoadedEvidence> {
  const overrides = scoringOverrides(opts);
  const what = file === '-' ? 'stdin' : file;
  const parsed = parseBundleOrResponse(await readJsonInput(ctx, file, what), file);
  let ev: LoadedEvidence;
  if (parsed.bundle) {
    const b = parsed.bundle;
    ev = { items: parsed.items, asOf: overrides.asOf ?? b.asOf, options: withOverrides(b.options, overrides), cardsFor: scorecardResolver(b), bundle: b };
  } else {
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
    ev = { items: parsed.items, asOf: overrides.asOf ?? todayUtc(ctx.now()), options: withOverrides(bundleOptions(), overrides), cardsFor };
  }
  checkScoringOptions(ev.options, ev.asOf, what);
  return ev;
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
  { path: 'supplierId', header: 'SUPPLIER', kind: 'id', hideIfConstant: true },
  { path: 'path', header: 'VALUE', kind: 'code' },
  { path: 'reported', header: 'REPORTED', align: 'right', format: fmt, kind: 'number' },
  { path: 'recomputed', header: 'RECOMPUTED', align: 'right', format: fmt, kind: 'number' },
  { path: 'delta', header: 'DELTA', align: 'right', format: fmt, kind: 'number', hide: 1 },
  { path: 'ok', header: 'OK', format: (v) => (v ? 'yes' : 'NO'), kind: 'state' },
];

const toleranceOption = finiteNumber('--tolerance', 0);

export function parseTolerance(v: unknown): number {
  return v === undefined ? DEFAULT_TOLERANCE : toleranceOption(v);
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const file = args[0] ?? '-';
  const tolerance = parseTolerance(opts.tolerance);
  const ev = await loadEvidence(ctx, file, opts);
  let results: Recomputed[];
  try {
    results = recomputeAll(ev);
  } catch (e) {
    // The model rejects what it cannot score (a malformed date or score in the file): invalid input, exit 2.
    if (e instanceof ScoringError) throw new UsageError(`${file === '-' ? 'stdin' : file}: ${e.message}`, { code: 'invalid_input' });
    throw e;
  }
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
