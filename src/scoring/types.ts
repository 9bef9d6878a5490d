/**
 * Inputs and outputs of the score model. Pure data: no imports from api/, cli
 * or anything that does I/O. The emulator and `srs score recompute` adapt the
 * service's shapes to these.
 */

/** A data entry as the model sees it. Scores are on the absolute scale -3..+3. */
export interface ScoringEntry {
  id: string;
  supplierId: string;
  dataSourceId: string;
  /** The entry's own score: what a data source's score averages. */
  score: number;
  /** Self-declared (true) or verified (false). */
  isClaim: boolean;
  /** Calendar dates YYYY-MM-DD; absent or null means open-ended on that side. */
  issueDate?: string | null;
  expiryDate?: string | null;
  /** The entry's score for each policy parameter it informs. */
  parameterScores: ReadonlyArray<{ policyParameterId: string; score: number }>;
}

/** A scorecard as the model sees it: weighted policy parameters. */
export interface ScoringScorecard {
  id: string;
  name?: string;
  /** The scorecard's own weight (used only by mode "scorecards" if documented so). */
  weight?: number | null;
  items: ReadonlyArray<{ policyParameterId: string; weight: number }>;
}

export type AggregationMode = 'parameters' | 'scorecards';

export interface ScoringOptions {
  /** Calendar date YYYY-MM-DD the validity window is checked against. Default: today (UTC). */
  asOf?: string;
  /** false drops entries whose value is 0. Default true. */
  includeZeroValues?: boolean;
  /** Restrict to these data sources (absent or empty: all). */
  dataSourceIds?: ReadonlyArray<string>;
  /** Restrict to these policy parameters (absent or empty: all). */
  policyParameterIds?: ReadonlyArray<string>;
  /** Weight of a claim (isClaim: true). Default 0.5. Verified entries weigh 1. */
  claimWeight?: number;
  /** How parameter scores combine into policyParametersScore. Default "parameters". */
  mode?: AggregationMode;
}

/** An entry that counted towards a score, with the value and weight used. */
export interface CountedEntry {
  id: string;
  supplierId: string;
  dataSourceId: string;
  value: number;
  weight: number;
  isClaim: boolean;
  issueDate: string | null;
  expiryDate: string | null;
}

export interface DataSourceResult {
  dataSourceId: string;
  value: number | null;
  entries: CountedEntry[];
}

export interface ParameterResult {
  policyParameterId: string;
  value: number | null;
  /** The parameter's effective weight from the scorecards (before re-normalisation). */
  weight: number;
  entries: CountedEntry[];
}

/** A scorecard's own score: its items' weighted mean, re-normalised over the scored parameters. */
export interface ScorecardResult {
  scorecardId: string;
  name?: string;
  /** null when none of its (positively weighted, selected) parameters has a score. */
  value: number | null;
}

export interface SupplierScore {
  supplierId: string;
  /** The date the calculation used; always recorded. */
  asOf: string;
  value: number | null;
  dataSourcesScore: number | null;
  policyParametersScore: number | null;
  dataSources: DataSourceResult[];
  parameters: ParameterResult[];
  /** Each scorecard's own score, in input order (computed in both modes; only mode "scorecards" averages them). */
  scorecards?: ScorecardResult[];
  /** The options actually used, defaults filled in. */
  options: Required<Omit<ScoringOptions, 'dataSourceIds' | 'policyParameterIds'>> & {
    dataSourceIds: string[];
    policyParameterIds: string[];
  };
}

/** Bumped whenever a formula changes; recorded in evidence bundles. */
export const MODEL_VERSION = '1.0.0';
