/**
 * The score commands' shared option parsing (src/commands/score/options.ts,
 * scoringOverrides in bundle.ts), bundle defaults, the scorecard lookup used by
 * recompute, and the atomic file write they share (src/util/fs.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Scorecard, ScoreResult } from '../../src/api/contract.js';
import {
  Bundle,
  BUNDLE_KIND,
  BUNDLE_VERSION_1,
  bundleOptions,
  checkScoringOptions,
  parseBundleOrResponse,
  scorecardResolver,
  scoringOverrides,
  toScoringScorecard,
  withOverrides,
} from '../../src/commands/score/bundle.js';
import { DEFAULT_TOLERANCE, finiteNumber, optionalNumber } from '../../src/commands/score/options.js';
import { parseTolerance } from '../../src/commands/score/recompute.js';
import { UsageError } from '../../src/errors.js';
import {
  DEFAULT_CLAIM_WEIGHT,
  DEFAULT_INCLUDE_ZERO_VALUES,
  DEFAULT_MODE,
  entriesFromScoreResult,
  scoreSupplier,
  toScoreResult,
  type AggregationMode,
  type ScoringEntry,
  type ScoringScorecard,
} from '../../src/scoring/index.js';
import { writeFileAtomic } from '../../src/util/fs.js';

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('finiteNumber', () => {
  it('parses finite numbers from strings and numeric defaults', () => {
    const p = finiteNumber('--min');
    expect(p('1.5')).toBe(1.5);
    expect(p(' -2 ')).toBe(-2);
    expect(p('1e-3')).toBe(0.001);
    expect(p(0.25)).toBe(0.25);
  });

  it.each([
    [finiteNumber('--min'), 'x', '--min must be a number (got "x")'],
    [finiteNumber('--min'), '', '--min must be a number (got "")'],
    [finiteNumber('--min'), 'Infinity', '--min must be a number (got "Infinity")'],
    [finiteNumber('--min'), 'NaN', '--min must be a number (got "NaN")'],
    [finiteNumber('--tolerance', 0), '-1', '--tolerance must be a number >= 0 (got "-1")'],
    [finiteNumber('--w', 0, 1), '1.01', '--w must be a number from 0 to 1 (got "1.01")'],
    [finiteNumber('--w', undefined, 3), '4', '--w must be a number <= 3 (got "4")'],
  ])('%#: rejects %j with a message naming the option, range and value', (parse, value, message) => {
    const e = usageError(() => parse(value));
    expect(e.message).toBe(message);
    expect(e.exitCode).toBe(2);
  });

  it('bounds are inclusive', () => {
    expect(finiteNumber('--w', 0, 1)('0')).toBe(0);
    expect(finiteNumber('--w', 0, 1)('1')).toBe(1);
  });

  it('optionalNumber: undefined stays undefined', () => {
    expect(optionalNumber(undefined, finiteNumber('--min'))).toBeUndefined();
    expect(optionalNumber('3', finiteNumber('--min'))).toBe(3);
  });

  it('--tolerance defaults to DEFAULT_TOLERANCE and keeps its message', () => {
    expect(parseTolerance(undefined)).toBe(DEFAULT_TOLERANCE);
    expect(parseTolerance(String(DEFAULT_TOLERANCE))).toBe(DEFAULT_TOLERANCE);
    expect(parseTolerance('0')).toBe(0);
    expect(usageError(() => parseTolerance('abc')).message).toBe('--tolerance must be a number from 0 to 0.5 (got "abc")');
  });
});

describe('scoringOverrides (--as-of, --claim-weight, --mode)', () => {
  it('nothing given: no overrides', () => {
    expect(scoringOverrides({})).toEqual({});
  });

  it('valid values pass through, parsed', () => {
    expect(scoringOverrides({ asOf: '2024-02-29', claimWeight: '0.25', mode: 'scorecards' })).toEqual({ asOf: '2024-02-29', claimWeight: 0.25, mode: 'scorecards' });
    expect(scoringOverrides({ claimWeight: '0' })).toEqual({ claimWeight: 0 });
    expect(scoringOverrides({ claimWeight: '1' })).toEqual({ claimWeight: 1 });
  });

  it.each([
    [{ claimWeight: 'abc' }, '--claim-weight must be a number (got "abc")', 'usage'],
    [{ claimWeight: '2' }, '--claim-weight must be a number from 0 to 1, got 2', 'invalid_input'],
    [{ claimWeight: '-0.1' }, '--claim-weight must be a number from 0 to 1, got -0.1', 'invalid_input'],
    [{ asOf: '2024-02-31' }, '--as-of must be a calendar date YYYY-MM-DD, got "2024-02-31"', 'invalid_input'],
    [{ asOf: '2024-1-1' }, '--as-of must be a calendar date YYYY-MM-DD, got "2024-1-1"', 'invalid_input'],
    [{ mode: 'average' }, '--mode must be "parameters" or "scorecards", got "average"', 'invalid_input'],
  ])('%j is a usage error (exit 2) naming the flag', (opts, message, code) => {
    const e = usageError(() => scoringOverrides(opts));
    expect(e.message).toBe(message);
    expect(e.code).toBe(code);
    expect(e.exitCode).toBe(2);
  });

  it('withOverrides replaces only what was given', () => {
    const base = bundleOptions({ claimWeight: 0.2, mode: 'scorecards', dataSourceIds: ['d1'] });
    expect(withOverrides(base, {})).toEqual(base);
    expect(withOverrides(base, { claimWeight: 0.9 })).toEqual({ ...base, claimWeight: 0.9 });
    expect(withOverrides(base, { mode: 'parameters', asOf: '2024-01-01' })).toEqual({ ...base, mode: 'parameters' });
  });

  it('checkScoringOptions reports what the model rejects as invalid input in the file', () => {
    expect(() => checkScoringOptions(bundleOptions(), '2024-01-01', 'b.json')).not.toThrow();
    const e = usageError(() => checkScoringOptions(bundleOptions({ dataSourceIds: [''] }), '2024-01-01', 'b.json'));
    expect(e.message).toMatch(/^b\.json: dataSourceIds /);
    expect(e.code).toBe('invalid_input');
  });
});

describe('bundle options and parsing', () => {
  it('bundleOptions: the model defaults for whatever is not given', () => {
    expect(bundleOptions()).toEqual({
      includeZeroValues: DEFAULT_INCLUDE_ZERO_VALUES,
      dataSourceIds: [],
      policyParameterIds: [],
      claimWeight: DEFAULT_CLAIM_WEIGHT,
      mode: DEFAULT_MODE,
    });
    expect(bundleOptions({ includeZeroValues: false, policyParameterIds: ['p'] })).toMatchObject({ includeZeroValues: false, policyParameterIds: ['p'], claimWeight: DEFAULT_CLAIM_WEIGHT });
  });

  it('the bundle schema takes the claim weights and dates the model takes', () => {
    const base = { kind: BUNDLE_KIND, bundleVersion: BUNDLE_VERSION_1, modelVersion: 'x', createdAt: 'now', asOf: '2024-02-29', service: { baseUrl: null }, options: bundleOptions(), requests: [], response: { items: [] }, scorecards: {}, scorecardDefinitions: {} };
    expect(Bundle.safeParse(base).success).toBe(true);
    expect(Bundle.safeParse({ ...base, options: bundleOptions({ claimWeight: 1 }) }).success).toBe(true);
    expect(Bundle.safeParse({ ...base, options: bundleOptions({ claimWeight: 1.5 }) }).success).toBe(false);
    expect(Bundle.safeParse({ ...base, options: bundleOptions({ claimWeight: -1 }) }).success).toBe(false);
    expect(Bundle.safeParse({ ...base, asOf: '2023-02-29' }).success).toBe(false);
  });

  it('parseBundleOrResponse gives the items of a bundle, a response and a bare array', () => {
    const items = [{ supplierId: 's', score: { value: null, dataSourcesScore: { value: null }, policyParametersScore: { value: null } }, dataSourceScores: [], policyParameterScores: [] }];
    const b = { kind: BUNDLE_KIND, bundleVersion: BUNDLE_VERSION_1, modelVersion: 'x', createdAt: 'now', asOf: '2024-01-01', service: { baseUrl: null }, options: bundleOptions(), requests: [], response: { items }, scorecards: {}, scorecardDefinitions: {} };
    expect(parseBundleOrResponse(b, 'f').items).toEqual(items);
    expect(parseBundleOrResponse({ items }, 'f').items).toEqual(items);
    expect(parseBundleOrResponse(items, 'f').items).toEqual(items);
  });
});

// ---------------------------------------------------------------- the scorecard lookup of a bundle

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const card = (id: string, items: Array<[string, number]>, weight?: number): Scorecard =>
  ({ id, name: `card ${id}`, ...(weight !== undefined ? { weight } : {}), items: items.map(([p, w]) => ({ type: 'policy_parameter_item', policyParameter: { id: p }, weight: w })) }) as Scorecard;

const definitions: Record<string, Scorecard> = {
  c1: card('c1', [['p1', 2], ['p2', 1]], 2),
  c2: card('c2', [['p3', 1], ['p4', 3]]),
  c3: card('c3', [['p1', 1], ['p4', 0.5]], 1),
};
const combos = [['c1'], ['c1', 'c2'], ['c2', 'c3'], [], ['c3', 'missing']];

function evidence(n: number): { items: ScoreResult[]; scorecards: Record<string, string[]> } {
  const r = rng(7);
  const items: ScoreResult[] = [];
  const scorecards: Record<string, string[]> = {};
  for (let s = 0; s < n; s++) {
    const supplierId = `s${s}`;
    const entries: ScoringEntry[] = [];
    for (let e = 0; e < 4; e++) {
      const params = ['p1', 'p2', 'p3', 'p4'].filter(() => r() < 0.6);
      entries.push({
        id: `${supplierId}e${e}`,
        supplierId,
        dataSourceId: `d${e % 2}`,
        score: Math.round((r() * 6 - 3) * 100) / 100,
        isClaim: r() < 0.4,
        expiryDate: r() < 0.2 ? '2023-06-01' : null,
        parameterScores: params.map((p) => ({ policyParameterId: p, score: Math.round((r() * 6 - 3) * 100) / 100 })),
      });
    }
    const ids = combos[s % combos.length]!;
    scorecards[supplierId] = [...ids];
    const cards = ids.filter((id) => definitions[id]).map((id) => toScoringScorecard(definitions[id]!));
    items.push(toScoreResult(scoreSupplier(supplierId, entries, cards, { asOf: '2024-01-01' })) as unknown as ScoreResult);
  }
  return { items, scorecards };
}

describe('scorecardResolver', () => {
  const { items, scorecards } = evidence(40);
  const bundle = { scorecards, scorecardDefinitions: definitions };

  it('suppliers with the same scorecard ids share one array; each definition is converted once', () => {
    const cardsFor = scorecardResolver(bundle);
    expect(cardsFor('s0')).toBe(cardsFor('s5'));
    expect(cardsFor('s1')).toBe(cardsFor('s6'));
    expect(cardsFor('s0')).not.toBe(cardsFor('s1'));
    expect(cardsFor('s0')[0]).toBe(cardsFor('s1')[0]); // c1, converted once
    expect(cardsFor('s4').map((c) => c.id)).toEqual(['c3']); // a missing definition is skipped
    expect(cardsFor('unknown')).toEqual([]);
    expect(cardsFor('__proto__')).toEqual([]);
    expect(cardsFor('s1')).toEqual(['c1', 'c2'].map((id) => toScoringScorecard(definitions[id]!)));
  });

  it.each([
    ['parameters', 0.5],
    ['scorecards', 0.5],
    ['parameters', 0.2],
    ['scorecards', 1],
  ] as Array<[AggregationMode, number]>)('recompute results are identical to converting per supplier (mode %s, claim weight %s)', (mode, claimWeight) => {
    // What recompute did before: a fresh array of freshly converted scorecards on every call.
    const perCall = (id: string): ScoringScorecard[] => (scorecards[id] ?? []).filter((c) => definitions[c]).map((c) => toScoringScorecard(definitions[c]!));
    const options = { ...bundleOptions({ mode, claimWeight }), asOf: '2024-01-01' };
    // What recompute does per supplier (src/commands/score/verify.ts).
    const recomputeAll = (cardsFor: (id: string) => ScoringScorecard[]) =>
      items.map((item) => ({ supplierId: item.supplierId, recomputed: scoreSupplier(item.supplierId, entriesFromScoreResult(item), cardsFor(item.supplierId), options) }));
    const shared = recomputeAll(scorecardResolver(bundle));
    const fresh = recomputeAll(perCall);
    expect(JSON.parse(JSON.stringify(shared))).toEqual(JSON.parse(JSON.stringify(fresh)));
    expect(shared.filter((r) => r.recomputed.policyParametersScore !== null).length).toBeGreaterThan(10);
  });
});

// ---------------------------------------------------------------- writeFileAtomic

describe('writeFileAtomic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'srs-atomic-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes, replaces, and leaves no temporary file', async () => {
    const p = join(dir, 'a.json');
    await writeFileAtomic(p, 'one');
    await writeFileAtomic(p, 'two');
    expect(readFileSync(p, 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('0600 by default; the mode asked for otherwise (less the umask)', async () => {
    const umask = process.umask();
    await writeFileAtomic(join(dir, 'private'), 'x');
    await writeFileAtomic(join(dir, 'shared'), 'x', { mode: 0o644 });
    expect(statSync(join(dir, 'private')).mode & 0o777).toBe(0o600 & ~umask);
    expect(statSync(join(dir, 'shared')).mode & 0o777).toBe(0o644 & ~umask);
  });

  it('concurrent writes to one path all land whole', async () => {
    const p = join(dir, 'race');
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeFileAtomic(p, `value ${i}`)));
    expect(readFileSync(p, 'utf8')).toMatch(/^value \d+$/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a failed rename removes the temporary file and keeps the old one', async () => {
    const sub = join(dir, 'target-is-dir');
    await writeFileAtomic(join(dir, 'keep'), 'old');
    // Renaming a file over a non-empty directory fails.
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(sub);
    writeFileSync(join(sub, 'x'), 'x');
    await expect(writeFileAtomic(sub, 'new')).rejects.toThrow();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(readFileSync(join(dir, 'keep'), 'utf8')).toBe('old');
  });
});
