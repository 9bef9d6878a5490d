/**
 * Adaptive concurrency for `supplier import`, in the style of TCP congestion
 * control (Vegas's latency test with Reno's AIMD moves), so that a user does not
 * have to find the right --concurrency for a given service:
 *
 * - slow start: the limit starts small (4) and grows by one per answer that came
 *   back near the lowest latency seen (so it doubles each round trip) until the
 *   first sign of congestion; after that by sqrt(limit)/limit per such answer
 *   (sqrt(limit) per round trip: 16 to 64 in a dozen round trips, not 48),
 *   or, after a throttle or a timeout, by 1/limit (one per round trip, as
 *   Reno does): a rate limit is a hard wall, approached gently;
 * - it grows only while the limit is in use (at least half of it in flight): a
 *   run held back by reading or by the retry pause does not inflate it;
 * - a throttle (429, 503) or a timeout shrinks it multiplicatively (x0.7), at
 *   most once per round trip: the answers to requests sent before the cut are
 *   not counted again (TCP's one reduction per window);
 * - rising latency shrinks it by the ratio of baseline to latency (between
 *   x0.5 and x0.9): when, two rounds in a row, the requests that the round's
 *   median latency says are waiting in a queue (limit x (1 - baseline /
 *   latency), as TCP Vegas estimates it) exceed max(6, limit / 4). More in
 *   flight then only adds waiting: on a service at its capacity, and on
 *   loopback, where the two processes' CPU is the queue and 32 in flight cost
 *   a third more CPU a row than 8 for no more rows a second; but latency alone never takes it below LATENCY_FLOOR (8, the old
 *   fixed default): on loopback or a busy machine the client's own scheduling
 *   moves latency more than the service does, and a service that is really
 *   overloaded says so with 503s, which can. A round is about one round trip and at least half the limit of
 *   answers; the median and the two-in-a-row rule keep a GC pause or a busy
 *   machine's scheduling hiccup (which delays every answer of the moment) from
 *   passing for queueing;
 * - the baseline is the lowest median of pools of 32 answers (the first
 *   round's median until one has filled) over the last two epochs (30 s
 *   each), so a service that gets slower for good re-bases. Pools, not
 *   rounds: the lowest of many 4-answer medians is an extreme, not a typical
 *   latency, and ordinary jitter (5-20 ms) then read as queueing: the limit
 *   stayed at 8-9, 1,000 rows/s where 64 made 5,000 (a simulation,
 *   test/unit/limiter.test.ts; an outside review measured 800 vs 3,600);
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
/** A round is queueing when more than max(QUEUED_MIN, limit x QUEUED_SHARE) requests wait (Vegas's estimate). */
const QUEUED_MIN = 6;
const QUEUED_SHARE = 0.25;
/** An answer within this multiple of the baseline lets the limit grow. */
const NEAR_MIN = 1.5;
/** Latency differences below this many ms are timer and scheduling noise, not queueing (kept small: on loopback at 10,000 rows/s, 32 requests queued add only 3 ms). */
const SLACK_MS = 0.5;
/** Rising latency alone does not cut the limit below this (nor below `min`). */
export const LATENCY_FLOOR = 8;
/** Latency shrink bounds. */
const GRADIENT_MIN = 0.5;
const GRADIENT_MAX = 0.9;
/** How long a baseline epoch lasts. */
const EPOCH_MS = 30_000;
/** Fewest answers in a round before its mean is judged. */
const MIN_ROUND_SAMPLES = 4;
/** Answers whose median makes one baseline candidate. */
const BASE_POOL = 32;

export class ConcurrencyLimiter {
  readonly max: number;
  readonly min: number;
  readonly fixed: boolean;
  readonly #now: () => number;
  #limit: number;
  #inFlight = 0;
  #slowStart = true;
  /** The last cut was a throttle or a timeout: grow by one a round trip. */
  #gentle = false;
  /** Attempts that started before this time do not cut the limit again. */
  #lastCutAt = -Infinity;
  // The current round: the latencies of the answers since it began.
  #roundStart: number;
  #round: number[] = [];
  /** The last judged round was queueing. */
  #queueing = false;
  // Baseline: the lowest round mean of this epoch and of the one before.
  #epochStart: number;
  #epochMin = Infinity;
  #prevEpochMin = Infinity;
  /** Answers pooled toward the next baseline candidate (BASE_POOL of them: their median). */
  #pool: number[] = [];
  /** Whether the first round's median has been taken (the baseline until a pool has filled). */
  #bootstrapped = false;
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
      if (sentAt >= this.#lastCutAt) {
        this.#cut(BACKOFF, now);
        this.#gentle = true;
      }
      return;
    }
    if (s.kind === 'error') return; // a reset or a refused connection says nothing about load
    // Answers to requests sent before the last cut belong to the old limit: they do not judge the new one.
    if (sentAt >= this.#lastCutAt) this.#round.push(s.latencyMs);
    this.#pool.push(s.latencyMs);
    if (this.#pool.length >= BASE_POOL) {
      const pooled = this.#pool.sort((a, b) => a - b)[BASE_POOL >> 1]!;
      this.#pool = [];
      if (pooled < this.#epochMin) this.#epochMin = pooled;
    }
    const base = this.baselineMs;
    // Grow on an answer near the baseline, while the limit is in use (not held back by the reader).
    if (base !== Infinity && s.latencyMs <= Math.max(base * NEAR_MIN, base + SLACK_MS) && this.#inFlight * 2 >= this.#limit) {
      this.#set(this.#limit + (this.#slowStart ? 1 : (this.#gentle ? 1 : Math.sqrt(this.#limit)) / this.#limit));
    }
    // A round lasts about one round trip, and holds enough answers to judge its mean.
    const roundMs = base === Infinity ? 0 : base;
    const n = this.#round.length;
    if (n > 0 && now - this.#roundStart >= roundMs && n >= Math.min(this.limit, Math.max(MIN_ROUND_SAMPLES, this.limit / 2))) this.#endRound(now);
  }

  #endRound(now: number): void {
    const round = this.#round.sort((a, b) => a - b);
    const median = round[round.length >> 1]!;
    this.#round = [];
    this.#roundStart = now;
    if (now - this.#epochStart >= EPOCH_MS) {
      this.#prevEpochMin = this.#epochMin;
      this.#epochMin = Infinity;
      this.#epochStart = now;
    }
    const base = this.baselineMs;
    if (!this.#bootstrapped) {
      this.#bootstrapped = true;
      if (median < this.#epochMin) this.#epochMin = median;
    }
    if (base === Infinity) return;
    const queued = this.#limit * (1 - base / median);
    const queueing = queued > Math.max(QUEUED_MIN, this.#limit * QUEUED_SHARE) && median - base > SLACK_MS;
    if (queueing && this.#queueing) {
      const gradient = Math.min(GRADIENT_MAX, Math.max(GRADIENT_MIN, (base * NEAR_MIN) / median));
      this.#cut(gradient, now, Math.min(this.#limit, LATENCY_FLOOR));
      this.#gentle = false;
    } else {
      this.#queueing = queueing;
    }
  }

  #cut(factor: number, now: number, floor = this.min): void {
    this.#slowStart = false;
    this.#lastCutAt = now;
    this.#set(Math.max(this.min, floor, this.#limit * factor));
    // A new round: the answers of the old limit do not judge the new one.
    this.#round = [];
    this.#queueing = false;
    this.#roundStart = now;
  }

  #set(v: number): void {
    this.#limit = Math.min(this.max, Math.max(this.min, v));
    if (this.limit > this.#peak) this.#peak = this.limit;
  }
}
