import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScoreResult } from '../../src/api/contract.js';
import {
  AGGREGATION_MODES,
  DEFAULT_CLAIM_WEIGHT,
  DEFAULT_COMPARE_TOLERANCE,
  DEFAULT_DISPLAY_DIGITS,
  DEFAULT_INCLUDE_ZERO_VALUES,
  DEFAULT_MODE,
  MODEL_VERSION,
  NO_DATA_LABEL,
  SCORE_LABELS,
  SCORE_MAX,
  SCORE_MIN,
  ScoringError,
  EXPIRY_BEFORE_ISSUE,
  VERIFIED_WEIGHT,
  compareScores,
  entriesFromScoreResult,
  isCalendarDate,
  isWithinWindow,
  normalizeDate,
  rebuildFromScoreResult,
  resolveOptions,
  fixed2,
  roundScore,
  scoreLabel,
  scoreSupplier,
  scoreSuppliers,
  summarizeScore,
  toScoreResult,
  todayUtc,
} from '../../src/scoring/index.js';
import type {
  AggregationMode,
  ScoreResultLike,
  ScoringEntry,
  ScoringOptions,
  ScoringScorecard,
  SupplierScore,
} from '../../src/scoring/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixturesDir = join(root, 'test', 'fixtures', 'scoring');

// The service's zod type must be usable where recompute.ts expects its structural type.
const contractIsAssignable = (x: ScoreResult): ScoreResultLike => x;
void contractIsAssignable;

// ---------------------------------------------------------------- helpers

type Num = number | null;

interface Vector {
  description: string;
  notes?: string[];
  supplierId: string;
  entries: ScoringEntry[];
  scorecards: ScoringScorecard[];
  options: ScoringOptions;
  expected: {
    value: Num;
    dataSourcesScore: Num;
    policyParametersScore: Num;
    dataSources: Record<string, Num>;
    parameters: Record<string, Num>;
    parameterWeights?: Record<string, number>;
    scorecards?: Record<string, Num>;
    counted?: { dataSources: Record<string, string[]>; parameters: Record<string, string[]> };
  };
}

function loadVector(name: string): Vector {
  return JSON.parse(readFileSync(join(fixturesDir, `${name}.json`), 'utf8')) as Vector;
}

const vectorNames = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

function expectNum(actual: Num | undefined, expected: Num, digits = 10, what = ''): void {
  if (expected === null) {
    expect(actual, what).toBeNull();
  } else {
    expect(typeof actual, what).toBe('number');
    expect(actual as number, what).toBeCloseTo(expected, digits);
  }
}

function byId<T>(list: T[], key: (x: T) => string): Record<string, T> {
  const out: Record<string, T> = {};
  for (const x of list) out[key(x)] = x;
  return out;
}

/** Every number of a result, keyed by a path. */
function numbers(r: SupplierScore): Record<string, Num> {
  const out: Record<string, Num> = {
    value: r.value,
    dataSourcesScore: r.dataSourcesScore,
    policyParametersScore: r.policyParametersScore,
  };
  for (const ds of r.dataSources) out[`dataSources.${ds.dataSourceId}`] = ds.value;
  for (const p of r.parameters) out[`parameters.${p.policyParameterId}`] = p.value;
  for (const sc of r.scorecards ?? []) out[`scorecards.${sc.scorecardId}`] = sc.value;
  return out;
}

function expectSameNumbers(a: SupplierScore, b: SupplierScore, digits = 9): void {
  const x = numbers(a);
  const y = numbers(b);
  expect(Object.keys(y).sort()).toEqual(Object.keys(x).sort());
  for (const k of Object.keys(x)) expectNum(y[k], x[k] as Num, digits, k);
}

function plain<T>(x: T): unknown {
  return JSON.parse(JSON.stringify(x)) as unknown;
}

function checkVector(v: Vector, r: SupplierScore): void {
  const e = v.expected;
  expectNum(r.value, e.value, 10, 'value');
  expectNum(r.dataSourcesScore, e.dataSourcesScore, 10, 'dataSourcesScore');
  expectNum(r.policyParametersScore, e.policyParametersScore, 10, 'policyParametersScore');
  expect(r.dataSources.map((d) => d.dataSourceId)).toEqual(Object.keys(e.dataSources).sort());
  for (const d of r.dataSources) expectNum(d.value, e.dataSources[d.dataSourceId] as Num, 10, d.dataSourceId);
  expect(r.parameters.map((p) => p.policyParameterId)).toEqual(Object.keys(e.parameters).sort());
  for (const p of r.parameters) expectNum(p.value, e.parameters[p.policyParameterId] as Num, 10, p.policyParameterId);
  if (e.parameterWeights) {
    const ps = byId(r.parameters, (p) => p.policyParameterId);
    for (const [id, w] of Object.entries(e.parameterWeights)) expect(ps[id]?.weight, `weight ${id}`).toBeCloseTo(w, 10);
  }
  if (e.scorecards) {
    expect((r.scorecards ?? []).map((s) => s.scorecardId).sort()).toEqual(Object.keys(e.scorecards).sort());
    for (const s of r.scorecards ?? []) expectNum(s.value, e.scorecards[s.scorecardId] as Num, 10, s.scorecardId);
  }
  if (e.counted) {
    const ds = byId(r.dataSources, (d) => d.dataSourceId);
    for (const [id, ids] of Object.entries(e.counted.dataSources)) expect(ds[id]?.entries.map((c) => c.id), id).toEqual(ids);
    const ps = byId(r.parameters, (p) => p.policyParameterId);
    for (const [id, ids] of Object.entries(e.counted.parameters)) expect(ps[id]?.entries.map((c) => c.id), id).toEqual(ids);
  }
  expect(r.asOf).toBe(v.options.asOf);
  expect(r.supplierId).toBe(v.supplierId);
}

// ---------------------------------------------------------------- golden vectors

describe('golden vectors (test/fixtures/scoring)', () => {
  it('has the vectors the docs promise', () => {
    expect(vectorNames.length).toBeGreaterThanOrEqual(20);
    for (const name of vectorNames) {
      const v = loadVector(name);
      expect(typeof v.description).toBe('string');
      expect(v.options.asOf, `${name} pins asOf`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it.each(vectorNames)('%s (scoreSupplier)', (name) => {
    const v = loadVector(name);
    checkVector(v, scoreSupplier(v.supplierId, v.entries, v.scorecards, v.options));
  });

  it.each(vectorNames)('%s (scoreSuppliers, contiguous and interleaved)', (name) => {
    const v = loadVector(name);
    const [r] = scoreSuppliers(v.entries, v.scorecards, v.options, [v.supplierId]);
    checkVector(v, r as SupplierScore);
    // Interleave with another supplier's entries so the grouping path runs too.
    const other = v.entries.map((e, i) => ({ ...e, id: `o${i}`, supplierId: 'zz-other-supplier' }));
    const mixed = v.entries.flatMap((e, i) => [e, other[i] as ScoringEntry]);
    // Asking for both suppliers by id gives a result for this one even when the vector has none of its entries.
    const all = scoreSuppliers(mixed, v.scorecards, v.options, [v.supplierId, 'zz-other-supplier']);
    expect(all.map((x) => x.supplierId)).toEqual([v.supplierId, 'zz-other-supplier']);
    const mine = all.find((x) => x.supplierId === v.supplierId);
    checkVector(v, mine as SupplierScore);
  });
});

// ---------------------------------------------------------------- docs/scoring.md

describe('docs/scoring.md', () => {
  const doc = readFileSync(join(root, 'docs', 'scoring.md'), 'utf8');
  const table = /<!-- worked-example-results:begin -->([\s\S]*?)<!-- worked-example-results:end -->/.exec(doc)?.[1] ?? '';
  const rows = table
    .split('\n')
    .filter((l) => l.startsWith('|') && !l.startsWith('|---') && !l.includes('Golden vector'))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));

  const exact = (s: string): Num => {
    if (s === 'null') return null;
    const m = /^(-?\d+)(?:\/(\d+))?$/.exec(s);
    if (!m) throw new Error(`bad exact value ${s}`);
    return Number(m[1]) / (m[2] === undefined ? 1 : Number(m[2]));
  };
  const pick = (r: SupplierScore, q: string): Num | undefined => {
    const dot = q.indexOf('.');
    if (dot < 0) return (r as unknown as Record<string, Num>)[q];
    const [kind, id] = [q.slice(0, dot), q.slice(dot + 1)];
    if (kind === 'dataSources') return r.dataSources.find((d) => d.dataSourceId === id)?.value;
    if (kind === 'parameters') return r.parameters.find((p) => p.policyParameterId === id)?.value;
    if (kind === 'weights') return r.parameters.find((p) => p.policyParameterId === id)?.weight;
    if (kind === 'scorecards') return r.scorecards?.find((s) => s.scorecardId === id)?.value;
    throw new Error(`unknown quantity ${q}`);
  };
  const pickExpected = (v: Vector, q: string): Num | undefined => {
    const dot = q.indexOf('.');
    if (dot < 0) return (v.expected as unknown as Record<string, Num>)[q];
    const [kind, id] = [q.slice(0, dot), q.slice(dot + 1)];
    const table = { dataSources: v.expected.dataSources, parameters: v.expected.parameters, weights: v.expected.parameterWeights, scorecards: v.expected.scorecards }[
      kind as 'dataSources'
    ];
    return table?.[id];
  };

  it('has a results table for the worked example', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
  });

  it('quotes numbers that match the model and the golden vectors', () => {
    for (const [vector, quantity, exactText, decimal] of rows as Array<[string, string, string, string]>) {
      const v = loadVector(vector);
      const r = scoreSupplier(v.supplierId, v.entries, v.scorecards, v.options);
      const what = `${vector} ${quantity}`;
      const x = exact(exactText);
      expectNum(pick(r, quantity), x, 12, what);
      expectNum(pickExpected(v, quantity) ?? null, x, 12, `${what} (golden vector)`);
      if (decimal === 'null') expect(x, what).toBeNull();
      else expect(x as number, what).toBeCloseTo(Number(decimal), 9);
    }
  });

  it('documents every default and the label table', () => {
    expect(doc).toContain(`MODEL_VERSION = '${MODEL_VERSION}'`);
    expect(doc).toMatch(new RegExp(`\\| \`claimWeight\` \\| \`${DEFAULT_CLAIM_WEIGHT}\` \\| \`DEFAULT_CLAIM_WEIGHT\``));
    expect(doc).toMatch(new RegExp(`\\| \`mode\` \\| \`'${DEFAULT_MODE}'\` \\| \`DEFAULT_MODE\``));
    expect(doc).toMatch(new RegExp(`\\| \`includeZeroValues\` \\| \`${DEFAULT_INCLUDE_ZERO_VALUES}\` \\| \`DEFAULT_INCLUDE_ZERO_VALUES\``));
    expect(doc).toContain(`DEFAULT_DISPLAY_DIGITS = ${DEFAULT_DISPLAY_DIGITS}`);
    expect(doc).toContain(`VERIFIED_WEIGHT = ${VERIFIED_WEIGHT}`);
    for (const [score, label] of Object.entries(SCORE_LABELS)) expect(doc).toContain(`| ${score} | ${label} |`);
    expect(doc).toContain(`| \`null\` | ${NO_DATA_LABEL} |`);
  });

  it('quotes labels that scoreLabel gives', () => {
    expect(scoreLabel(4 / 39)).toBe('neutral');
    expect(scoreLabel(19 / 24)).toBe('fair');
    expect(doc).toContain('4/39 ≈ 0.1026  → label "neutral"');
    expect(doc).toContain('19/24 ≈ 0.7917  → label "fair"');
  });
});

// ---------------------------------------------------------------- helpers and rules

describe('dates', () => {
  it('todayUtc gives the UTC calendar date', () => {
    expect(todayUtc(new Date('2024-02-29T23:59:59.999Z'))).toBe('2024-02-29');
    expect(todayUtc(new Date('2024-03-01T00:00:00+02:00'))).toBe('2024-02-29');
    const before = new Date().toISOString().slice(0, 10);
    const t = todayUtc();
    const after = new Date().toISOString().slice(0, 10);
    expect([before, after]).toContain(t);
  });

  it('isWithinWindow is inclusive on both ends and open where a date is absent', () => {
    expect(isWithinWindow('2024-06-30', '2024-06-30', '2024-06-30')).toBe(true);
    expect(isWithinWindow('2024-06-30', '2024-07-01', null)).toBe(false);
    expect(isWithinWindow('2024-06-30', null, '2024-06-29')).toBe(false);
    expect(isWithinWindow('2024-06-30')).toBe(true);
    expect(isWithinWindow('2024-06-30', '', '')).toBe(true);
    expect(isWithinWindow('2024-06-30', '2024-06-30T23:59:59Z', '2024-06-30T00:00:00.000+05:00')).toBe(true);
    expect(() => isWithinWindow('30/06/2024')).toThrow(ScoringError);
  });

  it('normalizeDate and isCalendarDate check real calendar dates', () => {
    expect(normalizeDate(undefined)).toBeNull();
    expect(normalizeDate(null)).toBeNull();
    expect(normalizeDate('')).toBeNull();
    expect(normalizeDate('2024-02-29')).toBe('2024-02-29');
    expect(normalizeDate('2024-02-29T10:00:00Z')).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-02-30', '2024-13-01', '2024-00-10', '2024-1-01', '20240101', '2024-01-01 10:00', 'soon']) {
      expect(() => normalizeDate(bad), bad).toThrow(ScoringError);
    }
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2024-04-31')).toBe(false);
    expect(isCalendarDate('2024-04-30T00:00:00Z')).toBe(false);
  });
});

describe('labels and rounding', () => {
  it('maps the rounded score to the documented labels', () => {
    expect([-3, -2, -1, 0, 1, 2, 3].map(scoreLabel)).toEqual([
      'very poor',
      'poor',
      'below average',
      'neutral',
      'fair',
      'good',
      'very good',
    ]);
    expect(scoreLabel(null)).toBe('no data');
    expect(scoreLabel(Number.NaN)).toBe('no data');
    expect(scoreLabel(2.5)).toBe('very good');
    expect(scoreLabel(-2.5)).toBe('very poor');
    expect(scoreLabel(0.49)).toBe('neutral');
    expect(scoreLabel(123)).toBe('off scale');
    expect(scoreLabel(-3.5)).toBe('off scale');
    expect(scoreLabel(3 + 1e-12)).toBe('very good');
    expect(scoreLabel(-0.5)).toBe('below average');
    expect(scoreLabel(-0.49)).toBe('neutral');
    expect(scoreLabel(1.4999)).toBe('fair');
    expect(scoreLabel(7)).toBe('off scale');
    expect(scoreLabel(-4)).toBe('off scale');
  });

  it('roundScore rounds half away from zero, for display only', () => {
    expect(roundScore(0.125)).toBe(0.13);
    expect(roundScore(-0.125)).toBe(-0.13);
    expect(roundScore(4 / 39)).toBe(0.1);
    expect(roundScore(19 / 24, 3)).toBe(0.792);
    expect(roundScore(-2.5, 0)).toBe(-3);
    // A value a double cannot round further is left as it is (1e21 * 100 / 100 is 999999999999999868928).
    expect(roundScore(1e21)).toBe(1e21);
    expect(roundScore(-1e300)).toBe(-1e300);
    expect(fixed2(1e21)).toBe('1e+21');
    expect(fixed2(-0.001)).toBe('0.00');
    expect(fixed2(2.005)).toBe('2.01');
  });
});

describe('options and validation', () => {
  it('fills in and records the documented defaults', () => {
    expect(DEFAULT_CLAIM_WEIGHT).toBe(0.5);
    expect(DEFAULT_MODE).toBe('parameters');
    expect(DEFAULT_INCLUDE_ZERO_VALUES).toBe(true);
    expect(AGGREGATION_MODES).toEqual(['parameters', 'scorecards']);
    expect([SCORE_MIN, SCORE_MAX]).toEqual([-3, 3]);
    const o = resolveOptions({}, new Date('2024-05-05T12:00:00Z'));
    expect(o).toEqual({
      asOf: '2024-05-05',
      includeZeroValues: true,
      claimWeight: 0.5,
      mode: 'parameters',
      dataSourceIds: [],
      policyParameterIds: [],
    });
    const r = scoreSupplier('s', [], [], { dataSourceIds: ['b', 'a', 'b'] });
    expect(r.options.dataSourceIds).toEqual(['b', 'a']);
    expect(r.asOf).toBe(r.options.asOf);
    expect(Object.isFrozen(r.options)).toBe(true);
  });

  it('rejects bad options', () => {
    for (const bad of [
      { claimWeight: -0.1 },
      { claimWeight: 1.5 },
      { claimWeight: Number.NaN },
      { mode: 'average' as AggregationMode },
      { asOf: '2024-13-01' },
      { asOf: '2024-06-30T00:00:00Z' },
      { includeZeroValues: 'no' as unknown as boolean },
      { dataSourceIds: [''] },
    ]) {
      expect(() => scoreSupplier('s', [], [], bad), JSON.stringify(bad)).toThrow(ScoringError);
    }
  });

  const entry = (over: Partial<ScoringEntry> = {}): ScoringEntry => ({
    id: 'e1',
    supplierId: 's',
    dataSourceId: 'ds',
    score: 1,
    isClaim: false,
    parameterScores: [{ policyParameterId: 'p', score: 1 }],
    ...over,
  });

  it('rejects negative or non-finite weights and repeated parameters in a scorecard', () => {
    const card = (weight: number, extra: Array<{ policyParameterId: string; weight: number }> = []) => [
      { id: 'sc', items: [{ policyParameterId: 'p', weight }, ...extra] },
    ];
    expect(() => scoreSupplier('s', [entry()], card(-1))).toThrow(/weight of parameter p/);
    expect(() => scoreSupplier('s', [entry()], card(Number.POSITIVE_INFINITY))).toThrow(ScoringError);
    expect(() => scoreSupplier('s', [entry()], card(1, [{ policyParameterId: 'p', weight: 2 }]))).toThrow(/more than once/);
    expect(scoreSupplier('s', [entry()], card(0)).parameters[0]?.weight).toBe(1); // weight 0 only: no scorecard applies
  });

  it('rejects scores off the scale, bad dates and repeated parameters in an entry, even when expired', () => {
    const expired = { expiryDate: '2000-01-01' };
    for (const bad of [
      entry({ score: 3.5 }),
      entry({ score: Number.NaN }),
      entry({ score: '1' as unknown as number }),
      entry({ parameterScores: [{ policyParameterId: 'p', score: -4 }] }),
      entry({ ...expired, parameterScores: [{ policyParameterId: 'p', score: 9 }] }),
      entry({ ...expired, parameterScores: [{ policyParameterId: 'p', score: 1 }, { policyParameterId: 'p', score: 2 }] }),
      entry({ issueDate: '2024-02-30' }),
      entry({ expiryDate: 'tomorrow' }),
    ]) {
      expect(() => scoreSupplier('s', [bad], [], { asOf: '2024-06-30' }), JSON.stringify(bad)).toThrow(ScoringError);
    }
    // Another supplier's entries are not ours to judge.
    expect(() => scoreSupplier('t', [entry({ score: 99 })], [])).not.toThrow();
  });

  it('treats -0 as a zero value', () => {
    const r = scoreSupplier('s', [entry({ score: -0, parameterScores: [{ policyParameterId: 'p', score: -0 }] })], [], {
      asOf: '2024-06-30',
      includeZeroValues: false,
    });
    expect(r.dataSources[0]?.value).toBeNull();
    expect(r.parameters[0]?.value).toBeNull();
    expect(r.value).toBeNull();
  });
});

describe('result objects', () => {
  const v = loadVector('worked-example-parameters');

  it('builds entry lists on read, with values, weights and dates as used', () => {
    const r = scoreSupplier(v.supplierId, v.entries, v.scorecards, v.options);
    const audit = r.dataSources.find((d) => d.dataSourceId === 'ds-audit');
    expect(audit?.entries).toEqual([
      { id: 'e1', supplierId: 'sup-acme', dataSourceId: 'ds-audit', value: 2, weight: 1, isClaim: false, issueDate: '2024-01-01', expiryDate: '2025-01-01' },
      { id: 'e2', supplierId: 'sup-acme', dataSourceId: 'ds-audit', value: 3, weight: 0.5, isClaim: true, issueDate: '2024-03-01', expiryDate: null },
    ]);
    expect(audit?.entries).toBe(audit?.entries);
    const labour = r.parameters.find((p) => p.policyParameterId === 'pp-labour');
    expect(labour?.entries.map((c) => [c.id, c.value, c.dataSourceId])).toEqual([
      ['e1', 1, 'ds-audit'],
      ['e3', -2, 'ds-news'],
      ['e5', 2, 'ds-survey'],
    ]);
    const replaced = [] as typeof labour extends { entries: infer E } ? E : never;
    if (labour) labour.entries = replaced;
    expect(labour?.entries).toBe(replaced);
  });

  it('serialises to plain JSON with the entry lists', () => {
    const r = scoreSupplier(v.supplierId, v.entries, v.scorecards, v.options);
    const json = plain(r) as { dataSources: Array<{ entries: unknown[] }>; parameters: Array<{ entries: unknown[]; weight: number }> };
    expect(json.dataSources.map((d) => d.entries.length)).toEqual([2, 1, 1]);
    expect(json.parameters.map((p) => [p.entries.length, p.weight])).toEqual([
      [2, 2],
      [2, 3],
      [3, 1.5],
    ]);
    expect(Object.keys(json)).toEqual([
      'supplierId',
      'asOf',
      'value',
      'dataSourcesScore',
      'policyParametersScore',
      'dataSources',
      'parameters',
      'scorecards',
      'options',
    ]);
  });

  it('scoreSuppliers orders by supplierIds, fills in suppliers without entries and shares asOf', () => {
    const extra: ScoringEntry = { ...v.entries[0]!, id: 'y1', supplierId: 'sup-b' };
    const rs = scoreSuppliers([...v.entries, extra], v.scorecards, { asOf: '2024-06-30' }, ['sup-none', 'sup-acme', 'sup-none', 'sup-b']);
    expect(rs.map((r) => r.supplierId)).toEqual(['sup-none', 'sup-acme', 'sup-b']);
    expect(rs[0]?.value).toBeNull();
    expect(rs[0]?.parameters.map((p) => p.value)).toEqual([null, null, null]);
    expectNum(rs[1]?.value ?? null, 4 / 39);
    // sup-b: pp-emissions 2 (weight 2), pp-labour 1 (weight 3/2): (4 + 3/2) / (7/2) = 11/7
    expectNum(rs[2]?.value ?? null, 11 / 7);
    expect(new Set(rs.map((r) => r.asOf))).toEqual(new Set(['2024-06-30']));
    const order = scoreSuppliers([extra, ...v.entries], v.scorecards, { asOf: '2024-06-30' });
    expect(order.map((r) => r.supplierId)).toEqual(['sup-b', 'sup-acme', 'sup-other']);
  });

  it('reuses a preparation only while option values and scorecards are unchanged', () => {
    const cards: ScoringScorecard[] = JSON.parse(JSON.stringify(v.scorecards)) as ScoringScorecard[];
    const run = (options: ScoringOptions) => scoreSupplier(v.supplierId, v.entries, cards, options).value;
    expectNum(run({ asOf: '2024-06-30' }), 4 / 39);
    expectNum(run({ asOf: '2024-06-30', mode: 'scorecards' }), 19 / 24);
    expectNum(run({ asOf: '2024-06-30', includeZeroValues: false }), -23 / 39);
    expectNum(run({ asOf: '2024-06-30', dataSourceIds: ['ds-audit', 'ds-missing'] }), 37 / 21);
    expectNum(run({ asOf: '2024-06-30', policyParameterIds: ['pp-ethics'] }), -1.5);
    // Claim weight 1: pp-emissions becomes (2 + 3)/2 = 5/2; (2*5/2 + 3/2*1/3 - 9/2)/(13/2) = 1/(13/2) = 2/13.
    expectNum(run({ asOf: '2024-06-30', claimWeight: 1 }), 2 / 13);
    // Against a fresh preparation: a structured clone is a new scorecards array, so nothing cached applies to it.
    const fresh = scoreSupplier(v.supplierId, v.entries, structuredClone(cards), { asOf: '2025-06-30' }).value;
    expect(fresh).not.toBeNull();
    expect(fresh as number).not.toBeCloseTo(4 / 39, 6);
    expectNum(run({ asOf: '2025-06-30' }), fresh); // prepares afresh (options changed)
    expectNum(run({ asOf: '2025-06-30' }), fresh); // reuses that preparation
    expectNum(run({ asOf: '2024-06-30' }), 4 / 39);
    // Changed in place: sc-social without pp-ethics leaves pp-emissions (3+1)/2 = 2 and pp-labour 3/2:
    // (2*7/3 + 3/2*1/3) / (7/2) = (31/6) / (7/2) = 31/21.
    cards[1]!.items = cards[1]!.items.filter((i) => i.policyParameterId !== 'pp-ethics');
    expectNum(run({ asOf: '2024-06-30' }), 31 / 21);
    cards[1]!.items[0]!.weight = 5; // pp-emissions (3+5)/2 = 4: (4*7/3 + 3/2*1/3) / (11/2) = 59/33
    expectNum(run({ asOf: '2024-06-30' }), 59 / 33);
  });

  it('scoreSuppliers takes a scorecards function', () => {
    const calls: string[] = [];
    const rs = scoreSuppliers(v.entries, (sid) => {
      calls.push(sid);
      return sid === 'sup-acme' ? v.scorecards : [];
    }, { asOf: '2024-06-30', mode: 'scorecards' });
    expect(calls).toEqual(['sup-acme', 'sup-other']);
    expectNum(rs[0]?.value ?? null, 19 / 24);
    expectNum(rs[1]?.value ?? null, -3);
  });
});

// ---------------------------------------------------------------- properties

const DS = ['ds-1', 'ds-2', 'ds-3'];
const PP = ['pp-1', 'pp-2', 'pp-3', 'pp-4'];
const BASE_DAY = Date.UTC(2024, 4, 1);
const dayToDate = (n: number): string => new Date(BASE_DAY + n * 86_400_000).toISOString().slice(0, 10);
const dateToDay = (d: string): number => Math.round((Date.parse(`${d}T00:00:00Z`) - BASE_DAY) / 86_400_000);

const scoreArb = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -3, max: 3, noNaN: true }));
const dayArb = fc.integer({ min: 0, max: 60 });
const optDate = fc.option(dayArb.map(dayToDate), { nil: null });

const entryBody = fc.record({
  dataSourceId: fc.constantFrom(...DS),
  score: scoreArb,
  isClaim: fc.boolean(),
  issueDate: optDate,
  expiryDate: optDate,
  parameterScores: fc.uniqueArray(fc.record({ policyParameterId: fc.constantFrom(...PP), score: scoreArb }), {
    selector: (p) => p.policyParameterId,
    maxLength: 3,
  }),
});

const entriesArb = (supplierId = 'sup-1') =>
  fc.array(entryBody, { maxLength: 14 }).map((list) => list.map((e, i): ScoringEntry => ({ id: `e${i}`, supplierId, ...e })));

// Weights and claim weights stay clear of subnormal numbers, whose products underflow.
const weightArb = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: 0.01, max: 10, noNaN: true }));
const scorecardsArb = fc
  .array(
    fc.uniqueArray(fc.record({ policyParameterId: fc.constantFrom(...PP), weight: weightArb }), {
      selector: (i) => i.policyParameterId,
      maxLength: 4,
    }),
    { maxLength: 3 },
  )
  .map((cards) => cards.map((items, i): ScoringScorecard => ({ id: `sc-${i}`, items })));

const optionsArb = fc.record({
  asOf: dayArb.map(dayToDate),
  includeZeroValues: fc.boolean(),
  claimWeight: fc.oneof(fc.constant(DEFAULT_CLAIM_WEIGHT), fc.constant(0), fc.constant(1), fc.double({ min: 0.01, max: 1, noNaN: true })),
  mode: fc.constantFrom<AggregationMode>('parameters', 'scorecards'),
  dataSourceIds: fc.oneof(fc.constant([] as string[]), fc.subarray(DS)),
  policyParameterIds: fc.oneof(fc.constant([] as string[]), fc.subarray([...PP, 'pp-unknown'])),
});

const caseArb = fc.record({ entries: entriesArb(), scorecards: scorecardsArb, options: optionsArb });
const RUNS = { numRuns: 300 };

describe('properties', () => {
  it('every score stays within [-3, 3]', () => {
    fc.assert(
      fc.property(caseArb, ({ entries, scorecards, options }) => {
        const r = scoreSupplier('sup-1', entries, scorecards, options);
        for (const [k, x] of Object.entries(numbers(r))) {
          if (x !== null) {
            expect(x, k).toBeGreaterThanOrEqual(-3);
            expect(x, k).toBeLessThanOrEqual(3);
          }
        }
      }),
      RUNS,
    );
  });

  it('adding an entry equal to the current mean leaves a data source and a parameter unchanged', () => {
    fc.assert(
      fc.property(caseArb, fc.boolean(), fc.nat(), fc.nat(), ({ entries, scorecards, options }, isClaim, di, pi) => {
        const before = scoreSupplier('sup-1', entries, scorecards, options);
        const dss = before.dataSources.filter((d) => d.value !== null);
        const ps = before.parameters.filter((p) => p.value !== null);
        fc.pre(dss.length > 0 && ps.length > 0);
        const ds = dss[di % dss.length]!;
        const p = ps[pi % ps.length]!;
        const added: ScoringEntry = {
          id: 'mean',
          supplierId: 'sup-1',
          dataSourceId: ds.dataSourceId,
          score: ds.value as number,
          isClaim,
          parameterScores: [{ policyParameterId: p.policyParameterId, score: p.value as number }],
        };
        const after = scoreSupplier('sup-1', [...entries, added], scorecards, options);
        expectNum(after.dataSources.find((d) => d.dataSourceId === ds.dataSourceId)?.value ?? null, ds.value, 9, 'data source');
        expectNum(after.parameters.find((x) => x.policyParameterId === p.policyParameterId)?.value ?? null, p.value, 9, 'parameter');
      }),
      RUNS,
    );
  });

  it('adding an entry equal to a data source mean (no parameters) changes nothing', () => {
    fc.assert(
      fc.property(caseArb, fc.boolean(), fc.nat(), ({ entries, scorecards, options }, isClaim, di) => {
        const opts = { ...options, policyParameterIds: [] };
        const before = scoreSupplier('sup-1', entries, scorecards, opts);
        const dss = before.dataSources.filter((d) => d.value !== null);
        fc.pre(dss.length > 0);
        const ds = dss[di % dss.length]!;
        const added: ScoringEntry = {
          id: 'mean',
          supplierId: 'sup-1',
          dataSourceId: ds.dataSourceId,
          score: ds.value as number,
          isClaim,
          parameterScores: [],
        };
        expectSameNumbers(before, scoreSupplier('sup-1', [added, ...entries], scorecards, opts));
      }),
      RUNS,
    );
  });

  it('scaling every scorecard weight by a positive constant changes no score', () => {
    fc.assert(
      fc.property(caseArb, fc.double({ min: 0.001, max: 1000, noNaN: true }), ({ entries, scorecards, options }, c) => {
        const scaled = scorecards.map((sc) => ({ ...sc, items: sc.items.map((i) => ({ ...i, weight: i.weight * c })) }));
        expectSameNumbers(scoreSupplier('sup-1', entries, scorecards, options), scoreSupplier('sup-1', entries, scaled, options));
      }),
      RUNS,
    );
  });

  it('adding expired or not-yet-issued entries never changes a result', () => {
    const outside = fc.record({ body: entryBody, future: fc.boolean(), gap: fc.integer({ min: 1, max: 400 }), at: fc.nat() });
    fc.assert(
      fc.property(caseArb, fc.array(outside, { minLength: 1, maxLength: 6 }), ({ entries, scorecards, options }, extra) => {
        const asOfDay = dateToDay(options.asOf);
        const list = [...entries];
        extra.forEach(({ body, future, gap, at }, i) => {
          const e: ScoringEntry = {
            ...body,
            id: `x${i}`,
            supplierId: 'sup-1',
            issueDate: future ? dayToDate(asOfDay + gap) : body.issueDate,
            expiryDate: future ? body.expiryDate : dayToDate(asOfDay - gap),
          };
          list.splice(at % (list.length + 1), 0, e);
        });
        const before = scoreSupplier('sup-1', entries, scorecards, options);
        const after = scoreSupplier('sup-1', list, scorecards, options);
        expect(plain(after)).toEqual(plain(before));
      }),
      RUNS,
    );
  });

  it('filters and includeZeroValues only remove counted entries', () => {
    fc.assert(
      fc.property(caseArb, ({ entries, scorecards, options }) => {
        const unfiltered = scoreSupplier('sup-1', entries, scorecards, {
          asOf: options.asOf,
          claimWeight: options.claimWeight,
          mode: options.mode,
        });
        const filtered = scoreSupplier('sup-1', entries, scorecards, options);
        const uds = byId(unfiltered.dataSources, (d) => d.dataSourceId);
        for (const d of filtered.dataSources) {
          const all = new Set((uds[d.dataSourceId]?.entries ?? []).map((c) => c.id));
          for (const c of d.entries) expect(all.has(c.id), `${d.dataSourceId}/${c.id}`).toBe(true);
        }
        const ups = byId(unfiltered.parameters, (p) => p.policyParameterId);
        for (const p of filtered.parameters) {
          const all = new Set((ups[p.policyParameterId]?.entries ?? []).map((c) => c.id));
          for (const c of p.entries) expect(all.has(c.id), `${p.policyParameterId}/${c.id}`).toBe(true);
        }
        if (options.dataSourceIds.length > 0) {
          for (const d of filtered.dataSources) expect(options.dataSourceIds).toContain(d.dataSourceId);
        }
        if (options.policyParameterIds.length > 0) {
          for (const p of filtered.parameters) expect(options.policyParameterIds).toContain(p.policyParameterId);
        }
      }),
      RUNS,
    );
  });

  it('records asOf, given or defaulted', () => {
    fc.assert(
      fc.property(caseArb, ({ entries, scorecards, options }) => {
        const r = scoreSupplier('sup-1', entries, scorecards, options);
        expect(r.asOf).toBe(options.asOf);
        expect(r.options.asOf).toBe(options.asOf);
      }),
      { numRuns: 50 },
    );
    const before = todayUtc();
    const r = scoreSupplier('sup-1', [], []);
    expect([before, todayUtc()]).toContain(r.asOf);
    expect(r.options.asOf).toBe(r.asOf);
  });

  it('scoreSuppliers agrees with scoreSupplier, whatever the order of the entries', () => {
    const many = fc.tuple(entriesArb('sup-a'), entriesArb('sup-b'), entriesArb('sup-c'));
    fc.assert(
      fc.property(many, scorecardsArb, optionsArb, fc.constantFrom('sorted', 'reversed', 'interleaved'), (groups, scorecards, options, order) => {
        let all = (order === 'reversed' ? [...groups].reverse() : groups).flat().map((e, i) => ({ ...e, id: `${e.supplierId}-${i}` }));
        if (order === 'interleaved') all = all.map((e, i) => ({ e, k: (i * 7) % 11 })).sort((a, b) => a.k - b.k).map((x) => x.e);
        const batch = scoreSuppliers(all, scorecards, options, ['sup-a', 'sup-b', 'sup-c']);
        for (const r of batch) expect(plain(r)).toEqual(plain(scoreSupplier(r.supplierId, all, scorecards, options)));
      }),
      { numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------- recompute

describe('recompute', () => {
  it('rebuilds entries from a service-shaped result that reproduce it', () => {
    fc.assert(
      fc.property(caseArb, ({ entries, scorecards, options }) => {
        const original = scoreSupplier('sup-1', entries, scorecards, options);
        const item = JSON.parse(JSON.stringify(toScoreResult(original))) as ScoreResultLike;
        const rebuilt = entriesFromScoreResult(item);
        const again = scoreSupplier('sup-1', rebuilt, scorecards, options);
        const diffs = compareScores(item, again);
        expect(diffs.filter((d) => !d.ok)).toEqual([]);
        expect(diffs.slice(0, 3).map((d) => d.path)).toEqual(['value', 'dataSourcesScore', 'policyParametersScore']);
      }),
      RUNS,
    );
  });

  it('reproduces the worked example from its service-shaped result', () => {
    for (const name of ['worked-example-parameters', 'worked-example-no-zeros-scorecards', 'filter-parameters-no-zeros', 'claims-zero-weight']) {
      const v = loadVector(name);
      const item = toScoreResult(scoreSupplier(v.supplierId, v.entries, v.scorecards, v.options));
      const { entries, warnings } = rebuildFromScoreResult(item);
      const again = scoreSupplier(v.supplierId, entries, v.scorecards, v.options);
      expect(compareScores(item, again).filter((d) => !d.ok)).toEqual([]);
      if (name === 'claims-zero-weight') {
        // ds-2 had only a claim, which counted nowhere: the service shape has no entry to rebuild it from.
        expect(again.dataSources.map((d) => d.dataSourceId)).toEqual(['ds-1']);
      } else {
        checkVector({ ...v, expected: { ...v.expected, counted: undefined } }, again);
      }
      if (name === 'worked-example-parameters') {
        expect(warnings).toEqual([]);
        expect(entries.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e5']);
        expect(entries.find((e) => e.id === 'e5')).toEqual({
          id: 'e5',
          supplierId: 'sup-acme',
          dataSourceId: 'ds-survey',
          score: 0,
          isClaim: false,
          issueDate: '2024-02-01',
          expiryDate: '2024-06-30',
          parameterScores: [
            { policyParameterId: 'pp-ethics', score: 0 },
            { policyParameterId: 'pp-labour', score: 2 },
          ],
        });
      }
    }
  });

  it('compareScores flags tampered values, null against a number, and missing ids', () => {
    const v = loadVector('worked-example-parameters');
    const r = scoreSupplier(v.supplierId, v.entries, v.scorecards, v.options);
    const item = toScoreResult(r);
    expect(compareScores(item, r).every((d) => d.ok)).toBe(true);

    const tampered = toScoreResult(r);
    tampered.score.value = (tampered.score.value as number) + 0.01;
    tampered.dataSourceScores[0]!.score.value = null;
    tampered.policyParameterScores = tampered.policyParameterScores.filter((p) => p.policyParameterId !== 'pp-labour');
    tampered.dataSourceScores.push({ dataSourceId: 'ds-extra', score: { value: null }, dataPoints: { dataEntries: [] } });
    const diffs = compareScores(tampered, r, 1e-6);
    const bad = diffs.filter((d) => !d.ok);
    expect(bad.map((d) => d.path)).toEqual(['value', 'dataSources.ds-audit', 'parameters.pp-labour']);
    expect(bad[0]?.delta).toBeCloseTo(-0.01, 12);
    expect(bad[1]).toMatchObject({ reported: null, delta: null, ok: false });
    expect(bad[2]).toMatchObject({ reported: null, missing: 'reported', ok: false });
    expect(diffs.find((d) => d.path === 'dataSources.ds-extra')).toMatchObject({ ok: true, missing: 'recomputed' });
    expect(diffs.find((d) => d.path === 'dataSourcesScore')).toMatchObject({ ok: true, delta: 0 });
    // A loose tolerance hides the small change; null against a number never passes.
    expect(compareScores(tampered, r, 0.1).filter((d) => !d.ok).map((d) => d.path)).toEqual([
      'dataSources.ds-audit',
      'parameters.pp-labour',
    ]);
    expect(DEFAULT_COMPARE_TOLERANCE).toBe(1e-9);
    expect(() => compareScores(item, r, -1)).toThrow(RangeError);
  });

  it('compareScores accepts model results on both sides and summarizes either shape alike', () => {
    const v = loadVector('worked-example-scorecards');
    const r = scoreSupplier(v.supplierId, v.entries, v.scorecards, v.options);
    expect(summarizeScore(r)).toEqual(summarizeScore(toScoreResult(r)));
    const nulls = scoreSupplier('nobody', [], v.scorecards, v.options);
    const diffs = compareScores(nulls, nulls);
    expect(diffs.every((d) => d.ok && d.delta === null)).toBe(true);
  });

  it('warns about inconsistent or incomplete service results', () => {
    const entry = (id: string, ds: string, value: number | null, extra: Record<string, unknown> = {}) => ({
      id,
      supplierId: 'sup-1',
      dataSourceId: ds,
      score: { value },
      isClaim: false,
      issueDate: null,
      expiryDate: null,
      ...extra,
    });
    const item: ScoreResultLike = {
      supplierId: 'sup-1',
      score: { value: 1, dataSourcesScore: { value: 1 }, policyParametersScore: { value: 1 } },
      dataSourceScores: [
        { dataSourceId: 'ds-1', score: { value: 1 }, dataPoints: { dataEntries: [entry('a', 'ds-1', 1), entry('a', 'ds-1', 2)] } },
      ],
      policyParameterScores: [
        {
          policyParameterId: 'pp-1',
          score: { value: 1 },
          dataPoints: { dataEntries: [entry('a', 'ds-1', 1, { isClaim: true }), entry('b', 'ds-1', 2), entry('c', 'ds-1', null)] },
        },
      ],
    };
    const { entries, warnings, conflicts } = rebuildFromScoreResult(item);
    expect(entries).toEqual([
      { id: 'a', supplierId: 'sup-1', dataSourceId: 'ds-1', score: 1, isClaim: false, issueDate: null, expiryDate: null, parameterScores: [{ policyParameterId: 'pp-1', score: 1 }] },
      { id: 'b', supplierId: 'sup-1', dataSourceId: 'ds-1', score: 0, isClaim: false, issueDate: null, expiryDate: null, parameterScores: [{ policyParameterId: 'pp-1', score: 2 }] },
      { id: 'c', supplierId: 'sup-1', dataSourceId: 'ds-1', score: 0, isClaim: false, issueDate: null, expiryDate: null, parameterScores: [] },
    ]);
    expect(warnings).toHaveLength(6);
    // The disagreements and repetitions are conflicts (score recompute --verify fails on them); the inferences are not.
    expect(conflicts).toHaveLength(3);
    expect(conflicts.join('\n')).toMatch(/entry a: listed more than once in the data-source lists/);
    expect(conflicts.join('\n')).not.toMatch(/entry [bc]/);
    expect(warnings.join('\n')).toMatch(/entry a: score 2 .* 1 is kept/);
    expect(warnings.join('\n')).toMatch(/entry a: isClaim differ/);
    expect(warnings.join('\n')).toMatch(/entry c: no score value/);
    expect(warnings.join('\n')).toMatch(/entry b: in no data-source list; its own score is taken as 0/);
  });

  it('an entry listed twice under one parameter is a conflict even with the same score; one expiring before its issue is a warning', () => {
    const e = (id: string, extra: Record<string, unknown> = {}) => ({ id, supplierId: 's', dataSourceId: 'ds', score: { value: 1 }, isClaim: false, issueDate: null, expiryDate: null, ...extra });
    const item: ScoreResultLike = {
      supplierId: 's',
      score: { value: 1, dataSourcesScore: { value: 1 }, policyParametersScore: { value: 1 } },
      dataSourceScores: [{ dataSourceId: 'ds', score: { value: 1 }, dataPoints: { dataEntries: [e('a'), e('x', { issueDate: '2024-05-01', expiryDate: '2024-04-01' })] } }],
      policyParameterScores: [{ policyParameterId: 'p', score: { value: 1 }, dataPoints: { dataEntries: [e('a'), e('a')] } }],
    };
    const { warnings, conflicts } = rebuildFromScoreResult(item);
    expect(conflicts).toEqual(['entry a: listed twice under parameter p']);
    expect(warnings).toContain('entry x: expires (2024-04-01) before it is issued (2024-05-01); it never counts');
    // And the model excludes it on every date (EXPIRY_BEFORE_ISSUE is warn-and-exclude).
    expect(EXPIRY_BEFORE_ISSUE).toBe('warn-and-exclude');
    for (const asOf of ['2024-03-15', '2024-04-01', '2024-04-15', '2024-05-01', '2024-06-01']) {
      const r = scoreSupplier('s', [{ id: 'x', supplierId: 's', dataSourceId: 'ds', score: 2, isClaim: false, issueDate: '2024-05-01', expiryDate: '2024-04-01', parameterScores: [] }], [], { asOf });
      expect(r.value, asOf).toBeNull();
    }
  });
});

describe('fixed2: the number shown never contradicts the label shown beside it', () => {
  it('two decimals, or more where two would round across a label boundary (0.4957 was "0.50 neutral")', () => {
    expect(fixed2(0.49572649572649563)).toBe('0.496');
    expect(fixed2(2.496)).toBe('2.496');
    expect(fixed2(-1.4951)).toBe('-1.495');
    expect(fixed2(0.4999999999999)).toBe('0.4999999999999');
    expect(fixed2(0.5)).toBe('0.50');
    expect(fixed2(-0.004)).toBe('0.00');
    expect(fixed2(2.675)).toBe('2.68');
    for (let k = 0; k < 20_000; k++) {
      const v = -3 + (6 * k) / 20_000 + 1e-7 * ((k * 7919) % 13);
      expect(scoreLabel(Number(fixed2(v))), `${v} shown as ${fixed2(v)}`).toBe(scoreLabel(v));
    }
  });
});
