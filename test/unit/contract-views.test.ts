/**
 * The two views of the contract (src/api/contract.ts) and the emulator's
 * reshaping along them (src/emulator/shape.ts).
 */
import { describe, expect, it } from 'vitest';
import { Reader, Wire } from '../../src/api/contract.js';
import { reshape } from '../../src/emulator/shape.js';

describe('wire and reader views', () => {
  it('an unmarked field: the wire allows it absent but never null; the reader allows both', () => {
    for (const item of [{}, { id: 'x', name: 'n' }]) {
      expect(Wire.Scorecard.safeParse(item).success).toBe(true);
      expect(Reader.Scorecard.safeParse(item).success).toBe(true);
    }
    expect(Wire.Scorecard.safeParse({ score: null }).success).toBe(false);
    expect(Reader.Scorecard.safeParse({ score: null }).success).toBe(true);
    expect(Wire.Country.safeParse({ iso3Code: null }).success).toBe(false);
    expect(Reader.Country.safeParse({ iso3Code: null, commonName: null }).success).toBe(true);
    // A wrong type is wrong in both.
    expect(Reader.Country.safeParse({ iso3Code: 276 }).success).toBe(false);
  });

  it('a field the document marks required stays required in both; "string or null" may be null in both', () => {
    const created = { id: 'a', name: 'A', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null };
    for (const view of [Wire, Reader]) {
      expect(view.SupplierCreateResponse.safeParse(created).success).toBe(true);
      const { status: _s, ...withoutStatus } = created;
      expect(view.SupplierCreateResponse.safeParse(withoutStatus).success).toBe(false);
      expect(view.DataEntry.safeParse({ type: 'news_event', id: 'e', supplier: {}, score: 1, policyParameterScores: [{}], newsEvent: {} }).success).toBe(true);
      expect(view.DataEntry.safeParse({ type: 'news_event', id: 'e', supplier: {}, policyParameterScores: [], newsEvent: {} }).success).toBe(false);
    }
  });

  it('a score result: the reader requires its supplierId (the one exception), the wire does not', () => {
    expect(Wire.ScoreResult.safeParse({}).success).toBe(true);
    expect(Reader.ScoreResult.safeParse({}).success).toBe(false);
    expect(Reader.ScoreResult.safeParse({ supplierId: 's', score: null, dataSourceScores: null }).success).toBe(true);
    expect(Wire.ScoreResult.safeParse({ supplierId: 's', score: { value: null } }).success).toBe(false);
  });

  it('request bodies: the wire ignores unknown keys and plain contact strings, the client refuses them', () => {
    const body = { name: 'A', colour: 'blue', contacts: [{ email: 'not-an-email', phone: '1' }] };
    expect(Wire.SupplierCreateRequest.safeParse(body).success).toBe(true);
    expect(Reader.SupplierCreateRequest.safeParse(body).success).toBe(false);
    expect(Reader.SupplierCreateRequest.safeParse({ name: 'A', contacts: [{ email: 'a@example.com' }] }).success).toBe(true);
    expect(Wire.ScoreCalculationRequest.safeParse({ supplierIds: ['a'], extra: 1 }).success).toBe(true);
    expect(Reader.ScoreCalculationRequest.safeParse({ supplierIds: ['a'], extra: 1 }).success).toBe(false);
    for (const view of [Wire, Reader]) {
      expect(view.ScoreCalculationRequest.safeParse({ supplierIds: [''] }).success).toBe(false);
      expect(view.PageQuery.safeParse({ page: 2.5 }).success).toBe(false);
      expect(view.PageQuery.safeParse({ page: 2.0 }).success).toBe(true);
    }
  });
});

describe('reshape', () => {
  const risk = Object.freeze({ riskLevel: null, riskEntries: Object.freeze([]) });
  const answer = () => ({
    items: [
      {
        supplierId: 's',
        score: { value: null, dataSourcesScore: { value: 1 }, policyParametersScore: { value: null } },
        dataSourceScores: [],
        policyParameterScores: [{ policyParameterId: 'p', score: { value: null }, dataPoints: { dataEntries: [], risk, contexts: [] } }],
        extra: null,
      },
    ],
  });

  it("wire: nulls in unmarked fields are left out, copy on write (shared and frozen records untouched), unknown keys alone", () => {
    const a = answer();
    const out = reshape(Wire.ScoreCalculationResponse, a, 'wire') as ReturnType<typeof answer>;
    expect(out).toEqual({
      items: [
        {
          supplierId: 's',
          score: { dataSourcesScore: { value: 1 }, policyParametersScore: {} },
          dataSourceScores: [],
          policyParameterScores: [{ policyParameterId: 'p', score: {}, dataPoints: { dataEntries: [], risk: { riskEntries: [] }, contexts: [] } }],
          extra: null,
        },
      ],
    });
    expect(a).toEqual(answer());
    expect(risk.riskLevel).toBeNull();
    expect(Wire.ScoreCalculationResponse.safeParse(out).success).toBe(true);
    // Nothing to change: the same object back.
    expect(reshape(Wire.ScoreCalculationResponse, out, 'wire')).toBe(out);
  });

  it('wire keeps the nulls the document allows; the pagination object is never reshaped', () => {
    const created = { id: 'a', name: 'A', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null };
    expect(reshape(Wire.SupplierCreateResponse, created, 'wire')).toBe(created);
    const page = { items: [{ id: 'c', name: null }], pagination: { pageSize: 100, nextPage: null } };
    expect(reshape(Wire.CategoryList, page, 'wire')).toEqual({ items: [{ id: 'c' }], pagination: { pageSize: 100, nextPage: null } });
    expect(reshape(Reader.CountryList, { items: [{ iso3Code: 'DEU' }], pagination: { pageSize: 1, nextPage: 2 } }, 'minimal')).toEqual({ items: [{}], pagination: { pageSize: 1, nextPage: 2 } });
  });

  it('minimal leaves out, all-nulls nulls, every field the reader does not require', () => {
    const entry = { type: 'news_event', id: 'e', supplier: { id: 's' }, score: 1, policyParameterScores: [{ policyParameter: { id: 'p' }, score: 2 }], newsEvent: { name: 'n', articles: [] } };
    expect(reshape(Reader.DataEntry, entry, 'minimal')).toEqual({ type: 'news_event', id: 'e', supplier: {}, score: 1, policyParameterScores: [{}], newsEvent: {} });
    expect(reshape(Reader.DataEntry, entry, 'all-nulls')).toEqual({
      type: 'news_event',
      id: 'e',
      supplier: { id: null },
      score: 1,
      policyParameterScores: [{ policyParameter: null, score: null }],
      newsEvent: { name: null, summary: null, articles: null },
    });
    expect(reshape(Reader.ScoreCalculationResponse, answer(), 'minimal')).toEqual({ items: [{ supplierId: 's', extra: null }] });
  });
});
