/**
 * Bulk work parses responses with schemas compiled by zod (hot() and compiledForm() in
 * src/api/contract.ts). This guards that against a zod upgrade: each bulk response schema must
 * still compile (strict: not handed back unchanged), and the compiled schema must give exactly
 * the runtime schema's verdicts, data and messages, for what the emulator sends in every response
 * shape the document allows (wire, nulls, minimal, all-nulls), for the document's own example and
 * for broken bodies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  CountryList,
  DataSourceList,
  EmissionReportList,
  HOT_AFTER,
  NewsEventList,
  Reader,
  ScoreCalculationResponse,
  ScorecardList,
  StandardIndustryList,
  SupplierCreateResponse,
  SupplierDetailResponse,
  compiledForm,
  hot,
} from '../../src/api/contract.js';
import { RESPONSE_SHAPES } from '../../src/emulator/shape.js';
import { fixtures, startEmulator, type StartedEmulator } from '../../src/emulator/index.js';

const EXAMPLE = join(import.meta.dirname, '../../../shared/spec/examples/score-calculation.response.json');
const CREATED_EXAMPLE = join(import.meta.dirname, '../../../shared/spec/examples/create-supplier.response.json');

const BULK = { ScorecardList, ScoreCalculationResponse, SupplierCreateResponse, SupplierDetailResponse, CountryList, DataSourceList, StandardIndustryList, NewsEventList, EmissionReportList };

function same(schema: z.ZodMiniType, body: unknown): void {
  const compiled = compiledForm(schema, { strict: true });
  if (!compiled) throw new Error('no compiled form');
  const runtime = schema.safeParse(body);
  const fast = compiled.safeParse(body);
  expect(fast.success).toBe(runtime.success);
  expect(fast.data).toEqual(runtime.data);
  expect(fast.error?.issues.map((i) => [i.path, i.code, i.message])).toEqual(runtime.error?.issues.map((i) => [i.path, i.code, i.message]));
}

describe('compiled response schemas', () => {
  it.each(Object.entries(BULK))('%s compiles without falling back to the runtime parser', (_name, schema) => {
    // strict: zod throws (ZodCompileUnsupportedError) instead of handing back a schema it could not compile.
    expect(() => compiledForm(schema, { strict: true })).not.toThrow();
    expect(compiledForm(schema, { strict: true })).toBeDefined();
  });

  it('hot() hands out the schema itself for HOT_AFTER uses, then its compiled form, always the same one', () => {
    const schema = Reader.RiskEntry;
    for (let i = 0; i < HOT_AFTER; i++) expect(hot(schema)).toBe(schema);
    const compiled = hot(schema);
    expect(compiled).not.toBe(schema);
    expect(hot(schema)).toBe(compiled);
    // A schema outside the contract is never replaced.
    const other = z.object({ a: z.string() });
    for (let i = 0; i < HOT_AFTER + 2; i++) expect(hot(other)).toBe(other);
  });

  it("the document's examples parse the same", () => {
    same(ScoreCalculationResponse, JSON.parse(readFileSync(EXAMPLE, 'utf8')));
    same(SupplierCreateResponse, JSON.parse(readFileSync(CREATED_EXAMPLE, 'utf8')));
  });

  it('broken bodies: the same verdicts and messages', () => {
    const created = JSON.parse(readFileSync(CREATED_EXAMPLE, 'utf8')) as Record<string, unknown>;
    for (const body of [
      null,
      'text',
      [],
      {},
      { ...created, id: 7 },
      { ...created, status: undefined },
      { ...created, extra: { kept: true } },
      { ...created, countryIso3Code: null, website: null, customerSupplierId: null },
    ]) same(SupplierCreateResponse, body);
    for (const body of [
      { items: 'x' },
      { items: [{}] },
      { items: [{ supplierId: 's', score: { value: 'high' } }] },
      { items: [{ supplierId: 's', score: null, dataSourceScores: [{ dataSourceId: 'd', dataPoints: { dataEntries: [{ id: 'e', isClaim: 'yes' }] } }] }] },
      { items: [{ supplierId: 's', unknown: 1, policyParameterScores: [{ policyParameterId: 'p', dataPoints: { risk: { riskEntries: [{ year: '2024' }] } } }] }] },
    ]) same(ScoreCalculationResponse, body);
    for (const body of [{ items: [{ id: 1 }], pagination: {} }, { items: [{ items: [{ weight: 'x' }] }], pagination: null }, { items: [] }]) same(ScorecardList, body);
  });

  describe.each(RESPONSE_SHAPES)('what the emulator sends, shape %s', (shape) => {
    let emu: StartedEmulator;
    const get = async (path: string, init?: RequestInit): Promise<unknown> => {
      const res = await fetch(emu.url + path, { ...init, headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' } });
      return res.json();
    };
    beforeAll(async () => {
      emu = await startEmulator({ shape, suppliers: 40 });
    });
    afterAll(() => emu.close());

    it('scorecards, score results, suppliers and reference lists parse the same', async () => {
      const fx = fixtures(undefined, 40);
      const ids = fx.suppliers.map((s) => s.id);
      same(ScoreCalculationResponse, await get('/v1/score-calculation', { method: 'POST', body: JSON.stringify({ supplierIds: ids }) }));
      for (const id of ids.slice(0, 5)) {
        same(ScorecardList, await get(`/v1/scorecards?supplierId=${id}`));
        same(SupplierDetailResponse, await get(`/v1/suppliers/${id}`));
        same(EmissionReportList, await get(`/v1/suppliers/${id}/emission-reports`));
        same(NewsEventList, await get(`/v1/suppliers/${id}/news-events`));
      }
      same(ScorecardList, await get('/v1/scorecards'));
      same(CountryList, await get('/v1/countries'));
      same(DataSourceList, await get('/v1/data-sources'));
      same(StandardIndustryList, await get('/v1/standard-industries?subIndustriesOnly=false'));
      same(SupplierCreateResponse, await get('/v1/suppliers', { method: 'POST', body: JSON.stringify({ name: 'Compiled Parse Check', customerSupplierId: 'CPC-1' }) }));
    });
  });
});
