/**
 * Adapts the emulator's store to the score model (src/scoring/model.ts) and
 * the model's result to the service's score-result shape. The model is the one
 * the CLI uses offline, so the emulator and `srs score recompute` cannot drift.
 *
 * Decisions (the spec leaves them open):
 * - Unknown supplier ids in POST /v1/score-calculation are not an error: each
 *   one is answered as an item with all-null scores and empty arrays
 *   ({supplierId, score:{value:null, dataSourcesScore:{value:null},
 *   policyParametersScore:{value:null}}, dataSourceScores:[], policyParameterScores:[]}).
 *   Duplicate ids are answered once, in request order.
 * - Scores are not rounded (the model never rounds; rounding is for display).
 * - asOf is today (UTC) unless the emulator runs with a fixed clock (`asOf` option).
 * - Each policy parameter score carries dataPoints.risk (the supplier's risk
 *   data for that parameter; {riskLevel:null, riskEntries:[]} when there is
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
import { toScoreResult } from '../scoring/recompute.js';
import type { ScoringEntry, ScoringOptions, ScoringScorecard, SupplierScore } from '../scoring/types.js';
import type { ScoreCalculationRequest, ScoreResult } from '../api/contract.js';
import { SUB_INDUSTRY_BY_CODE } from './reference.js';
import type { DataEntryRec, ScorecardRec } from './records.js';
import type { Store } from './store.js';

export class EmulatorScoring {
  private readonly entryCache = new Map<string, ScoringEntry[]>();
  private readonly cardCache = new WeakMap<readonly ScorecardRec[], ScoringScorecard[]>();
  private scorecardMeans: { asOf: string; values: Map<string, number | null> } | undefined;

  constructor(
    private readonly store: Store,
    /** The date scores are calculated for, YYYY-MM-DD. */
    private readonly asOf: () => string,
  ) {}

  /** The supplier's stored entries as the model sees them (cached; seeded entries never change). */
  entriesOf(supplierId: string): ScoringEntry[] {
    let cached = this.entryCache.get(supplierId);
    if (!cached) {
      cached = this.store.entriesOf(supplierId).map(toScoringEntry);
      if (cached.length > 0) this.entryCache.set(supplierId, cached);
    }
    return cached;
  }

  /** The scorecards that apply to the supplier, as the model sees them. */
  scorecardsOf(supplierId: string): ScoringScorecard[] {
    const recs = this.store.scorecardsOf(supplierId);
    let cards = this.cardCache.get(recs);
    if (!cards) {
      cards = recs.map(toScoringScorecard);
      this.cardCache.set(recs, cards);
    }
    return cards;
  }

  score(supplierId: string, options: ScoringOptions = {}): SupplierScore {
    return scoreSupplier(supplierId, this.entriesOf(supplierId), this.scorecardsOf(supplierId), { asOf: this.asOf(), ...options });
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

  /** One POST /v1/score-calculation answer. */
  calculate(request: ScoreCalculationRequest): { items: ScoreResult[] } {
    const options: ScoringOptions = { asOf: this.asOf() };
    if (request.includeZeroValues !== undefined) options.includeZeroValues = request.includeZeroValues;
    if (request.dataSourceIds) options.dataSourceIds = request.dataSourceIds;
    if (request.policyParameterIds) options.policyParameterIds = request.policyParameterIds;
    const items: ScoreResult[] = [];
    for (const supplierId of new Set(request.supplierIds)) {
      const supplier = this.store.getSupplier(supplierId);
      if (!supplier) {
        items.push(emptyResult(supplierId));
        continue;
      }
      const result = this.score(supplierId, options);
      const contexts = supplier.industryCodes.flatMap((code) => {
        const industry = SUB_INDUSTRY_BY_CODE.get(code);
        return industry ? [{ type: 'industry', name: industry.name, code: industry.code }] : [];
      });
      // The model's own service-shaped result, plus what only the store knows: risk and industry contexts.
      const shaped = toScoreResult(result);
      items.push({
        ...shaped,
        policyParameterScores: shaped.policyParameterScores.map((pp) => {
          const risk = this.store.riskOf(supplierId, pp.policyParameterId);
          return {
            ...pp,
            dataPoints: {
              ...pp.dataPoints,
              risk: risk
                ? {
                    riskLevel: risk.riskLevel,
                    riskEntries: risk.riskEntries.map((re) => ({
                      riskDataSourceId: re.riskDataSourceId,
                      year: re.year,
                      riskIndicators: re.riskIndicators.map((ri) => ({ ...ri })),
                    })),
                  }
                : { riskLevel: null, riskEntries: [] },
              contexts: contexts.map((c) => ({ ...c })),
            },
          };
        }),
      });
    }
    return { items };
  }
}

export function emptyResult(supplierId: string): ScoreResult {
  return {
    supplierId,
    score: { value: null, dataSourcesScore: { value: null }, policyParametersScore: { value: null } },
    dataSourceScores: [],
    policyParameterScores: [],
  };
}

export function toScoringEntry(e: DataEntryRec): ScoringEntry {
  return {
    id: e.id,
    supplierId: e.supplierId,
    dataSourceId: e.dataSourceId,
    score: e.score,
    isClaim: e.isClaim,
    issueDate: e.issueDate,
    expiryDate: e.expiryDate,
    parameterScores: e.parameterScores.map((p) => ({ policyParameterId: p.policyParameterId, score: p.score })),
  };
}

export function toScoringScorecard(s: ScorecardRec): ScoringScorecard {
  return {
    id: s.id,
    name: s.name,
    weight: s.weight,
    items: s.items.map((it) => ({ policyParameterId: it.policyParameter.id, weight: it.weight })),
  };
}
