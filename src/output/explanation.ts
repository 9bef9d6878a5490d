/**
 * The shape of an explained score: built by src/commands/score/explanation.ts,
 * drawn by score-picture.ts and html-report.ts, printed by `score explain -o json`
 * and described by `srs schema score explain`. The zod schema is the source of
 * the types.
 */
import * as z from 'zod/mini';

/** What a risk level srs cannot rank is shown with: "Extreme (unrecognised)" (calc, check, explain, the report). */
export const UNRECOGNISED_RISK = '(unrecognised)';

const num = z.nullable(z.number());

export const ExplainedParameterSchema = z.object({
  policyParameterId: z.string(),
  name: z.nullable(z.string()),
  /** The item's weight in this scorecard (null outside any scorecard). */
  weight: num,
  /** The service's score for the parameter. */
  score: num,
  label: z.string(),
  /** The service's risk level for the parameter, as sent. */
  riskLevel: z.nullable(z.string()),
  /** Whether srs can rank that level (false: a level such as "Extreme" that srs does not know; null: no level). */
  riskRecognised: z.nullable(z.boolean()),
  entries: z.number(),
  /** Entries of this parameter that have expired or expire within the window. */
  expiringEntries: z.number(),
});
export type ExplainedParameter = z.infer<typeof ExplainedParameterSchema>;

export const ExplainedScorecardSchema = z.object({
  scorecardId: z.string(),
  name: z.nullable(z.string()),
  weight: num,
  /** The scorecard's own score from the local model (its items' weighted mean). */
  score: num,
  label: z.string(),
  parameters: z.array(ExplainedParameterSchema),
});
export type ExplainedScorecard = z.infer<typeof ExplainedScorecardSchema>;

export const ExplainedSourceSchema = z.object({
  dataSourceId: z.string(),
  name: z.nullable(z.string()),
  score: num,
  label: z.string(),
  entries: z.number(),
});
export type ExplainedSource = z.infer<typeof ExplainedSourceSchema>;

export const ExpiringEntrySchema = z.object({
  entryId: z.string(),
  dataSourceId: z.string(),
  dataSourceName: z.nullable(z.string()),
  expiryDate: z.string(),
  /** Days from asOf to the expiry date (negative: expired). */
  daysLeft: z.number(),
  status: z.enum(['expired', 'expiring']),
  isClaim: z.boolean(),
  policyParameterIds: z.array(z.string()),
});
export type ExpiringEntry = z.infer<typeof ExpiringEntrySchema>;

export const ExplanationSchema = z.object({
  supplierId: z.string(),
  asOf: z.string(),
  modelVersion: z.string(),
  score: z.object({
    value: num,
    label: z.string(),
    dataSourcesScore: num,
    policyParametersScore: num,
    /** The highest of the parameters' levels; levels srs cannot rank are given instead, as sent ("Extreme"; several joined with ", "). */
    riskLevel: z.nullable(z.string()),
    /** Whether srs can rank riskLevel: false for a level it does not know (shown "Extreme (unrecognised)"), null without one. */
    riskRecognised: z.nullable(z.boolean()),
  }),
  /**
   * The local model's overall score from the same entries and scorecards, whether every value shown agrees with the
   * service's (overall, aggregates, each data source and parameter), and the ones that do not ("parameters.ID 0.6667
   * (the model: -0.3333)").
   */
  model: z.object({ value: num, agrees: z.boolean(), differences: z.array(z.string()) }),
  scorecards: z.array(ExplainedScorecardSchema),
  /** Scored parameters that belong to none of the supplier's scorecards. */
  otherParameters: z.array(ExplainedParameterSchema),
  dataSources: z.array(ExplainedSourceSchema),
  expiring: z.object({ withinDays: z.number(), entries: z.array(ExpiringEntrySchema) }),
  /**
   * What srs cannot evaluate in the result: a parameter or data source listed more than once, with
   * each copy's score ("parameter X is listed 2 times (scores 1, -2)"). Such a parameter or source is
   * shown once, with score null and label "conflicting"; `score explain` exits 1.
   */
  conflicts: z.array(z.string()),
});
export type Explanation = z.infer<typeof ExplanationSchema>;
