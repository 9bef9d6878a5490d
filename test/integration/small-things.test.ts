/** Plurals, --page past the end, and --quiet. (A base URL ending in /v1: test/integration/profiles.test.ts.) */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
const fx = fixtures();
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('plurals', () => {
  it('says "the first 1 country" and "1 supplier", never "(s)"', async () => {
    const one = await h.run(['ref', 'countries', '--limit', '1']);
    expect(one.stderr).toBe('showing the first 1 country; more exist (raise --limit, or drop it to fetch everything)\n');
    const two = await h.run(['ref', 'countries', '--limit', '2']);
    expect(two.stderr).toContain('showing the first 2 countries;');
    const bundle = join(mkdtempSync(join(tmpdir(), 'srs-plural-')), 'b.json');
    const saved = await h.run(['score', 'calc', fx.suppliers[0]!.id, '--save', bundle]);
    expect(saved.stderr).toContain('(1 supplier, as of');
    const re = await h.run(['score', 'recompute', bundle]);
    expect(re.stderr).toMatch(/^recomputed 1 supplier as of/);
    for (const r of [one, two, saved, re]) expect(r.stderr).not.toContain('(s)');
  });
});

describe('--page past the end', () => {
  it('says so on stderr in every format, and prints an empty list', async () => {
    const r = await h.run(['ref', 'categories', '--page', '50', '--per-page', '5', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toBe('warning: page 50 is past the end of the categories at 5 per page: try a lower --page, or drop --page to fetch everything\n');
  });
});

describe('--quiet', () => {
  it('silences notes that are not problems, keeps warnings that are, and errors', async () => {
    const limit = await h.run(['--quiet', 'ref', 'countries', '--limit', '1']);
    expect(limit.code).toBe(0);
    expect(limit.stderr).toBe('');
    const dupes = await h.run(['-q', 'score', 'calc', fx.suppliers[0]!.id, fx.suppliers[0]!.id, '-o', 'json']);
    expect(dupes.code).toBe(0);
    expect(dupes.stderr).toBe('');
    const loud = await h.run(['score', 'calc', fx.suppliers[0]!.id, fx.suppliers[0]!.id, '-o', 'json']);
    expect(loud.stderr).toBe('1 duplicate supplier id ignored\n');
    const past = await h.run(['-q', 'ref', 'categories', '--page', '50']);
    expect(past.stderr).toMatch(/^warning: page 50 is past the end/);
    const err = await h.run(['-q', 'supplier', 'get', 'nope']);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/^srs: GET \/v1\/suppliers\/nope failed with HTTP 404/);
  });
});
