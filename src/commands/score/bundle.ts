/**
 * The evidence bundle `score calc --save` writes and `score recompute` /
 * `score check --from|--baseline` read: the request, the raw response, the
 * scorecards (weights) that apply to each supplier, asOf and the model
 * version, so every number can be re-derived later without the service.
 * It never contains the API key. This module holds format 1 (one JSON
 * document, still read) and what both formats share; format 2 (JSON Lines
 * with a digest, written and read as a stream) is in evidence.ts.
 */
import { UNRECOGNISED_RISK } from '../../output/explanation.js';
import * as z from 'zod/mini';
import { IsoDate, Scorecard, ScoreCalculationRequest, ScoreCalculationResponse, describeZodError, type ScoreResult } from '../../api/contract.js';
import type { Scorecard as ScorecardT } from '../../api/contract.js';
import { UsageError } from '../../errors.js';
import {
  DEFAULT_CLAIM_WEIGHT,
  DEFAULT_INCLUDE_ZERO_VALUES,
  DEFAULT_MODE,
  ScoringError,
  isCalendarDate,
  resolveOptions,
  type AggregationMode,
  type ScoringOptions,
  type ScoringScorecard,
} from '../../scoring/index.js';
import type { Opts } from '../kit.js';
import { finiteNumber } from './options.js';

export const BUNDLE_KIND = 'srs.score-bundle';
/** Format 1: one JSON document, no digest (srs before format 2). Read, never written. */
export const BUNDLE_VERSION_1 = 1;

export const BundleOptions = z.object({
  includeZeroValues: z.boolean(),
  dataSourceIds: z.array(z.string()),
  policyParameterIds: z.array(z.string()),
  /** The model takes 0..1 (resolveOptions). */
  claimWeight: z.number().check(z.gte(0), z.lte(1)),
  mode: z.enum(['parameters', 'scorecards']),
});
export type BundleOptions = z.infer<typeof BundleOptions>;

/**
 * The filters the scores were calculated with, for people ("only policy parameters A, B; zero values left out"),
 * or undefined when there were none: a filtered report showed suppliers without data where they had some.
 */
export function describeFilters(o: Pick<BundleOptions, 'includeZeroValues' | 'dataSourceIds' | 'policyParameterIds'>, nameOf: (id: string) => string = (id) => id): string | undefined {
  const parts: string[] = [];
  if (o.policyParameterIds.length) parts.push(`only policy parameter${o.policyParameterIds.length === 1 ? '' : 's'} ${o.policyParameterIds.map(nameOf).join(', ')}`);
  if (o.dataSourceIds.length) parts.push(`only data source${o.dataSourceIds.length === 1 ? '' : 's'} ${o.dataSourceIds.map(nameOf).join(', ')}`);
  if (!o.includeZeroValues) parts.push('values of 0 left out');
  return parts.length ? parts.join('; ') : undefined;
}

/** What every bundle format records about itself (format 2 in its header line). */
export const bundleCommonFields = {
  kind: z.literal(BUNDLE_KIND),
  modelVersion: z.string(),
  createdAt: z.string(),
  asOf: IsoDate.check(z.refine(isCalendarDate, 'expected a real calendar date YYYY-MM-DD')),
  /**
   * Where the scores came from: the normalised base URL (null: the sandbox, or not recorded), and since
   * this srs the key's fingerprint (the catalog's: 12 hex digits that cannot reveal the key; null or absent:
   * the sandbox, or a bundle written before). A baseline from another service is refused (score check).
   */
  service: z.object({ baseUrl: z.nullable(z.string()), account: z.optional(z.nullable(z.string())) }),
  options: BundleOptions,
};

export const Bundle = z.object({
  ...bundleCommonFields,
  bundleVersion: z.literal(BUNDLE_VERSION_1),
  requests: z.array(ScoreCalculationRequest),
  response: ScoreCalculationResponse,
  /** supplierId -> ids of the scorecards that apply to it. */
  scorecards: z.record(z.string(), z.array(z.string())),
  /** scorecard id -> the scorecard as the service returned it. */
  scorecardDefinitions: z.record(z.string(), Scorecard),
});
export type Bundle = z.infer<typeof Bundle>;

/** The options a bundle records, with the model's defaults for whatever is not given. */
export function bundleOptions(given: Partial<BundleOptions> = {}): BundleOptions {
  return {
    includeZeroValues: given.includeZeroValues ?? DEFAULT_INCLUDE_ZERO_VALUES,
    dataSourceIds: given.dataSourceIds ?? [],
    policyParameterIds: given.policyParameterIds ?? [],
    claimWeight: given.claimWeight ?? DEFAULT_CLAIM_WEIGHT,
    mode: given.mode ?? DEFAULT_MODE,
  };
}

export interface ParsedEvidence {
  bundle?: Bundle;
  response?: z.infer<typeof ScoreCalculationResponse>;
  /** The score results, from the bundle or the raw response. */
  items: ScoreResult[];
}

/** The format srs writes, one record per line (BUNDLE_VERSION in evidence.ts, which imports this file). */
export const BUNDLE_VERSION_LINES = 2;
const isBundleHeader = (v: unknown): boolean => !!v && typeof v === 'object' && (v as { kind?: unknown }).kind === BUNDLE_KIND;

/** Reads a bundle from parsed JSON, or a raw score-calculation response (then scorecards come separately). */
export function parseBundleOrResponse(data: unknown, what: string): ParsedEvidence {
  // A line-per-record bundle turned into one JSON array (a tool's "pretty" output) is still not a bundle srs can trust.
  const head = Array.isArray(data) && isBundleHeader(data[0]) ? data[0] : data;
  if (isBundleHeader(head)) {
    const version = (head as { bundleVersion?: unknown }).bundleVersion;
    const known = `this srs reads format 1 (one JSON document) and format ${BUNDLE_VERSION_LINES} (one record per line, as srs writes it)`;
    if (typeof version === 'number' && Number.isInteger(version) && version > BUNDLE_VERSION_LINES) {
      throw new UsageError(`${what}: a format-${version} srs score bundle, reformatted: ${known}; upgrade srs`, { code: 'invalid_input' });
    }
    if (head !== data || version !== BUNDLE_VERSION_1) {
      const format = version === undefined ? 'without a bundleVersion' : `of format ${JSON.stringify(version)}`;
      throw new UsageError(`${what}: an srs score bundle ${format}${head !== data ? ' as one JSON array' : ''}, reformatted or not written by srs: ${known}`, { code: 'invalid_input' });
    }
    const r = Bundle.safeParse(data);
    if (!r.success) throw new UsageError(`${what}: not a valid srs score bundle: ${describeZodError(r.error)}`, { code: 'invalid_input' });
    return { bundle: r.data, items: r.data.response.items };
  }
  const asResponse = ScoreCalculationResponse.safeParse(Array.isArray(data) ? { items: data } : data);
  if (asResponse.success) return { response: asResponse.data, items: asResponse.data.items };
  throw new UsageError(`${what}: neither an srs score bundle nor a score-calculation response (${describeZodError(asResponse.error)})`, { code: 'invalid_input' });
}

/** The model's view of a service scorecard: its policy-parameter items and their weights. */
export function toScoringScorecard(card: ScorecardT): ScoringScorecard {
  const items: Array<{ policyParameterId: string; weight: number }> = [];
  for (const it of card.items ?? []) {
    // An item without a parameter id names nothing the model can score.
    if (it.type !== 'policy_parameter_item' || typeof it.policyParameter?.id !== 'string') continue;
    items.push({ policyParameterId: it.policyParameter.id, weight: typeof it.weight === 'number' ? it.weight : 1 });
  }
  return { id: card.id ?? '', ...(typeof card.name === 'string' ? { name: card.name } : {}), weight: card.weight ?? null, items };
}

/**
 * The scorecards that apply to each supplier of a bundle, in the model's form.
 * Each definition is converted once, and suppliers with the same scorecard ids
 * get the same array, so the model (whose prepared-scorecard cache is keyed on
 * the array) prepares each combination once, not once per supplier. Do not
 * change the arrays returned.
 */
export function scorecardResolver(bundle: Pick<Bundle, 'scorecards' | 'scorecardDefinitions'>): (supplierId: string) => ScoringScorecard[] {
  const byId = cardsByIds((id) => (Object.hasOwn(bundle.scorecardDefinitions, id) ? bundle.scorecardDefinitions[id]! : undefined));
  return (supplierId) => byId(Object.hasOwn(bundle.scorecards, supplierId) ? bundle.scorecards[supplierId]! : []);
}

/**
 * The model's scorecards for a list of scorecard ids, with definitions from
 * `definition` (ids without one are skipped). The same ids give the same
 * array (the model prepares each combination once); do not change it.
 */
export function cardsByIds(definition: (id: string) => ScorecardT | undefined): (ids: readonly string[]) => ScoringScorecard[] {
  const converted = new Map<string, ScoringScorecard>();
  const byIds = new Map<string, ScoringScorecard[]>();
  return (ids) => {
    const key = ids.join('\n');
    let cards = byIds.get(key);
    if (cards === undefined) {
      cards = [];
      for (const id of ids) {
        let card = converted.get(id);
        if (card === undefined) {
          const def = definition(id);
          if (def === undefined) continue;
          card = toScoringScorecard(def);
          converted.set(id, card);
        }
        cards.push(card);
      }
      byIds.set(key, cards);
    }
    return cards;
  };
}

/** The model options the score commands take as flags: --as-of, --claim-weight, --mode. */
export interface ScoringOverrides {
  asOf?: string;
  claimWeight?: number;
  mode?: AggregationMode;
}

const SCORING_FLAGS: ReadonlyArray<readonly [flag: string, key: keyof ScoringOverrides]> = [
  ['--as-of', 'asOf'],
  ['--claim-weight', 'claimWeight'],
  ['--mode', 'mode'],
];

/**
 * Reads and validates --as-of, --claim-weight and --mode before anything is
 * read or scored, with the model's own rules (resolveOptions): a value the
 * model would reject is a usage error (exit 2) naming the flag, never a
 * ScoringError at scoring time.
 */
export function scoringOverrides(opts: Opts): ScoringOverrides {
  const given: ScoringOverrides = {};
  if (opts.asOf !== undefined) given.asOf = String(opts.asOf);
  if (opts.claimWeight !== undefined) given.claimWeight = finiteNumber('--claim-weight')(opts.claimWeight);
  if (opts.mode !== undefined) given.mode = opts.mode as AggregationMode;
  for (const [flag, key] of SCORING_FLAGS) {
    if (given[key] === undefined) continue;
    try {
      resolveOptions({ [key]: given[key] } as ScoringOptions);
    } catch (e) {
      if (!(e instanceof ScoringError)) throw e;
      // The model says "claimWeight must be ..."; the user typed --claim-weight.
      const message = e.message.startsWith(`${key} `) ? `${flag} ${e.message.slice(key.length + 1)}` : `${flag}: ${e.message}`;
      throw new UsageError(message, { code: 'invalid_input' });
    }
  }
  return given;
}

/** A bundle's options with the flags' overrides applied. */
export function withOverrides(options: BundleOptions, o: ScoringOverrides): BundleOptions {
  return { ...options, claimWeight: o.claimWeight ?? options.claimWeight, mode: o.mode ?? options.mode };
}

/** Checks the options a recompute will use with the model's rules; a violation is invalid input in `what`. */
export function checkScoringOptions(options: BundleOptions, asOf: string, what: string): void {
  try {
    resolveOptions({ ...options, asOf });
  } catch (e) {
    if (e instanceof ScoringError) throw new UsageError(`${what}: ${e.message}`, { code: 'invalid_input' });
    throw e;
  }
}

/** The filters of a score calculation (--policy-parameter, --data-source, --exclude-zero-values). */
type Filters = Omit<z.infer<typeof ScoreCalculationRequest>, 'supplierIds'>;

/** Filter lists are sets: order and repetition mean nothing (a bundle saved before they were deduplicated may repeat an id). */
const sameIds = (a: readonly string[], b: readonly string[]) => {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((id) => sb.has(id));
};
const FILTERS = [
  ['--policy-parameter', 'policy parameter', 'policyParameterIds'],
  ['--data-source', 'data source', 'dataSourceIds'],
] as const;
const flagsOf = (flag: string, ids: readonly string[]) => [...new Set(ids)].map((id) => `${flag} ${id}`);
const refusal = (what: string, had: string[], wanted: string, flags: string[]) =>
  new UsageError(
    `${what} was calculated with ${had.join(', ')}, not with ${wanted}: the service applies filters when it calculates, so a saved bundle cannot be filtered afterwards; save one with them: srs score calc ID... ${flags.join(' ')}${flags.length ? ' ' : ''}--save FILE`,
    { code: 'invalid_input' },
  );

/**
 * Filters given with --from that the bundle was not calculated with: a usage
 * error (exit 2) saying what it was calculated with and how to save one with
 * them. Filters are applied by the service when it calculates (the entries a
 * result lists are those that counted under them), so a saved result cannot
 * be filtered offline exactly; gating on it unfiltered would answer another
 * question. No filter given: the bundle is read as it was calculated.
 */
export function checkFiltersMatch(recorded: BundleOptions | null, given: Filters, what: string): void {
  const flags: string[] = [];
  const had: string[] = [];
  for (const [flag, noun, key] of FILTERS) {
    const want = given[key];
    if (want === undefined) continue;
    flags.push(...flagsOf(flag, want));
    const have = recorded?.[key];
    if (have !== undefined && sameIds(want, have)) continue;
    had.push(have === undefined ? `no record of its ${noun}` : have.length ? flagsOf(flag, have).join(' ') : `every ${noun}`);
  }
  if (given.includeZeroValues === false) {
    flags.push('--exclude-zero-values');
    if (recorded?.includeZeroValues !== false) had.push(recorded ? 'zero values included' : 'no record of whether zero values were included');
  }
  if (had.length) throw refusal(what, had, flags.join(' '), flags);
}

/**
 * A gate on a bundle calculated with filters must say so: its scores are those of the filtered calculation
 * (a supplier at -0.45 overall passed --min 0 on two parameters' score, and nothing said "filter"). Given no
 * filter at all, such a bundle is refused, naming its filters to repeat; given the same ones, it is read. Given
 * only some of them (its --policy-parameter without its --data-source), it is refused the same way: the filters
 * stated are compared by checkFiltersMatch, and every filter it was calculated with must be among them.
 */
export function checkFiltersStated(recorded: BundleOptions | null, given: Filters, what: string, command: string): void {
  if (!recorded) return;
  const flags: string[] = [];
  let unstated = false;
  for (const [flag, , key] of FILTERS) {
    if (!recorded[key]?.length) continue;
    flags.push(...flagsOf(flag, recorded[key]!));
    if (given[key] === undefined) unstated = true;
  }
  if (recorded.includeZeroValues === false) {
    flags.push('--exclude-zero-values');
    if (given.includeZeroValues !== false) unstated = true;
  }
  if (!unstated) return;
  const stated = FILTERS.some(([, , key]) => given[key] !== undefined) || given.includeZeroValues === false;
  throw new UsageError(
    `${what} was calculated with ${flags.join(' ')}: its scores are those of that filtered calculation, not overall scores; to gate on them, say so with ${stated ? 'all of the same filters' : 'the same filters'}: ${command} ${flags.join(' ')}`,
    { code: 'invalid_input' },
  );
}

/** The filters a run's scores were calculated with, all of them ([]: every; zero values included unless excluded). */
export interface CalculatedWith {
  policyParameterIds: readonly string[];
  dataSourceIds: readonly string[];
  includeZeroValues: boolean;
}

/** The filters of a run from its flags: what is not given is every parameter and source, zero values included. */
export const calculatedWith = (f: Filters): CalculatedWith => ({ policyParameterIds: f.policyParameterIds ?? [], dataSourceIds: f.dataSourceIds ?? [], includeZeroValues: f.includeZeroValues ?? true });

/**
 * A --baseline must have been calculated with exactly this run's filters
 * (given or not): a score calculated with other filters answers another
 * question, so comparing it with this run's is refused (exit 2), in the words
 * of the --from check. A baseline without a record of its filters (a raw
 * response) is accepted only by a run without filters.
 */
export function checkBaselineFilters(recorded: BundleOptions | null, run: CalculatedWith, what: string): void {
  const had: string[] = [];
  const wanted: string[] = [];
  const describe = (flag: string, noun: string, ids: readonly string[]) => (ids.length ? flagsOf(flag, ids).join(' ') : `every ${noun}`);
  for (const [flag, noun, key] of FILTERS) {
    const want = run[key];
    const have = recorded?.[key];
    if (have === undefined ? !want.length : sameIds(want, have)) continue;
    had.push(have === undefined ? `no record of its ${noun}` : describe(flag, noun, have));
    wanted.push(describe(flag, noun, want));
  }
  const zero = (included: boolean) => (included ? 'zero values included' : '--exclude-zero-values');
  if (recorded ? recorded.includeZeroValues !== run.includeZeroValues : !run.includeZeroValues) {
    had.push(recorded ? zero(recorded.includeZeroValues) : 'no record of whether zero values were included');
    wanted.push(zero(run.includeZeroValues));
  }
  if (!had.length) return;
  const flags = [...FILTERS.flatMap(([flag, , key]) => flagsOf(flag, run[key])), ...(run.includeZeroValues ? [] : ['--exclude-zero-values'])];
  throw refusal(what, had, `${wanted.join(', ')} as this run is`, flags);
}

const RISK_ORDER = ['none', 'very low', 'low', 'medium', 'elevated', 'high', 'very high', 'severe', 'critical'];

/** Rank of a risk level for comparisons; unknown levels rank as undefined. */
export function riskRank(level: string | null | undefined): number | undefined {
  if (!level) return undefined;
  const i = RISK_ORDER.indexOf(level.trim().toLowerCase().replace(/[_-]+/g, ' '));
  return i < 0 ? undefined : i;
}

export const RISK_LEVELS_HELP = 'Low, Medium, High (also none, very low, elevated, very high, severe, critical)';

/** The risk levels of a supplier's parameters that riskRank does not know (each once, as sent). */
export function unrecognisedRiskLevels(item: ScoreResult): string[] {
  const out = new Set<string>();
  for (const p of item.policyParameterScores ?? []) {
    const level = p.dataPoints?.risk?.riskLevel ?? null;
    // An empty level is a level srs does not know, not "no risk": ignored, a High parameter sent as "" passed --max-risk.
    if (level !== null && riskRank(level) === undefined) out.add(level);
  }
  return [...out];
}


/**
 * A supplier's overall risk level: the highest level among its parameters'
 * risk. A level srs does not know (the document allows any string) cannot be
 * ranked, so it could be above every known one: then the supplier's level is
 * not a known one but the unrecognised levels as sent ("Extreme"; several
 * joined with ", "), never the highest known level beside them, and
 * supplierRiskRecognised says false (tables mark it: riskCell).
 */
export function supplierRiskLevel(item: ScoreResult): string | null {
  const strange = unrecognisedRiskLevels(item);
  if (strange.length) return strange.join(', ');
  let best: string | null = null;
  let bestRank = -1;
  for (const p of item.policyParameterScores ?? []) {
    const level = p.dataPoints?.risk?.riskLevel ?? null;
    if (level === null) continue;
    const r = riskRank(level)!;
    if (best === null || r > bestRank) {
      best = level;
      bestRank = r;
    }
  }
  return best;
}

/** Whether supplierRiskLevel is a level srs knows: null without one, false for levels it cannot rank. */
export function supplierRiskRecognised(item: ScoreResult): boolean | null {
  if (unrecognisedRiskLevels(item).length) return false;
  return supplierRiskLevel(item) === null ? null : true;
}

/** A supplier's risk level for people: an unrecognised one marked ("Extreme (unrecognised)"), a blank one quoted. */
export function riskCell(level: unknown, recognised: unknown): string {
  if (typeof level !== 'string') return '—';
  if (recognised !== false) return level;
  return `${level.trim() === '' ? JSON.stringify(level) : level} ${UNRECOGNISED_RISK}`;
}
