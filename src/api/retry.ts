/**
 * Retry policy: exponential backoff with full jitter, bounded by attempts and by
 * total time, paid for from one token bucket shared by every request of a run
 * (as the AWS SDKs do), so a storm of failures in a bulk job cannot multiply
 * traffic. A 429 pauses every request of the run, not just the one that got
 * it (pauseAfter429); a Retry-After on a 429 or 503 sets the retry's delay.
 *
 * Which failures are retried depends on whether a request is idempotent:
 * - GET and POST /v1/score-calculation (a read): network errors, 408, 429, 500, 502, 503, 504;
 * - POST /v1/suppliers (creates): only when the request provably never reached
 *   the service (NetworkError.notSent) or the service refused it (429, 503).
 */
import { NetworkError } from '../errors.js';

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  retries?: number;
  /** First backoff ceiling in ms. Default 200. */
  baseDelayMs?: number;
  /** Largest single backoff in ms. Default 10 s. */
  maxDelayMs?: number;
  /** Give up retrying once this much time has passed since the first attempt. Default 60 s. */
  maxTotalMs?: number;
  /** Largest Retry-After honoured, in ms. Default 30 s. */
  retryAfterCapMs?: number;
  /** Token bucket size. Default 500 (AWS standard mode). */
  budget?: number;
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE_STATUS_IDEMPOTENT = new Set([408, 429, 500, 502, 503, 504]);
/**
 * A create is sent again only after an answer that says it was not acted on: a 429, or a 503 with Retry-After (the
 * service asks to be called later). A bare 503 is also what a gateway sends when its upstream failed after it may
 * have stored the supplier (Envoy's "upstream connect error or disconnect/reset before headers"): sent again, such
 * rows were created twice and counted created once. It is an unknown outcome (outcome.ts).
 */
const RETRYABLE_STATUS_CREATE = new Set([429]);
const RETRY_COST = 5;
const TIMEOUT_RETRY_COST = 10;
const SUCCESS_REFUND = 1;

/** Full jitter: a uniform delay in [0, min(cap, base * 2^attempt)). attempt counts from 0. */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. Never negative. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const s = v.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.max(0, Math.round(Number(s) * 1000));
  const t = Date.parse(s);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - nowMs);
}

/** A shared token bucket: retries cost tokens, successes refund a little. */
export class RetryBudget {
  readonly capacity: number;
  #tokens: number;
  constructor(capacity = 500) {
    this.capacity = capacity;
    this.#tokens = capacity;
  }
  get tokens(): number {
    return this.#tokens;
  }
  tryAcquire(timeout: boolean): boolean {
    const cost = timeout ? TIMEOUT_RETRY_COST : RETRY_COST;
    if (this.#tokens < cost) return false;
    this.#tokens -= cost;
    return true;
  }
  refund(): void {
    this.#tokens = Math.min(this.capacity, this.#tokens + SUCCESS_REFUND);
  }
}

/** A gate every request waits at; a 429 closes it for everybody until Retry-After passes. */
class PauseGate {
  #until = 0;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #stopped: () => boolean;
  constructor(now: () => number, sleep: (ms: number) => Promise<void>, stopped: () => boolean = () => false) {
    this.#now = now;
    this.#sleep = sleep;
    this.#stopped = stopped;
  }
  pauseFor(ms: number): void {
    this.#until = Math.max(this.#until, this.#now() + ms);
  }
  get remainingMs(): number {
    return Math.max(0, this.#until - this.#now());
  }
  /** Undefined when the gate is open (no promise to await on the hot path). */
  wait(): Promise<void> | undefined {
    if (this.remainingMs === 0) return undefined;
    return (async () => {
      for (let left = this.remainingMs; left > 0 && !this.#stopped(); left = this.remainingMs) await this.#sleep(left);
    })();
  }
}

export type Failure = { kind: 'status'; status: number; retryAfterMs?: number | undefined } | { kind: 'network'; error: NetworkError };

export interface Decision {
  retry: boolean;
  delayMs: number;
  reason: string;
  /** Why a retryable failure is not retried: no retries left, the retry time limit, the shared budget, stop(), or a Retry-After longer than srs waits. */
  limit?: 'retries' | 'time' | 'budget' | 'stopped' | 'wait';
}

/**
 * Attempts beyond --retries that a 429 or 503 with Retry-After may take (a service in maintenance answering so
 * for ever still fails a lookup in seconds, not after the 60 s retry time limit).
 */
export const THROTTLE_RETRIES_EXTRA = 6;

export class RetryPolicy {
  readonly retries: number;
  readonly budget: RetryBudget;
  readonly gate: PauseGate;
  readonly #o: Required<Omit<RetryOptions, 'retries' | 'budget'>>;
  #stopped = false;
  #onStop: () => void = () => undefined;
  readonly #stop = new Promise<void>((resolve) => (this.#onStop = resolve));

  constructor(opts: RetryOptions = {}) {
    this.retries = opts.retries ?? 3;
    this.budget = new RetryBudget(opts.budget ?? 500);
    this.#o = {
      baseDelayMs: opts.baseDelayMs ?? 200,
      maxDelayMs: opts.maxDelayMs ?? 10_000,
      maxTotalMs: opts.maxTotalMs ?? 60_000,
      retryAfterCapMs: opts.retryAfterCapMs ?? 30_000,
      random: opts.random ?? Math.random,
      now: opts.now ?? Date.now,
      sleep: opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    };
    this.gate = new PauseGate(this.#o.now, (ms) => this.sleep(ms), () => this.#stopped);
  }

  /**
   * No more retries, and every wait for one (a backoff, a Retry-After pause) ends at once: an import stopped by a
   * signal sent new creates for up to 30 s after it (a row waiting out a 429 is not a request in flight).
   */
  stop(): void {
    this.#stopped = true;
    this.#onStop();
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  now(): number {
    return this.#o.now();
  }

  sleep(ms: number): Promise<void> {
    return this.#stopped ? Promise.resolve() : Promise.race([this.#o.sleep(ms), this.#stop]);
  }

  /**
   * Whether a failure is exempt from --retries: a 429 or 503 with Retry-After (the service asks to come back later,
   * and did nothing), when retries are allowed at all, for up to THROTTLE_RETRIES_EXTRA such answers a request (then
   * they count; the retry time limit and the run's budget bound them throughout). Three such answers in a row failed
   * rows of an import against a saturated service (--capacity 4) that a fourth try would have created.
   */
  exempt(failure: Failure, exemptSoFar: number): boolean {
    return failure.kind === 'status' && (failure.status === 429 || failure.status === 503) && failure.retryAfterMs !== undefined && this.retries > 0 && exemptSoFar < THROTTLE_RETRIES_EXTRA;
  }

  /**
   * Whether to retry after `attempt` (0 = the first try; the failures that count toward --retries) failed, and how
   * long to wait. `idempotent` is false for creates; `exempt` (see exempt()) skips the --retries bound.
   */
  decide(failure: Failure, attempt: number, idempotent: boolean, startedAt: number, budget: RetryBudget = this.budget, exempt = false): Decision {
    const retryable =
      failure.kind === 'status'
        ? idempotent
          ? RETRYABLE_STATUS_IDEMPOTENT.has(failure.status)
          : RETRYABLE_STATUS_CREATE.has(failure.status) || (failure.status === 503 && failure.retryAfterMs !== undefined)
        : idempotent || failure.error.notSent;
    const what = failure.kind === 'status' ? `HTTP ${failure.status}` : failure.error.code;
    if (!retryable) return { retry: false, delayMs: 0, reason: `${what} is not retryable${idempotent ? '' : ' for a create'}` };
    if (this.#stopped) return { retry: false, delayMs: 0, reason: `${what}: not retried (stopped by a signal)`, limit: 'stopped' };
    if (!exempt && attempt >= this.retries) return { retry: false, delayMs: 0, reason: `${what}: no retries left (${this.retries})`, limit: 'retries' };
    // A wait longer than srs ever waits (Retry-After: 999999, eleven days) is not retried after the cap: the service
    // said not now. Waited for (30 s, and every request of the run paused as long), each such answer stalled an import
    // and the row failed all the same; failed now, an import's outage rule stops the run within a few rows.
    if (failure.kind === 'status' && failure.retryAfterMs !== undefined && failure.retryAfterMs > this.#o.retryAfterCapMs) {
      return { retry: false, delayMs: 0, reason: `${what}: the service asks to wait ${Math.ceil(failure.retryAfterMs / 1000)} s, longer than srs waits (${this.#o.retryAfterCapMs / 1000} s)`, limit: 'wait' };
    }
    let delay = backoffDelay(attempt, this.#o.baseDelayMs, this.#o.maxDelayMs, this.#o.random);
    if (failure.kind === 'status' && (failure.status === 429 || failure.status === 503) && failure.retryAfterMs !== undefined) {
      // A 503's Retry-After is the least wait, spread over up to half as much again (at most 1 s more): every row
      // refused in one moment retried in the same millisecond one second later, and was refused again (an import
      // against `--capacity 4` failed rows after three such rounds; spread, none). Not a 429's: its wait is the
      // pause every request of the run takes (pauseAfter429), and spread it cost a rate-limited import 13% of its
      // pace (148 -> 130 rows/s at --rate-limit 150/s, npm run bench).
      const spread = failure.status === 503 ? Math.floor(this.#o.random() * Math.min(failure.retryAfterMs / 2, 1000)) : 0;
      delay = Math.min(this.#o.retryAfterCapMs, Math.max(delay, failure.retryAfterMs) + spread);
    }
    if (this.#o.now() - startedAt + delay > this.#o.maxTotalMs) return { retry: false, delayMs: 0, reason: `${what}: retry time limit reached`, limit: 'time' };
    const timeout = failure.kind === 'network' && failure.error.code === 'timeout';
    if (!budget.tryAcquire(timeout)) return { retry: false, delayMs: 0, reason: `${what}: retry budget exhausted`, limit: 'budget' };
    return { retry: true, delayMs: delay, reason: `${what}: retry ${attempt + 1}/${this.retries} in ${delay}ms` };
  }

  /** How long every request of the run waits after a 429: the retry's delay, or Retry-After (capped like a retry's) when this request gives up. */
  pauseAfter429(d: Decision, retryAfterMs: number | undefined): number {
    if (d.retry) return d.delayMs;
    // Past the cap the request gave up at once (decide): nothing is gained by holding every other request the cap.
    return retryAfterMs !== undefined && retryAfterMs > this.#o.retryAfterCapMs ? 0 : Math.min(retryAfterMs ?? 1000, this.#o.retryAfterCapMs);
  }
}
