/**
 * What a failed non-idempotent request (POST /v1/suppliers) means for the row
 * that sent it. The service offers no idempotency key and no lookup by
 * customerSupplierId, so a supplier is only "not created" when that is provable:
 * - the request never reached the service (connection refused, DNS, TLS before sending);
 * - the service answered with a 4xx, including 408/429 (it refused to process);
 * - the service answered 503 (it refused to process).
 * Anything else (a dropped connection after sending, a timeout waiting for the
 * answer, a 500/502/504, a 2xx whose body is not the contract's) may have created
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
  message: string;
  fatal?: SrsError;
}

/** A failed row's message starts with its HTTP status, once. */
function failedWithStatus(message: string, status: number): CreateOutcome {
  return { state: 'failed', message: /^HTTP \d{3}/.test(message) ? message : `HTTP ${status}: ${message}` };
}

export function classifyCreateFailure(err: unknown): CreateOutcome {
  // Refused before anything was created: the key (4xx) or a request that never left.
  if (err instanceof AuthError || err instanceof UsageError) return { state: 'failed', message: err.message, fatal: err };
  if (err instanceof ApiError) {
    if ((err.status >= 400 && err.status < 500) || err.status === 503) return failedWithStatus(err.serviceMessage ?? `HTTP ${err.status}`, err.status);
    return { state: 'unknown', message: `HTTP ${err.status}${err.serviceMessage ? `: ${err.serviceMessage}` : ''} (the supplier may or may not have been created)` };
  }
  if (err instanceof NetworkError) {
    if (err.notSent) return { state: 'failed', message: err.message };
    return { state: 'unknown', message: `${err.message} (the supplier may or may not have been created)` };
  }
  if (err instanceof BadResponseError) {
    if (err.status >= 200 && err.status < 300) return { state: 'unknown', message: `${err.message} (the service said yes, but its answer was unreadable)` };
    if (err.status >= 400 && err.status < 500) return failedWithStatus(err.message, err.status);
    return { state: 'unknown', message: err.message };
  }
  if (err instanceof SrsError) return { state: 'unknown', message: err.message, fatal: err };
  return { state: 'unknown', message: (err as Error)?.message ?? String(err) };
}
