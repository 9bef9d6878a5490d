/**
 * Bad score options and inputs the model would reject are usage errors: exit 2
 * and one line naming the option (or file) and what was expected, never
 * "unexpected error" (exit 1). Runs the built binary offline.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, baseEnv, runSrs } from './harness.js';

let home: string;
let env: Record<string, string>;
let responsePath: string;

const entry = (over: Record<string, unknown> = {}) => ({ id: 'e1', supplierId: 's1', dataSourceId: 'd1', score: { value: 1 }, isClaim: false, ...over });
const item = (e = entry()) => ({
  supplierId: 's1',
  score: { value: 1, dataSourcesScore: { value: 1 }, policyParametersScore: { value: null } },
  dataSourceScores: [{ dataSourceId: 'd1', score: { value: 1 }, dataPoints: { dataEntries: [e] } }],
  policyParameterScores: [],
});
const bundle = (over: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => ({
  kind: 'srs.score-bundle',
  bundleVersion: 1,
  modelVersion: 'x',
  createdAt: '2024-01-01T00:00:00.000Z',
  asOf: '2024-01-01',
  service: { baseUrl: null },
  options: { includeZeroValues: true, dataSourceIds: [], policyParameterIds: [], claimWeight: 0.5, mode: 'parameters', ...options },
  requests: [{ supplierIds: ['s1'] }],
  response: { items: [item()] },
  scorecards: { s1: [] },
  scorecardDefinitions: {},
  ...over,
});

function write(name: string, data: unknown): string {
  const p = join(home, name);
  writeFileSync(p, JSON.stringify(data));
  return p;
}

/** Exit 2 and exactly one line on stderr. */
function expectOneLineUsage(r: { code: number; stderr: string }): string {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).not.toMatch(/unexpected error/);
  return lines[0]!;
}

beforeAll(() => {
  assertBuilt();
  home = mkdtempSync(join(tmpdir(), 'srs-score-errors-'));
  env = baseEnv(home);
  responsePath = write('response.json', { items: [item()] });
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('score recompute: bad --claim-weight / --as-of', () => {
  it('a sound response recomputes (the inputs below fail only because of the flag)', async () => {
    const r = await runSrs(['score', 'recompute', responsePath, '--as-of', '2024-02-29', '--claim-weight', '1', '-o', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
  });

  it.each([
    [['--claim-weight', 'abc'], /^srs: --claim-weight must be a number \(got "abc"\)$/],
    [['--claim-weight', '2'], /^srs: --claim-weight must be a number from 0 to 1, got 2$/],
    [['--claim-weight', '-0.5'], /^srs: --claim-weight must be a number from 0 to 1, got -0\.5$/],
    [['--as-of', '2024-02-31'], /^srs: --as-of must be a calendar date YYYY-MM-DD, got "2024-02-31"$/],
    [['--as-of', '2023-02-29'], /^srs: --as-of must be a calendar date YYYY-MM-DD, got "2023-02-29"$/],
    [['--as-of', 'tomorrow'], /^srs: --as-of must be a calendar date YYYY-MM-DD, got "tomorrow"$/],
  ])('%j: exit 2, one line naming the option', async (flags, message) => {
    const r = await runSrs(['score', 'recompute', responsePath, ...flags, '-o', 'table'], env);
    expect(expectOneLineUsage(r)).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('-o json: the error object says invalid_input, exit code 2', async () => {
    const r = await runSrs(['score', 'recompute', responsePath, '--claim-weight', '2', '-o', 'json'], env);
    const line = expectOneLineUsage(r);
    expect(JSON.parse(line)).toEqual({ error: { code: 'invalid_input', message: expect.stringMatching(/^--claim-weight /), exitCode: 2 } });
  });

  it('is checked before the input is read: stdin is not needed', async () => {
    const r = await runSrs(['score', 'recompute', '-', '--as-of', '2024-02-31', '-o', 'table'], env, { input: 'not json' });
    expect(expectOneLineUsage(r)).toMatch(/--as-of/);
  });

  it('--tolerance keeps its message', async () => {
    const r = await runSrs(['score', 'recompute', responsePath, '--tolerance', '-1', '-o', 'table'], env);
    expect(expectOneLineUsage(r)).toBe('srs: --tolerance must be a number from 0 to 0.5 (got "-1")');
  });
});

describe('score recompute: values the model rejects inside the file', () => {
  it('a bundle with claimWeight outside 0..1 is not a valid bundle', async () => {
    const p = write('cw.json', bundle({}, { claimWeight: 2 }));
    const line = expectOneLineUsage(await runSrs(['score', 'recompute', p, '-o', 'table'], env));
    expect(line).toContain('not a valid srs score bundle');
    expect(line).toContain('claimWeight');
  });

  it('a bundle whose asOf is not a real date is not a valid bundle', async () => {
    const p = write('asof.json', bundle({ asOf: '2024-02-31' }));
    const line = expectOneLineUsage(await runSrs(['score', 'recompute', p, '-o', 'table'], env));
    expect(line).toContain('not a valid srs score bundle');
    expect(line).toContain('asOf');
  });

  it('--as-of overrides a valid bundle date, and is checked the same way', async () => {
    const p = write('ok.json', bundle());
    // A format-1 bundle has no digest, and this one was made by model "x": --verify needs both accepted.
    expect((await runSrs(['score', 'recompute', p, '--verify', '-o', 'json'], env)).code).toBe(3);
    const taken = await runSrs(['score', 'recompute', p, '--verify', '--allow-undigested', '--accept-model', 'x', '-o', 'json'], env);
    expect(taken.code).toBe(0);
    // Never plain "verified" for a bundle whose integrity was not checked.
    expect(taken.stderr).toMatch(/^verified without a digest \(--allow-undigested\): recomputed/m);
    expect(taken.stderr).toContain('without a digest: taken with --allow-undigested, so whether it was altered is not known');
    expect(expectOneLineUsage(await runSrs(['score', 'recompute', p, '--as-of', '2024-04-31', '-o', 'table'], env))).toMatch(/^srs: --as-of /);
  });

  it('an entry date the model cannot read names the file', async () => {
    const p = write('entry.json', { items: [item(entry({ expiryDate: '2024-02-30' }))] });
    const r = await runSrs(['score', 'recompute', p, '--scorecards', write('cards.json', []), '-o', 'table'], env);
    const line = expectOneLineUsage(r);
    expect(line).toContain(p);
    expect(line).toContain('2024-02-30');
  });
});

describe('score check: number options', () => {
  it.each([
    [['--min', 'x'], 'srs: --min must be a number (got "x")'],
    [['--expiring-within', 'soon'], 'srs: --expiring-within must be a number (got "soon")'],
    [['--expiring-within', '1.5'], 'srs: --expiring-within takes a whole number of days from 0 to 36500 (got "1.5")'],
    [['--expiring-within', '100000000'], 'srs: --expiring-within takes a whole number of days from 0 to 36500 (got "100000000")'],
    [['--max-drop', '-1', '--baseline', 'b.json'], 'srs: --max-drop must be a number >= 0 (got "-1")'],
  ])('%j', async (flags, message) => {
    const p = write('check.json', bundle());
    const r = await runSrs(['score', 'check', '--from', p, ...flags, '-o', 'table'], env);
    expect(expectOneLineUsage(r)).toBe(message);
  });
});
