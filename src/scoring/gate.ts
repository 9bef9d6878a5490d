/**
 * The result types of `srs score check` (the CI gate), outside the command so
 * that the schema registry can name them without importing a command.
 */

/**
 * pass: every rule holds. new: passes, and the supplier is not in the
 * --baseline. no data: no score, accepted only with --allow-no-data.
 * unknown: the service does not know the supplier, or srs could not find out
 * (always fails). fail: a rule does not hold, or could not be evaluated.
 */
export type CheckStatus = 'pass' | 'new' | 'no data' | 'unknown' | 'fail';

/** Statuses that fail the gate (exit 3). */
export function isFailing(status: CheckStatus): boolean {
  return status === 'fail' || status === 'unknown';
}

export interface CheckResult {
  supplierId: string;
  status: CheckStatus;
  score: number | null;
  /** The supplier's risk level as sent; several levels srs cannot rank are joined with ", ". */
  riskLevel: string | null;
  /** Whether srs can rank riskLevel: false for a level it does not know, null without one. */
  riskRecognised: boolean | null;
  /** Why it failed (or why there is no data, or that it is new); empty when it simply passed. */
  reasons: string[];
}
