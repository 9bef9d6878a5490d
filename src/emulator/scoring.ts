/**
 * Adapts the emulator's store to the score model (src/scoring/) and
 * the model's result to the service's score-result shape. The model is the one
 * the CLI uses offline, so the emulator and `srs score recompute` cannot drift.
 *
 * Decisions (the spec leaves them open):
 * - No data is null here; the server leaves every such null out of the answer
 *   unless the emulator runs with --nulls (shape.ts, docs/emulator.md).
 * - Unknown supplier ids in POST /v1/score-calculation are not an error: each
 *   one is answered as an item with no score values and empty arrays
 *   ({supplierId, score:{dataSourcesScore:{}, policyParametersScore:{}},
 *   dataSourceScores:[], policyParameterScores:[]} on the wire).
 *   Duplicate ids are answered once, in request order.
 * - Scores are not rounded (the model never rounds; rounding is for display).
 * - asOf is today (UTC) unless the emulator runs with a fixed clock (`asOf` option).
 * - Each policy parameter score carries dataPoints.risk (the supplier's risk
 *   data for that parameter; {riskEntries:[]} on the wire when there is
 *   none) and dataPoints.contexts (the supplier's industries, type "industry").
 * - A supplier's averageScore (supplier detail) is the model's overall value
 *   with default options over the scorecards that apply to it: null without data.
 * - A scorecard's score: with GET /v1/scorecards?supplierId=X, X's score for
 *   that scorecard (the model's per-scorecard value); otherwise the mean of the
 *   non-null per-scorecard values over the suppliers it applies to (null if
 *   none). Cached per asOf date: seeded data never changes, and suppliers
 *   created at run time have no data entries.
 */
import { scoreSupplier } from '../scoring/model.js';
import { toScoreResult, type ScoreResultShape } from '../scoring/recompute.js';
import type { ScoringOptions, ScoringScorecard, SupplierScore } from '../scoring/types.js';
import type { ReceivedScoreResult, Risk, ScoreCalculationRequest, ScoreContext } from '../api/contract.js';
import { SUB_INDUSTRY_BY_CODE } from './reference.js';
import type { ScorecardRec } from './records.js';
import type { Store } from './store.js';

/** dataPoints.risk of a parameter the supplier has no risk data for (shared, read-only). */
const NO_RISK: Risk = Object.freeze({ riskLevel: null, riskEntries: Object.freeze([]) as never[] });
/** The same on the wire: no riskLevel (the document types it a string, so it is left out rather than null). */
const NO_RISK_WIRE: Risk = Object.freeze({ riskEntries: Object.freeze([]) as never[] });

export class EmulatorScoring {
  /** Keyed on the store's shared per-set arrays, so suppliers with the same scorecards share one entry. */
  private readonly cardCache = new WeakMap<readonly ScorecardRec[], readonly ScoringScorecard[]>();
  private scorecardMeans: { asOf: string; values: Map<string, number | null> } | undefined;

  constructor(
    private readonly store: Store,
    /** The date scores are calculated for, YYYY-MM-DD. */
    private readonly asOf: () => string,
  ) {}

  /** The scorecards that apply to the supplier, as the model sees them (frozen; one array per distinct set). */
  scorecardsOf(supplierId: string): readonly ScoringScorecard[] {
    const recs = this.store.scorecardsOf(supplierId);
    let cards = this.cardCache.get(recs);
    if (!cards) {
      cards = Object.freeze(recs.map(toScoringScorecard));
      this.cardCache.set(recs, cards);
    }
    return cards;
  }

  /**
   * The model reads the stored entries as they are (DataEntryRec fits
   * ScoringEntry; the model never changes its input, and seeded entries never
   * change), so there is no per-supplier copy.
   */
  score(supplierId: string, options: ScoringOptions = {}): SupplierScore {
    return scoreSupplier(supplierId, this.store.entriesOf(supplierId), this.scorecardsOf(supplierId), { asOf: this.asOf(), ...options });
  }

  /** averageScore of the supplier detail: the overall value, null without data. */
  averageScore(supplierId: string): number | null {
    if (this.store.entriesOf(supplierId).length === 0) return null;
    return this.score(supplierId).value;
  }

  /** The supplier's score for each scorecard that applies to it (null: no scored parameter). */
  scorecardScoresFor(supplierId: string): Map<string, number | null> {
    const out = new Map<string, number | null>();
    if (this.store.entriesOf(supplierId).length === 0) return out;
    for (const sc of this.score(supplierId).scorecards ?? []) out.set(sc.scorecardId, sc.value);
    return out;
  }

  /** The scorecard's mean score over the suppliers it applies to. */
  scorecardMean(scorecard: ScorecardRec): number | null {
    const asOf = this.asOf();
    if (this.scorecardMeans?.asOf !== asOf) {
      const sums = new Map<string, { sum: number; n: number }>();
      for (const s of this.store.seededSuppliers) {
        if (this.store.entriesOf(s.id).length === 0) continue;
        for (const sc of this.score(s.id).scorecards ?? []) {
          if (sc.value === null) continue;
          const acc = sums.get(sc.scorecardId) ?? { sum: 0, n: 0 };
          acc.sum += sc.value;
          acc.n++;
          sums.set(sc.scorecardId, acc);
        }
      }
      const values = new Map<string, number | null>();
      for (const sc of this.store.scorecards) {
        const acc = sums.get(sc.id);
        values.set(sc.id, acc && acc.n > 0 ? acc.sum / acc.n : null);
      }
      this.scorecardMeans = { asOf, values };
    }
    return this.scorecardMeans.values.get(scorecard.id) ?? null;
  }

  /**
   * One POST /v1/score-calculation answer. Built in its final form (the hot
   * path: walking 100 results through shape.ts cost ~30% more per request):
   * spec-strict by default, no data left out; with `nulls`, no data as null
   * (srs emulator start --nulls).
   */
  calculate(request: ScoreCalculationRequest, nulls = false): { items: ReceivedScoreResult[] } {
    const options: ScoringOptions = { asOf: this.asOf() };
    if (request.includeZeroValues !== undefined) options.includeZeroValues = request.includeZeroValues;
    if (request.dataSourceIds) options.dataSourceIds = request.dataSourceIds;
    if (request.policyParameterIds) options.policyParameterIds = request.policyParameterIds;
    const items: ReceivedScoreResult[] = [];
    for (const supplierId of new Set(request.supplierIds)) {
      const supplier = this.store.getSupplier(supplierId);
      if (!supplier) {
        items.push(emptyResult(supplierId, nulls));
        continue;
      }
      const result = this.score(supplierId, options);
      const contexts: readonly ScoreContext[] = supplier.industryCodes.flatMap((code) => {
        const industry = SUB_INDUSTRY_BY_CODE.get(code);
        return industry ? [{ type: 'industry', name: industry.name, code: industry.code }] : [];
      });
      // The model's own service-shaped result (freshly built, ours to complete), plus what only the
      // store knows: risk and industry contexts. The answer is serialised at once and never changed,
      // so every parameter shares the supplier's contexts and the store's risk records (whose fields
      // are exactly the wire shape: riskLevel, riskEntries[{riskDataSourceId, year, riskIndicators}]).
      const shaped = nulls ? toScoreResult(result) : toWire(toScoreResult(result));
      for (const pp of shaped.policyParameterScores) {
        Object.assign(pp.dataPoints, { risk: this.store.riskOf(supplierId, pp.policyParameterId) ?? (nulls ? NO_RISK : NO_RISK_WIRE), contexts: contexts as ScoreContext[] });
      }
      items.push(shaped);
    }
    return { items };
  }
}

export function emptyResult(supplierId: string, nulls = false): ReceivedScoreResult {
  return {
    supplierId,
    score: nulls ? { value: null, dataSourcesScore: { value: null }, policyParametersScore: { value: null } } : { dataSourcesScore: {}, policyParametersScore: {} },
    dataSourceScores: [],
    policyParameterScores: [],
  };
}

/** A score value on the wire: { value } for a number, {} for no data (never null). */
const wireValue = (value: number | null | undefined): { value?: number } => (value === null || value === undefined ? {} : { value });

/**
 * toScoreResult's answer (src/scoring/recompute.ts) in wire form, in place (it
 * is freshly built): score values without a number become {}, entry dates
 * that are null are left out.
 */
function toWire(r: ScoreResultShape): ScoreResultShape {
  const score = r.score as Record<string, unknown>;
  if (r.score.value === null) delete score.value;
  score.dataSourcesScore = wireValue(r.score.dataSourcesScore.value);
  score.policyParametersScore = wireValue(r.score.policyParametersScore.value);
  for (const part of [...r.dataSourceScores, ...r.policyParameterScores]) {
    if (part.score.value === null) part.score = wireValue(null) as { value: number | null };
    for (const e of part.dataPoints.dataEntries) {
      if (e.issueDate === null) delete (e as Partial<typeof e>).issueDate;
      if (e.expiryDate === null) delete (e as Partial<typeof e>).expiryDate;
    }
  }
  return r;
}

export function toScoringScorecard(s: ScorecardRec): ScoringScorecard {
  return {
    id: s.id,
    name: s.name,
    weight: s.weight,
    items: s.items.map((it) => ({ policyParameterId: it.policyParameter.id, weight: it.weight })),
  };
}
