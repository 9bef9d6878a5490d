/** BufferPool (src/util/buffer-pool.ts): reuse without ever handing out memory that is still in use. */
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../src/util/buffer-pool.js';

describe('BufferPool', () => {
  it('hands out buffers of at least the size asked, and reuses one that comes back', () => {
    const pool = new BufferPool(4);
    const a = pool.take(100_000);
    expect(a.length).toBeGreaterThanOrEqual(100_000);
    pool.release(a.subarray(0, 100_000));
    const b = pool.take(90_000);
    expect(b.buffer).toBe(a.buffer);
    // Too small for what is asked next: a new one.
    pool.release(b);
    const c = pool.take(10_000_000);
    expect(c.buffer).not.toBe(a.buffer);
    expect(c.length).toBeGreaterThanOrEqual(10_000_000);
  });

  it('a buffer is never handed out twice at once, even when released twice', () => {
    const pool = new BufferPool(4);
    const a = pool.take(1000);
    pool.release(a);
    pool.release(a);
    const b = pool.take(1000);
    const c = pool.take(1000);
    expect(b.buffer).toBe(a.buffer);
    expect(c.buffer).not.toBe(a.buffer);
  });

  it('takes back only its own memory', () => {
    const pool = new BufferPool(4);
    const foreign = Buffer.alloc(1 << 20);
    pool.release(foreign);
    expect(pool.take(1000).buffer).not.toBe(foreign.buffer);
  });

  it('keeps at most `max` free buffers', () => {
    const pool = new BufferPool(2);
    const taken = [pool.take(10), pool.take(10), pool.take(10)];
    for (const b of taken) pool.release(b);
    const again = [pool.take(10), pool.take(10), pool.take(10)];
    const reused = again.filter((b) => taken.some((t) => t.buffer === b.buffer));
    expect(reused).toHaveLength(2);
  });
});
