/**
 * One supplier's score explained, as plain data for `score explain` (a
 * terminal picture, or -o json) and `score report` (HTML): the service's
 * overall score; each scorecard with the local model's score for it
 * (src/scoring) and its parameters with their weights, scores and entry
 * counts; the data sources; and the evidence that has expired or expires
 * soon. Names come from the scorecards' definitions and the data-source list.
 */
import type { ScoreResult, Scorecard } from '../../api/contract.js';
import type { Names } from '../../api/names.js';
import { MODEL_VERSION, compareScores, duplicatedScores, entriesFromScoreResult, scoreLabel, scoreSupplier, showNumber } from '../../scoring/index.js';
import type { ExpiringEntry, ExplainedParameter, ExplainedScorecard, Explanation } from '../../output/explanation.js';
import { riskRank, supplierRiskLevel, supplierRiskRecognised, toScoringScorecard, type BundleOptions } from './bundle.js';

export type { Explanation };
export const DEFAULT_EXPIRING_DAYS = 90;
/** The label of a parameter or data source the result lists more than once (its score is null: srs cannot tell which copy counts). */
export const CONFLICTING = 'conflicting';

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

function expiringEntries(item: ScoreResult, asOf: string, withinDays: number, names: Names): ExpiringEntry[] {
  const byId = new Map<string, ExpiringEntry>();
  const consider = (e: ScoreResult['dataSourceScores'][number]['dataPoints']['dataEntries'][number], parameterId?: string) => {
    const expiry = e.expiryDate ? e.expiryDate.slice(0, 10) : null;
    if (!expiry || Number.isNaN(Date.parse(`${expiry}T00:00:00Z`))) return;
    const daysLeft = daysBetween(asOf, expiry);
    if (daysLeft > withinDays) return;
    let x = byId.get(e.id);
    if (!x) {
      x = { entryId: e.id, dataSourceId: e.dataSourceId, dataSourceName: names.dataSources.get(e.dataSourceId) ?? null, expiryDate: expiry, daysLeft, status: daysLeft < 0 ? 'expired' : 'expiring', isClaim: e.isClaim, policyParameterIds: [] };
      byId.set(e.id, x);
    }
    if (parameterId && !x.policyParameterIds.includes(parameterId)) x.policyParameterIds.push(parameterId);
  };
  for (const ds of item.dataSourceScores) for (const e of ds.dataPoints.dataEntries) consider(e);
  for (const p of item.policyParameterScores) for (const e of p.dataPoints.dataEntries) consider(e, p.policyParameterId);
  return [...byId.values()].sort((a, b) => a.daysLeft - b.daysLeft || a.entryId.localeCompare(b.entryId));
}

/**
 * Explains one score result. `cards` are the scorecards that apply to the
 * supplier (service definitions); `options` the calculation's filters and
 * the model's settings, as a bundle records them.
 */
export function explain(item: ScoreResult, cards: readonly Scorecard[], names: Names, asOf: string, options: BundleOptions, withinDays = DEFAULT_EXPIRING_DAYS): Explanation {
  const model = scoreSupplier(item.supplierId, entriesFromScoreResult(item), cards.map(toScoringScorecard), {
    asOf,
    includeZeroValues: options.includeZeroValues,
    dataSourceIds: options.dataSourceIds,
    policyParameterIds: options.policyParameterIds,
    claimWeight: options.claimWeight,
    mode: options.mode,
  });
  const expiring = expiringEntries(item, asOf, withinDays, names);
  const expiringPer = new Map<string, number>();
  for (const e of expiring) for (const p of e.policyParameterIds) expiringPer.set(p, (expiringPer.get(p) ?? 0) + 1);
  // A parameter or data source listed more than once: srs cannot tell which copy counts, so it shows none of them as the value.
  const conflicts = duplicatedScores(item);
  const twice = <T>(list: readonly T[], key: (x: T) => string) => {
    const seen = new Set<string>();
    const out = new Set<string>();
    for (const x of list) (seen.has(key(x)) ? out : seen).add(key(x));
    return out;
  };
  const twiceParams = twice(item.policyParameterScores, (p) => p.policyParameterId);
  const twiceSources = twice(item.dataSourceScores, (d) => d.dataSourceId);
  const reported = new Map(item.policyParameterScores.filter((p) => !twiceParams.has(p.policyParameterId)).map((p) => [p.policyParameterId, p]));
  const parameter = (id: string, weight: number | null, cardName?: string): ExplainedParameter => {
    const p = reported.get(id);
    const score = p ? p.score.value : null;
    const riskLevel = p?.dataPoints.risk?.riskLevel ?? null;
    if (twiceParams.has(id)) {
      return { policyParameterId: id, name: names.parameters.get(id) ?? cardName ?? null, weight, score: null, label: CONFLICTING, riskLevel: null, riskRecognised: null, entries: 0, expiringEntries: 0 };
    }
    return {
      policyParameterId: id,
      name: names.parameters.get(id) ?? cardName ?? null,
      weight,
      score,
      label: scoreLabel(score),
      riskLevel,
      // An empty level is one srs cannot rank, as the gate and the breakdown take it (fail closed), not "no risk".
      riskRecognised: riskLevel !== null ? riskRank(riskLevel) !== undefined : null,
      entries: p ? p.dataPoints.dataEntries.length : 0,
      expiringEntries: expiringPer.get(id) ?? 0,
    };
  };
  const modelCards = new Map((model.scorecards ?? []).map((s) => [s.scorecardId, s]));
  const inCards = new Set<string>();
  const scorecards = cards.map((card): ExplainedScorecard => {
    const value = modelCards.get(card.id ?? '')?.value ?? null;
    const parameters: ExplainedParameter[] = [];
    for (const it of card.items ?? []) {
      if (it.type !== 'policy_parameter_item' || typeof it.policyParameter?.id !== 'string') continue;
      inCards.add(it.policyParameter.id);
      parameters.push(parameter(it.policyParameter.id, typeof it.weight === 'number' ? it.weight : 1, it.policyParameter.name ?? undefined));
    }
    return { scorecardId: card.id ?? '', name: names.scorecards.get(card.id ?? '') ?? card.name ?? null, weight: card.weight ?? null, score: value, label: scoreLabel(value), parameters };
  });
  const otherIds = new Set(item.policyParameterScores.filter((p) => !inCards.has(p.policyParameterId)).map((p) => p.policyParameterId));
  const otherParameters = [...otherIds].map((id) => parameter(id, null));
  const sourceIds = new Set(item.dataSourceScores.map((ds) => ds.dataSourceId));
  const sources = new Map(item.dataSourceScores.map((ds) => [ds.dataSourceId, ds]));
  const value = item.score.value;
  // Every value the picture shows, not the overall score alone: parameter scores raised by 1 under an unchanged overall
  // score were drawn under "agrees", beside weights and scores whose mean contradicted the scorecard's.
  const differences = compareScores(item, model, 1e-6)
    .filter((r) => !r.ok)
    .map((r) => `${r.path} ${r.reported === null ? 'no value' : showNumber(r.reported, 4)} (the model: ${r.recomputed === null ? 'no value' : showNumber(r.recomputed, 4)})`);
  const agrees = differences.length === 0;
  return {
    supplierId: item.supplierId,
    asOf,
    modelVersion: MODEL_VERSION,
    score: {
      value,
      label: scoreLabel(value),
      dataSourcesScore: item.score.dataSourcesScore.value,
      policyParametersScore: item.score.policyParametersScore.value,
      riskLevel: supplierRiskLevel(item),
      riskRecognised: supplierRiskRecognised(item),
    },
    model: { value: model.value, agrees, differences },
    scorecards,
    otherParameters,
    dataSources: [...sourceIds].map((id) => {
      const ds = sources.get(id)!;
      const name = names.dataSources.get(id) ?? null;
      return twiceSources.has(id) ? { dataSourceId: id, name, score: null, label: CONFLICTING, entries: 0 } : { dataSourceId: id, name, score: ds.score.value, label: scoreLabel(ds.score.value), entries: ds.dataPoints.dataEntries.length };
    }),
    conflicts,
    expiring: { withinDays, entries: expiring },
  };
}
