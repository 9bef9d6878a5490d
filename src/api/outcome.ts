/**
 * What a failed non-idempotent request (POST /v1/suppliers) means for the row
 * that sent it. The service offers no idempotency key and no lookup by
 * customerSupplierId, so a supplier is only "not created" when that is provable:
 * - the request never reached the service (connection refused, DNS, TLS before sending);
 * - the service answered with a 4xx, including 408/429 (it refused to process);
 * - the service answered 503 with Retry-After (it asks to be called later).
 * Anything else (a dropped connection after sending, a timeout waiting for the
 * answer, a 500/502/504, a 503 without Retry-After, which a gateway sends after
 * its upstream failed, a 2xx whose body is not the contract's) may have created
 * the supplier: the outcome is unknown and must not be retried blindly.
 * Authentication failures stop a whole run.
 */
import { ApiError, AuthError, BadResponseError, NetworkError, SrsError, UsageError } from '../errors.js';

/**
 * The row's state and the message for its report line. `fatal` is set when the
 * error must stop the whole run (authentication, a local usage error, anything
 * else unexpected); the row's state still says what it means for this row.
 */
export interface CreateOutcome {
  state: 'failed' | 'unknown';
  /** The report line: the reason, and for `unknown` what it means for the supplier. */
  message: string;
  /** What happened, without the verdict, for callers that word the verdict themselves (classifyCreateFailure sets it). */
  reason?: string;
  /** The HTTP status the service answered with, when it answered (an import tells a bad row from an outage by it). */
  status?: number;
  fatal?: SrsError;
}

/** A failed row's message starts with its HTTP status, once. */
function failedWithStatus(message: string, status: number): CreateOutcome {
  const m = /^HTTP \d{3}/.test(message) ? message : `HTTP ${status}: ${message}`;
  return { state: 'failed', message: m, reason: m, status };
}

const failed = (reason: string, fatal?: SrsError): CreateOutcome => ({ state: 'failed', message: reason, reason, ...(fatal ? { fatal } : {}) });
/** An unknown outcome; `meaning` (in parentheses after the reason) says what it means for the supplier. */
const unknown = (reason: string, meaning?: string, fatal?: SrsError): CreateOutcome => ({
  state: 'unknown',
  message: meaning ? `${reason} (${meaning})` : reason,
  reason,
  ...(fatal ? { fatal } : {}),
});
const MAYBE = 'the supplier may or may not have been created';

export function classifyCreateFailure(err: unknown): CreateOutcome {
  // Refused before anything was created: the key (4xx) or a request that never left.
  if (err instanceof AuthError || err instanceof UsageError) return failed(err.message, err);
  if (err instanceof ApiError) {
    // Refused: a 4xx, or a 503 with Retry-After (the service asks to be called later). A bare 503 may come from a
    // gateway after its upstream stored the supplier: unknown, never "not created" (retry.ts RETRYABLE_STATUS_CREATE).
    if ((err.status >= 400 && err.status < 500) || (err.status === 503 && err.retryAfter)) return failedWithStatus(err.serviceMessage ?? `HTTP ${err.status}`, err.status);
    return { ...unknown(`HTTP ${err.status}${err.serviceMessage ? `: ${err.serviceMessage}` : ''}`, MAYBE), status: err.status };
  }
  if (err instanceof NetworkError) {
    if (err.notSent) return failed(err.message);
    return unknown(err.message, MAYBE);
  }
  if (err instanceof BadResponseError) {
    if (err.status >= 200 && err.status < 300) return unknown(err.message, 'the service said yes, but its answer was unreadable');
    if (err.status >= 400 && err.status < 500) return failedWithStatus(err.message, err.status);
    return unknown(err.message);
  }
  if (err instanceof SrsError) return unknown(err.message, undefined, err);
  return unknown((err as Error)?.message ?? String(err));
}
