/**
 * Paginated reads with --all against an emulator having a bad day: 5xx, resets,
 * stalls and a rate limit. The output must hold every item exactly once, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let clean: Harness;
let faulty: Harness;

beforeAll(async () => {
  clean = await startHarness();
  faulty = await startHarness({ seed: 11, faults: { failRate: 0.25, resetRate: 0.1, stallRate: 0.03, rateLimit: '40/s', latency: '0-5' } });
});
afterAll(async () => {
  await clean?.close();
  await faulty?.close();
});

describe('paginated reads under faults', () => {
  it('every country and industry exactly once, in order, with small pages', async () => {
    for (const args of [
      ['ref', 'countries', '--all', '--per-page', '7', '-o', 'ndjson'],
      ['ref', 'industries', '--all-levels', '--per-page', '9', '-o', 'ndjson'],
    ]) {
      const want = await clean.run(args);
      expect(want.code).toBe(0);
      const got = await faulty.run([...args, '--retries', '10', '--timeout', '1s'], { timeoutMs: 120_000 });
      expect(got.code, got.stderr).toBe(0);
      expect(got.stdout).toBe(want.stdout);
      const lines = got.stdout.trimEnd().split('\n');
      expect(new Set(lines).size).toBe(lines.length);
    }
    const stats = faulty.emu.faultStats!();
    // The run really went through faults.
    expect(stats.failures + stats.resets + stats.rateLimited + stats.stalls).toBeGreaterThan(10);
  }, 180_000);
});
