/**
 * The evidence bundle `score calc --save` writes and `score recompute` /
 * `score check --from|--baseline` read: the request, the raw response, the
 * scorecards (weights) that apply to each supplier, asOf and the model
 * version, so every number can be re-derived later without the service.
 * It never contains the API key.
 */
import { z } from 'zod';
import { IsoDate, Scorecard, ScoreCalculationRequest, ScoreCalculationResponse, describeZodError, type ScoreResult } from '../../api/contract.js';
import type { Scorecard as ScorecardT } from '../../api/contract.js';
import { UsageError } from '../../errors.js';
import type { ScoringScorecard } from '../../scoring/index.js';

export const BUNDLE_KIND = 'srs.score-bundle';
export const BUNDLE_VERSION = 1;

export const BundleOptions = z.object({
  includeZeroValues: z.boolean(),
  dataSourceIds: z.array(z.string()),
  policyParameterIds: z.array(z.string()),
  claimWeight: z.number().min(0),
  mode: z.enum(['parameters', 'scorecards']),
});
export type BundleOptions = z.infer<typeof BundleOptions>;

export const Bundle = z.object({
  kind: z.literal(BUNDLE_KIND),
  bundleVersion: z.literal(BUNDLE_VERSION),
  modelVersion: z.string(),
  createdAt: z.string(),
  asOf: IsoDate,
  service: z.object({ baseUrl: z.string().nullable() }),
  options: BundleOptions,
  requests: z.array(ScoreCalculationRequest),
  response: ScoreCalculationResponse,
  /** supplierId -> ids of the scorecards that apply to it. */
  scorecards: z.record(z.string(), z.array(z.string())),
  /** scorecard id -> the scorecard as the service returned it. */
  scorecardDefinitions: z.record(z.string(), Scorecard),
});
export type Bundle = z.infer<typeof Bundle>;

/** Reads a bundle from parsed JSON, or a raw score-calculation response (then scorecards come separately). */
export function parseBundleOrResponse(data: unknown, what: string): { bundle?: Bundle; response?: z.infer<typeof ScoreCalculationResponse> } {
  if (data && typeof data === 'object' && (data as { kind?: unknown }).kind === BUNDLE_KIND) {
    const r = Bundle.safeParse(data);
    if (!r.success) throw new UsageError(`${what}: not a valid srs score bundle: ${describeZodError(r.error)}`, { code: 'invalid_input' });
    return { bundle: r.data };
  }
  const asResponse = ScoreCalculationResponse.safeParse(Array.isArray(data) ? { items: data } : data);
  if (asResponse.success) return { response: asResponse.data };
  throw new UsageError(`${what}: neither an srs score bundle nor a score-calculation response (${describeZodError(asResponse.error)})`, { code: 'invalid_input' });
}

/** The model's view of a service scorecard: its policy-parameter items and their weights. */
export function toScoringScorecard(card: ScorecardT): ScoringScorecard {
  const items: Array<{ policyParameterId: string; weight: number }> = [];
  for (const it of card.items ?? []) {
    if (it.type !== 'policy_parameter_item' || !it.policyParameter) continue;
    items.push({ policyParameterId: it.policyParameter.id, weight: typeof it.weight === 'number' ? it.weight : 1 });
  }
  return { id: card.id, name: card.name, weight: card.weight ?? null, items };
}

/** The scorecards that apply to a supplier in a bundle, in the model's form. */
export function scorecardsFor(bundle: Pick<Bundle, 'scorecards' | 'scorecardDefinitions'>, supplierId: string): ScoringScorecard[] {
  const ids = bundle.scorecards[supplierId] ?? [];
  const out: ScoringScorecard[] = [];
  for (const id of ids) {
    const def = bundle.scorecardDefinitions[id];
    if (def) out.push(toScoringScorecard(def));
  }
  return out;
}

const RISK_ORDER = ['none', 'very low', 'low', 'medium', 'elevated', 'high', 'very high', 'severe', 'critical'];

/** Rank of a risk level for comparisons; unknown levels rank as undefined. */
export function riskRank(level: string | null | undefined): number | undefined {
  if (!level) return undefined;
  const i = RISK_ORDER.indexOf(level.trim().toLowerCase().replace(/[_-]+/g, ' '));
  return i < 0 ? undefined : i;
}

export const RISK_LEVELS_HELP = 'Low, Medium, High (also none, very low, elevated, very high, severe, critical)';

/** A supplier's overall risk level: the highest level among its parameters' risk. */
export function supplierRiskLevel(item: ScoreResult): string | null {
  let best: string | null = null;
  let bestRank = -1;
  for (const p of item.policyParameterScores) {
    const level = p.dataPoints.risk?.riskLevel ?? null;
    if (!level) continue;
    const r = riskRank(level) ?? -1;
    if (best === null || r > bestRank) {
      best = level;
      bestRank = r;
    }
  }
  return best;
}
