/**
 * Adaptive concurrency for `supplier import`, in the style of TCP congestion
 * control (Vegas's latency test with Reno's AIMD moves), so that a user does not
 * have to find the right --concurrency for a given service:
 *
 * - slow start: the limit starts small (4) and grows by one per answer that came
 *   back near the lowest latency seen (so it doubles each round trip) until the
 *   first sign of congestion; after that it grows by 1/limit per such answer
 *   (one per round trip);
 * - it grows only while the limit is in use (at least half of it in flight): a
 *   run held back by reading or by the retry pause does not inflate it;
 * - a throttle (429, 503) or a timeout shrinks it multiplicatively (x0.7), at
 *   most once per round trip: the answers to requests sent before the cut are
 *   not counted again (TCP's one reduction per window);
 * - rising latency (a round's mean above 1.5x the baseline) shrinks it by the
 *   ratio of the two (between x0.5 and x0.9): the service is queueing;
 * - the baseline is the lowest per-round mean latency of the last two epochs
 *   (30 s each), so a service that gets slower for good re-bases;
 * - `fixed` pins it (--concurrency N): nothing moves.
 *
 * Pure: no timers, no I/O; the clock is injected. The import's Sender asks
 * `limit` before it starts a row and reports started/finished; the HTTP
 * transport reports every attempt (observe), retries included.
 */

export interface LimiterOptions {
  /** Upper bound (--max-concurrency). */
  max: number;
  /** Lower bound. Default 1. */
  min?: number;
  /** First limit. Default min(4, max). */
  initial?: number;
  /** Pin the limit at this value (--concurrency N). */
  fixed?: number | undefined;
  /** Milliseconds, monotonic. Default performance.now. */
  now?: () => number;
}

/** One HTTP attempt's outcome, as the limiter sees it. */
export interface AttemptSample {
  /** From sending to the end of the answer (or the failure). */
  latencyMs: number;
  /** ok: any answer but a throttle; throttled: 429 or 503; timeout: no answer in time; error: another network failure. */
  kind: 'ok' | 'throttled' | 'timeout' | 'error';
}

/** Multiplicative decrease on a throttle or a timeout. */
export const BACKOFF = 0.7;
/** A round whose mean latency is above this multiple of the baseline is queueing. */
const QUEUEING = 1.5;
/** An answer within this multiple of the baseline lets the limit grow. */
const NEAR_MIN = 1.25;
/** Latency differences below this many ms are noise (loopback, GC pauses), not queueing. */
const SLACK_MS = 3;
/** Latency shrink bounds. */
const GRADIENT_MIN = 0.5;
const GRADIENT_MAX = 0.9;
/** How long a baseline epoch lasts. */
const EPOCH_MS = 30_000;
/** Fewest answers in a round before its mean is judged. */
const MIN_ROUND_SAMPLES = 4;

export class ConcurrencyLimiter {
  readonly max: number;
  readonly min: number;
  readonly fixed: boolean;
  readonly #now: () => number;
  #limit: number;
  #inFlight = 0;
  #slowStart = true;
  /** Attempts that started before this time do not cut the limit again. */
  #lastCutAt = -Infinity;
  // The current round: answers since it began.
  #roundStart: number;
  #roundSum = 0;
  #roundCount = 0;
  // Baseline: the lowest round mean of this epoch and of the one before.
  #epochStart: number;
  #epochMin = Infinity;
  #prevEpochMin = Infinity;
  // Counters for progress and the bench.
  #throttled = 0;
  #timeouts = 0;
  #peak: number;

  constructor(o: LimiterOptions) {
    const min = o.min ?? 1;
    if (!(Number.isInteger(o.max) && o.max >= min && min >= 1)) throw new RangeError(`limiter bounds: min ${min}, max ${o.max}`);
    this.max = o.max;
    this.min = min;
    this.#now = o.now ?? (() => performance.now());
    this.fixed = o.fixed !== undefined;
    this.#limit = o.fixed ?? Math.min(this.max, Math.max(min, o.initial ?? 4));
    this.#peak = this.#limit;
    this.#roundStart = this.#epochStart = this.#now();
  }

  /** The concurrency in force: a whole number in [min, max]. */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Whether another request may start now. */
  get hasRoom(): boolean {
    return this.#inFlight < this.limit;
  }

  /** 429/503 answers seen. */
  get throttled(): number {
    return this.#throttled;
  }

  get timeouts(): number {
    return this.#timeouts;
  }

  /** The highest limit in force so far. */
  get peak(): number {
    return this.#peak;
  }

  /** The latency baseline in ms (Infinity until a round has been judged). */
  get baselineMs(): number {
    return Math.min(this.#epochMin, this.#prevEpochMin);
  }

  started(): void {
    this.#inFlight++;
  }

  finished(): void {
    if (this.#inFlight > 0) this.#inFlight--;
  }

  /** Reports one HTTP attempt. */
  observe(s: AttemptSample): void {
    if (s.kind === 'throttled') this.#throttled++;
    else if (s.kind === 'timeout') this.#timeouts++;
    if (this.fixed) return;
    const now = this.#now();
    const sentAt = now - s.latencyMs;
    if (s.kind === 'throttled' || s.kind === 'timeout') {
      if (sentAt >= this.#lastCutAt) this.#cut(BACKOFF, now);
      return;
    }
    if (s.kind === 'error') return; // a reset or a refused connection says nothing about load
    // Answers to requests sent before the last cut belong to the old limit: they do not judge the new one.
    if (sentAt >= this.#lastCutAt) {
      this.#roundSum += s.latencyMs;
      this.#roundCount++;
    }
    const base = this.baselineMs;
    // Grow on an answer near the baseline, while the limit is in use (not held back by the reader).
    if (base !== Infinity && s.latencyMs <= Math.max(base * NEAR_MIN, base + SLACK_MS) && this.#inFlight * 2 >= this.#limit) {
      this.#set(this.#limit + (this.#slowStart ? 1 : 1 / this.#limit));
    }
    // A round lasts about one round trip, and holds enough answers to judge its mean.
    const roundMs = base === Infinity ? 0 : base;
    if (this.#roundCount > 0 && now - this.#roundStart >= roundMs && this.#roundCount >= Math.min(MIN_ROUND_SAMPLES, Math.max(1, this.limit))) this.#endRound(now);
  }

  #endRound(now: number): void {
    const mean = this.#roundSum / this.#roundCount;
    this.#roundSum = 0;
    this.#roundCount = 0;
    this.#roundStart = now;
    if (now - this.#epochStart >= EPOCH_MS) {
      this.#prevEpochMin = this.#epochMin;
      this.#epochMin = Infinity;
      this.#epochStart = now;
    }
    const base = this.baselineMs;
    if (mean < this.#epochMin) this.#epochMin = mean;
    if (base === Infinity) return;
    if (mean > base * QUEUEING && mean - base > SLACK_MS) {
      const gradient = Math.min(GRADIENT_MAX, Math.max(GRADIENT_MIN, (base * NEAR_MIN) / mean));
      this.#cut(gradient, now);
    }
  }

  #cut(factor: number, now: number): void {
    this.#slowStart = false;
    this.#lastCutAt = now;
    this.#set(Math.max(this.min, this.#limit * factor));
    // A new round: the answers of the old limit do not judge the new one.
    this.#roundSum = 0;
    this.#roundCount = 0;
    this.#roundStart = now;
  }

  #set(v: number): void {
    this.#limit = Math.min(this.max, Math.max(this.min, v));
    if (this.limit > this.#peak) this.#peak = this.limit;
  }
}
