/**
 * Parsing of the score commands' number options (--min, --max-drop,
 * --tolerance, --claim-weight, ...). Cheap to load: the command definitions
 * (index.ts) import it for the defaults they show in --help.
 */
import { UsageError } from '../../errors.js';

/**
 * Default of `score recompute --tolerance` (and of the verification `score
 * check --from` does): the largest accepted difference between a reported and
 * a recomputed value. Display rounding is separate.
 */
export const DEFAULT_TOLERANCE = 1e-9;

/**
 * A parser for a number option: a finite decimal number, optionally within
 * min..max (inclusive). Takes the string Commander passes (or a numeric
 * default) and throws a UsageError naming the option, the expected range and
 * the value given. Usable as a Commander argParser or called directly.
 */
/**
 * A number as a person writes one in decimal: digits with an optional point and exponent, an optional sign,
 * blanks around it. Number() also takes hex (0x1), binary (0b1) and octal (0o7), which read a typo as another
 * threshold (--expiring-within 0x5a was 90); those, and a blank, are NaN here.
 */
export function decimalNumber(text: string): number {
  const t = text.trim();
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(t) ? Number(t) : NaN;
}

export function finiteNumber(name: string, min?: number, max?: number): (value: unknown) => number {
  const range =
    min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` >= ${min}` : max !== undefined ? ` <= ${max}` : '';
  return (value: unknown): number => {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? decimalNumber(value) : NaN;
    if (!Number.isFinite(n) || (min !== undefined && n < min) || (max !== undefined && n > max)) {
      // 1e400 is a number as written, past what a double holds: said so, not "must be a number".
      const huge = typeof value === 'string' && Number.isNaN(n) === false && !Number.isFinite(n);
      throw new UsageError(`${name} must be a number${range} (got "${String(value)}"${huge ? ', too large to hold' : ''})`);
    }
    return n;
  };
}

/** An optional number option: undefined when not given, else parsed with `parse`. */
export function optionalNumber(value: unknown, parse: (value: unknown) => number): number | undefined {
  return value === undefined ? undefined : parse(value);
}

/** The largest --expiring-within: 100 years (a date 100,000,000 days ahead is past what a Date holds: "Invalid time value"). */
export const MAX_EXPIRING_DAYS = 36_500;

/** --accept-model VERSION: a version, never empty (a script's unset variable accepted a bundle of no model version). */
export function acceptModelOption(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError('--accept-model needs the model version to accept (it was empty)');
  return v.trim();
}
