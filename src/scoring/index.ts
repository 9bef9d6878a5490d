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
export { ScoringError } from './errors.js';
export {
  COMPARE_DIGITS,
  DEFAULT_DISPLAY_DIGITS,
  NO_DATA_LABEL,
  OFF_SCALE_LABEL,
  isOffScale,
  PUBLISHED_SCORE_LABELS,
  SCORE_LABELS,
  SCORE_MAX,
  SCORE_MIN,
  comparable,
  digitsToShow,
  fixed2,
  roundScore,
  scoreCell,
  scoreLabel,
  showNumber,
} from './labels.js';
export { EXPIRY_BEFORE_ISSUE, expiresBeforeIssue, isCalendarDate, isWithinWindow, normalizeDate, todayUtc } from './dates.js';
export { AGGREGATION_MODES, DEFAULT_CLAIM_WEIGHT, DEFAULT_INCLUDE_ZERO_VALUES, DEFAULT_MODE, resolveOptions } from './options.js';
export type { ResolvedScoringOptions } from './options.js';
export { FALLBACK_PARAMETER_WEIGHT, VERIFIED_WEIGHT, ZERO_WEIGHT_EXCLUDES_ITEM, scoreSupplier, scoreSuppliers } from './model.js';
export type { ScorecardsInput } from './model.js';
export {
  DEFAULT_COMPARE_TOLERANCE,
  compareScores,
  duplicatedScores,
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
