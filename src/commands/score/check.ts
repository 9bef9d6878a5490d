/**
 * `srs score check`: the CI gate. Scores come from the service (ids) or offline
 * from a bundle (--from). Exit 0 when every supplier passes, 3 when any fails,
 * 1 on errors. Failing suppliers are listed on stderr one line each (and as
 * GitHub annotations under GITHUB_ACTIONS=true); stdout carries the results.
 */
import { writeFileSync } from 'node:fs';
import type { ScoreResult } from '../../api/contract.js';
import type { Context } from '../../context.js';
import { CheckFailedError, UsageError } from '../../errors.js';
import type { Column } from '../../output/columns.js';
import { renderList } from '../../output/render.js';
import { todayUtc } from '../../scoring/index.js';
import { readJsonInput, type Opts } from '../kit.js';
import { parseBundleOrResponse, riskRank, RISK_LEVELS_HELP } from './bundle.js';
import { calculate, DEFAULT_CONCURRENCY, filtersFrom } from './calc.js';
import { evaluate, type CheckResult, type CheckRules } from './evaluate.js';
import { gatherIds } from './ids.js';
import { githubAnnotation, junitReport } from './junit.js';
import { finiteNumber, optionalNumber } from './options.js';

const minOption = finiteNumber('--min');
const expiringWithinOption = finiteNumber('--expiring-within');
const maxDropOption = finiteNumber('--max-drop', 0);

export async function rulesFrom(ctx: Context, opts: Opts, asOf: string): Promise<CheckRules> {
  const minParameter = new Map<string, number>();
  for (const spec of (opts.minParameter as string[] | undefined) ?? []) {
    const m = /^(.+)=(.+)$/.exec(spec);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(v)) throw new UsageError(`--min-parameter takes ID=N, e.g. 01fb6pb5wmkmq6pdyqas1n2k3m=1.5 (got "${spec}")`);
    minParameter.set(m[1]!.trim(), v);
  }
  const rules: CheckRules = { minParameter, requireScore: !!opts.requireScore, asOf };
  const min = optionalNumber(opts.min, minOption);
  if (min !== undefined) rules.min = min;
  if (typeof opts.maxRisk === 'string') {
    if (riskRank(opts.maxRisk) === undefined) throw new UsageError(`--max-risk must be a risk level: ${RISK_LEVELS_HELP} (got "${opts.maxRisk}")`);
    rules.maxRisk = opts.maxRisk;
  }
  if (opts.expiringWithin !== undefined) {
    const d = expiringWithinOption(opts.expiringWithin);
    if (!Number.isInteger(d) || d < 0) throw new UsageError('--expiring-within takes a whole number of days >= 0');
    rules.expiringWithinDays = d;
  }
  const maxDrop = optionalNumber(opts.maxDrop, maxDropOption);
  if ((maxDrop === undefined) !== (opts.baseline === undefined)) throw new UsageError('--baseline FILE and --max-drop N go together');
  if (maxDrop !== undefined && typeof opts.baseline === 'string') {
    const { items } = parseBundleOrResponse(await readJsonInput(ctx, opts.baseline, '--baseline'), opts.baseline);
    rules.baseline = new Map(items.map((i) => [i.supplierId, i.score?.value ?? null]));
    rules.maxDrop = maxDrop;
  }
  if (rules.min === undefined && !minParameter.size && rules.maxRisk === undefined && rules.expiringWithinDays === undefined && !rules.baseline && !rules.requireScore) {
    throw new UsageError('no threshold given: use --min, --min-parameter, --max-risk, --expiring-within, --baseline with --max-drop, or --require-score');
  }
  return rules;
}

const columns: Column[] = [
  { path: 'supplierId', header: 'SUPPLIER' },
  { path: 'status', header: 'STATUS', format: (v) => String(v).toUpperCase() },
  { path: 'score', header: 'SCORE', align: 'right', format: (v) => (typeof v === 'number' ? v.toFixed(2) : '—') },
  { path: 'riskLevel', header: 'RISK', format: (v) => (typeof v === 'string' ? v : '—') },
  { path: 'reasons', header: 'REASONS' },
];

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const started = performance.now();
  let items: ScoreResult[];
  let rules: CheckRules;
  if (typeof opts.from === 'string') {
    if (args.length || opts.idsFile !== undefined) throw new UsageError('--from checks a saved bundle offline; do not also give supplier ids');
    const parsed = parseBundleOrResponse(await readJsonInput(ctx, opts.from, '--from'), opts.from);
    items = parsed.items;
    rules = await rulesFrom(ctx, opts, parsed.bundle?.asOf ?? todayUtc(ctx.now()));
  } else {
    // Every usage error surfaces before anything is sent.
    const ids = await gatherIds(ctx, args, opts.idsFile);
    rules = await rulesFrom(ctx, opts, todayUtc(ctx.now()));
    const client = await ctx.client();
    items = (await ctx.withSpinner(`Calculating scores for ${ids.length} supplier(s)…`, () => calculate(ctx, client, ids, filtersFrom(opts), DEFAULT_CONCURRENCY))).items;
  }
  const results: CheckResult[] = items.map((i) => evaluate(i, rules));
  await renderList(ctx.sink, results, columns, ctx.renderOptions());

  const failed = results.filter((r) => r.status === 'fail');
  const noData = results.filter((r) => r.status === 'no data');
  for (const r of failed) ctx.stderr(`FAIL ${r.supplierId}: ${r.reasons.join('; ')}`);
  for (const r of noData) ctx.stderr(`NO DATA ${r.supplierId}: ${r.reasons.join('; ')} (fails only with --require-score)`);
  if (ctx.env.GITHUB_ACTIONS === 'true') for (const r of failed) ctx.io.stderr.write(githubAnnotation(r) + '\n');
  if (typeof opts.junit === 'string') {
    writeFileSync(opts.junit, junitReport(results, { timestamp: ctx.now().toISOString(), seconds: (performance.now() - started) / 1000 }));
  }
  const passed = results.length - failed.length - noData.length;
  ctx.info(`checked ${results.length} supplier(s) as of ${rules.asOf}: ${passed} passed, ${failed.length} failed, ${noData.length} without data`);
  if (failed.length) throw new CheckFailedError(`${failed.length} of ${results.length} supplier(s) failed the score check`);
}
