/**
 * Fault injection: makes the emulator behave like a bad day in production.
 *
 * One layer (see server.ts) in front of every `/v1/*` request; other paths
 * (the admin route `/_emulator/suppliers`, unknown non-/v1 paths) are never
 * touched, counted or delayed. Faults are decided before authentication, like
 * a proxy or load balancer in front of the service would.
 *
 * Per `/v1/*` request, in this order (a request gets at most one fault):
 *
 *   1. rate limit   token bucket of N requests/s (burst N); when empty: 429,
 *                   `Retry-After` in whole seconds (>= 1), JSON error body
 *   2. reset        the connection is reset (TCP RST) before processing
 *   3. fail         500, 502 or 503 (a third each) before processing:
 *                   JSON error body for 500/503, an HTML proxy page for 502;
 *                   half of the 503s carry `Retry-After: 1`
 *   4. stall        headers are never sent; the socket is destroyed when the
 *                   client gives up, after `stallTimeoutMs` (5 minutes), or on close()
 *   5. capacity     with a capacity of N: at most N requests are in steps 6-7
 *                   at once; the next N wait in arrival order (so latency grows
 *                   with load, like a saturated service); past that (2N in the
 *                   emulator) 503 `service_unavailable` with `Retry-After: 1`
 *   6. latency      delay before processing (fixed or uniform in a range);
 *                   applies to every request that reaches this step, not a fault
 *   7. process      the normal handling (authentication, validation, handler)
 *   8. fail after commit   only POST /v1/suppliers answered 201: the supplier
 *                   is stored, then the connection is destroyed without an answer
 *
 *   echo key        (instead of 5-8) only POST /v1/suppliers: a 400 whose error
 *                   message quotes the request's x-api-key, as a careless service
 *                   might; nothing stored. It tests that srs redacts the key in
 *                   every file it writes (report, --failed, journal).
 *
 * Steps 1-7 never store anything. Rates are per request and conditional: each
 * rate applies to the requests that got no earlier fault (--reset-rate 0.1
 * --fail-rate 0.5 fails 45% of all requests).
 *
 * Determinism: a PRNG seeded from the emulator's seed (a stream separate from
 * the data's) is advanced exactly once per `/v1/*` request, in arrival order;
 * that one draw seeds a per-request generator from which every decision of the
 * request is made with a fixed number of draws. So the same seed and the same
 * (sequential) request sequence give the same faults. Only the rate limit
 * depends on the clock.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { errorResponse } from './http-types.js';
import { deriveSeed, Rng } from './random.js';
import { HANDLED } from './server.js';
import type { Layer, LayerResult } from './server.js';

/** Stalled requests are ended after this long at the latest. */
export const DEFAULT_STALL_TIMEOUT_MS = 5 * 60_000;
/** Upper bound for --latency. */
export const MAX_LATENCY_MS = 10 * 60_000;

export interface FaultOptions {
  /** Added delay before processing, in ms: a number, {min, max}, or the text "MS" / "MS-MS". Default none. */
  latency?: number | { min: number; max: number } | string;
  /** Share of requests answered 500/502/503 before processing, 0..1. Default 0. */
  failRate?: number;
  /** Share of POST /v1/suppliers whose supplier is stored, then the connection is destroyed unanswered, 0..1. Default 0. */
  failAfterCommitRate?: number;
  /** Share of requests whose connection is reset before processing, 0..1. Default 0. */
  resetRate?: number;
  /** Share of POST /v1/suppliers answered 400 with the request's API key in the message (nothing stored), 0..1. Default 0. */
  echoKeyRate?: number;
  /** Requests per second (burst the same): a number or the text "N/s" / "N". Default: no limit. */
  rateLimit?: number | string;
  /** Share of requests that never get an answer, 0..1. Default 0. */
  stallRate?: number;
  /** When a stalled request is ended at the latest. Default DEFAULT_STALL_TIMEOUT_MS. */
  stallTimeoutMs?: number;
  /** Requests processed at once (latency included); as many again queue; past that 503. Default: no bound. */
  capacity?: number;
}

/** Validated fault settings. */
export interface FaultConfig {
  latency: { min: number; max: number } | undefined;
  failRate: number;
  failAfterCommitRate: number;
  resetRate: number;
  echoKeyRate: number;
  /** Requests per second, undefined: no limit. */
  rateLimit: number | undefined;
  stallRate: number;
  stallTimeoutMs: number;
  /** Requests processed at once, undefined: no bound. */
  capacity: number | undefined;
}

export interface FaultStats {
  /** /v1/* requests seen by the fault layer (faulted or not). */
  requests: number;
  rateLimited: number;
  resets: number;
  /** 5xx answers before processing. */
  failures: number;
  stalls: number;
  failedAfterCommit: number;
  /** 503s because the capacity and its queue were full. */
  overloaded: number;
  /** 400s quoting the API key (echo key). */
  echoedKeys: number;
}

// ---------------------------------------------------------------- parsing and validation

/** An invalid fault option; the message names the option. */
export class FaultOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultOptionError';
  }
}

/** A rate in [0, 1], from a number or its text. `name` is used in the error message. */
export function parseRate(value: unknown, name: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new FaultOptionError(`${name} must be a number between 0 and 1 (got ${show(value)})`);
  }
  return n;
}

/** "MS" or "MS-MS" (whole milliseconds, optional "ms" suffix), a number, or {min, max}. */
export function parseLatency(value: unknown, name: string): { min: number; max: number } {
  const bad = (why: string) => new FaultOptionError(`${name} must be MS or MS-MS in whole milliseconds, ${why} (got ${show(value)})`);
  let min: number;
  let max: number;
  if (typeof value === 'number') {
    min = max = value;
  } else if (typeof value === 'string') {
    const m = /^\s*(\d+)\s*(?:ms)?\s*(?:-\s*(\d+)\s*(?:ms)?\s*)?$/i.exec(value);
    if (!m) throw bad('e.g. 200 or 50-500');
    min = Number(m[1]);
    max = m[2] === undefined ? min : Number(m[2]);
  } else if (value !== null && typeof value === 'object' && 'min' in value && 'max' in value) {
    min = Number((value as { min: unknown }).min);
    max = Number((value as { max: unknown }).max);
  } else {
    throw bad('e.g. 200 or 50-500');
  }
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || max < 0) throw bad('not negative');
  if (min > max) throw bad('with the minimum not above the maximum');
  if (max > MAX_LATENCY_MS) throw bad(`at most ${MAX_LATENCY_MS}`);
  return { min, max };
}

/** "N/s" or "N" with N > 0 (fractions allowed), or a number. */
export function parseRateLimit(value: unknown, name: string): number {
  let n = Number.NaN;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\/\s*s)?\s*$/i.exec(value);
    if (m) n = Number(m[1]);
  }
  if (!Number.isFinite(n) || n <= 0) {
    throw new FaultOptionError(`${name} must be N/s (or N) with N a number above 0, e.g. 200/s (got ${show(value)})`);
  }
  return n;
}

/** Most requests processed at once (--capacity). */
export const MAX_CAPACITY = 100_000;

/** A whole number 1..MAX_CAPACITY, from a number or its text. */
export function parseCapacity(value: unknown, name: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_CAPACITY) {
    throw new FaultOptionError(`${name} must be a whole number of requests between 1 and ${MAX_CAPACITY} (got ${show(value)})`);
  }
  return n;
}

function show(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Validates FaultOptions; `prefix` names the options in messages ("faults." for
 * the library, "" when the caller maps names itself). Throws FaultOptionError.
 */
export function resolveFaults(opts: FaultOptions | undefined, prefix = 'faults.'): FaultConfig {
  const o = opts ?? {};
  const stallTimeoutMs = o.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  if (!Number.isFinite(stallTimeoutMs) || stallTimeoutMs <= 0 || stallTimeoutMs > 2 ** 31 - 1) {
    throw new FaultOptionError(`${prefix}stallTimeoutMs must be a positive number of milliseconds (got ${show(stallTimeoutMs)})`);
  }
  return {
    latency: o.latency === undefined ? undefined : parseLatency(o.latency, `${prefix}latency`),
    failRate: o.failRate === undefined ? 0 : parseRate(o.failRate, `${prefix}failRate`),
    failAfterCommitRate: o.failAfterCommitRate === undefined ? 0 : parseRate(o.failAfterCommitRate, `${prefix}failAfterCommitRate`),
    resetRate: o.resetRate === undefined ? 0 : parseRate(o.resetRate, `${prefix}resetRate`),
    echoKeyRate: o.echoKeyRate === undefined ? 0 : parseRate(o.echoKeyRate, `${prefix}echoKeyRate`),
    rateLimit: o.rateLimit === undefined ? undefined : parseRateLimit(o.rateLimit, `${prefix}rateLimit`),
    stallRate: o.stallRate === undefined ? 0 : parseRate(o.stallRate, `${prefix}stallRate`),
    stallTimeoutMs,
    capacity: o.capacity === undefined ? undefined : parseCapacity(o.capacity, `${prefix}capacity`),
  };
}

/** A one-line summary of the active faults ("" when none), for start-up messages. */
export function describeFaults(c: FaultConfig): string {
  const parts: string[] = [];
  if (c.rateLimit !== undefined) parts.push(`rate limit ${c.rateLimit}/s`);
  if (c.resetRate > 0) parts.push(`reset ${c.resetRate}`);
  if (c.echoKeyRate > 0) parts.push(`echo key ${c.echoKeyRate}`);
  if (c.failRate > 0) parts.push(`fail ${c.failRate}`);
  if (c.stallRate > 0) parts.push(`stall ${c.stallRate}`);
  if (c.capacity !== undefined) parts.push(`capacity ${c.capacity} (queue ${c.capacity})`);
  if (c.latency) parts.push(`latency ${c.latency.min === c.latency.max ? c.latency.min : `${c.latency.min}-${c.latency.max}`}ms`);
  if (c.failAfterCommitRate > 0) parts.push(`fail after commit ${c.failAfterCommitRate}`);
  return parts.join(', ');
}

// ---------------------------------------------------------------- the decision

export type FaultKind = 'reset' | 'fail' | 'stall';

export interface FaultDecision {
  /** A fault before processing, if any. */
  before: FaultKind | undefined;
  /** For 'fail': 500, 502 or 503. */
  status: 500 | 502 | 503;
  /** For a 503: whether it carries Retry-After: 1. */
  retryAfter: boolean;
  /** Delay before processing (0 when no latency is configured). */
  latencyMs: number;
  /** Destroy the connection after a successful POST /v1/suppliers. */
  failAfterCommit: boolean;
  /** Answer POST /v1/suppliers 400, quoting the API key. */
  echoKey: boolean;
}

/**
 * Every decision of one request from its own generator, always with the same
 * eight draws whatever is configured (the eighth, echo key, came last so the
 * first seven decide as they did before it). `createsSupplier`: POST /v1/suppliers.
 */
export function decide(c: FaultConfig, r: Rng, createsSupplier: boolean): FaultDecision {
  const uReset = r.next();
  const uFail = r.next();
  const uStatus = r.next();
  const uRetry = r.next();
  const uStall = r.next();
  const uLatency = r.next();
  const uCommit = r.next();
  const uEcho = r.next();
  const before: FaultKind | undefined =
    uReset < c.resetRate ? 'reset' : uFail < c.failRate ? 'fail' : uStall < c.stallRate ? 'stall' : undefined;
  const status = uStatus < 1 / 3 ? 500 : uStatus < 2 / 3 ? 502 : 503;
  const latencyMs = c.latency ? c.latency.min + Math.floor(uLatency * (c.latency.max - c.latency.min + 1)) : 0;
  return {
    before,
    status,
    retryAfter: status === 503 && uRetry < 0.5,
    latencyMs,
    failAfterCommit: before === undefined && createsSupplier && uCommit < c.failAfterCommitRate,
    echoKey: before === undefined && createsSupplier && uEcho < c.echoKeyRate,
  };
}

/** A token bucket: `rate` tokens per second, capacity max(rate, 1), full at start. */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly capacity: number;

  constructor(
    private readonly rate: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(rate, 1);
    this.tokens = this.capacity;
    this.last = now();
  }

  /** Takes a token: 0 when one was available, else the whole seconds (>= 1) until one is. */
  take(): number {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.rate);
    this.last = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.rate));
  }
}

/**
 * N slots and a queue of as many again: take() gives a slot at once (true),
 * a promise of one (queued, first come first served), or false when the queue is full.
 */
export class Slots {
  #free: number;
  readonly #queue: Array<() => void> = [];
  readonly #queueBound: number;

  constructor(capacity: number, queueBound = capacity) {
    this.#free = capacity;
    this.#queueBound = queueBound;
  }

  get queued(): number {
    return this.#queue.length;
  }

  take(): true | false | Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return true;
    }
    if (this.#queue.length >= this.#queueBound) return false;
    return new Promise<void>((resolve) => this.#queue.push(resolve));
  }

  /** Hands the slot to the first in the queue, or frees it. */
  give(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#free++;
  }
}

// ---------------------------------------------------------------- the layer

const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head>\r\n' +
  '<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>srs-emulator (injected fault)</center>\r\n</body>\r\n</html>\r\n';

export class FaultInjector {
  private readonly rng: Rng;
  private readonly bucket: TokenBucket | undefined;
  private readonly slots: Slots | undefined;
  private readonly counts: FaultStats = { requests: 0, rateLimited: 0, resets: 0, failures: 0, stalls: 0, failedAfterCommit: 0, echoedKeys: 0, overloaded: 0 };
  private readonly stalled = new Set<ServerResponse>();
  /** Whether anything besides counting can happen. */
  readonly active: boolean;

  constructor(
    readonly config: FaultConfig,
    seed: number,
    private readonly log?: (line: string) => void,
  ) {
    this.rng = new Rng(deriveSeed(seed, 'faults'));
    this.bucket = config.rateLimit !== undefined ? new TokenBucket(config.rateLimit) : undefined;
    this.slots = config.capacity !== undefined ? new Slots(config.capacity) : undefined;
    this.active =
      config.rateLimit !== undefined ||
      config.capacity !== undefined ||
      config.latency !== undefined ||
      config.failRate > 0 ||
      config.failAfterCommitRate > 0 ||
      config.resetRate > 0 ||
      config.echoKeyRate > 0 ||
      config.stallRate > 0;
  }

  stats(): FaultStats {
    return { ...this.counts };
  }

  /** Ends every stalled request now (used by close()). */
  endStalled(): void {
    for (const res of [...this.stalled]) destroy(res);
    this.stalled.clear();
  }

  readonly layer: Layer = async (ctx, next): Promise<LayerResult> => {
    if (!ctx.path.startsWith('/v1/')) return next();
    this.counts.requests++;
    if (!this.active) return next();
    const { req, res, method, path } = ctx;
    // One draw per request, in arrival order, whatever happens to the request.
    const decision = decide(this.config, new Rng(this.rng.uint32()), method === 'POST' && path === '/v1/suppliers');
    const note = (what: string) => this.log?.(`${method} ${path} fault=${what}`);

    if (this.bucket) {
      const wait = this.bucket.take();
      if (wait > 0) {
        this.counts.rateLimited++;
        note(`rate-limit retry-after=${wait}`);
        const limit = this.config.rateLimit!;
        return errorResponse(
          429,
          'rate_limited',
          `rate limit of ${limit} requests per second exceeded; retry after ${wait} s (injected by the emulator)`,
          undefined,
          { 'retry-after': String(wait) },
        );
      }
    }

    switch (decision.before) {
      case 'reset':
        this.counts.resets++;
        note('reset');
        reset(res);
        return HANDLED;
      case 'fail':
        this.counts.failures++;
        note(`fail status=${decision.status}`);
        if (decision.status === 502) {
          sendHtml(req, res, 502, HTML_502);
          return HANDLED;
        }
        return decision.status === 500
          ? errorResponse(500, 'internal_error', 'internal server error (injected by the emulator)')
          : errorResponse(
              503,
              'service_unavailable',
              'service temporarily unavailable (injected by the emulator)',
              undefined,
              decision.retryAfter ? { 'retry-after': '1' } : undefined,
            );
      case 'stall':
        this.counts.stalls++;
        note('stall');
        this.stall(res);
        return HANDLED;
      case undefined:
        break;
    }

    if (decision.echoKey) {
      this.counts.echoedKeys++;
      note('echo-key');
      const key = String(req.headers['x-api-key'] ?? '');
      return errorResponse(400, 'invalid_request', `supplier rejected for API key ${key}: request refused (injected by the emulator)`);
    }

    if (this.slots) {
      const slot = this.slots.take();
      if (slot === false) {
        this.counts.overloaded++;
        note('overloaded');
        return errorResponse(
          503,
          'service_unavailable',
          `over capacity: ${this.config.capacity} requests in progress and ${this.config.capacity} queued (injected by the emulator)`,
          undefined,
          { 'retry-after': '1' },
        );
      }
      if (slot !== true) await slot;
      try {
        return await this.process(res, decision, next, note);
      } finally {
        this.slots.give();
      }
    }
    return this.process(res, decision, next, note);
  };

  /** Latency, the handler, and a failure after commit. */
  private async process(res: ServerResponse, decision: FaultDecision, next: () => Promise<LayerResult>, note: (what: string) => void): Promise<LayerResult> {
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    const result = await next();
    if (decision.failAfterCommit && result !== HANDLED && result.status === 201) {
      this.counts.failedAfterCommit++;
      note('fail-after-commit');
      destroy(res);
      return HANDLED;
    }
    return result;
  }

  private stall(res: ServerResponse): void {
    this.stalled.add(res);
    const timer = setTimeout(() => destroy(res), this.config.stallTimeoutMs);
    timer.unref();
    res.once('close', () => {
      clearTimeout(timer);
      this.stalled.delete(res);
    });
  }
}

function destroy(res: ServerResponse): void {
  (res.socket ?? res).destroy();
}

/** A TCP reset when the platform can (net.Socket.resetAndDestroy), else a plain destroy. */
function reset(res: ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
  if (socket && typeof socket.resetAndDestroy === 'function') {
    try {
      socket.resetAndDestroy();
      return;
    } catch {
      // fall through
    }
  }
  destroy(res);
}

function sendHtml(req: IncomingMessage, res: ServerResponse, status: number, html: string): void {
  if (res.headersSent || res.destroyed) return;
  if (!req.complete) req.resume();
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}
