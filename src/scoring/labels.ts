/**
 * The score scale, display rounding, comparison rounding and labels of the
 * score model (docs/scoring.md, "Precision, rounding and labels").
 */

/** Lowest score on the absolute scale ("very poor"). */
export const SCORE_MIN = -3;
/** Highest score on the absolute scale ("very good"). */
export const SCORE_MAX = 3;
/** Decimal places used by roundScore() when none are given (display only). */
export const DEFAULT_DISPLAY_DIGITS = 2;

/** Labels of the rounded scores -3..3, index = rounded score + 3. */
export const SCORE_LABELS: Readonly<Record<'-3' | '-2' | '-1' | '0' | '1' | '2' | '3', string>> = Object.freeze({
  '-3': 'very poor',
  '-2': 'poor',
  '-1': 'below average',
  '0': 'neutral',
  '1': 'fair',
  '2': 'good',
  '3': 'very good',
});
/** Label of a null (or non-finite) score. */
export const NO_DATA_LABEL = 'no data';
/** The label of a value outside -3..+3 (a service's answer can hold one; no label of the scale fits it). */
export const OFF_SCALE_LABEL = 'off scale';
const LABELS_BY_INDEX: ReadonlyArray<string> = [
  SCORE_LABELS['-3'],
  SCORE_LABELS['-2'],
  SCORE_LABELS['-1'],
  SCORE_LABELS['0'],
  SCORE_LABELS['1'],
  SCORE_LABELS['2'],
  SCORE_LABELS['3'],
];


// ---------------------------------------------------------------- display helpers

/** Rounds half away from zero to `digits` decimals. For display only: the model never rounds. */
export function roundScore(value: number, digits: number = DEFAULT_DISPLAY_DIGITS): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  // Past 2^53 a double has no decimals left to round, and value * f / f would change it (1e21 showed as 999999999999999868928).
  if (Math.abs(value) * f >= 2 ** 53) return value;
  const r = Math.round(Math.abs(value) * f) / f;
  return value < 0 ? -r : r;
}

/**
 * A score for people: two decimals, or as many more as it takes for the number shown to carry the label the score
 * has (0.4957 was "0.50" beside "neutral", which 0.50 is not: now "0.496"). -0.00 is 0.00.
 */
export function fixed2(value: number): string {
  const label = scoreLabel(value);
  let d = DEFAULT_DISPLAY_DIGITS;
  while (d <= 12 && scoreLabel(roundScore(value, d)) !== label) d++;
  if (d > 12) return String(value); // 0.4999999999999: every rounding says 0.5
  return roundScore(value, d).toFixed(d).replace(/^-(0\.0+)$/, '$1');
}

/** A score in a table cell (a Column's format): fixed2, and nothing for no value (the table shows its blank, —). */
export function scoreCell(v: unknown): string {
  return typeof v === 'number' ? fixed2(v) : v === null || v === undefined ? '' : String(v);
}

/** A number outside -3..+3 beyond floating-point error: no score of the scale (a service's answer can hold one). */
export function isOffScale(v: unknown): v is number {
  return typeof v === 'number' && (v < SCORE_MIN - 1e-9 || v > SCORE_MAX + 1e-9);
}

/**
 * Label of a score for display: the score rounded half away from zero to an
 * integer, then looked up in SCORE_LABELS. null (or a non-finite number) is
 * "no data"; a value outside -3..+3 (beyond floating-point error) is "off
 * scale": a service's 123 was labelled "very good".
 */
export function scoreLabel(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return NO_DATA_LABEL;
  if (isOffScale(value)) return OFF_SCALE_LABEL;
  let r = Math.round(Math.abs(value));
  if (value < 0) r = -r;
  if (r < SCORE_MIN) r = SCORE_MIN;
  if (r > SCORE_MAX) r = SCORE_MAX;
  return LABELS_BY_INDEX[r + 3] as string;
}

/**
 * The labels the service's public methodology itself gives: only the two ends
 * of the scale. Every other label in SCORE_LABELS (and the rounding that picks
 * one) is ours; docs/scoring.md lists this among the departures.
 */
export const PUBLISHED_SCORE_LABELS: Readonly<Record<'-3' | '3', string>> = Object.freeze({ '-3': 'very poor', '3': 'very good' });

// ---------------------------------------------------------------- comparisons (score check)

/**
 * Decimal places scores and thresholds are rounded to before the gate compares
 * them, so that decimal arithmetic behaves as a person expects:
 * 1.1 - 0.6 = 0.5000000000000001 in binary floating point, 0.5 after rounding.
 */
export const COMPARE_DIGITS = 9;

/** A number as the gate compares it: rounded half away from zero to COMPARE_DIGITS decimals (-0 is 0). */
export function comparable(value: number): number {
  return roundScore(value, COMPARE_DIGITS) + 0;
}

/**
 * The fewest decimals (at least `min`, at most COMPARE_DIGITS) at which
 * `value`, rounded for display, still compares with `threshold` the way it
 * does at COMPARE_DIGITS. A message that shows the value with that many
 * digits beside the threshold as given never contradicts its verdict
 * (never "0.5 is below the minimum 0.49999").
 */
export function digitsToShow(value: number, threshold: number, min = 2): number {
  const v = comparable(value);
  const t = comparable(threshold);
  const want = Math.sign(v - t);
  for (let d = min; d < COMPARE_DIGITS; d++) if (Math.sign(roundScore(v, d) - t) === want) return d;
  return COMPARE_DIGITS;
}

/** `value` for a message: rounded to `digits` decimals (at most COMPARE_DIGITS), without trailing zeros. */
export function showNumber(value: number, digits: number): string {
  return String(roundScore(comparable(value), Math.min(digits, COMPARE_DIGITS)) + 0);
}
