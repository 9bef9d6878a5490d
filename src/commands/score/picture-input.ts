/**
 * What `score explain` and `score report` draw from: score results with the
 * scorecards that apply to each supplier, the names of parameters, scorecards
 * and data sources, the date and options of the calculation, and how far the
 * numbers can be trusted. From the service (a fresh calculation, recomputed
 * here), or offline from a saved bundle, read and verified record by record
 * with the same reader and verifier as `score recompute` (digest, model
 * version, completeness, conflicts, recomputation).
 */
import type { ApiClient } from '../../api/client.js';
import type { ScoreCalculationRequest, ScoreResult, Scorecard } from '../../api/contract.js';
import type { Names } from '../../api/names.js';
import type { Context } from '../../context.js';
import { ExitCode, SrsError, UsageError } from '../../errors.js';
import { compareScores, rebuildFromScoreResult, scoreSupplier, ScoringError, todayUtc } from '../../scoring/index.js';
import { mapConcurrent } from '../../util/concurrency.js';
import type { Opts } from '../kit.js';
import { bundleOptions, checkFiltersMatch, toScoringScorecard, type BundleOptions } from './bundle.js';
import { calculate, checkFilterIds, offScalePart, classifyNoScore, scorecardParameterIds, filtersFrom, unusableScorecards, scorecardsOf, withMissing, Missing, type NoResult } from './calc.js';
import type { DigestCheck } from '../../output/html-report.js';
import { count } from '../../util/plural.js';
import { DIGEST_ALGORITHM, type EvidenceEvent } from './evidence.js';
import { verifyEvidence, verifyOptions } from './recompute.js';
import { FINDING_TITLES, show, type FindingKind } from './verify.js';

export interface Trust {
  /** verified: format 2 and the digest matches; mismatch: it does not (or the end record is missing); none: no digest (format 1, or a fresh calculation). */
  digest: DigestCheck;
  /** Values compared between the service and the local model, and those further apart than the tolerance. */
  values: number;
  differing: number;
  tolerance: number;
  /** What the verifier found, most serious first (as score recompute words it). */
  findings: Array<{ kind: FindingKind; message: string }>;
  /** What was checked: a bundle is verified in full; a fresh calculation only by recomputation. */
  checked: readonly string[];
}

const BUNDLE_CHECKS = ['digest', 'model version', 'completeness', 'conflicting entries', 'recomputation'] as const;

export interface PictureInput {
  items: ScoreResult[];
  cardsFor: (supplierId: string) => Scorecard[];
  names: Names;
  asOf: string;
  options: BundleOptions;
  trust: Trust;
  /** The bundle's model version (null for a fresh calculation). */
  modelVersion: string | null;
  /** Suppliers a bundle records without a result, and why. */
  errors: Map<string, string>;
  /** A fresh calculation: suppliers the service does not know, or that srs could not find out about (GET /v1/suppliers/{id}); none for a bundle. */
  unknown: Map<string, NoResult>;
}

/** A fresh calculation: the results, the scorecards of each supplier and the names, then every value recomputed. */
export async function inputFromService(ctx: Context, client: ApiClient, ids: string[], filters: Omit<ScoreCalculationRequest, 'supplierIds'>, concurrency: number, tolerance: number): Promise<PictureInput> {
  const asOf = todayUtc(ctx.now());
  // A mistyped filter gave a confident all-"no data" picture: exit 2 with a suggestion, as score check does.
  await checkFilterIds(client, filters, () => scorecardParameterIds(client));
  const { namesWithoutSpinner } = await import('../names.js');
  const missing = new Missing();
  // One spinner for both (ora warns of concurrent spinners, twice): the scores and the names still load in parallel.
  const [{ items, unknown }, names] = await ctx.withSpinner(`Calculating scores for ${count(ids.length, 'supplier')}…`, () =>
    Promise.all([
      (async () => {
        const r = await calculate(client, ids, filters, concurrency, missing, (m) => ctx.warn(m));
        return { items: r.items, unknown: withMissing(await classifyNoScore(client, r.items, concurrency), missing) };
      })(),
      namesWithoutSpinner(ctx, client, { parameters: true, dataSources: true }),
    ]),
  );
  const cards = new Map<string, Scorecard[]>();
  await ctx.withSpinner('Fetching the scorecards that apply…', () =>
    mapConcurrent(items, concurrency, async (it) => {
      cards.set(it.supplierId, await scorecardsOf(client, it.supplierId));
    }),
  );
  const options = bundleOptions({
    includeZeroValues: filters.includeZeroValues ?? true,
    ...(filters.dataSourceIds ? { dataSourceIds: filters.dataSourceIds } : {}),
    ...(filters.policyParameterIds ? { policyParameterIds: filters.policyParameterIds } : {}),
  });
  for (const it of items) {
    const unusable = unknown.has(it.supplierId) ? undefined : unusableScorecards(it, cards.get(it.supplierId) ?? []);
    if (unusable) unknown.set(it.supplierId, unusable);
  }
  const cardsFor = (id: string) => cards.get(id) ?? [];
  let values = 0;
  let differing = 0;
  const examples: string[] = [];
  // What the verifier of a bundle calls conflicting entries (verify.ts): a parameter or data source listed twice, an
  // entry listed twice with different scores or under another source. One rebuild gives the entries and the conflicts.
  const conflicts: string[] = [];
  for (const item of items) {
    // Unknown (scorecards without an id, ...): nothing to compare, and no "differs" for what srs could not see.
    if (unknown.has(item.supplierId)) continue;
    // A score off the -3..+3 scale is the service's answer, not srs's arithmetic: it cannot be explained (exit 1),
    // where "recomputation differs" (exit 3) blamed the comparison.
    const off = offScaleScore(item);
    if (off !== undefined) throw new SrsError('bad_response', ExitCode.failure, `the service's result for supplier ${item.supplierId} cannot be explained or verified: its score ${String(off)} is outside the scale -3..+3`);
    const rebuilt = rebuildFromScoreResult(item);
    for (const c of rebuilt.conflicts) conflicts.push(`supplier ${item.supplierId}: ${c}`);
    let model: ReturnType<typeof scoreSupplier>;
    try {
      model = scoreSupplier(item.supplierId, rebuilt.entries, cardsFor(item.supplierId).map(toScoringScorecard), { ...options, asOf });
    } catch (e) {
      // The service's own answer holds what the model refuses (a score of 123 on the -3..+3 scale): one line naming
      // the supplier, exit 1 (it was "unexpected error"); `score check` calls the same supplier unknown.
      if (e instanceof ScoringError) throw new SrsError('bad_response', ExitCode.failure, `the service's result for supplier ${item.supplierId} cannot be explained or verified: ${e.message}`);
      throw e;
    }
    for (const d of compareScores(item, model, tolerance)) {
      values++;
      if (d.ok) continue;
      differing++;
      if (examples.length < 3) examples.push(`${item.supplierId} ${d.path} reported ${show(d.reported)}, recomputed ${show(d.recomputed)}`);
    }
  }
  return {
    items,
    cardsFor,
    names,
    asOf,
    options,
    modelVersion: null,
    errors: new Map(),
    unknown,
    trust: {
      digest: { state: 'none', note: 'calculated for this report, not read from a saved bundle (save one with srs score calc --save)' },
      values,
      differing,
      tolerance,
      findings: [
        ...(conflicts.length ? [{ kind: 'conflict' as const, message: `${FINDING_TITLES.conflict}: ${conflicts.slice(0, 3).join('; ')}${conflicts.length > 3 ? `; and ${conflicts.length - 3} more` : ''}` }] : []),
        ...(differing ? [{ kind: 'differs' as const, message: `recomputation differs: ${examples.join('; ')}${differing > examples.length ? `; and ${differing - examples.length} more` : ''}` }] : []),
      ],
      checked: ['conflicting entries', 'recomputation'],
    },
  };
}

/** A score in a result that is off the -3..+3 scale (overall, a parameter's or a data source's): it cannot be explained. */
export function offScaleScore(item: ScoreResult): number | undefined {
  return offScalePart(item)?.value;
}

/**
 * A saved bundle, offline. Parameter and scorecard names come from its
 * scorecard definitions; data sources stay ids. A raw score-calculation
 * response is refused: it holds neither the scorecards nor the date.
 */
export async function inputFromBundle(ctx: Context, file: string, opts: Opts): Promise<PictureInput> {
  const what = file === '-' ? 'stdin' : file;
  const vo = await verifyOptions(ctx, file, opts, what);
  const definitions = new Map<string, Scorecard>();
  const applies = new Map<string, string[]>();
  const items: ScoreResult[] = [];
  let end: Extract<EvidenceEvent, { t: 'end' }> | undefined;
  let format: 1 | 2 | 'response' | undefined;
  const v = await verifyEvidence(ctx, file, vo, () => undefined, (ev) => {
    if (ev.t === 'header') {
      if (ev.format === 'response') throw new UsageError(`${what} is a raw score-calculation response; this needs a bundle from srs score calc --save (it holds the scorecards and the date)`, { code: 'invalid_input' });
      checkFiltersMatch(ev.options, filtersFrom(opts), what);
      format = ev.format;
    } else if (ev.t === 'scorecard') definitions.set(ev.scorecard.id ?? '', ev.scorecard);
    else if (ev.t === 'result') {
      items.push(ev.item);
      applies.set(ev.item.supplierId, ev.scorecards ?? []);
    } else if (ev.t === 'end') end = ev;
  });
  let digest: DigestCheck = { state: 'none', note: 'this bundle was saved without a digest (format 1); its values are checked by recomputation only' };
  if (format === 2) {
    const declared = vo.digestFirst ? vo.digestFirst.declared : (end?.declared?.digest ?? null);
    const computed = vo.digestFirst ? vo.digestFirst.computed : (end?.computed ?? null);
    const addedAfterEnd = (vo.digestFirst?.ends ?? 0) > 1 || end?.afterEnd !== undefined;
    if (addedAfterEnd) digest = { state: 'mismatch', algorithm: DIGEST_ALGORITHM, ...(declared !== null ? { value: declared } : {}), note: 'content was added after an end record: what follows it is not what was saved' };
    else if (declared !== null && declared === computed) digest = { state: 'verified', algorithm: DIGEST_ALGORITHM, value: declared, note: 'the content matches the digest recorded when it was saved' };
    else digest = { state: 'mismatch', algorithm: DIGEST_ALGORITHM, ...(declared !== null ? { value: declared } : {}), note: declared === null ? 'the end record with the digest is missing: the file was cut short or edited' : `the content hashes to ${computed ?? '?'}: the file was changed after it was saved` };
  }
  const { namesFromScorecards } = await import('../../api/names.js');
  const { parameters, scorecards } = namesFromScorecards(definitions.values());
  const cardsFor = (id: string) => (applies.get(id) ?? []).flatMap((c) => (definitions.has(c) ? [definitions.get(c)!] : []));
  return {
    items,
    cardsFor,
    names: { parameters, scorecards, dataSources: new Map() },
    asOf: v.asOf,
    options: v.options,
    modelVersion: v.modelVersion,
    errors: v.errors,
    unknown: new Map(),
    trust: { digest, values: v.values, differing: v.valuesDiffering, tolerance: vo.tolerance, findings: v.findings(), checked: v.undigested ? BUNDLE_CHECKS.filter((c) => c !== 'digest') : BUNDLE_CHECKS },
  };
}
