/**
 * Calendar dates and the validity window of the score model
 * (docs/scoring.md, step 1.2). Dates are compared as YYYY-MM-DD strings.
 */
import { ScoringError } from './errors.js';

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** True when `s` starts with a real calendar date YYYY-MM-DD (leap years checked). */
export function hasCalendarDatePrefix(s: string): boolean {
  if (s.length < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y0 = digit(s, 0);
  const y1 = digit(s, 1);
  const y2 = digit(s, 2);
  const y3 = digit(s, 3);
  const m0 = digit(s, 5);
  const m1 = digit(s, 6);
  const d0 = digit(s, 8);
  const d1 = digit(s, 9);
  if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) < 0) return false;
  const month = m0 * 10 + m1;
  const day = d0 * 10 + d1;
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > (DAYS_IN_MONTH[month - 1] as number)) return false;
  if (month === 2 && day === 29) {
    const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
    if (!((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0)) return false;
  }
  return true;
}

/** True when `s` is exactly a calendar date YYYY-MM-DD. */
export function isCalendarDate(s: string): boolean {
  return typeof s === 'string' && s.length === 10 && hasCalendarDatePrefix(s);
}

/**
 * A date as the model compares it: absent, null or '' is null (open-ended);
 * YYYY-MM-DD is kept; a timestamp YYYY-MM-DDT... keeps only its calendar date
 * (no time-zone conversion). Anything else throws a ScoringError.
 */
export function normalizeDate(s: string | null | undefined, what = 'date'): string | null {
  if (s === null || s === undefined || s === '') return null;
  if (typeof s === 'string') {
    if (s.length === 10 && hasCalendarDatePrefix(s)) return s;
    if (s.length > 10 && s.charCodeAt(10) === 84 /* T */ && hasCalendarDatePrefix(s)) return s.slice(0, 10);
  }
  throw new ScoringError(`${what} must be a calendar date YYYY-MM-DD, got ${JSON.stringify(s)}`);
}

/** Today's calendar date in UTC, YYYY-MM-DD. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The validity window: issueDate <= asOf <= expiryDate, both inclusive, either
 * side open when its date is absent. Dates are compared as calendar dates.
 */
export function isWithinWindow(asOf: string, issueDate?: string | null, expiryDate?: string | null): boolean {
  const at = normalizeDate(asOf, 'asOf');
  if (at === null) throw new ScoringError('asOf is required');
  const issue = normalizeDate(issueDate, 'issueDate');
  if (issue !== null && issue > at) return false;
  const expiry = normalizeDate(expiryDate, 'expiryDate');
  if (expiry !== null && expiry < at) return false;
  return true;
}

/**
 * An entry whose expiry date is before its issue date has an empty validity
 * window: it never counts, on any asOf. The public methodology says nothing
 * about such entries; we exclude them and warn (srs score recompute and score
 * check name each one), rather than reject the whole supplier.
 */
export const EXPIRY_BEFORE_ISSUE = 'warn-and-exclude' as const;

/** True when both dates are given and the expiry date is before the issue date (calendar dates). */
export function expiresBeforeIssue(issueDate?: string | null, expiryDate?: string | null): boolean {
  if (!issueDate || !expiryDate) return false;
  let issue: string | null;
  let expiry: string | null;
  try {
    issue = normalizeDate(issueDate);
    expiry = normalizeDate(expiryDate);
  } catch {
    return false; // a malformed date is reported by the model itself
  }
  return issue !== null && expiry !== null && expiry < issue;
}
