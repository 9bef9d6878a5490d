/**
 * The emulator as a fault injector, over real HTTP on loopback (no mocking):
 * each fault at rate 1, latency, the rate limit, determinism under the seed,
 * the admin route, faultStats(), option validation, and the built binary's
 * `srs emulator start` with fault options.
 *
 * Clients use undici's request() with their own Agent: no retries, so every
 * request the test sends is exactly one request the emulator sees.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/contract.js';
import { fixtures, startEmulator } from '../../src/emulator/index.js';
import type { EmulatorOptions, StartedEmulator } from '../../src/emulator/index.js';
import { assertBuilt, baseEnv, BIN, runSrs } from './harness.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}
type Outcome = Reply | { error: string };

const started: StartedEmulator[] = [];
const agents: Agent[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
  await Promise.all(agents.splice(0).map((a) => a.close().catch(() => undefined)));
});

async function emulator(opts: EmulatorOptions = {}): Promise<{ emu: StartedEmulator; agent: Agent; log: string[] }> {
  const log: string[] = [];
  const emu = await startEmulator({ port: 0, log: (l) => log.push(l), ...opts });
  started.push(emu);
  const agent = new Agent({ connections: 4 });
  agents.push(agent);
  return { emu, agent, log };
}

async function call(
  emu: StartedEmulator,
  agent: Agent,
  method: 'GET' | 'POST',
  path: string,
  opts: { body?: unknown; key?: string | null; signal?: AbortSignal } = {},
): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers['x-api-key'] = opts.key ?? emu.apiKey;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  try {
    const res = await request(emu.url + path, { method, headers, body, dispatcher: agent, signal: opts.signal });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, json };
  } catch (e) {
    const err = e as { code?: unknown; name?: string };
    // undici errors and socket errors have a string code; an abort is a DOMException (numeric code).
    return { error: typeof err.code === 'string' ? err.code : (err.name ?? 'Error') };
  }
}

function isReply(o: Outcome): o is Reply {
  return 'status' in o;
}

function reply(o: Outcome): Reply {
  if (!isReply(o)) throw new Error(`expected an answer, got a ${o.error}`);
  return o;
}

/** Socket-level failure codes a client sees when the connection is dropped. */
const SOCKET_ERRORS = ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED'];

function expectSocketError(o: Outcome): void {
  expect(isReply(o), isReply(o) ? `got HTTP ${o.status}` : '').toBe(false);
  expect(SOCKET_ERRORS).toContain((o as { error: string }).error);
}

async function stored(emu: StartedEmulator, agent: Agent): Promise<{ id: string; name: string; customerSupplierId: string | null }[]> {
  const r = reply(await call(emu, agent, 'GET', '/_emulator/suppliers'));
  expect(r.status).toBe(200);
  return r.json;
}

const SEEDED = 150;
const ZERO = { requests: 0, rateLimited: 0, resets: 0, failures: 0, stalls: 0, failedAfterCommit: 0, echoedKeys: 0, overloaded: 0 };

describe('each fault at rate 1', () => {
  it('--fail-rate: 500/502/503 before processing, nothing stored; 502 is HTML, 500/503 JSON, Retry-After only on some 503s', async () => {
    const { emu, agent, log } = await emulator({ admin: true, faults: { failRate: 1 } });
    const statuses = new Map<number, number>();
    let retryAfter503 = 0;
    const n = 45;
    for (let i = 0; i < n; i++) {
      const r = reply(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: `Failing ${i}`, customerSupplierId: `F-${i}` } }));
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 502) {
        expect(r.headers['content-type']).toMatch(/^text\/html/);
        expect(r.text).toMatch(/^<html><head><title>502 Bad Gateway<\/title><\/head>/);
        expect(r.headers['retry-after']).toBeUndefined();
      } else {
        expect([500, 503]).toContain(r.status);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        const body = ErrorBody.parse(r.json);
        expect(body.error.code).toBe(r.status === 500 ? 'internal_error' : 'service_unavailable');
        if (r.status === 500) expect(r.headers['retry-after']).toBeUndefined();
        if (r.status === 503 && r.headers['retry-after'] !== undefined) {
          expect(r.headers['retry-after']).toBe('1');
          retryAfter503++;
        }
      }
    }
    expect([...statuses.keys()].sort()).toEqual([500, 502, 503]);
    expect(retryAfter503).toBeGreaterThan(0);
    expect(retryAfter503).toBeLessThan(statuses.get(503)!);
    // Other /v1 endpoints fail too; nothing was stored.
    expect(reply(await call(emu, agent, 'GET', '/v1/countries')).status).toBeGreaterThanOrEqual(500);
    expect(await stored(emu, agent)).toHaveLength(SEEDED);
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: n + 1, failures: n + 1 });
    expect(log.filter((l) => /^POST \/v1\/suppliers fault=fail status=50[023]$/.test(l))).toHaveLength(n);
  });

  it('--fail-after-commit-rate: the supplier is stored, the client sees a socket error; other requests are answered', async () => {
    const { emu, agent, log } = await emulator({ admin: true, faults: { failAfterCommitRate: 1 } });
    expectSocketError(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'Ambiguous Ltd', customerSupplierId: 'AMB-1' } }));
    expectSocketError(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'No Customer Id' } }));
    // Nothing committed, nothing dropped: a validation error and other endpoints answer normally.
    const invalid = reply(await call(emu, agent, 'POST', '/v1/suppliers', { body: { customerSupplierId: 'no name' } }));
    expect(invalid.status).toBe(400);
    expect(reply(await call(emu, agent, 'GET', '/v1/countries?perPage=1')).status).toBe(200);
    const all = await stored(emu, agent);
    expect(all).toHaveLength(SEEDED + 2);
    expect(all.slice(SEEDED).map(({ name, customerSupplierId }) => ({ name, customerSupplierId }))).toEqual([
      { name: 'Ambiguous Ltd', customerSupplierId: 'AMB-1' },
      { name: 'No Customer Id', customerSupplierId: null },
    ]);
    // The stored supplier is really there for /v1 reads.
    expect(reply(await call(emu, agent, 'GET', `/v1/suppliers/${all[SEEDED]!.id}`)).json.item.name).toBe('Ambiguous Ltd');
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: 5, failedAfterCommit: 2 });
    expect(log.filter((l) => l === 'POST /v1/suppliers fault=fail-after-commit')).toHaveLength(2);
  });

  it('--reset-rate: the connection is dropped before processing, nothing stored', async () => {
    const { emu, agent, log } = await emulator({ admin: true, faults: { resetRate: 1 } });
    expectSocketError(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'Never Stored', customerSupplierId: 'R-1' } }));
    expectSocketError(await call(emu, agent, 'GET', '/v1/countries'));
    expectSocketError(await call(emu, agent, 'GET', '/v1/no-such-endpoint'));
    expect(await stored(emu, agent)).toHaveLength(SEEDED);
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: 3, resets: 3 });
    expect(log).toContain('POST /v1/suppliers fault=reset');
    expect(log).toContain('GET /v1/countries fault=reset');
  });

  it('--stall-rate: no answer; close() still returns quickly and ends the stalled request', async () => {
    const { emu, agent, log } = await emulator({ admin: true, faults: { stallRate: 1 } });
    const t0 = performance.now();
    const timedOut = await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'Stalled' }, signal: AbortSignal.timeout(500) });
    expect(isReply(timedOut)).toBe(false);
    expect(['AbortError', 'TimeoutError', 'UND_ERR_ABORTED']).toContain((timedOut as { error: string }).error);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(450);
    expect(await stored(emu, agent)).toHaveLength(SEEDED); // the admin route is never stalled

    let settled = false;
    const pending = call(emu, agent, 'GET', '/v1/countries').finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: 2, stalls: 2 });
    const t1 = performance.now();
    await emu.close();
    expect(performance.now() - t1).toBeLessThan(1_000);
    expectSocketError(await pending);
    expect(log.filter((l) => l.endsWith(' fault=stall'))).toHaveLength(2);
  });

  it('a stalled request is ended after stallTimeoutMs (5 minutes by default)', async () => {
    const { emu, agent } = await emulator({ faults: { stallRate: 1, stallTimeoutMs: 200 } });
    const t0 = performance.now();
    expectSocketError(await call(emu, agent, 'GET', '/v1/countries', { signal: AbortSignal.timeout(5_000) }));
    const ms = performance.now() - t0;
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(3_000);
  });

  it('--rate-limit N/s: N requests in a burst, then 429 with Retry-After and a JSON error; nothing processed', async () => {
    const { emu, agent, log } = await emulator({ admin: true, faults: { rateLimit: '3/s' } });
    const outcomes: Reply[] = [];
    for (let i = 0; i < 7; i++) {
      outcomes.push(reply(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: `Burst ${i}`, customerSupplierId: `B-${i}` } })));
    }
    expect(outcomes.slice(0, 3).map((r) => r.status)).toEqual([201, 201, 201]);
    for (const r of outcomes.slice(3)) {
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('1');
      expect(ErrorBody.parse(r.json).error.code).toBe('rate_limited');
    }
    const all = await stored(emu, agent); // the admin route is not rate limited
    expect(all.slice(SEEDED).map((s) => s.customerSupplierId)).toEqual(['B-0', 'B-1', 'B-2']);
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: 7, rateLimited: 4 });
    expect(log.filter((l) => l === 'POST /v1/suppliers fault=rate-limit retry-after=1')).toHaveLength(4);
    // Tokens come back at N per second.
    await new Promise((r) => setTimeout(r, 450));
    expect(reply(await call(emu, agent, 'GET', '/v1/countries?perPage=1')).status).toBe(200);
  });

  it('--rate-limit below 1/s: Retry-After is in whole seconds, rounded up', async () => {
    const { emu, agent } = await emulator({ faults: { rateLimit: 0.5 } });
    expect(reply(await call(emu, agent, 'GET', '/v1/countries?perPage=1')).status).toBe(200);
    const limited = reply(await call(emu, agent, 'GET', '/v1/countries?perPage=1'));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
  });
});

describe('capacity', () => {
  it('--capacity N: N requests in progress at once, N more wait their turn, the rest get 503 with Retry-After; nothing lost', async () => {
    const { emu, log } = await emulator({ admin: true, faults: { capacity: 2, latency: 300 } });
    const wide = new Agent({ connections: 8 });
    agents.push(wide);
    const t0 = performance.now();
    const timed = async (i: number) => {
      const o = reply(await call(emu, wide, 'POST', '/v1/suppliers', { body: { name: `Load ${i}`, customerSupplierId: `L-${i}` } }));
      return { status: o.status, ms: performance.now() - t0, o };
    };
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => timed(i)));
    const ok = results.filter((r) => r.status === 201);
    const over = results.filter((r) => r.status === 503);
    expect(ok).toHaveLength(4);
    expect(over).toHaveLength(3);
    for (const r of over) {
      expect(r.o.headers['retry-after']).toBe('1');
      expect(ErrorBody.parse(r.o.json).error.code).toBe('service_unavailable');
    }
    // Two in the first turn, two queued behind them: their latency includes the wait.
    const times = ok.map((r) => r.ms).sort((a, b) => a - b);
    expect(times[0]).toBeGreaterThanOrEqual(290);
    expect(times[2]).toBeGreaterThanOrEqual(590);
    // Refused requests are answered without waiting for a slot.
    for (const r of over) expect(r.ms).toBeLessThan(times[0]!);
    expect((await stored(emu, wide)).length).toBe(SEEDED + 4);
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: 7, overloaded: 3 });
    expect(log.filter((l) => l === 'POST /v1/suppliers fault=overloaded')).toHaveLength(3);
  });

  it('--capacity must be a whole number of at least 1', async () => {
    for (const bad of [0, -1, 1.5, '8x']) {
      await expect(startEmulator({ port: 0, faults: { capacity: bad as number } })).rejects.toThrow(/faults\.capacity must be a whole number/);
    }
  });
});

describe('latency', () => {
  it('a range: every /v1 answer takes at least the minimum; the admin route is not delayed', async () => {
    const { emu, agent } = await emulator({ admin: true, faults: { latency: '150-250' } });
    for (let i = 0; i < 4; i++) {
      const t = performance.now();
      expect(reply(await call(emu, agent, 'GET', '/v1/countries?perPage=1')).status).toBe(200);
      const ms = performance.now() - t;
      expect(ms).toBeGreaterThanOrEqual(145);
      expect(ms).toBeLessThan(2_000);
    }
    const t = performance.now();
    await stored(emu, agent);
    expect(performance.now() - t).toBeLessThan(145);
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: 4 }); // latency is not a fault
  });

  it('a fixed delay, also on writes', async () => {
    const { emu, agent } = await emulator({ faults: { latency: 120 } });
    const t = performance.now();
    expect(reply(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'Slow Co' } })).status).toBe(201);
    expect(performance.now() - t).toBeGreaterThanOrEqual(115);
  });

  it('a create whose client leaves during the latency is still made, as by a service that received the whole request', async () => {
    const { emu, agent } = await emulator({ admin: true, faults: { latency: 400 } });
    const before = (await stored(emu, agent)).length;
    const gone = await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'Left Early GmbH', customerSupplierId: 'LEFT-1' }, signal: AbortSignal.timeout(100) });
    expect(isReply(gone)).toBe(false);
    await new Promise((r) => setTimeout(r, 600));
    const after = await stored(emu, agent);
    expect(after.length).toBe(before + 1);
    expect(after.filter((s) => s.customerSupplierId === 'LEFT-1')).toHaveLength(1);
  });
});

describe('determinism', () => {
  const FAULTS = { failRate: 0.25, resetRate: 0.15, failAfterCommitRate: 0.3 };

  /** 40 sequential requests (reads and creates); the outcome of each: status, or "drop". */
  async function sequence(seed: number, interleaveAdmin = false): Promise<{ outcomes: string[]; faultLog: string[]; stats: object }> {
    const { emu, agent, log } = await emulator({ seed, admin: true, faults: FAULTS });
    const outcomes: string[] = [];
    for (let i = 0; i < 40; i++) {
      const o =
        i % 2 === 0
          ? await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: `Det ${i}`, customerSupplierId: `D-${i}` } })
          : await call(emu, agent, 'GET', '/v1/countries?perPage=1');
      outcomes.push(isReply(o) ? String(o.status) : 'drop');
      if (interleaveAdmin) await stored(emu, agent);
    }
    const counted = {
      requests: outcomes.length,
      failures: outcomes.filter((o) => o.startsWith('5')).length,
      drops: outcomes.filter((o) => o === 'drop').length,
    };
    const stats = emu.faultStats();
    // faultStats() matches what the client saw.
    expect(stats.requests).toBe(counted.requests);
    expect(stats.failures).toBe(counted.failures);
    expect(stats.resets + stats.failedAfterCommit).toBe(counted.drops);
    expect(stats.rateLimited + stats.stalls).toBe(0);
    // Every committed-then-dropped supplier is stored; no reset or failed one is.
    const created = (await stored(emu, agent)).slice(SEEDED).map((s) => s.customerSupplierId);
    const answered = outcomes.flatMap((o, i) => (i % 2 === 0 && o === '201' ? [`D-${i}`] : []));
    const droppedPosts = outcomes.flatMap((o, i) => (i % 2 === 0 && o === 'drop' ? [`D-${i}`] : []));
    expect(created.length).toBe(answered.length + stats.failedAfterCommit);
    for (const id of answered) expect(created).toContain(id);
    for (const id of created) expect([...answered, ...droppedPosts]).toContain(id);
    return { outcomes, faultLog: log.filter((l) => l.includes(' fault=')), stats };
  }

  it('the same seed and request sequence give the same faults; another seed gives others', async () => {
    const a = await sequence(7);
    const b = await sequence(7);
    const c = await sequence(8);
    expect(b.outcomes).toEqual(a.outcomes);
    expect(b.faultLog).toEqual(a.faultLog);
    expect(b.stats).toEqual(a.stats);
    expect(c.outcomes).not.toEqual(a.outcomes);
    // The mix really happened.
    expect(a.outcomes).toContain('drop');
    expect(a.outcomes.some((o) => o.startsWith('5'))).toBe(true);
    expect(a.outcomes).toContain('201');
    expect(a.outcomes).toContain('200');
    expect((a.stats as { resets: number }).resets).toBeGreaterThan(0);
    expect((a.stats as { failedAfterCommit: number }).failedAfterCommit).toBeGreaterThan(0);
  });

  it('admin requests in between neither get faults nor move the fault sequence', async () => {
    const a = await sequence(11);
    const b = await sequence(11, true);
    expect(b.outcomes).toEqual(a.outcomes);
    expect(b.faultLog).toEqual(a.faultLog);
  });

  it('the seeded data does not depend on the faults', async () => {
    const { emu, agent } = await emulator({ seed: 7, admin: true, faults: { failRate: 0.5, latency: '0-5' } });
    expect((await stored(emu, agent)).map((s) => s.id)).toEqual(fixtures(7).suppliers.map((s) => s.id));
  });
});

describe('admin route GET /_emulator/suppliers', () => {
  it('lists seeded then created suppliers with customerSupplierId, in store order; needs the key', async () => {
    const { emu, agent } = await emulator({ admin: true, seed: 3 });
    const a = reply(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'Audit One', customerSupplierId: 'ERP-001' } })).json.id;
    const b = reply(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'Audit Two' } })).json.id;
    const r = reply(await call(emu, agent, 'GET', '/_emulator/suppliers'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(Array.isArray(r.json)).toBe(true);
    expect(r.json).toHaveLength(SEEDED + 2);
    expect(r.json.slice(0, SEEDED).map((s: any) => s.id)).toEqual(fixtures(3).suppliers.map((s) => s.id));
    expect(r.json.slice(SEEDED)).toEqual([
      { id: a, name: 'Audit One', customerSupplierId: 'ERP-001' },
      { id: b, name: 'Audit Two', customerSupplierId: null },
    ]);
    for (const s of r.json) expect(Object.keys(s).sort()).toEqual(['customerSupplierId', 'id', 'name']);
    const ids = r.json.map((s: any) => s.id);
    expect(ids).toEqual([...ids].sort());

    for (const key of [null, 'wrong-key']) {
      const denied = reply(await call(emu, agent, 'GET', '/_emulator/suppliers', { key }));
      expect(denied.status).toBe(401);
      expect(ErrorBody.parse(denied.json).error.code).toBe('unauthorized');
    }
    expect(reply(await call(emu, agent, 'POST', '/_emulator/suppliers', { body: {} })).status).toBe(405);
  });

  it('is a 404 without the admin option', async () => {
    const { emu, agent } = await emulator();
    const r = reply(await call(emu, agent, 'GET', '/_emulator/suppliers'));
    expect(r.status).toBe(404);
    expect(ErrorBody.parse(r.json).error.code).toBe('not_found');
  });

  it('never gets a fault, whatever the rates', async () => {
    const { emu, agent, log } = await emulator({
      admin: true,
      faults: { resetRate: 1, failRate: 1, stallRate: 1, rateLimit: 1, latency: 1_000 },
    });
    for (let i = 0; i < 5; i++) expect(await stored(emu, agent)).toHaveLength(SEEDED);
    expect(emu.faultStats()).toEqual(ZERO);
    expect(log.some((l) => l.includes('fault='))).toBe(false);
  });
});

describe('faultStats()', () => {
  it('all zero without faults; requests counts /v1 requests only', async () => {
    const { emu, agent } = await emulator({ admin: true });
    expect(emu.faultStats()).toEqual(ZERO);
    await call(emu, agent, 'GET', '/v1/countries?perPage=1');
    await call(emu, agent, 'GET', '/v1/countries', { key: null }); // a 401 is still a /v1 request
    await call(emu, agent, 'GET', '/elsewhere');
    await stored(emu, agent);
    expect(emu.faultStats()).toEqual({ ...ZERO, requests: 2 });
  });

  it('counts a mix of every fault', async () => {
    const { emu, agent, log } = await emulator({
      seed: 5,
      faults: { resetRate: 0.1, failRate: 0.2, stallRate: 0.1, failAfterCommitRate: 0.3, stallTimeoutMs: 60_000 },
    });
    let answered5xx = 0;
    let answeredOk = 0;
    let dropped = 0;
    let timedOut = 0;
    for (let i = 0; i < 60; i++) {
      const o = await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: `Mix ${i}` }, signal: AbortSignal.timeout(750) });
      if (isReply(o)) {
        if (o.status >= 500) answered5xx++;
        else if (o.status === 201) answeredOk++;
      } else if (['AbortError', 'TimeoutError', 'UND_ERR_ABORTED'].includes(o.error)) timedOut++;
      else dropped++;
    }
    const s = emu.faultStats();
    expect(s.requests).toBe(60);
    expect(s.failures).toBe(answered5xx);
    expect(s.stalls).toBe(timedOut);
    expect(s.resets + s.failedAfterCommit).toBe(dropped);
    expect(s.requests - s.failures - s.stalls - s.resets - s.failedAfterCommit).toBe(answeredOk);
    for (const k of ['failures', 'stalls', 'resets', 'failedAfterCommit'] as const) expect(s[k], k).toBeGreaterThan(0);
    expect(log.filter((l) => l.includes(' fault=')).length).toBe(s.failures + s.stalls + s.resets + s.failedAfterCommit);
  });
});

describe('option validation in startEmulator', () => {
  it.each([
    [{ failRate: 1.5 }, /faults\.failRate/],
    [{ failRate: -0.1 }, /faults\.failRate/],
    [{ resetRate: Number.NaN }, /faults\.resetRate/],
    [{ stallRate: 2 }, /faults\.stallRate/],
    [{ failAfterCommitRate: -1 }, /faults\.failAfterCommitRate/],
    [{ latency: '300-100' }, /faults\.latency/],
    [{ latency: 'fast' }, /faults\.latency/],
    [{ latency: -5 }, /faults\.latency/],
    [{ latency: { min: 10, max: 5 } }, /faults\.latency/],
    [{ rateLimit: '0/s' }, /faults\.rateLimit/],
    [{ rateLimit: 0 }, /faults\.rateLimit/],
    [{ rateLimit: '10/min' }, /faults\.rateLimit/],
  ] as const)('%o is rejected', async (faults, message) => {
    await expect(startEmulator({ faults: faults as EmulatorOptions['faults'] })).rejects.toThrow(message);
  });

  it('accepts every documented form', async () => {
    for (const faults of [
      { latency: '100' },
      { latency: '50-200' },
      { latency: 0 },
      { latency: { min: 5, max: 5 } },
      { rateLimit: '200/s' },
      { rateLimit: '200' },
      { rateLimit: 0.5 },
      { failRate: 0, resetRate: 1, stallRate: 0.5, failAfterCommitRate: 0.02 },
    ]) {
      const emu = await startEmulator({ faults });
      expect(emu.url, JSON.stringify(faults)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await emu.close();
    }
  });
});

describe('srs emulator start (built binary)', () => {
  beforeAll(() => assertBuilt());

  it('--admin --fail-rate 1: /v1 answers 5xx, the admin route works, SIGTERM stops it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'srs-emu-faults-'));
    const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '-o', 'json', '--admin', '--fail-rate', '1'], {
      env: baseEnv(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      const first = await new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          buf += d;
          const nl = buf.indexOf('\n');
          if (nl >= 0) resolve(buf.slice(0, nl));
        });
        child.on('close', () => reject(new Error(`exited before printing its URL: ${stderr}`)));
      });
      const info = JSON.parse(first);
      expect(Object.keys(info).sort()).toEqual(['apiKey', 'seed', 'url']);
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const agent = new Agent();
      agents.push(agent);
      const emu = { url: info.url, apiKey: info.apiKey } as StartedEmulator;
      const r = reply(await call(emu, agent, 'GET', '/v1/countries'));
      expect(r.status).toBeGreaterThanOrEqual(500);
      expect(r.status).toBeLessThan(600);
      const p = reply(await call(emu, agent, 'POST', '/v1/suppliers', { body: { name: 'CLI Fail' } }));
      expect([500, 502, 503]).toContain(p.status);
      expect(await stored(emu, agent)).toHaveLength(SEEDED);
      await agent.close();
      child.kill('SIGTERM');
      expect(await exited).toBe(143); // SIGTERM: closed cleanly, then 128 + 15 like every command
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.each([
    ['--fail-rate', '2'],
    ['--reset-rate', '-0.1'],
    ['--stall-rate', 'often'],
    ['--fail-after-commit-rate', '1.5'],
    ['--latency', '300-100'],
    ['--latency', 'fast'],
    ['--rate-limit', '0/s'],
    ['--rate-limit', 'ten/s'],
  ])('%s %s is a usage error (exit 2, one line naming the option)', async (flag, value) => {
    const home = mkdtempSync(join(tmpdir(), 'srs-emu-faults-'));
    const r = await runSrs(['emulator', 'start', '--port', '0', `${flag}=${value}`], baseEnv(home), { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain(flag);
  });
});
