/**
 * score calc -o json|ndjson passes the service's own bytes through; whether each result has an overall
 * score is read from those bytes (scanItems' `scored`), whatever the result's size. A result of several KB
 * without one (the document marks nothing in a score result as required) used to be taken for a supplier
 * that exists: exit 0 for an id the service does not know. Also: a create answered with an id srs cannot use.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runSrs } from './harness.js';
import { json, useHostileServer } from '../support/hostile-server.js';

const KEY = 'passthrough-key-SECRET';
const hostile = useHostileServer(KEY);
const UNKNOWN = '01h57nhc4sapk2v8c7tq0bbbbb';
const KNOWN = '01h57nhc4sapk2v8c7tq0abcde';
const SPEC_EXAMPLES = join(ROOT, '../shared/spec/examples');

/**
 * A service whose score calculation answers `result` for KNOWN, whose scorecard listing holds `cards`, and which
 * knows KNOWN (every other list empty): the environment that points srs at it.
 */
/** A result for KNOWN with one data entry under one data source (and, given `parameter`, under one parameter). */
function oneEntryResult(v: { overall: number; entry: number; parameter?: number }): unknown {
  const entry = { id: '01h57nht080000000000000000', supplierId: KNOWN, dataSourceId: '01g79c3f9j0000000000000000', score: { value: v.entry }, isClaim: false, expiryDate: '2030-01-01', issueDate: '2024-01-01' };
  return {
    supplierId: KNOWN,
    score: { value: v.overall, dataSourcesScore: { value: v.entry }, policyParametersScore: { value: v.parameter ?? v.overall } },
    dataSourceScores: [{ dataSourceId: entry.dataSourceId, score: { value: v.entry }, dataPoints: { dataEntries: [entry] } }],
    policyParameterScores:
      v.parameter === undefined ? [] : [{ policyParameterId: '01h3zz0000000000000000pppp', score: { value: v.parameter }, dataPoints: { dataEntries: [entry], risk: { riskLevel: 'Medium', riskEntries: [] }, contexts: [] } }],
  };
}

function scoringService(name: string, result: unknown, cards: unknown[] = []): Record<string, string> {
  const base = hostile.server.scenario(name, (req, res) => {
    if (req.method === 'POST') return json(res, 200, { items: [result] });
    if (req.url?.includes('/v1/scorecards')) return json(res, 200, { items: cards, pagination: { pageSize: 100 } });
    if (req.url?.includes(`/v1/suppliers/${KNOWN}`)) return json(res, 200, { item: { id: KNOWN, name: 'Known' } });
    return json(res, 200, { items: [], pagination: { pageSize: 100 } });
  });
  return { ...hostile.env, SRS_BASE_URL: base };
}

/** A ~4 KB result: twenty parameter scores, no overall value unless `value` is given. */
function result(supplierId: string, value?: number) {
  return {
    supplierId,
    score: value === undefined ? { dataSourcesScore: {}, policyParametersScore: {} } : { value, dataSourcesScore: { value }, policyParametersScore: { value } },
    dataSourceScores: [],
    policyParameterScores: Array.from({ length: 20 }, (_, i) => ({
      policyParameterId: `01h57nhc4sapk2v8c7tq0pp${String(i).padStart(3, '0')}`,
      score: {},
      dataPoints: { dataEntries: [], contexts: [{ type: 'industry', name: 'Manufacture of basic iron and steel products', code: '24101000' }] },
    })),
  };
}

describe('score calc -o json|ndjson: a large result without an overall score', () => {
  for (const format of ['json', 'ndjson']) {
    it(`-o ${format}: its supplier is looked up, and one the service does not know is UNKNOWN, exit 1`, async () => {
      const base = hostile.server.scenario(`big-${format}`, (req, res) => {
        if (req.method === 'POST') return json(res, 200, { items: [result(UNKNOWN), result(KNOWN, 1.25)] });
        if (req.url?.endsWith(`/v1/suppliers/${KNOWN}`)) return json(res, 200, { item: { id: KNOWN, name: 'Known' } });
        return json(res, 404, { message: 'not found' });
      });
      const r = await runSrs(['score', 'calc', UNKNOWN, KNOWN, '-o', format], { ...hostile.env, SRS_BASE_URL: base });
      expect(JSON.stringify(result(UNKNOWN)).length).toBeGreaterThan(2048);
      expect(r.stderr).toMatch(new RegExp(`UNKNOWN ${UNKNOWN}: the service does not know supplier`));
      expect(r.code).toBe(1);
      // Passed through as sent, both results; only the one without a score was looked up.
      expect(r.stdout).toContain(JSON.stringify(result(KNOWN, 1.25)));
      const lookups = hostile.server.seen.filter((s) => s.url.startsWith(`/s/big-${format}/v1/suppliers/`)).map((s) => s.url.split('/').at(-1));
      expect(lookups).toEqual([UNKNOWN]);
    });
  }
});

describe('score calc: parts of a result the document allows to lack their ids', () => {
  /** An entry without an id, and a parameter score (risk Medium) without its policyParameterId. */
  const partial = {
    supplierId: KNOWN,
    score: { value: 1.75, dataSourcesScore: { value: 1.75 }, policyParametersScore: { value: 1.75 } },
    dataSourceScores: [{ dataSourceId: '01h57nhc4sapk2v8c7tq0ds001', score: { value: 1.75 }, dataPoints: { dataEntries: [{ supplierId: KNOWN, dataSourceId: '01h57nhc4sapk2v8c7tq0ds001', score: { value: 2 } }] } }],
    policyParameterScores: [{ score: { value: 1.75 }, dataPoints: { dataEntries: [], risk: { riskLevel: 'Medium', riskEntries: [] }, contexts: [] } }],
  };
  const scenario = (name: string, pretty: boolean) =>
    hostile.server.scenario(name, (req, res) => {
      if (req.method === 'POST') return json(res, 200, JSON.stringify({ items: [partial] }, null, pretty ? 2 : undefined));
      return json(res, 200, { item: { id: KNOWN, name: 'Known' } });
    });

  it('-o json prints them as received, however the service formats its answer, and with --fields', async () => {
    for (const [name, args] of [
      ['partial-pretty', ['-o', 'json']],
      ['partial-fields', ['-o', 'json', '--fields', 'supplierId,policyParameterScores,dataSourceScores']],
    ] as const) {
      const base = scenario(name, name === 'partial-pretty');
      const r = await runSrs(['score', 'calc', KNOWN, ...args], { ...hostile.env, SRS_BASE_URL: base });
      expect(r.code, r.stderr).toBe(0);
      const [item] = JSON.parse(r.stdout) as Array<typeof partial>;
      expect(item!.policyParameterScores).toEqual(partial.policyParameterScores);
      expect(item!.dataSourceScores).toEqual(partial.dataSourceScores);
      // Nothing invented: no isClaim, no null score.
      expect(r.stdout).not.toMatch(/isClaim|null/);
    }
  });

  it('--save records a supplier whose result has parts srs leaves out as unknown (the evidence could not hold them), with or without values', async () => {
    // No value reported anywhere, or a value the dropped entry fed: either way the bundle would hold the result without
    // what was left out, and check --from of it would gate on the rest (a High parameter without its id passed).
    const noScore = { supplierId: KNOWN, score: { dataSourcesScore: {}, policyParametersScore: {} }, dataSourceScores: [{ ...partial.dataSourceScores[0]!, score: {} }], policyParameterScores: [] };
    for (const item of [noScore, { ...noScore, dataSourceScores: partial.dataSourceScores }]) {
      const base = hostile.server.scenario(`save-left-out-${item === noScore ? 'none' : 'value'}`, (req, res) => {
        if (req.method === 'POST') return json(res, 200, { items: [item] });
        if (req.url?.includes('/v1/scorecards')) return json(res, 200, { items: [], pagination: { pageSize: 100 } });
        return json(res, 200, { item: { id: KNOWN, name: 'Known' } });
      });
      const env = { ...hostile.env, SRS_BASE_URL: base };
      const dir = mkdtempSync(join(tmpdir(), 'srs-save-left-out-'));
      const r = await runSrs(['score', 'calc', KNOWN, '--save', join(dir, 'b.jsonl'), '-o', 'json'], env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.replace(/\\"/g, '"')).toContain(`the service's result for supplier ${KNOWN} is incomplete (data entries without an id or a data source id, left out: 1): srs cannot record it as evidence`);
      // Without --save the result is printed as received.
      const without = await runSrs(['score', 'calc', KNOWN, '-o', 'json'], env);
      expect(JSON.parse(without.stdout)).toEqual([item]);
      expect(without.stdout).not.toMatch(/null/);
    }
  });

  it('a breakdown says what it had to leave out or assume, instead of showing 0 entries in silence', async () => {
    const base = scenario('partial-breakdown', false);
    const r = await runSrs(['score', 'calc', KNOWN, '--breakdown', 'sources', '-o', 'csv'], { ...hostile.env, SRS_BASE_URL: base });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`warning: the service's result for supplier ${KNOWN} is incomplete \\(data entries without an id or a data source id, left out: 1; policy parameter scores without a policyParameterId, left out: 1\\)`));
  });
});

describe('a create answered with an id srs cannot use', () => {
  it('"" or a path is an unknown outcome (exit 1, recorded unknown), in create and import; the next attempt is refused', async () => {
    for (const [name, id] of [['emptyid', ''], ['pathid', '../../etc/passwd']] as const) {
      const base = hostile.server.scenario(name, (req, res) => {
        if (req.method === 'POST') return json(res, 201, { id, name: 'X', countryIso3Code: null, website: null, status: 'current', customerSupplierId: `${name}-1` });
        return json(res, 404, { message: 'no' });
      });
      const env = { ...hostile.env, SRS_BASE_URL: base, SRS_DATA_DIR: `${hostile.env.SRS_DATA_DIR}-${name}` };
      const r = await runSrs(['supplier', 'create', '--name', 'X', '--customer-id', `${name}-1`], env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/outcome unknown: .*is not an id srs can use/);
      const again = await runSrs(['supplier', 'create', '--name', 'X', '--customer-id', `${name}-1`], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/unknown outcome/);
      expect(hostile.server.count(name)).toBe(1);
    }
  });
});

describe('a score outside -3..+3 in the service\'s answer', () => {
  it('is "off scale" in calc (not "very good"), and explain says in one line what it cannot explain (it was "unexpected error")', async () => {
    const env = scoringService('offscale', oneEntryResult({ overall: 123, entry: 123, parameter: 123 }));
    const calc = await runSrs(['score', 'calc', KNOWN, '-o', 'csv', '--fields', 'supplierId,score,label'], env);
    expect(calc.stdout, calc.stderr).toMatch(/,123,off scale/);
    expect(calc.stdout).not.toMatch(/very good/);
    // Said when it arrives, not first by a later check of the bundle ("recomputation differs").
    expect(calc.stderr).toContain(`warning: the service's result for supplier ${KNOWN} holds score 123, outside the scale -3..+3: shown "off scale"; score check takes it for unknown`);
    expect(calc.stderr.match(/outside the scale/g)).toHaveLength(1);
    const explain = await runSrs(['score', 'explain', KNOWN], env);
    expect(explain.code).toBe(1);
    expect(explain.stderr).toMatch(new RegExp(`the service's result for supplier ${KNOWN} cannot be explained or verified: its score 123 is outside the scale -3\\.\\.\\+3`));
    expect(explain.stderr).not.toMatch(/unexpected error/);
  });
});

describe('an overall score off the scale, with entries on it', () => {
  it('score explain and report cannot explain it: exit 1 saying so (explain drew a full +3 bar, exit 0)', async () => {
    const env = scoringService('offscale-overall', oneEntryResult({ overall: 9.5, entry: 2 }));
    for (const args of [['score', 'explain', KNOWN], ['score', 'explain', KNOWN, '-o', 'json'], ['score', 'report', KNOWN, '--html', join(mkdtempSync(join(tmpdir(), 'srs-offscale-')), 'r.html')]]) {
      const r = await runSrs(args, env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`the service's result for supplier ${KNOWN} cannot be explained or verified: its score 9\\.5 is outside the scale -3\\.\\.\\+3`));
    }
  });
});

describe('-o json validates what it passes through', () => {
  it('a score value that is not a number is exit 1 in json and ndjson, as in csv (it was exit 0)', async () => {
    for (const value of ['"2.5"', '1e400']) {
      const body = `{"items":[{"supplierId":"${KNOWN}","score":{"value":${value},"dataSourcesScore":{"value":1},"policyParametersScore":{"value":1}},"dataSourceScores":[],"policyParameterScores":[]}]}`;
      const base = hostile.server.scenario(`badvalue-${value.length}`, (req, res) => (req.method === 'POST' ? json(res, 200, body) : json(res, 200, { item: { id: KNOWN, name: 'Known' } })));
      const codes: Record<string, number> = {};
      for (const format of ['json', 'ndjson', 'csv']) {
        const r = await runSrs(['score', 'calc', KNOWN, '-o', format], { ...hostile.env, SRS_BASE_URL: base });
        codes[format] = r.code;
        expect(r.stderr, `${value} ${format}`).toMatch(/unexpected response \(body\.items\[0\]\.score\.value/);
      }
      expect(codes).toEqual({ json: 1, ndjson: 1, csv: 1 });
    }
  });
});

describe('scorecards without an id (the document does not mark it required)', () => {
  it('make the supplier unknown in report, explain and calc --save, never "recomputation differs" blamed on the service', async () => {
    const result = { supplierId: KNOWN, score: { value: 1, dataSourcesScore: { value: 1 }, policyParametersScore: { value: 1 } }, dataSourceScores: [], policyParameterScores: [] };
    const env = scoringService('idless-cards', result, [{}, {}]);
    const dir = mkdtempSync(join(tmpdir(), 'srs-idless-'));
    const why = /the service sent 2 scorecards without an id for supplier .*cannot explain or verify/;
    const report = await runSrs(['score', 'report', KNOWN, '--html', join(dir, 'r.html')], env);
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(why);
    expect(report.stderr).not.toMatch(/recomputation differs/);
    const explain = await runSrs(['score', 'explain', KNOWN], env);
    expect(explain.code).toBe(1);
    expect(explain.stderr).toMatch(why);
    const save = await runSrs(['score', 'calc', KNOWN, '--save', join(dir, 'b.jsonl'), '-o', 'json'], env);
    expect(save.code).toBe(1);
    expect(save.stderr).toMatch(new RegExp(`UNKNOWN ${KNOWN}: the service sent 2 scorecards without an id`));
    const check = await runSrs(['score', 'check', '--from', join(dir, 'b.jsonl'), '--min', '-3'], env);
    expect(check.code).toBe(3);
    expect(check.stderr).not.toMatch(/recomputation differs/);
  });
});

describe('scorecards srs\'s model cannot take as they are (a negative weight, another item type, a parameter twice)', () => {
  it('make the supplier unknown in calc --save (which saved a bundle its own --verify refused, exit 2), explain and report', async () => {
    const result = { supplierId: KNOWN, score: { value: 1, dataSourcesScore: { value: 1 }, policyParametersScore: { value: 1 } }, dataSourceScores: [], policyParameterScores: [] };
    const pp = (id: string, weight: number) => ({ type: 'policy_parameter_item', policyParameter: { id, name: 'P', policyCategoryName: 'C' }, weight });
    const card = (items: unknown[]) => ({ id: '01hcard0000000000000000000', name: 'Card', groupName: 'G', organizationId: 'o', createdAt: '2026-01-01T00:00:00.000Z', createdBy: 'u', score: 1, weight: 1, items });
    const cases: Array<[string, unknown[], RegExp]> = [
      ['negweight', [pp('01hpp00000000000000000000a', -1)], /gives parameter 01hpp00000000000000000000a the weight -1 \(a finite number >= 0 is expected\)/],
      ['othertype', [pp('01hpp00000000000000000000a', 1), { type: 'category_item', weight: 3 }], /holds an item of type "category_item" \(srs knows policy_parameter_item\)/],
      ['twice', [pp('01hpp00000000000000000000a', 1), pp('01hpp00000000000000000000a', 2)], /lists parameter 01hpp00000000000000000000a twice/],
    ];
    for (const [name, items, why] of cases) {
      const env = scoringService(`unusable-${name}`, result, [card(items)]);
      const dir = mkdtempSync(join(tmpdir(), `srs-${name}-`));
      const save = await runSrs(['score', 'calc', KNOWN, '--save', join(dir, 'b.jsonl'), '-o', 'json'], env);
      expect(save.code, `${name}: ${save.stderr}`).toBe(1);
      expect(save.stderr, name).toMatch(why);
      expect(save.stderr, name).toContain(`UNKNOWN ${KNOWN}: scorecard 01hcard0000000000000000000`);
      const explain = await runSrs(['score', 'explain', KNOWN], env);
      expect(explain.code, name).toBe(1);
      expect(explain.stderr, name).toMatch(why);
      const report = await runSrs(['score', 'report', KNOWN, '--html', join(dir, 'r.html')], env);
      expect(report.code, name).toBe(1);
      // The bundle records why, and its check is not a verdict on a value srs could not take.
      const check = await runSrs(['score', 'check', '--from', join(dir, 'b.jsonl'), '--min', '-3'], env);
      expect(check.code, `${name}: ${check.stderr}`).toBe(3);
    }
  });
});

describe("the interface's own example answer to a create", () => {
  it.runIf(existsSync(SPEC_EXAMPLES))('is taken although its id is not a ULID (ids are opaque strings): created, exit 0, in create and import', async () => {
    const example = JSON.parse(readFileSync(join(SPEC_EXAMPLES, 'create-supplier.response.json'), 'utf8')) as { id: string };
    const base = hostile.server.scenario('example-create', (req, res, _n, body) => {
      // The example as the answer, about the supplier sent (a 201 about another customer id is an unknown outcome).
      if (req.method === 'POST') return json(res, 201, { ...example, customerSupplierId: (JSON.parse(body) as { customerSupplierId?: string }).customerSupplierId ?? null });
      if (req.url?.endsWith(`/v1/suppliers/${encodeURIComponent(example.id)}`)) return json(res, 200, { item: example });
      return json(res, 404, { message: 'no' });
    });
    const env = { ...hostile.env, SRS_BASE_URL: base, SRS_DATA_DIR: `${hostile.env.SRS_DATA_DIR}-example` };
    const r = await runSrs(['supplier', 'create', '--name', 'Embudo Valley Organics', '--customer-id', 'SUPP-12345', '-o', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }).id).toBe(example.id);
    // Read back by the customer id the catalog recorded it under: the service's own id, sent as it is.
    const back = await runSrs(['supplier', 'get', '--customer-id', 'SUPP-12345', '-o', 'json'], env);
    expect(back.code, back.stderr).toBe(0);
    expect((JSON.parse(back.stdout) as { id: string }).id).toBe(example.id);
    const csv = join(mkdtempSync(join(tmpdir(), 'srs-example-')), 'example-import.csv');
    writeFileSync(csv, 'name,country,customerSupplierId\nOther Organics,USA,SUPP-777\n');
    const imp = await runSrs(['supplier', 'import', csv, '-o', 'json', '--quiet'], env);
    expect(imp.code, imp.stderr).toBe(0);
    expect((JSON.parse(imp.stdout) as { created: number }).created).toBe(1);
  });
});

describe('srs api POST of a read', () => {
  it('without an answer is a network error, not "outcome unknown ... a supplier may have been created"', async () => {
    const base = hostile.server.scenario('calc-dropped', (req) => req.socket.destroy());
    const r = await runSrs(['api', 'POST', '/v1/score-calculation', '--input', '-', '--retries', '1', '-o', 'json'], { ...hostile.env, SRS_BASE_URL: base }, { input: JSON.stringify({ supplierIds: [KNOWN] }) });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/outcome_unknown|supplier may have been created/);
  });
});

describe('srs api POST and a compressed answer', () => {
  it('a POST without a usable answer is outcome_unknown; a gzip body nobody asked for is named', async () => {
    const base = hostile.server.scenario('post500', (_req, res) => json(res, 500, { message: 'boom' }));
    const r = await runSrs(['api', 'POST', '/v1/suppliers', '-f', 'name=X', '--retries', '0'], { ...hostile.env, SRS_BASE_URL: base });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/outcome unknown: .*may have reached the service and taken effect/);
    const { gzipSync } = await import('node:zlib');
    const gz = hostile.server.scenario('gzip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ items: [], pagination: {} })));
    });
    const g = await runSrs(['ref', 'countries'], { ...hostile.env, SRS_BASE_URL: gz });
    expect(g.code).toBe(1);
    expect(g.stderr).toMatch(/Content-Encoding gzip, which srs did not ask for/);
  });
});
