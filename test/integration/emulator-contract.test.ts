/**
 * The emulator's real answers have exactly the field names and nesting of the
 * service's published examples (shared/spec/examples): the deep key sets
 * (recursive key paths, arrays collapsed to []) must be equal.
 *
 * The examples are copied verbatim below so that the test does not depend on
 * a path outside the repository; when the originals are reachable, the copies
 * are checked against them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScoreCalculationResponse, SupplierCreateRequest, SupplierCreateResponse, ScoreCalculationRequest } from '../../src/api/contract.js';
import { fixtures, startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

// ---------------------------------------------------------------- the examples (verbatim)

const EXAMPLES: Record<string, unknown> = {
  'create-supplier.request.json': {
    name: 'Embudo Valley Organics',
    countryIso3Code: 'USA',
    website: 'https://example.com',
    industryCodes: ['10101010', '10101020'],
    categoryIds: ['01h57nhc4sapk2v8c7tq...'],
    contacts: [{ email: 'john.doe@example.com', firstName: 'John', lastName: 'Doe' }],
    customerSupplierId: 'SUPP-12345',
  },
  'create-supplier.response.json': {
    id: '01h57nhc4sapk2v8c7tq[...]',
    name: 'Embudo Valley Organics',
    countryIso3Code: 'USA',
    website: 'https://example.com',
    status: 'current',
    customerSupplierId: 'SUPP-12345',
  },
  'score-calculation.request.json': {
    supplierIds: ['01h57nhc4sapk2v8c7tq[...]'],
    policyParameterIds: ['01fb6pb5wmkmq6pdyqas[...]'],
    dataSourceIds: ['01fxj9241kzmtqy3nx[...]'],
    includeZeroValues: true,
  },
  'score-calculation.response.json': {
    items: [
      {
        supplierId: '01h57nhc4s[...]',
        score: { value: 123, dataSourcesScore: { value: 123 }, policyParametersScore: { value: 123 } },
        dataSourceScores: [
          {
            dataSourceId: '01h57nhc4s[...]',
            score: { value: 123 },
            dataPoints: {
              dataEntries: [
                {
                  id: '01h57nht08[...]',
                  supplierId: '01h57nhc4s[...]',
                  dataSourceId: '01g79c3f9j[...]',
                  score: { value: 123 },
                  isClaim: false,
                  expiryDate: '2024-01-01',
                  issueDate: '2024-01-01',
                },
              ],
            },
          },
        ],
        policyParameterScores: [
          {
            policyParameterId: '01fb6pb5wm[...]',
            score: { value: 123 },
            dataPoints: {
              dataEntries: [
                {
                  id: '01h57nht08[...]',
                  supplierId: '01h57nhc4s[...]',
                  dataSourceId: '01g79c3f9j[...]',
                  score: { value: 123 },
                  isClaim: false,
                  expiryDate: '2024-01-01',
                  issueDate: '2024-01-01',
                },
              ],
              risk: {
                riskLevel: 'Medium',
                riskEntries: [
                  {
                    riskDataSourceId: '01hv0w89bk[...]',
                    year: 2023,
                    riskIndicators: [
                      {
                        riskLevel: 'Medium',
                        name: 'Risk Indicator Name',
                        website: 'https://www.example.com',
                        description: 'Risk Indicator Description',
                      },
                    ],
                  },
                ],
              },
              contexts: [{ type: 'industry', name: 'Packaged Foods & Meats', code: '30202030' }],
            },
          },
        ],
      },
    ],
  },
};

/** The shared spec next to the repository (absent in a plain clone: then only the copies are used). */
const SHARED_EXAMPLES = join(import.meta.dirname, '../../../shared/spec/examples');

// ---------------------------------------------------------------- key sets

/** Every key path of a JSON value; array elements collapse to "[]" (the union over all elements). */
function keyPaths(value: unknown, prefix = '', out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) keyPaths(v, `${prefix}[]`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const path = prefix === '' ? k : `${prefix}.${k}`;
      out.add(path);
      keyPaths(v, path, out);
    }
  }
  return out;
}

const sorted = (s: Set<string>) => [...s].sort();

// ---------------------------------------------------------------- tests

/** Every seeded entry that is "valid" is valid on this date. */
const AS_OF = '2026-10-15';
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ asOf: AS_OF });
});
afterAll(async () => {
  await emu?.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(emu.url + path, {
    method,
    headers: { 'x-api-key': emu.apiKey, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe('the example copies', () => {
  it.runIf(existsSync(join(SHARED_EXAMPLES, 'score-calculation.response.json')))('match the shared originals when those are reachable', () => {
    for (const [name, copy] of Object.entries(EXAMPLES)) {
      expect(JSON.parse(readFileSync(join(SHARED_EXAMPLES, name), 'utf8')), name).toEqual(copy);
    }
  });

  it('parse with the contract schemas', () => {
    expect(SupplierCreateResponse.safeParse(EXAMPLES['create-supplier.response.json']).success).toBe(true);
    expect(ScoreCalculationResponse.safeParse(EXAMPLES['score-calculation.response.json']).success).toBe(true);
    expect(ScoreCalculationRequest.safeParse(EXAMPLES['score-calculation.request.json']).success).toBe(true);
    expect(SupplierCreateRequest.safeParse(EXAMPLES['create-supplier.request.json']).success).toBe(true);
  });
});

describe('create supplier', () => {
  it('the answer to the example request has the example response\'s key set', async () => {
    const categories = (await call('GET', '/v1/categories')).json.items;
    const request = { ...(EXAMPLES['create-supplier.request.json'] as Record<string, unknown>), categoryIds: [categories[0].id] };
    expect(sorted(keyPaths(request))).toEqual(sorted(keyPaths(EXAMPLES['create-supplier.request.json'])));
    const a = await call('POST', '/v1/suppliers', request);
    expect(a.status, JSON.stringify(a.json)).toBe(201);
    SupplierCreateResponse.parse(a.json);
    expect(sorted(keyPaths(a.json))).toEqual(sorted(keyPaths(EXAMPLES['create-supplier.response.json'])));
    expect(a.json).toEqual({ ...(EXAMPLES['create-supplier.response.json'] as object), id: a.json.id });
  });
});

describe('score calculation', () => {
  it('the answer to the example request has the example response\'s key set', async () => {
    const supplierId = fixtures().suppliers[0]!.id;
    // Find a data source and a policy parameter for which every nested part is present:
    // an entry of that data source informing that parameter, risk entries and contexts.
    const full = (await call('POST', '/v1/score-calculation', { supplierIds: [supplierId] })).json.items[0];
    let choice: { dataSourceId: string; policyParameterId: string } | undefined;
    for (const pp of full.policyParameterScores) {
      if (pp.dataPoints.risk.riskEntries.length === 0 || pp.dataPoints.contexts.length === 0) continue;
      const entry = pp.dataPoints.dataEntries[0];
      if (entry) {
        choice = { dataSourceId: entry.dataSourceId, policyParameterId: pp.policyParameterId };
        break;
      }
    }
    expect(choice, 'the first seeded supplier should have an entry with risk and contexts').toBeDefined();

    const request = {
      ...(EXAMPLES['score-calculation.request.json'] as Record<string, unknown>),
      supplierIds: [supplierId],
      policyParameterIds: [choice!.policyParameterId],
      dataSourceIds: [choice!.dataSourceId],
    };
    expect(sorted(keyPaths(request))).toEqual(sorted(keyPaths(EXAMPLES['score-calculation.request.json'])));
    const a = await call('POST', '/v1/score-calculation', request);
    expect(a.status, JSON.stringify(a.json)).toBe(200);
    const body = ScoreCalculationResponse.parse(a.json);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]!.dataSourceScores!.map((d) => d.dataSourceId)).toEqual([choice!.dataSourceId]);
    expect(body.items[0]!.policyParameterScores!.map((p) => p.policyParameterId)).toEqual([choice!.policyParameterId]);
    expect(sorted(keyPaths(a.json))).toEqual(sorted(keyPaths(EXAMPLES['score-calculation.response.json'])));

    // and the unfiltered answer has the same key set too
    expect(sorted(keyPaths({ items: [full] }))).toEqual(sorted(keyPaths(EXAMPLES['score-calculation.response.json'])));
  });

  it('keyPaths collapses arrays and nests objects', () => {
    expect(sorted(keyPaths({ a: [{ b: 1 }, { c: { d: 2 } }], e: null }))).toEqual(['a', 'a[].b', 'a[].c', 'a[].c.d', 'e']);
  });
});
