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
import { ApiError, AuthError, BadResponseError, NetworkError, SrsError } from '../errors.js';

export type CreateOutcome =
  | { state: 'failed'; message: string; status?: number }
  | { state: 'unknown'; message: string; status?: number }
  | { state: 'fatal'; error: SrsError };

export function classifyCreateFailure(err: unknown): CreateOutcome {
  if (err instanceof AuthError) return { state: 'fatal', error: err };
  if (err instanceof ApiError) {
    const msg = err.serviceMessage ?? `HTTP ${err.status}`;
    if ((err.status >= 400 && err.status < 500) || err.status === 503) return { state: 'failed', message: msg, status: err.status };
    return { state: 'unknown', message: `HTTP ${err.status}${err.serviceMessage ? `: ${err.serviceMessage}` : ''} (the supplier may or may not have been created)`, status: err.status };
  }
  if (err instanceof NetworkError) {
    if (err.notSent) return { state: 'failed', message: err.message };
    return { state: 'unknown', message: `${err.message} (the supplier may or may not have been created)` };
  }
  if (err instanceof BadResponseError) {
    if (err.status >= 200 && err.status < 300) return { state: 'unknown', message: `${err.message} (the service said yes, but its answer was unreadable)`, status: err.status };
    if (err.status >= 400 && err.status < 500) return { state: 'failed', message: err.message, status: err.status };
    return { state: 'unknown', message: err.message, status: err.status };
  }
  if (err instanceof SrsError) return { state: 'fatal', error: err };
  return { state: 'unknown', message: (err as Error)?.message ?? String(err) };
}
