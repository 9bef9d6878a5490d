/**
 * The shape of an explained score (built by src/commands/score/explanation.ts,
 * drawn by score-picture.ts and html-report.ts; `score explain -o json` prints it).
 */

export interface ExplainedParameter {
  policyParameterId: string;
  name: string | null;
  /** The item's weight in this scorecard (null outside any scorecard). */
  weight: number | null;
  /** The service's score for the parameter. */
  score: number | null;
  label: string;
  riskLevel: string | null;
  entries: number;
  /** Entries of this parameter that have expired or expire within the window. */
  expiringEntries: number;
}

export interface ExplainedScorecard {
  scorecardId: string;
  name: string | null;
  weight: number | null;
  /** The scorecard's own score from the local model (its items' weighted mean). */
  score: number | null;
  label: string;
  parameters: ExplainedParameter[];
}

export interface ExplainedSource {
  dataSourceId: string;
  name: string | null;
  score: number | null;
  label: string;
  entries: number;
}

export interface ExpiringEntry {
  entryId: string;
  dataSourceId: string;
  dataSourceName: string | null;
  expiryDate: string;
  /** Days from asOf to the expiry date (negative: expired). */
  daysLeft: number;
  status: 'expired' | 'expiring';
  isClaim: boolean;
  policyParameterIds: string[];
}

export interface Explanation {
  supplierId: string;
  asOf: string;
  modelVersion: string;
  score: {
    value: number | null;
    label: string;
    dataSourcesScore: number | null;
    policyParametersScore: number | null;
    riskLevel: string | null;
  };
  /** The local model's overall score from the same entries and scorecards, and whether it agrees with the service's. */
  model: { value: number | null; agrees: boolean };
  scorecards: ExplainedScorecard[];
  /** Scored parameters that belong to none of the supplier's scorecards. */
  otherParameters: ExplainedParameter[];
  dataSources: ExplainedSource[];
  expiring: { withinDays: number; entries: ExpiringEntry[] };
}
