import { describe, expect, it } from 'vitest';
import { BACKOFF, ConcurrencyLimiter, type AttemptSample } from '../../src/import/limiter.js';

/**
 * A closed-loop run against a fake service on a fake clock: the client keeps
 * as many requests in flight as the limit allows, and starts another as soon
 * as one is answered. `service(inFlight, now)` says what the answer to a
 * request sent now looks like. Returns the limit in force after each answer.
 */
function simulate(
  l: ConcurrencyLimiter,
  clock: { t: number },
  answers: number,
  service: (inFlight: number, now: number) => AttemptSample,
): number[] {
  const pending: Array<{ at: number; s: AttemptSample }> = [];
  const fill = () => {
    while (l.hasRoom) {
      l.started();
      const s = service(l.inFlight, clock.t);
      pending.push({ at: clock.t + s.latencyMs, s });
    }
  };
  const limits: number[] = [];
  const answer = () => {
    let k = 0;
    for (let j = 1; j < pending.length; j++) if (pending[j]!.at < pending[k]!.at) k = j;
    const next = pending.splice(k, 1)[0]!;
    clock.t = Math.max(clock.t, next.at);
    l.observe(next.s);
    l.finished();
    limits.push(l.limit);
  };
  fill();
  for (let i = 0; i < answers; i++) {
    answer();
    fill();
  }
  // The requests still in flight are answered; nothing more is sent.
  while (pending.length > 0) answer();
  return limits;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const flat = (ms: number) => (): AttemptSample => ({ latencyMs: ms, kind: 'ok' });

/** A server that processes `capacity` requests at once in `ms` each; the rest queue. */
const queueing = (capacity: number, ms: number) => (inFlight: number): AttemptSample => ({
  latencyMs: ms * Math.max(1, inFlight / capacity),
  kind: 'ok',
});

/** A token bucket of `perSecond` (burst the same) in front of a server answering in `ms`: empty means 429. */
function rateLimited(perSecond: number, ms: number) {
  let tokens = perSecond;
  let last = 0;
  return (_n: number, now: number): AttemptSample => {
    tokens = Math.min(perSecond, tokens + ((now - last) / 1000) * perSecond);
    last = now;
    if (tokens >= 1) {
      tokens--;
      return { latencyMs: ms, kind: 'ok' };
    }
    return { latencyMs: 1, kind: 'throttled' };
  };
}

describe('ConcurrencyLimiter', () => {
  it('starts small and grows (doubling each round trip) while latency stays at its minimum', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    expect(l.limit).toBe(4);
    // Slow start: 4 to 64 in a few round trips (100 ms each), not one by one.
    simulate(l, clock, 4 + 8 + 16 + 32 + 64, flat(100));
    expect(l.limit).toBe(64);
    expect(clock.t).toBeLessThanOrEqual(700);
    expect(l.peak).toBe(64);
    expect(l.throttled).toBe(0);
  });

  it('never goes past --max-concurrency nor below its minimum', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 10, now: () => clock.t });
    expect(Math.max(...simulate(l, clock, 500, flat(50)))).toBe(10);
    let sent = 0;
    const limits = simulate(l, clock, 500, () => ({ latencyMs: 5 + (sent++ % 3), kind: 'throttled' }));
    expect(Math.min(...limits)).toBe(1);
    expect(l.limit).toBe(1);
    const m = new ConcurrencyLimiter({ max: 8, min: 3, now: () => clock.t });
    simulate(m, clock, 100, () => ({ latencyMs: 5, kind: 'timeout' }));
    expect(m.limit).toBe(3);
    expect(() => new ConcurrencyLimiter({ max: 0 })).toThrow(RangeError);
  });

  it('backs off multiplicatively on a throttle, once per round trip, and recovers', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    simulate(l, clock, 400, flat(100));
    expect(l.limit).toBe(64);
    // A burst of 429s to requests that were all sent before the first of them came back: one cut.
    for (let i = 0; i < 20; i++) {
      clock.t += 1;
      l.observe({ latencyMs: 50, kind: 'throttled' });
    }
    expect(l.limit).toBe(Math.floor(64 * BACKOFF));
    expect(l.throttled).toBe(20);
    // A request sent after the cut that is throttled cuts again.
    clock.t += 100;
    l.observe({ latencyMs: 50, kind: 'throttled' });
    expect(l.limit).toBe(Math.floor(64 * BACKOFF * BACKOFF));
    // Recovery after a throttle, no longer slow start: one more per round trip (Reno), not double.
    const before = l.limit;
    simulate(l, clock, before, flat(100)); // about two round trips' worth of answers (the last window drains)
    expect(l.limit).toBeGreaterThan(before);
    expect(l.limit).toBeLessThanOrEqual(before + 3); // slow start would have quadrupled it
    simulate(l, clock, 3000, flat(100));
    expect(l.limit).toBe(64);
  });

  it('backs off on timeouts', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    simulate(l, clock, 200, flat(20));
    const before = l.limit;
    clock.t += 30_000;
    l.observe({ latencyMs: 30_000, kind: 'timeout' });
    expect(l.limit).toBe(Math.floor(before * BACKOFF));
    expect(l.timeouts).toBe(1);
  });

  it('settles near the capacity of a queueing service, where latency starts to rise', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    const limits = simulate(l, clock, 20_000, queueing(16, 20));
    const late = limits.slice(5_000);
    expect(Math.min(...late)).toBeGreaterThanOrEqual(8);
    expect(Math.max(...late)).toBeLessThanOrEqual(32);
    expect(mean(late)).toBeGreaterThanOrEqual(14);
  });

  it('settles near a rate limit with few throttled requests', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    // 150/s at 100 ms: 15 in flight is enough.
    const limits = simulate(l, clock, 6_000, rateLimited(150, 100));
    const late = limits.slice(1_000);
    expect(mean(late)).toBeGreaterThanOrEqual(10);
    expect(mean(late)).toBeLessThanOrEqual(24);
    // Without the client's pause on a 429 (Retry-After), which this model leaves out, throttles are
    // over-counted here; the bench measures the real share (issue 18: at most 3%).
    expect(l.throttled / 6_000).toBeLessThan(0.15);
  });

  it('does not grow while the limit is not in use', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    // One request at a time, whatever the limit allows (the reader is the bottleneck).
    for (let i = 0; i < 200; i++) {
      l.started();
      clock.t += 10;
      l.observe({ latencyMs: 10, kind: 'ok' });
      l.finished();
    }
    expect(l.limit).toBe(4);
  });

  it('re-bases when the service gets slower for good, instead of shrinking for ever', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 32, now: () => clock.t });
    simulate(l, clock, 500, flat(10));
    expect(l.limit).toBe(32);
    // Ten times slower at any load: latency rose, so the limit drops...
    const limits = simulate(l, clock, 40_000, flat(100));
    expect(Math.min(...limits)).toBeLessThan(32);
    // ...and once the old baseline has aged out (two 30 s epochs) it grows back.
    expect(clock.t).toBeGreaterThan(60_000);
    expect(l.limit).toBe(32);
  });

  it('grows to the maximum when latency jitters (5-20 ms) but does not queue: jitter is not congestion', () => {
    // The lowest of many 4-answer medians made the baseline ~5 ms, the typical 12.5 ms then read as queueing and
    // held the limit at 8-9 (1,000 answers/s in this model, where 64 make 5,000; a review measured 800 vs 3,600).
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    const limits = simulate(l, clock, 40_000, () => ({ latencyMs: 5 + 15 * rnd(), kind: 'ok' }));
    const late = limits.slice(10_000);
    expect(mean(late)).toBeGreaterThanOrEqual(48);
    // And a jittery service with a queue (16 at once) still holds it near the capacity.
    const q = new ConcurrencyLimiter({ max: 64, now: () => clock.t });
    const queued = simulate(q, clock, 20_000, (n) => ({ latencyMs: (5 + 15 * rnd()) * Math.max(1, n / 16), kind: 'ok' }));
    expect(mean(queued.slice(5_000))).toBeLessThanOrEqual(40);
  });

  it('stays put when pinned (--concurrency N), and still counts throttles', () => {
    const clock = { t: 0 };
    const l = new ConcurrencyLimiter({ max: 64, fixed: 12, now: () => clock.t });
    simulate(l, clock, 200, flat(10));
    expect(l.limit).toBe(12);
    simulate(l, clock, 60, () => ({ latencyMs: 1, kind: 'throttled' }));
    expect(l.limit).toBe(12);
    expect(l.throttled).toBe(60 + 12); // the 60 answers, and the 12 in flight at the end
  });
});
