/** The score model: see docs/scoring.md. Pure functions, no I/O. */
export type {
  AggregationMode,
  CountedEntry,
  DataSourceResult,
  ParameterResult,
  ScorecardResult,
  ScoringEntry,
  ScoringOptions,
  ScoringScorecard,
  SupplierScore,
} from './types.js';
export { MODEL_VERSION } from './types.js';
export {
  AGGREGATION_MODES,
  DEFAULT_CLAIM_WEIGHT,
  DEFAULT_DISPLAY_DIGITS,
  DEFAULT_INCLUDE_ZERO_VALUES,
  DEFAULT_MODE,
  NO_DATA_LABEL,
  SCORE_LABELS,
  SCORE_MAX,
  SCORE_MIN,
  ScoringError,
  VERIFIED_WEIGHT,
  isCalendarDate,
  isWithinWindow,
  normalizeDate,
  resolveOptions,
  roundScore,
  scoreLabel,
  scoreSupplier,
  scoreSuppliers,
  todayUtc,
} from './model.js';
export type { ResolvedScoringOptions, ScorecardsInput } from './model.js';
export {
  DEFAULT_COMPARE_TOLERANCE,
  compareScores,
  entriesFromScoreResult,
  rebuildFromScoreResult,
  summarizeScore,
  toScoreResult,
} from './recompute.js';
export type {
  DataSourceScoreLike,
  PolicyParameterScoreLike,
  RebuiltEntries,
  ScoreDataEntryLike,
  ScoreDifference,
  ScoreResultLike,
  ScoreResultShape,
  ScoreDataEntryShape,
  ScoreSummary,
  ScoreValueLike,
} from './recompute.js';
