/** The score model's options: their defaults and validation (docs/scoring.md, "Inputs"). */
import { isCalendarDate, todayUtc } from './dates.js';
import { ScoringError } from './errors.js';
import type { AggregationMode, ScoringOptions, SupplierScore } from './types.js';

/** Default weight of a claim (isClaim: true, self-declared). Allowed range 0..1. */
export const DEFAULT_CLAIM_WEIGHT = 0.5;
/** Default aggregation of parameter scores into policyParametersScore. */
export const DEFAULT_MODE: AggregationMode = 'parameters';
/** Default for includeZeroValues: entries whose value is 0 count. */
export const DEFAULT_INCLUDE_ZERO_VALUES = true;
/** The aggregation modes, in documentation order. */
export const AGGREGATION_MODES: ReadonlyArray<AggregationMode> = ['parameters', 'scorecards'];


/** The options with every default filled in, as recorded in SupplierScore.options. */
export type ResolvedScoringOptions = SupplierScore['options'];

/** Fills in the defaults and validates; throws a ScoringError on a bad option. */
export function resolveOptions(options: ScoringOptions = {}, now?: Date): ResolvedScoringOptions {
  let asOf: string;
  if (options.asOf === undefined || options.asOf === null) {
    asOf = todayUtc(now);
  } else {
    if (typeof options.asOf !== 'string' || !isCalendarDate(options.asOf)) {
      throw new ScoringError(`asOf must be a calendar date YYYY-MM-DD, got ${JSON.stringify(options.asOf)}`);
    }
    asOf = options.asOf;
  }
  const claimWeight = options.claimWeight ?? DEFAULT_CLAIM_WEIGHT;
  if (typeof claimWeight !== 'number' || !Number.isFinite(claimWeight) || claimWeight < 0 || claimWeight > 1) {
    throw new ScoringError(`claimWeight must be a number from 0 to 1, got ${String(claimWeight)}`);
  }
  const mode = options.mode ?? DEFAULT_MODE;
  if (mode !== 'parameters' && mode !== 'scorecards') {
    throw new ScoringError(`mode must be "parameters" or "scorecards", got ${JSON.stringify(mode)}`);
  }
  const includeZeroValues = options.includeZeroValues ?? DEFAULT_INCLUDE_ZERO_VALUES;
  if (typeof includeZeroValues !== 'boolean') {
    throw new ScoringError(`includeZeroValues must be a boolean, got ${JSON.stringify(includeZeroValues)}`);
  }
  return {
    asOf,
    includeZeroValues,
    claimWeight,
    mode,
    dataSourceIds: uniqueIds(options.dataSourceIds, 'dataSourceIds'),
    policyParameterIds: uniqueIds(options.policyParameterIds, 'policyParameterIds'),
  };
}

function uniqueIds(ids: ReadonlyArray<string> | undefined | null, what: string): string[] {
  if (ids === undefined || ids === null) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (typeof id !== 'string' || id === '') throw new ScoringError(`${what} must hold non-empty strings`);
    if (!seen.has(id)) {
      seen.add(id);
      out.push(id);
    }
  }
  return out;
}
