import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/errors.js';
import { backoffDelay, parseRetryAfter, RetryBudget, RetryPolicy } from '../../src/api/retry.js';

const net = (notSent: boolean, timeout = false) => new NetworkError({ method: 'POST', path: '/v1/suppliers', reason: 'x', notSent, timeout });

function policy(extra: ConstructorParameters<typeof RetryPolicy>[0] = {}) {
  let t = 0;
  return new RetryPolicy({ random: () => 0.5, now: () => t, sleep: async (ms) => void (t += ms), ...extra });
}

describe('retry schedule', () => {
  it('property: full jitter stays within [0, min(cap, base*2^n))', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 60000 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, base, cap, r) => {
        const d = backoffDelay(n, base, cap, () => r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(Math.max(1, Math.min(cap, base * 2 ** Math.min(n, 30))));
      }),
    );
  });
  it('property: the ceiling never shrinks as attempts grow', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100000 }), (n, base, cap) => {
        expect(backoffDelay(n + 1, base, cap, () => 0.999999)).toBeGreaterThanOrEqual(backoffDelay(n, base, cap, () => 0.999999));
      }),
    );
  });
  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter('0.5', 0)).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('retry decisions', () => {
  it('reads are retried on network errors and 408/429/5xx; not on other 4xx', () => {
    const p = policy();
    expect(p.decide({ kind: 'network', error: net(false) }, 0, true, 0).retry).toBe(true);
    for (const s of [408, 429, 500, 502, 503, 504]) expect(p.decide({ kind: 'status', status: s }, 0, true, 0).retry).toBe(true);
    for (const s of [400, 401, 404, 409, 422, 501]) expect(p.decide({ kind: 'status', status: s }, 0, true, 0).retry).toBe(false);
  });
  it('creates are retried only when provably not processed', () => {
    const p = policy();
    expect(p.decide({ kind: 'network', error: net(true) }, 0, false, 0).retry).toBe(true);
    expect(p.decide({ kind: 'network', error: net(false) }, 0, false, 0).retry).toBe(false);
    expect(p.decide({ kind: 'status', status: 429 }, 0, false, 0).retry).toBe(true);
    // A 503 only with Retry-After (the service asks to be called later); a bare one may follow a commit (a gateway's).
    expect(p.decide({ kind: 'status', status: 503, retryAfterMs: 1000 }, 0, false, 0).retry).toBe(true);
    expect(p.decide({ kind: 'status', status: 503 }, 0, false, 0).retry).toBe(false);
    for (const s of [500, 502, 504, 408]) expect(p.decide({ kind: 'status', status: s }, 0, false, 0).retry).toBe(false);
  });
  it('stops after the configured retries and honours a capped Retry-After', () => {
    const p = policy({ retries: 2, retryAfterCapMs: 5000 });
    expect(p.decide({ kind: 'status', status: 503 }, 2, true, 0).retry).toBe(false);
    // A 503's Retry-After is the least wait, spread by up to half as much again, at most 1 s (random 0.5: +500 ms
    // of 1,000); a 429's is the run's pause, not spread.
    expect(p.decide({ kind: 'status', status: 503, retryAfterMs: 3000 }, 0, true, 0).delayMs).toBe(3500);
    expect(p.decide({ kind: 'status', status: 503, retryAfterMs: 1000 }, 0, true, 0).delayMs).toBe(1250);
    expect(p.decide({ kind: 'status', status: 429, retryAfterMs: 3000 }, 0, true, 0).delayMs).toBe(3000);
    const low = policy({ random: () => 0 });
    expect(low.decide({ kind: 'status', status: 429, retryAfterMs: 3000 }, 0, true, 0).delayMs).toBe(3000);
    // Longer than srs ever waits: not retried at all (it was retried after the cap, and failed all the same).
    const long = p.decide({ kind: 'status', status: 429, retryAfterMs: 999_999 }, 0, true, 0);
    expect(long).toMatchObject({ retry: false, reason: 'HTTP 429: the service asks to wait 1000 s, longer than srs waits (5 s)' });
    expect(p.pauseAfter429(long, 999_999)).toBe(0);
    expect(p.decide({ kind: 'status', status: 429, retryAfterMs: 5000 }, 0, true, 0)).toMatchObject({ retry: true, delayMs: 5000 });
  });
  it('stops when the total time bound would be passed', () => {
    const p = policy({ maxTotalMs: 1000, retryAfterCapMs: 60000 });
    expect(p.decide({ kind: 'status', status: 429, retryAfterMs: 2000 }, 0, true, 0).retry).toBe(false);
  });
  it('property: a shared budget bounds the retries of a whole run', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), (failures) => {
        const p = policy({ budget: 100, retries: 10 });
        let retries = 0;
        for (let i = 0; i < failures; i++) if (p.decide({ kind: 'status', status: 500 }, 0, true, 0).retry) retries++;
        expect(retries).toBeLessThanOrEqual(20); // 100 tokens / 5 per retry
        expect(retries).toBe(Math.min(failures, 20));
      }),
    );
  });
  it('a request given a budget of its own draws on it, not on the shared one (lookups beside batches must not starve them)', () => {
    const p = policy({ budget: 10, retries: 10 });
    const own = new RetryBudget(10);
    expect(p.decide({ kind: 'status', status: 500 }, 0, true, 0, own).retry).toBe(true);
    expect(p.decide({ kind: 'status', status: 500 }, 0, true, 0, own).retry).toBe(true);
    expect(p.decide({ kind: 'status', status: 500 }, 0, true, 0, own)).toMatchObject({ retry: false, limit: 'budget' });
    expect(own.tokens).toBe(0);
    expect(p.budget.tokens).toBe(10);
    expect(p.decide({ kind: 'status', status: 500 }, 0, true, 0).retry).toBe(true);
  });
  it('stop(): a wait for a retry ends at once, and nothing is retried after it', async () => {
    const p = new RetryPolicy({ retries: 5, sleep: () => new Promise(() => undefined) }); // a wait that never ends by itself
    const waiting = p.sleep(30_000);
    p.gate.pauseFor(30_000);
    const gate = p.gate.wait();
    p.stop();
    await waiting;
    await gate;
    expect(p.decide({ kind: 'status', status: 429 }, 0, false, 0)).toMatchObject({ retry: false, limit: 'stopped' });
  });
  it('successes refund the budget, up to its capacity', () => {
    const b = new RetryBudget(10);
    expect(b.tryAcquire(false)).toBe(true);
    expect(b.tokens).toBe(5);
    b.refund();
    expect(b.tokens).toBe(6);
    for (let i = 0; i < 10; i++) b.refund();
    expect(b.tokens).toBe(10);
    expect(b.tryAcquire(true)).toBe(true);
    expect(b.tryAcquire(false)).toBe(false);
  });
  it('a pause applies to everyone waiting at the gate', async () => {
    const p = policy();
    p.gate.pauseFor(1500);
    const before = p.now();
    await p.gate.wait();
    expect(p.now() - before).toBe(1500);
    await p.gate.wait();
    expect(p.now() - before).toBe(1500);
  });
});
