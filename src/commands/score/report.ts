/**
 * `srs score report (BUNDLE | IDS...) --html FILE`: one self-contained HTML
 * file (src/output/html-report.ts) with the overall scores and their
 * distribution, per-parameter breakdowns with names, expiring evidence, and
 * how the evidence was verified: the bundle's digest when it has one, and a
 * recomputation of every value with the local model.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { DigestCheck, RecomputeCheck } from '../../output/html-report.js';
import { compareScores, entriesFromScoreResult, MODEL_VERSION, scoreSupplier } from '../../scoring/index.js';
import { readJsonInput, type Opts } from '../kit.js';
import { filtersFrom, DEFAULT_CONCURRENCY } from './calc.js';
import { parseBundleOrResponse, toScoringScorecard } from './bundle.js';
import { explain } from './explanation.js';
import { expiringDays } from './explain.js';
import { evidenceFromBundle, evidenceFromService, type Evidence } from './picture-input.js';
import { gatherIds } from './ids.js';
import { DEFAULT_TOLERANCE, finiteNumber } from './options.js';

const fmt = (v: number | null) => (v === null ? 'null' : String(Math.round(v * 1e6) / 1e6));

/** Recomputes every value of every result with the local model and counts those within the tolerance. */
export function recomputeCheck(ev: Evidence, tolerance: number): RecomputeCheck {
  let agree = 0;
  let total = 0;
  const differences: string[] = [];
  for (const item of ev.items) {
    const model = scoreSupplier(item.supplierId, entriesFromScoreResult(item), ev.cardsFor(item.supplierId).map(toScoringScorecard), { asOf: ev.asOf, ...ev.options });
    for (const d of compareScores(item, model, tolerance)) {
      total++;
      if (d.ok) agree++;
      else if (differences.length < 10) differences.push(`${item.supplierId} ${d.path}: reported ${fmt(d.reported)}, recomputed ${fmt(d.recomputed)}`);
    }
  }
  return { agree, total, tolerance, differences };
}

/**
 * The digest of a bundle as `score calc --save` records it. Bundles written
 * before digests existed have none: that is said, never passed off as verified.
 */
function digestCheck(raw: unknown): DigestCheck {
  const given = raw && typeof raw === 'object' ? (raw as { digest?: unknown }).digest : undefined;
  if (given === undefined) return { state: 'none', note: 'this bundle was saved without a digest; the values below are checked by recomputation only' };
  return { state: 'none', note: 'this bundle carries a digest this version of srs cannot check; the values below are checked by recomputation only' };
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const out = opts.html;
  if (typeof out !== 'string' || out === '') throw new UsageError('--html FILE is required (the report to write; - for stdout)');
  const withinDays = expiringDays(opts.expiringWithin);
  const tolerance = opts.tolerance === undefined ? DEFAULT_TOLERANCE : finiteNumber('--tolerance', 0)(opts.tolerance);
  const fromBundle = args.length === 1 && opts.idsFile === undefined && (args[0] === '-' || existsSync(args[0]!));
  let ev: Evidence;
  let source: string;
  let digest: DigestCheck;
  if (fromBundle) {
    const file = args[0]!;
    const what = file === '-' ? 'stdin' : file;
    const raw = await readJsonInput(ctx, file, what);
    const parsed = parseBundleOrResponse(raw, what);
    if (!parsed.bundle) throw new UsageError(`${what} is a raw score-calculation response; a report needs a bundle from srs score calc --save (it holds the scorecards and the date)`, { code: 'invalid_input' });
    ev = await evidenceFromBundle(parsed.bundle);
    source = `the bundle ${file === '-' ? 'read from stdin' : basename(file)} (saved ${parsed.bundle.createdAt})`;
    digest = digestCheck(raw);
  } else {
    const ids = await gatherIds(ctx, args, opts.idsFile);
    const concurrency = typeof opts.concurrency === 'number' ? opts.concurrency : DEFAULT_CONCURRENCY;
    const client = await ctx.client({ connections: concurrency });
    ev = await evidenceFromService(ctx, client, ids, filtersFrom(opts), concurrency);
    const baseUrl = ctx.sandbox ? null : ((await ctx.settings()).baseUrl ?? null);
    source = baseUrl ? `the service at ${baseUrl}` : 'the sandbox emulator';
    digest = { state: 'none', note: 'calculated for this report, not read from a saved bundle (save one with srs score calc --save)' };
  }
  const explanations = ev.items.map((item) => explain(item, ev.cardsFor(item.supplierId), ev.names, ev.asOf, ev.options, withinDays));
  const recompute = recomputeCheck(ev, tolerance);
  const { renderHtmlReport } = await import('../../output/html-report.js');
  const html = renderHtmlReport({
    title: typeof opts.title === 'string' && opts.title ? opts.title : 'Supplier score report',
    generatedAt: ctx.now().toISOString(),
    source,
    asOf: ev.asOf,
    modelVersion: ev.bundle?.modelVersion && ev.bundle.modelVersion !== MODEL_VERSION ? `${MODEL_VERSION} (bundle saved with ${ev.bundle.modelVersion})` : MODEL_VERSION,
    explanations,
    digest,
    recompute,
  });
  if (out === '-') await ctx.sink.write(html);
  else {
    const { writeFileAtomic } = await import('../../util/fs.js');
    await writeFileAtomic(out, html, { mode: 0o666 });
  }
  const expiring = explanations.reduce((n, x) => n + x.expiring.entries.length, 0);
  if (recompute.agree !== recompute.total) ctx.warn(`${recompute.total - recompute.agree} of ${recompute.total} value(s) differ from the local model's recomputation (listed in the report)`);
  ctx.info(`wrote ${out === '-' ? 'the report to stdout' : out} (${explanations.length} supplier(s) as of ${ev.asOf}; ${expiring} evidence entr${expiring === 1 ? 'y' : 'ies'} expired or expiring within ${withinDays} days; digest: ${digest.state === 'none' ? 'no digest' : digest.state})`);
}
