/** mapOrdered (src/util/concurrency.ts): the request window of score calc and score check. */
import { describe, expect, it } from 'vitest';
import { mapOrdered } from '../../src/util/concurrency.js';

interface Deferred {
  item: number;
  resolve: (v: string) => void;
  reject: (e: Error) => void;
}

/** fn whose calls the test settles by hand; records what is in flight. */
function controlled() {
  const calls: Deferred[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fn = (item: number) =>
    new Promise<string>((resolve, reject) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      let settled = false;
      const done = () => {
        if (!settled) inFlight--;
        settled = true;
      };
      calls.push({ item, resolve: (v) => (done(), resolve(v)), reject: (e) => (done(), reject(e)) });
    });
  return { calls, fn, stats: () => ({ inFlight, maxInFlight }) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('mapOrdered', () => {
  it('yields in input order while calls finish in any order, never more than `concurrency` in flight', async () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    const delays = items.map((i) => (i * 7919) % 13);
    const out: number[] = [];
    let inFlight = 0;
    let max = 0;
    for await (const v of mapOrdered(items, 4, async (i) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((r) => setTimeout(r, delays[i]));
      inFlight--;
      return i;
    })) {
      out.push(v);
    }
    expect(out).toEqual(items);
    expect(max).toBe(4);
  });

  it('a slow first call does not stall the others: finished calls free their slots, up to `ahead` results waiting', async () => {
    const c = controlled();
    const gen = mapOrdered(
      Array.from({ length: 20 }, (_, i) => i),
      2,
      c.fn,
      6,
    );
    const first = gen.next();
    await tick();
    expect(c.calls.map((d) => d.item)).toEqual([0, 1]);
    // Call 0 hangs; the others finish as soon as they start.
    for (let round = 0; round < 10; round++) {
      for (const d of c.calls.slice(1)) d.resolve(`r${d.item}`);
      await tick();
    }
    // Started: 0 (pending) and 1..5 (finished, waiting for 0): the window of 6 is full, nothing more starts.
    expect(c.calls.map((d) => d.item)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(c.stats().inFlight).toBe(1);
    c.calls[0]!.resolve('r0');
    expect(await first).toEqual({ value: 'r0', done: false });
    const rest: string[] = [];
    for (;;) {
      await tick();
      for (const d of c.calls) d.resolve(`r${d.item}`);
      const n = await gen.next();
      if (n.done) break;
      rest.push(n.value);
    }
    expect(rest).toEqual(Array.from({ length: 19 }, (_, i) => `r${i + 1}`));
    expect(c.stats().maxInFlight).toBeLessThanOrEqual(2);
  });

  it('a failure surfaces in its turn, after the results before it', async () => {
    const out: number[] = [];
    const run = async () => {
      for await (const v of mapOrdered([0, 1, 2, 3], 4, async (i) => {
        if (i === 2) throw new Error('batch 2 failed');
        return i;
      })) {
        out.push(v);
      }
    };
    await expect(run()).rejects.toThrow('batch 2 failed');
    expect(out).toEqual([0, 1]);
  });

  it('a call that throws synchronously is a failure in its turn, not a crash', async () => {
    const gen = mapOrdered([0, 1, 2], 1, (i) => {
      if (i === 1) throw new Error('bad input 1');
      return Promise.resolve(i);
    });
    expect(await gen.next()).toEqual({ value: 0, done: false });
    await expect(gen.next()).rejects.toThrow('bad input 1');
  });
});
