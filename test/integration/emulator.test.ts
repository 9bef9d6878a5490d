/**
 * The emulator over real HTTP on loopback (no HTTP mocking): authentication,
 * every endpoint against the contract's schemas, pagination, validation,
 * errors, seeding, the state file and fixtures().
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  CategoryList,
  Country,
  CountryList,
  DataEntry,
  DataSourceList,
  EmissionReportList,
  ErrorBody,
  NewsEventList,
  ScoreCalculationResponse,
  ScorecardList,
  ScorecardResponse,
  StandardIndustryList,
  SupplierCreateResponse,
  SupplierDetailResponse,
  Wire,
} from '../../src/api/contract.js';
import { DEFAULT_SEED, DEFAULT_SUPPLIERS, fixtures, startEmulator } from '../../src/emulator/index.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { errorResponse } from '../../src/emulator/http-types.js';
import { Router, ROUTES } from '../../src/emulator/routes.js';
import { EmulatorScoring } from '../../src/emulator/scoring.js';
import { decodeTime } from '../../src/emulator/random.js';
import { DETAILS_CACHE_SIZE, generateSeed, supplierIdBlock } from '../../src/emulator/seed.js';
import { createEmulatorServer, HANDLED } from '../../src/emulator/server.js';
import type { Layer } from '../../src/emulator/server.js';
import { StateDb } from '../../src/emulator/state.js';
import { Store } from '../../src/emulator/store.js';

const ULID = /^[0-9a-hjkmnp-tv-z]{26}$/;
/** A date at which every "valid" seeded entry is valid (issued <= 2026-09-30, expiring >= 2027-01-01). */
const AS_OF = '2026-10-15';

interface Answer {
  status: number;
  headers: Headers;
  json: any;
}

async function call(
  emu: RunningEmulator,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string>; key?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers['x-api-key'] = opts.key ?? emu.apiKey;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(emu.url + path, { method, headers: { ...headers, ...opts.headers }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) };
}

const get = (emu: RunningEmulator, path: string) => call(emu, 'GET', path);
const post = (emu: RunningEmulator, path: string, body: unknown) => call(emu, 'POST', path, { body });

function parseOk<S extends z.ZodMiniType>(schema: S, a: Answer, status = 200): z.infer<S> {
  expect(a.status, JSON.stringify(a.json)).toBe(status);
  const r = schema.safeParse(a.json);
  if (!r.success) throw new Error(`schema mismatch: ${r.error.message}\n${JSON.stringify(a.json).slice(0, 500)}`);
  return r.data;
}

function expectError(a: Answer, status: number, field?: string): void {
  expect(a.status, JSON.stringify(a.json)).toBe(status);
  const body = ErrorBody.parse(a.json);
  expect(body.message).toBe(body.error.message);
  if (field !== undefined) expect(body.error.field).toBe(field);
}

/** Walks a list the way a careful client does: follow nextPage while it is a page after this one and items came back. */
async function walk(emu: RunningEmulator, path: string, perPage: number): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let page = 1;
  let pages = 0;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const a = await get(emu, `${path}${sep}page=${page}&perPage=${perPage}`);
    expect(a.status).toBe(200);
    expect(a.json.pagination.pageSize).toBe(perPage);
    pages++;
    items.push(...a.json.items);
    const next = a.json.pagination.nextPage;
    if (a.json.items.length < perPage || typeof next !== 'number' || next <= page) break;
    page = next;
    if (pages > 1000) throw new Error('pagination does not end');
  }
  return { items, pages };
}

const FIX = fixtures();
const S0 = FIX.suppliers[0]!;

let emu: RunningEmulator;
/** Same data, fixed clock: for checks that depend on which entries are valid. */
let fixed: RunningEmulator;
const logLines: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, log: (l) => logLines.push(l) });
  fixed = await startEmulator({ port: 0, asOf: AS_OF });
});
afterAll(async () => {
  await emu?.close();
  await fixed?.close();
});

describe('startEmulator', () => {
  it('listens on 127.0.0.1 with an ephemeral port and a generated key', () => {
    expect(emu.host).toBe('127.0.0.1');
    expect(emu.port).toBeGreaterThan(0);
    expect(emu.url).toBe(`http://127.0.0.1:${emu.port}`);
    expect(emu.apiKey.length).toBeGreaterThanOrEqual(32);
    expect(emu.apiKey).not.toBe(fixed.apiKey);
  });

  it('uses the given key', async () => {
    const e = await startEmulator({ apiKey: 'my-own-key-0123456789' });
    try {
      expect(e.apiKey).toBe('my-own-key-0123456789');
      expect((await call(e, 'GET', '/v1/countries', { key: 'my-own-key-0123456789' })).status).toBe(200);
    } finally {
      await e.close();
    }
  });

  it('logs method, path, status and duration, never the key', async () => {
    await get(emu, `/v1/suppliers/${S0.id}?x=1`);
    const line = logLines.find((l) => l.startsWith(`GET /v1/suppliers/${S0.id} `));
    expect(line).toMatch(/^GET \/v1\/suppliers\/[0-9a-z]{26} 200 \d+(\.\d+)?ms$/);
    expect(logLines.some((l) => l.includes(emu.apiKey))).toBe(false);
  });

  it('defaults', () => {
    expect(DEFAULT_SEED).toBe(1);
    expect(DEFAULT_SUPPLIERS).toBeGreaterThanOrEqual(150);
    expect(FIX.suppliers).toHaveLength(DEFAULT_SUPPLIERS);
  });
});

describe('authentication', () => {
  it('401 without a key, with a wrong key, with a wrong key of the same length', async () => {
    expectError(await call(emu, 'GET', '/v1/countries', { key: null }), 401);
    expectError(await call(emu, 'GET', '/v1/countries', { key: 'wrong' }), 401);
    const sameLength = emu.apiKey.slice(0, -1) + (emu.apiKey.endsWith('a') ? 'b' : 'a');
    expectError(await call(emu, 'GET', '/v1/countries', { key: sameLength }), 401);
    expectError(await call(emu, 'POST', '/v1/suppliers', { key: null, body: { name: 'x' } }), 401);
    const a = await call(emu, 'GET', '/v1/countries', { key: null });
    expect(a.json.error.code).toBe('unauthorized');
  });

  it('another emulator\'s key is rejected', async () => {
    expectError(await call(emu, 'GET', '/v1/countries', { key: fixed.apiKey }), 401);
  });
});

describe('every endpoint answers with the contract shape', () => {
  it('GET /v1/suppliers/{id}', async () => {
    const { item } = parseOk(SupplierDetailResponse, await get(fixed, `/v1/suppliers/${S0.id}`));
    expect(item.id).toBe(S0.id);
    expect(item.name).toBe(S0.name);
    expect(item.countryIso3Code).toMatch(/^[A-Z]{3}$/);
    expect(item.categories!.length).toBeGreaterThan(0);
    expect(item.customFields!.length).toBeGreaterThan(0);
    expect(typeof item.averageScore).toBe('number');
    expect(item.averageScore!).toBeGreaterThanOrEqual(-3);
    expect(item.averageScore!).toBeLessThanOrEqual(3);
    expect(item.publicSupplierProfileUrl).toMatch(/^https:\/\//);
    expect(Object.keys(item).sort()).toEqual(
      ['averageScore', 'categories', 'countryIso3Code', 'customFields', 'id', 'name', 'publicSupplierProfileUrl'].sort(),
    );
  });

  it('averageScore equals the score calculation\'s value', async () => {
    const { item } = parseOk(SupplierDetailResponse, await get(fixed, `/v1/suppliers/${S0.id}`));
    const calc = parseOk(ScoreCalculationResponse, await post(fixed, '/v1/score-calculation', { supplierIds: [S0.id] }));
    expect(calc.items[0]!.score!.value).toBe(item.averageScore);
  });

  it('GET /v1/suppliers/{id}/emission-reports: items, no pagination', async () => {
    const body = parseOk(EmissionReportList, await get(emu, `/v1/suppliers/${S0.id}/emission-reports`));
    expect(body.items.length).toBeGreaterThan(0);
    expect(Object.keys(body)).toEqual(['items']);
    for (const r of body.items) {
      expect(r.id).toMatch(ULID);
      expect(r.scope).toMatch(/^scope_[123]$/);
      expect(['actual', 'estimated']).toContain(r.dataType);
      expect(r.unit).toBe('tCO2e');
      for (const t of [r.fromDate, r.toDate, r.reportedOn]) expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(new Set(body.items.map((r) => r.scope))).toEqual(new Set(['scope_1', 'scope_2', 'scope_3']));
  });

  it('GET /v1/suppliers/{id}/news-events, with and without dataEntryId', async () => {
    const body = parseOk(NewsEventList, await get(emu, `/v1/suppliers/${S0.id}/news-events`));
    const entries = FIX.dataEntries.filter((e) => e.supplierId === S0.id);
    expect(body.items).toHaveLength(entries.length);
    expect(body.pagination).toEqual({ pageSize: 100 });
    for (const ev of body.items) {
      expect(ev.articles!.length).toBeGreaterThan(0);
      for (const a of ev.articles!) expect(a.publishedAt).toMatch(/^\d{4}-\d\d-\d\d$/);
    }
    const entry = entries[1]!;
    const one = parseOk(NewsEventList, await get(emu, `/v1/suppliers/${S0.id}/news-events?dataEntryId=${entry.id}`));
    expect(one.items).toHaveLength(1);
    const de = parseOk(DataEntry, await get(emu, `/v1/data-entries/${entry.id}`));
    expect(one.items[0]!.name).toBe(de.newsEvent.name);
    expect(one.items[0]!.articles).toEqual(de.newsEvent.articles);
    const other = FIX.dataEntries.find((e) => e.supplierId !== S0.id)!;
    const none = parseOk(NewsEventList, await get(emu, `/v1/suppliers/${S0.id}/news-events?dataEntryId=${other.id}`));
    expect(none.items).toEqual([]);
  });

  it('no seeded news article is dated after the seed\'s present (2026-10-31), also for entries not yet issued', async () => {
    let articles = 0;
    for (const s of FIX.suppliers) {
      const body = parseOk(NewsEventList, await get(emu, `/v1/suppliers/${s.id}/news-events`));
      for (const ev of body.items) {
        const days = ev.articles!.map((a) => a.publishedAt!);
        expect([...days].sort(), `${s.id}: articles in order`).toEqual(days);
        for (const d of days) {
          articles++;
          expect(d <= '2026-10-31', `${s.id}: an article dated ${d}`).toBe(true);
          expect(ev.articles!.find((a) => a.publishedAt === d)!.url).toContain(`/${d.slice(0, 4)}/${d.slice(5, 7)}/`);
        }
      }
    }
    expect(articles).toBeGreaterThan(FIX.suppliers.length);
  });

  it('GET /v1/scorecards and /v1/scorecards/{id}', async () => {
    const list = parseOk(ScorecardList, await get(fixed, '/v1/scorecards'));
    expect(list.items.map((s) => s.id)).toEqual(FIX.scorecards.map((s) => s.id));
    for (const sc of list.items) {
      expect(sc.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(sc.createdBy).toMatch(ULID);
      expect(sc.organizationId).toMatch(ULID);
      expect(sc.items!.length).toBeGreaterThan(0);
      for (const it of sc.items!) {
        expect(it.type).toBe('policy_parameter_item');
        expect(it.policyParameter!.name).toBeTruthy();
        expect(it.policyParameter!.policyCategoryName).toBeTruthy();
      }
      expect(typeof sc.score).toBe('number');
      const one = parseOk(ScorecardResponse, await get(fixed, `/v1/scorecards/${sc.id}`));
      expect(one.item).toEqual(sc);
    }
  });

  it('GET /v1/scorecards?supplierId= lists the scorecards that apply, with that supplier\'s scores', async () => {
    const all = parseOk(ScorecardList, await get(fixed, '/v1/scorecards'));
    const mine = parseOk(ScorecardList, await get(fixed, `/v1/scorecards?supplierId=${S0.id}`));
    expect(mine.items.length).toBeGreaterThanOrEqual(2); // the baseline and at least one more
    expect(mine.items.length).toBeLessThan(all.items.length);
    expect(mine.items.some((s) => typeof s.score === 'number')).toBe(true);
    const unknown = parseOk(ScorecardList, await get(fixed, '/v1/scorecards?supplierId=nope'));
    expect(unknown.items).toEqual([]);
  });

  it('POST /v1/score-calculation', async () => {
    // The wire view: what the emulator sends (the client's ScoreCalculationResponse completes results).
    const body = parseOk(
      Wire.ScoreCalculationResponse,
      await post(fixed, '/v1/score-calculation', { supplierIds: [S0.id, 'unknown-supplier', S0.id], includeZeroValues: false }),
    );
    expect(body.items.map((i) => i.supplierId)).toEqual([S0.id, 'unknown-supplier']);
    const [known, unknown] = body.items;
    expect(typeof known!.score!.value).toBe('number');
    expect(known!.dataSourceScores!.length).toBeGreaterThan(0);
    const withRisk = known!.policyParameterScores!.filter((p) => (p.dataPoints!.risk?.riskEntries!.length ?? 0) > 0);
    expect(withRisk.length).toBeGreaterThan(0);
    for (const p of known!.policyParameterScores!) {
      expect(p.dataPoints!.contexts!.length).toBeGreaterThan(0);
      for (const c of p.dataPoints!.contexts!) {
        expect(c.type).toBe('industry');
        expect(c.code).toMatch(/^\d{8}$/);
      }
    }
    // No data (docs/emulator.md): the values are left out, never null.
    expect(unknown).toEqual({
      supplierId: 'unknown-supplier',
      score: { dataSourcesScore: {}, policyParametersScore: {} },
      dataSourceScores: [],
      policyParameterScores: [],
    });
  });

  it('GET /v1/data-entries/{id}', async () => {
    const entry = FIX.dataEntries.find((e) => e.supplierId === S0.id)!;
    const de = parseOk(DataEntry, await get(emu, `/v1/data-entries/${entry.id}`));
    expect(de.type).toBe('news_event');
    expect(de.id).toBe(entry.id);
    expect(de.supplier).toEqual({ id: S0.id });
    expect(de.score).toBeGreaterThanOrEqual(-3);
    expect(de.score).toBeLessThanOrEqual(3);
    expect(de.policyParameterScores.length).toBeGreaterThan(0);
    const paramIds = new Set(FIX.policyParameters.map((p) => p.id));
    for (const p of de.policyParameterScores) expect(paramIds.has(p.policyParameter!.id!)).toBe(true);
    expect(de.newsEvent.articles!.length).toBeGreaterThan(0);
    expect(Object.keys(de).sort()).toEqual(['id', 'newsEvent', 'policyParameterScores', 'score', 'supplier', 'type']);
  });

  it('GET /v1/data-sources', async () => {
    const body = parseOk(DataSourceList, await get(emu, '/v1/data-sources'));
    expect(body.items.map((d) => d.id)).toEqual(FIX.dataSources.map((d) => d.id));
    expect(body.items.length).toBeGreaterThanOrEqual(20);
    expect(body.items.filter((d) => d.dataSourceType === 'custom').length).toBeGreaterThan(body.items.length / 2);
    for (const d of body.items) {
      expect(d.vendorName).toBeTruthy();
      expect(d.website).toMatch(/^https:\/\/.*\.example$/);
      expect(d.logoUrl).toMatch(/^https:\/\//);
    }
  });

  it('GET /v1/countries: the 249 ISO 3166-1 records of world-countries (not Kosovo\'s user-assigned UNK), by iso3Code', async () => {
    const first = parseOk(CountryList, await get(emu, '/v1/countries'));
    expect(first.items).toHaveLength(100);
    const { items } = await walk(emu, '/v1/countries', 100);
    expect(items).toHaveLength(249);
    for (const c of items) Country.parse(c);
    const codes = items.map((c) => c.iso3Code);
    expect(codes).toEqual([...codes].sort());
    expect(items.find((c) => c.iso3Code === 'DEU')).toEqual({
      iso3Code: 'DEU',
      iso2Code: 'DE',
      commonName: 'Germany',
      officialName: 'Federal Republic of Germany',
      regionName: 'Europe',
    });
  });

  it('GET /v1/standard-industries: sub-industries by default, all four levels with subIndustriesOnly=false', async () => {
    parseOk(StandardIndustryList, await get(emu, '/v1/standard-industries'));
    const subs = (await walk(emu, '/v1/standard-industries', 100)).items;
    expect(subs).toHaveLength(163);
    expect(subs.every((s) => s.hierarchyLevel === 'sub_industry' && /^\d{8}$/.test(s.code))).toBe(true);
    const explicit = (await walk(emu, '/v1/standard-industries?subIndustriesOnly=true', 100)).items;
    expect(explicit).toEqual(subs);
    const all = (await walk(emu, '/v1/standard-industries?subIndustriesOnly=false', 100)).items;
    expect(all).toHaveLength(273);
    expect(new Set(all.map((s) => s.hierarchyLevel))).toEqual(new Set(['sector', 'industry_group', 'industry', 'sub_industry']));
    const codes = all.map((s) => s.code);
    expect(codes).toEqual([...codes].sort());
    expectError(await get(emu, '/v1/standard-industries?subIndustriesOnly=yes'), 400, 'subIndustriesOnly');
  });

  it('GET /v1/categories', async () => {
    const body = parseOk(CategoryList, await get(emu, '/v1/categories'));
    expect(body.items.length).toBeGreaterThanOrEqual(10);
    expect(body.pagination).toEqual({ pageSize: 100 });
    for (const c of body.items) {
      expect(c.id).toMatch(ULID);
      expect(c.name).toBeTruthy();
    }
  });
});

describe('pagination', () => {
  it('page and perPage bounds are 400 naming the field', async () => {
    for (const [q, field] of [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=', 'page'],
      ['perPage=0', 'perPage'],
      ['perPage=101', 'perPage'],
      ['perPage=abc', 'perPage'],
      ['perPage=1.5', 'perPage'],
    ] as const) {
      for (const path of ['/v1/countries', '/v1/data-sources', '/v1/categories', '/v1/scorecards', '/v1/standard-industries', `/v1/suppliers/${S0.id}/news-events`]) {
        expectError(await get(emu, `${path}?${q}`), 400, field);
      }
    }
    expect((await get(emu, '/v1/countries?perPage=100&page=1')).status).toBe(200);
    expect((await get(emu, '/v1/countries?perPage=1&page=249')).json.items).toHaveLength(1);
  });

  it('page and perPage are numbers as the document types them: a whole number in any JSON spelling is accepted, a fraction is a 400', async () => {
    const page2 = (await get(emu, '/v1/countries?perPage=100&page=2')).json;
    for (const spelling of ['2.0', '2.', '2e0', '+2', '02', '0.2e1']) {
      const a = await get(emu, `/v1/countries?perPage=100&page=${encodeURIComponent(spelling)}`);
      expect(a.status, spelling).toBe(200);
      expect(a.json, spelling).toEqual(page2);
    }
    expect((await get(emu, '/v1/countries?perPage=1e1')).json.items).toHaveLength(10);
    const frac = await get(emu, '/v1/countries?page=2.5');
    expectError(frac, 400, 'page');
    expect(frac.json.error.message).toContain('whole number');
    expectError(await get(emu, '/v1/countries?perPage=2.5'), 400, 'perPage');
    expectError(await get(emu, '/v1/countries?page=0x2'), 400, 'page');
    expectError(await get(emu, '/v1/countries?page=Infinity'), 400, 'page');
    // A whole number past 2^53 is one (it was told "must be a whole number"): refused for the bound it passes.
    const huge = await get(emu, '/v1/countries?page=9007199254740993');
    expectError(huge, 400, 'page');
    expect(huge.json.error.message).toContain('page must be at most 9007199254740991');
    expect((await get(emu, '/v1/countries?page=9007199254740991')).json.items).toEqual([]);
    // Unknown query parameters are not the document's business: ignored.
    expect((await get(emu, '/v1/countries?perPage=100&page=2&colour=blue')).json).toEqual(page2);
  });

  it('walking the pages returns every item exactly once, in order', async () => {
    const reference = (await get(emu, '/v1/countries?perPage=100')).json.items.concat(
      (await get(emu, '/v1/countries?perPage=100&page=2')).json.items,
      (await get(emu, '/v1/countries?perPage=100&page=3')).json.items,
    );
    expect(reference).toHaveLength(249);
    for (const perPage of [1, 7, 50, 100]) {
      const { items, pages } = await walk(emu, '/v1/countries', perPage);
      expect(items.map((c) => c.iso3Code)).toEqual(reference.map((c: any) => c.iso3Code));
      expect(pages).toBe(Math.ceil(249 / perPage));
    }
    const sources = await walk(emu, '/v1/data-sources', 4);
    expect(sources.items.map((d) => d.id)).toEqual(FIX.dataSources.map((d) => d.id));
    const scorecards = await walk(emu, '/v1/scorecards', 3);
    expect(scorecards.items.map((d) => d.id)).toEqual(FIX.scorecards.map((d) => d.id));
    const entries = FIX.dataEntries.filter((e) => e.supplierId === S0.id);
    const news = await walk(emu, `/v1/suppliers/${S0.id}/news-events`, 1);
    expect(news.items).toHaveLength(entries.length);
    expect(new Set(news.items.map((n) => n.id)).size).toBe(entries.length);
  });

  it('nextPage is page+1 while more items exist, absent on the last page by default (never null: spec-strict)', async () => {
    const a = await get(emu, '/v1/countries?perPage=100&page=2');
    expect(a.json.pagination).toEqual({ pageSize: 100, nextPage: 3 });
    const last = await get(emu, '/v1/countries?perPage=100&page=3');
    expect(last.json.items).toHaveLength(49);
    expect(last.json.pagination).toEqual({ pageSize: 100 });
    const past = await get(emu, '/v1/countries?perPage=100&page=9');
    expect(past.json.items).toEqual([]);
    expect(past.json.pagination).toEqual({ pageSize: 100 });
    // exactly filled last page
    const exact = await get(emu, '/v1/countries?perPage=83&page=3');
    expect(exact.json.items).toHaveLength(83);
    expect(exact.json.pagination).not.toHaveProperty("nextPage");
  });

  it.each([
    ['null', { pageSize: 100, nextPage: null }],
    ['absent', { pageSize: 100 }],
    ['zero', { pageSize: 100, nextPage: 0 }],
    ['same', { pageSize: 100, nextPage: 3 }],
    ['past', { pageSize: 100, nextPage: 4 }],
  ] as const)('lastPageNextPage %s', async (mode, expected) => {
    const e = await startEmulator({ lastPageNextPage: mode });
    try {
      const first = await get(e, '/v1/countries?perPage=100');
      expect(first.json.pagination).toEqual({ pageSize: 100, nextPage: 2 });
      const last = parseOk(CountryList, await get(e, '/v1/countries?perPage=100&page=3'));
      expect(last.pagination).toStrictEqual(expected);
      if (mode === 'absent') expect("nextPage" in last.pagination!).toBe(false);
      const { items } = await walk(e, '/v1/countries', 100);
      expect(items).toHaveLength(249);
      if (mode === 'past') {
        const beyond = await get(e, '/v1/countries?perPage=100&page=4');
        expect(beyond.json.items).toEqual([]);
      }
    } finally {
      await e.close();
    }
  });

  it('rejects an unknown lastPageNextPage mode', async () => {
    await expect(startEmulator({ lastPageNextPage: 'weird' as EmulatorOptions['lastPageNextPage'] })).rejects.toThrow(/lastPageNextPage/);
  });
});

describe('POST /v1/suppliers', () => {
  const categoryId = async (e: RunningEmulator) => (await get(e, '/v1/categories')).json.items[2];

  it('creates a supplier (201, the creation response sent directly) that GET then reads', async () => {
    const cat = await categoryId(emu);
    const a = await post(emu, '/v1/suppliers', {
      name: 'Embudo Valley Organics',
      countryIso3Code: 'USA',
      website: 'https://example.com',
      industryCodes: ['30202010', '30202030'],
      categoryIds: [cat.id],
      contacts: [{ email: 'john.doe@example.com', firstName: 'John', lastName: 'Doe' }],
      customerSupplierId: 'SUPP-12345',
    });
    const created = parseOk(SupplierCreateResponse, a, 201);
    expect(created).toEqual({
      id: created.id,
      name: 'Embudo Valley Organics',
      countryIso3Code: 'USA',
      website: 'https://example.com',
      status: 'current',
      customerSupplierId: 'SUPP-12345',
    });
    expect(created.id).toMatch(ULID);
    expect(created.id > FIX.suppliers.at(-1)!.id).toBe(true);
    const { item } = parseOk(SupplierDetailResponse, await get(emu, `/v1/suppliers/${created.id}`));
    expect(item).toEqual({
      id: created.id,
      name: 'Embudo Valley Organics',
      countryIso3Code: 'USA',
      categories: [cat.name],
      customFields: [],
      // no data: no averageScore (left out, not null)
      publicSupplierProfileUrl: expect.stringContaining(created.id),
    });
    // it has no data, but the all-supplier scorecard applies
    parseOk(EmissionReportList, await get(emu, `/v1/suppliers/${created.id}/emission-reports`));
    expect((await get(emu, `/v1/suppliers/${created.id}/emission-reports`)).json.items).toEqual([]);
    expect((await get(emu, `/v1/suppliers/${created.id}/news-events`)).json.items).toEqual([]);
    const cards = parseOk(ScorecardList, await get(emu, `/v1/scorecards?supplierId=${created.id}`));
    expect(cards.items.length).toBeGreaterThan(0);
    const calc = parseOk(Wire.ScoreCalculationResponse, await post(emu, '/v1/score-calculation', { supplierIds: [created.id] }));
    // No data: the value is left out (spec-strict), not null.
    expect(calc.items[0]!.score).toBeDefined();
    expect(calc.items[0]!.score!.value).toBeUndefined();
  });

  it('optional fields default to null in the creation response (the document allows it), are left out of the detail; duplicate customerSupplierId values are allowed', async () => {
    const one = parseOk(SupplierCreateResponse, await post(emu, '/v1/suppliers', { name: 'A', customerSupplierId: 'DUP-1' }), 201);
    const two = parseOk(SupplierCreateResponse, await post(emu, '/v1/suppliers', { name: 'A', customerSupplierId: 'DUP-1' }), 201);
    expect(one.id).not.toBe(two.id);
    expect(two.id > one.id).toBe(true);
    const bare = parseOk(SupplierCreateResponse, await post(emu, '/v1/suppliers', { name: 'Bare' }), 201);
    expect(bare).toMatchObject({ countryIso3Code: null, website: null, status: 'current', customerSupplierId: null });
    const { item } = parseOk(SupplierDetailResponse, await get(emu, `/v1/suppliers/${bare.id}`));
    expect(item).not.toHaveProperty('countryIso3Code');
    expect(item).not.toHaveProperty('averageScore');
    expect(item.categories).toEqual([]);
  });

  it('400 naming the field for a bad body', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: '' }, 'name'],
      [{}, 'name'],
      [{ name: 'A', countryIso3Code: 'US' }, 'countryIso3Code'],
      [{ name: 'A', countryIso3Code: 'XXX' }, 'countryIso3Code'],
      [{ name: 'A', countryIso3Code: 'usa' }, 'countryIso3Code'],
      [{ name: 'A', website: 'not a uri' }, 'website'],
      // new URL() takes it (encoding the space); a URI cannot hold a space.
      [{ name: 'A', website: 'https://example.com/a b' }, 'website'],
      [{ name: 'A', industryCodes: ['10101010', '10'] }, 'industryCodes[1]'],
      [{ name: 'A', industryCodes: ['101010'] }, 'industryCodes[0]'],
      [{ name: 'A', industryCodes: '10101010' }, 'industryCodes'],
      [{ name: 'A', categoryIds: ['no-such-category'] }, 'categoryIds[0]'],
      [{ name: 'A', contacts: [{ email: 42 }] }, 'contacts[0].email'],
      [{ name: 'A', customerSupplierId: 'x'.repeat(256) }, 'customerSupplierId'],
    ];
    for (const [body, field] of cases) {
      const a = await post(emu, '/v1/suppliers', body);
      expectError(a, 400, field);
      expect(a.json.error.message).toContain(field);
    }
    expect((await post(emu, '/v1/suppliers', { name: 'x'.repeat(255) })).status).toBe(201);
    // Any URI the document allows, not only http(s): the emulator is no stricter than the document.
    for (const website of ['urn:isbn:0451450523', 'mailto:a@b.example', 'https://example.com/a%20b?q=1#top']) {
      expect((await post(emu, '/v1/suppliers', { name: 'A', website })).status, website).toBe(201);
    }
  });

  it('unknown top-level keys in a request body are ignored (the document does not forbid them): not stored, named in x-emulator-ignored-keys', async () => {
    const res = await fetch(`${emu.url}/v1/suppliers`, {
      method: 'POST',
      headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Extra Keys Ltd', colour: 'blue', 'über key': 1, contacts: [{ email: 'a@example.com', phone: '123' }] }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-emulator-ignored-keys')).toBe(`colour, ${encodeURIComponent('über key')}`);
    const created = SupplierCreateResponse.parse(await res.json());
    expect(created).not.toHaveProperty('colour');
    const { item } = parseOk(SupplierDetailResponse, await get(emu, `/v1/suppliers/${created.id}`));
    expect(item).not.toHaveProperty('colour');
    // Known keys only: no header.
    const plain = await fetch(`${emu.url}/v1/suppliers`, { method: 'POST', headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Plain' }) });
    expect(plain.status).toBe(201);
    expect(plain.headers.get('x-emulator-ignored-keys')).toBeNull();
    const calc = await fetch(`${emu.url}/v1/score-calculation`, {
      method: 'POST',
      headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ supplierIds: [S0.id], asOf: '2020-01-01' }),
    });
    expect(calc.status).toBe(200);
    expect(calc.headers.get('x-emulator-ignored-keys')).toBe('asOf');
    // A known key of the wrong type is still a 400 naming it.
    expectError(await post(emu, '/v1/suppliers', { name: 'A', colour: 'blue', website: 42 }), 400, 'website');
  });

  it('unknown keys that cannot be named as sent (a lone surrogate, hundreds of long ones): 201, the header bounded, nothing fails after the store', async () => {
    const send = (raw: string, path = '/v1/suppliers') => fetch(`${emu.url}${path}`, { method: 'POST', headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' }, body: raw });
    const lone = await send('{"name":"Lone Surrogate Key","\\ud800":1}');
    expect(lone.status).toBe(201);
    expect(lone.headers.get('x-emulator-ignored-keys')).toBe(encodeURIComponent('\ufffd'));
    expect((await send('{"supplierIds":["' + S0.id + '"],"\\udfff":1}', '/v1/score-calculation')).status).toBe(200);
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown-key-${i}-${'x'.repeat(40)}`, i]));
    const big = await send(JSON.stringify({ name: 'Many Keys', ...many }));
    expect(big.status).toBe(201);
    const header = big.headers.get('x-emulator-ignored-keys')!;
    expect(header.length).toBeLessThanOrEqual(1100);
    expect(header).toMatch(/, \.\.\. \(\d+ more\)$/);
    // Each answered create is stored, as answered.
    for (const [res, name] of [[lone, 'Lone Surrogate Key'], [big, 'Many Keys']] as const) {
      const created = SupplierCreateResponse.parse(await res.json());
      expect(parseOk(SupplierDetailResponse, await get(emu, `/v1/suppliers/${created.id}`)).item.name).toBe(name);
    }
  });

  it('a body that is not UTF-8 (a Latin-1 "Café", whatever charset is claimed) is 400, a compressed one 415: never stored with U+FFFD', async () => {
    const send = (body: Buffer, headers: Record<string, string>) => fetch(`${emu.url}/v1/suppliers`, { method: 'POST', headers: { 'x-api-key': emu.apiKey, ...headers }, body });
    const latin1 = Buffer.from('{"name":"Caf\xe9 M\xfcller"}', 'latin1');
    for (const type of ['application/json', 'application/json; charset=iso-8859-1']) {
      const r = await send(latin1, { 'content-type': type });
      expect(r.status, type).toBe(400);
      expect(((await r.json()) as { error: { message: string } }).error.message).toContain('not valid UTF-8');
    }
    const gz = await send(Buffer.from('{"name":"Gz"}'), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(gz.status).toBe(415);
    const utf8 = await send(Buffer.from('{"name":"Café Müller"}', 'utf8'), { 'content-type': 'application/json; charset=utf-8' });
    expect(utf8.status).toBe(201);
    expect(((await utf8.json()) as { name: string }).name).toBe('Café Müller');
  });

  it('400 for invalid JSON or a non-object body, 415 for another content type, 413 over 1 MB', async () => {
    expectError(await call(emu, 'POST', '/v1/suppliers', { raw: '{"name":', headers: { 'content-type': 'application/json' } }), 400);
    expectError(await call(emu, 'POST', '/v1/suppliers', { raw: '', headers: { 'content-type': 'application/json' } }), 400);
    expectError(await call(emu, 'POST', '/v1/suppliers', { raw: '[1,2]', headers: { 'content-type': 'application/json' } }), 400);
    expectError(await call(emu, 'POST', '/v1/suppliers', { raw: 'null', headers: { 'content-type': 'application/json' } }), 400);
    const ok = await call(emu, 'POST', '/v1/suppliers', { raw: '{"name":"Charset"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(ok.status).toBe(201);
    expectError(await call(emu, 'POST', '/v1/suppliers', { raw: '{"name":"A"}', headers: { 'content-type': 'text/plain' } }), 415);
    expectError(await call(emu, 'POST', '/v1/suppliers', { raw: '{"name":"A"}' }), 415);
    expectError(await call(emu, 'POST', '/v1/score-calculation', { raw: 'supplierIds=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415);
    const big = JSON.stringify({ name: 'A', website: 'https://example.com/' + 'x'.repeat(1024 * 1024) });
    expectError(await call(emu, 'POST', '/v1/suppliers', { raw: big, headers: { 'content-type': 'application/json' } }), 413);
    // the server is still fine afterwards
    expect((await get(emu, '/v1/categories')).status).toBe(200);
  });
});

describe('POST /v1/score-calculation validation', () => {
  it('1 to 100 supplierIds', async () => {
    expectError(await post(emu, '/v1/score-calculation', { supplierIds: [] }), 400, 'supplierIds');
    expectError(await post(emu, '/v1/score-calculation', {}), 400, 'supplierIds');
    const ids = Array.from({ length: 101 }, (_, i) => FIX.suppliers[i]!.id);
    expectError(await post(emu, '/v1/score-calculation', { supplierIds: ids }), 400, 'supplierIds');
    const ok = parseOk(ScoreCalculationResponse, await post(emu, '/v1/score-calculation', { supplierIds: ids.slice(0, 100) }));
    expect(ok.items).toHaveLength(100);
    expectError(await post(emu, '/v1/score-calculation', { supplierIds: [S0.id], includeZeroValues: 'yes' }), 400, 'includeZeroValues');
    expectError(await post(emu, '/v1/score-calculation', { supplierIds: [S0.id], dataSourceIds: [''] }), 400, 'dataSourceIds[0]');
  });

  it('filters by data source and policy parameter', async () => {
    const full = parseOk(ScoreCalculationResponse, await post(fixed, '/v1/score-calculation', { supplierIds: [S0.id] })).items[0]!;
    const ds = full.dataSourceScores![0]!;
    const only = parseOk(ScoreCalculationResponse, await post(fixed, '/v1/score-calculation', { supplierIds: [S0.id], dataSourceIds: [ds.dataSourceId] })).items[0]!;
    expect(only.dataSourceScores!.map((d) => d.dataSourceId)).toEqual([ds.dataSourceId]);
    expect(only.dataSourceScores![0]).toEqual(ds);
    const pp = full.policyParameterScores!.find((p) => p.dataPoints!.dataEntries!.length > 0)!;
    const onlyP = parseOk(
      ScoreCalculationResponse,
      await post(fixed, '/v1/score-calculation', { supplierIds: [S0.id], policyParameterIds: [pp.policyParameterId] }),
    ).items[0]!;
    expect(onlyP.policyParameterScores!.map((p) => p.policyParameterId)).toEqual([pp.policyParameterId]);
    expect(onlyP.policyParameterScores![0]!.score).toEqual(pp.score);
  });
});

describe('errors', () => {
  it('404 for unknown ids, naming the resource and id', async () => {
    for (const path of [
      '/v1/suppliers/01zzzzzzzzzzzzzzzzzzzzzzzz',
      '/v1/suppliers/nope/emission-reports',
      '/v1/suppliers/nope/news-events',
      '/v1/scorecards/nope',
      '/v1/data-entries/nope',
    ]) {
      const a = await get(emu, path);
      expectError(a, 404);
      expect(a.json.error.code).toBe('not_found');
      expect(a.json.message).toMatch(/(supplier|scorecard|data entry) (nope|01z+) not found/);
    }
  });

  it('404 for an unknown route', async () => {
    for (const path of ['/v1/nothing', '/', '/v2/countries', '/v1/countries/', '/v1/suppliers/a/b/c', '/_emulator/nothing', '//evil.example/v1/countries', '//v1/countries']) {
      expectError(await get(emu, path), 404);
    }
  });

  it('405 with Allow for a known path and the wrong method', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/v1/suppliers', 'POST'],
      ['DELETE', `/v1/suppliers/${S0.id}`, 'GET'],
      ['PUT', '/v1/countries', 'GET'],
      ['GET', '/v1/score-calculation', 'POST'],
      ['PATCH', '/v1/scorecards/x', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const a = await call(emu, method, path);
      expectError(a, 405);
      expect(a.headers.get('allow')).toBe(allow);
    }
  });
});

describe('seeding', () => {
  it('ids are ULIDs, stable for a seed and different across seeds', async () => {
    const a = fixtures(7, 150);
    const b = fixtures(7, 150);
    const c = fixtures(8, 150);
    expect(a).toEqual(b);
    const all = [...a.suppliers, ...a.scorecards, ...a.dataEntries, ...a.policyParameters, ...a.dataSources].map((x) => x.id);
    for (const id of all) expect(id).toMatch(ULID);
    expect(new Set(all).size).toBe(all.length);
    const cIds = new Set([...c.suppliers, ...c.scorecards, ...c.dataEntries, ...c.policyParameters, ...c.dataSources].map((x) => x.id));
    expect(all.some((id) => cIds.has(id))).toBe(false);
    // ordered by id
    for (const list of [a.suppliers, a.scorecards, a.dataEntries, a.policyParameters, a.dataSources]) {
      const ids = list.map((x) => x.id);
      expect(ids).toEqual([...ids].sort());
    }
    // the default seed's first supplier is pinned: docs and examples use it
    expect(FIX.suppliers[0]!.id).toBe('01h58vrn1sad1y603je9gbpje8');
  });

  it('two emulators with the same seed serve the same data', async () => {
    const e1 = await startEmulator({ seed: 7 });
    const e2 = await startEmulator({ seed: 7 });
    try {
      const id = fixtures(7).suppliers[5]!.id;
      const [a, b] = await Promise.all([get(e1, `/v1/suppliers/${id}`), get(e2, `/v1/suppliers/${id}`)]);
      expect(a.status).toBe(200);
      expect(a.json).toEqual(b.json);
      const [n1, n2] = await Promise.all([get(e1, `/v1/suppliers/${id}/news-events`), get(e2, `/v1/suppliers/${id}/news-events`)]);
      expect(n1.json).toEqual(n2.json);
      expect((await get(e1, `/v1/suppliers/${FIX.suppliers[5]!.id}`)).status).toBe(404);
    } finally {
      await Promise.all([e1.close(), e2.close()]);
    }
  });

  it('a supplier does not depend on how many are seeded', () => {
    const small = fixtures(3, 150);
    const large = fixtures(3, 400);
    expect(large.suppliers).toHaveLength(400);
    expect(large.suppliers.slice(0, 150)).toEqual(small.suppliers);
    expect(large.scorecards).toEqual(small.scorecards);
    expect(large.dataSources).toEqual(small.dataSources);
  });

  it('realistic spread: names, countries, data for most but not all suppliers', async () => {
    const withEntries = new Set(FIX.dataEntries.map((e) => e.supplierId));
    expect(withEntries.size).toBeGreaterThan(FIX.suppliers.length / 2);
    expect(withEntries.size).toBeLessThan(FIX.suppliers.length);
    expect(new Set(FIX.suppliers.map((s) => s.name)).size).toBe(FIX.suppliers.length);
    expect(FIX.dataSources.length).toBeGreaterThanOrEqual(20);
    expect(FIX.policyParameters.length).toBeGreaterThanOrEqual(12);
    expect(FIX.scorecards.length).toBeGreaterThanOrEqual(6);
    // several suppliers have everything: entries, emission reports, and risk in their score calculation
    let complete = 0;
    for (const s of FIX.suppliers.slice(0, 30)) {
      if (!withEntries.has(s.id)) continue;
      const em = (await get(fixed, `/v1/suppliers/${s.id}/emission-reports`)).json.items;
      const calc = (await post(fixed, '/v1/score-calculation', { supplierIds: [s.id] })).json.items[0];
      const risk = calc.policyParameterScores.some((p: any) => p.dataPoints.risk.riskEntries.length > 0);
      if (em.length > 0 && risk && typeof calc.score?.value === "number") complete++;
    }
    expect(complete).toBeGreaterThanOrEqual(4);
  });

  it('entries: scores -3..3 with some zeros, ~25% claims, some outside their validity window', async () => {
    const bySupplier = new Map<string, string[]>();
    for (const e of FIX.dataEntries) bySupplier.set(e.supplierId, [...(bySupplier.get(e.supplierId) ?? []), e.id]);
    const ids = [...bySupplier.keys()].slice(0, 60);
    const scores: number[] = [];
    for (const sid of ids) for (const id of bySupplier.get(sid)!) scores.push((await get(fixed, `/v1/data-entries/${id}`)).json.score);
    expect(scores.every((s) => s >= -3 && s <= 3)).toBe(true);
    expect(scores.some((s) => s === 0)).toBe(true);
    expect(scores.some((s) => s < 0)).toBe(true);
    expect(scores.some((s) => s > 0)).toBe(true);

    // Every valid entry counts for its data source (claims weigh 0.5, zeros are included by default).
    const calc = parseOk(ScoreCalculationResponse, await post(fixed, '/v1/score-calculation', { supplierIds: ids })).items;
    const counted = calc.flatMap((item) => item.dataSourceScores!.flatMap((ds) => ds.dataPoints!.dataEntries!));
    for (const d of counted) expect(d!.issueDate! <= AS_OF && AS_OF <= d!.expiryDate!).toBe(true);
    expect(counted.length).toBeGreaterThan(scores.length / 2); // most entries are valid
    expect(counted.length).toBeLessThan(scores.length); // some are expired or not yet issued
    const claims = counted.filter((d) => d!.isClaim).length;
    expect(claims).toBeGreaterThan(0);
    expect(claims).toBeLessThan(counted.length / 2);
  });
});

describe('fixtures()', () => {
  it('every fixture id is served', async () => {
    for (const s of FIX.suppliers) {
      const a = await get(emu, `/v1/suppliers/${s.id}`);
      expect(a.status).toBe(200);
      expect(a.json.item.name).toBe(s.name);
    }
    for (const sc of FIX.scorecards) {
      const a = await get(emu, `/v1/scorecards/${sc.id}`);
      expect(a.json.item.name).toBe(sc.name);
    }
    for (const e of FIX.dataEntries) {
      const a = await get(emu, `/v1/data-entries/${e.id}`);
      expect(a.status).toBe(200);
      expect(a.json.supplier.id).toBe(e.supplierId);
    }
    const sources = (await get(emu, '/v1/data-sources')).json.items;
    expect(sources.map((d: any) => ({ id: d.id, name: d.name }))).toEqual(FIX.dataSources);
    const params = new Map(FIX.policyParameters.map((p) => [p.id, p.name]));
    const cards = (await get(emu, '/v1/scorecards')).json.items;
    for (const sc of cards) for (const it of sc.items) expect(params.get(it.policyParameter.id)).toBe(it.policyParameter.name);
  });

  it('the first supplier has data entries, news events, emission reports and a scorecard', async () => {
    expect(FIX.dataEntries.some((e) => e.supplierId === S0.id)).toBe(true);
    expect((await get(emu, `/v1/suppliers/${S0.id}/news-events`)).json.items.length).toBeGreaterThan(0);
    expect((await get(emu, `/v1/suppliers/${S0.id}/emission-reports`)).json.items.length).toBeGreaterThan(0);
    const mine = (await get(emu, `/v1/scorecards?supplierId=${S0.id}`)).json.items;
    const all = (await get(emu, '/v1/scorecards')).json.items;
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.length).toBeLessThan(all.length);
  });

  it('is cheap', () => {
    const t = performance.now();
    fixtures(11, DEFAULT_SUPPLIERS);
    expect(performance.now() - t).toBeLessThan(500); // typically ~10 ms; generous for loaded CI machines
  });
});

describe('fixed clock (asOf)', () => {
  it('scores as of the given date', async () => {
    const later = await startEmulator({ asOf: '2031-01-01' });
    try {
      const { item } = parseOk(SupplierDetailResponse, await get(later, `/v1/suppliers/${S0.id}`));
      expect(item).not.toHaveProperty('averageScore'); // every seeded entry has expired by then
    } finally {
      await later.close();
    }
    await expect(startEmulator({ asOf: 'tomorrow' })).rejects.toThrow(/asOf/);
    await expect(startEmulator({ asOf: '2026-02-30' })).rejects.toThrow(/asOf/);
  });
});

describe('state file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'srs-emu-state-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeded supplier ids lie in the past at any count, so two emulators on one file never make the same run-time id', async () => {
    // Hourly ids from 2023-07-14 passed today at supplier 29,520: run-time ids were the last seeded id plus one.
    for (const i of [0, 20_999, 21_000, 29_520, 100_000, 999_999]) {
      const b = supplierIdBlock(i);
      expect(b.start + b.step, String(i)).toBeLessThan(Date.UTC(2026, 5, 1));
      if (i > 0) expect(supplierIdBlock(i - 1).start + supplierIdBlock(i - 1).step).toBeLessThanOrEqual(b.start);
    }
    expect(fixtures(1, 150).suppliers[0]!.id).toBe('01h58vrn1sad1y603je9gbpje8'); // the first ones unchanged
    const statePath = join(dir, 'big.db');
    const a = await startEmulator({ statePath, suppliers: 30_000 });
    const b = await startEmulator({ statePath, suppliers: 30_000 });
    try {
      const last = fixtures(DEFAULT_SEED, 30_000).suppliers.at(-1)!.id;
      expect(decodeTime(last)).toBeLessThan(Date.now());
      const made: string[] = [];
      for (let k = 0; k < 20; k++) {
        for (const emu of [a, b, b]) {
          const r = await post(emu, '/v1/suppliers', { name: `Shared ${k}` });
          expect(r.status, JSON.stringify(r.json)).toBe(201);
          made.push(r.json.id);
        }
      }
      expect(new Set(made).size).toBe(60);
      for (const id of made) expect(Math.abs(decodeTime(id) - Date.now())).toBeLessThan(600_000);
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('created suppliers survive a restart; the file is 0600 and records seed and count', async () => {
    const statePath = join(dir, 'state.db');
    const first = await startEmulator({ statePath, seed: 5, suppliers: 160 });
    const ids: string[] = [];
    for (const name of ['Alpha Foods Ltd', 'Beta Freight GmbH']) {
      ids.push((await post(first, '/v1/suppliers', { name, countryIso3Code: 'DEU', customerSupplierId: `C-${name}` })).json.id);
    }
    // a burst: each create is committed before its 201
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => post(first, '/v1/suppliers', { name: `Burst ${i}` })),
    );
    for (const b of burst) ids.push(b.json.id);
    await first.close();

    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    const saved = StateDb.open(statePath, { seed: 0, suppliers: 1 });
    expect({ seed: saved.seed, suppliers: saved.suppliers }).toEqual({ seed: 5, suppliers: 160 });
    expect(saved.all()).toHaveLength(62);
    saved.close();

    const lines: string[] = [];
    const second = await startEmulator({ statePath, log: (l) => lines.push(l) }); // default seed and count: the file wins
    try {
      expect(lines.some((l) => l.includes(statePath) && l.includes('seed 5') && l.includes('160'))).toBe(true);
      for (const id of ids) expect((await get(second, `/v1/suppliers/${id}`)).status).toBe(200);
      const { item } = (await get(second, `/v1/suppliers/${ids[1]}`)).json;
      expect(item).toMatchObject({ name: 'Beta Freight GmbH', countryIso3Code: 'DEU', customFields: [] });
      expect(item).not.toHaveProperty('averageScore');
      // seeded data of the file's seed and count
      const f5 = fixtures(5, 160);
      expect((await get(second, `/v1/suppliers/${f5.suppliers[159]!.id}`)).status).toBe(200);
      // new ids sort after the restored ones
      const more = (await post(second, '/v1/suppliers', { name: 'After restart' })).json.id;
      expect(ids.every((id) => id < more)).toBe(true);
    } finally {
      await second.close();
    }
    const after = StateDb.open(statePath, { seed: 0, suppliers: 1 });
    expect(after.all()).toHaveLength(63);
    after.close();
  });

  it('a new state file is written at start', async () => {
    const statePath = join(dir, 'fresh.db');
    const e = await startEmulator({ statePath, seed: 9 });
    try {
      const st = StateDb.open(statePath, { seed: 0, suppliers: 1 });
      expect({ seed: st.seed, suppliers: st.suppliers, created: st.all() }).toEqual({ seed: 9, suppliers: DEFAULT_SUPPLIERS, created: [] });
      st.close();
    } finally {
      await e.close();
    }
  });

  it('a corrupt state file is an error naming the file', async () => {
    const statePath = join(dir, 'corrupt.json');
    writeFileSync(statePath, '{"format":"srs-emulator-state", not json');
    await expect(startEmulator({ statePath })).rejects.toThrow(statePath);
    writeFileSync(statePath, JSON.stringify({ format: 'srs-emulator-state', version: 1, seed: 1, suppliers: 150, createdSuppliers: [{ id: 1 }] }));
    await expect(startEmulator({ statePath })).rejects.toThrow(/corrupt.*createdSuppliers/);
    writeFileSync(statePath, JSON.stringify({ hello: 'world' }));
    await expect(startEmulator({ statePath })).rejects.toThrow(statePath);
    // JSON that is no srs state at all is the user's own file: a usage error, never "corrupt, delete it".
    await expect(startEmulator({ statePath })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/not an emulator state file \(JSON, but not an older srs's state/) });
    writeFileSync(statePath, 'id,name\n1,x\n');
    // A usage error (exit 2) that never advises deleting what is most likely the user's own file.
    await expect(startEmulator({ statePath })).rejects.toThrow(/is not an emulator state file \(neither an srs state database.*point --state at a new file name/);
    await expect(startEmulator({ statePath })).rejects.toMatchObject({ exitCode: 2 });
  });

  it('a JSON state file of an older srs is migrated to SQLite, its suppliers kept and the JSON backed up', async () => {
    const statePath = join(dir, 'old.json');
    const rec = {
      id: '01m84vzde9c36gjbasj4gnj65f', name: 'Old Timer AG', countryIso3Code: 'CHE', website: null, status: 'current', customerSupplierId: 'OLD-1',
      industryCodes: [], categoryIds: [], contacts: [], customFields: [], publicSupplierProfileUrl: 'https://profiles.srs.example/suppliers/01m84vzde9c36gjbasj4gnj65f',
    };
    writeFileSync(statePath, JSON.stringify({ format: 'srs-emulator-state', version: 1, seed: 3, suppliers: 151, createdSuppliers: [rec] }));
    const lines: string[] = [];
    const e = await startEmulator({ statePath, log: (l) => lines.push(l) });
    try {
      expect(lines.some((l) => l.includes('migrated the JSON emulator state') && l.includes('1 created supplier'))).toBe(true);
      expect((await get(e, `/v1/suppliers/${rec.id}`)).json.item).toMatchObject({ name: 'Old Timer AG' });
      expect(JSON.parse(readFileSync(`${statePath}.json-backup`, 'utf8')).createdSuppliers).toHaveLength(1);
      expect(readFileSync(statePath).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    } finally {
      await e.close();
    }
  });

  it('a state file written by a newer srs is refused, naming it', async () => {
    const statePath = join(dir, 'newer.db');
    await (await startEmulator({ statePath })).close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(statePath);
    db.exec('PRAGMA user_version = 99');
    db.close();
    await expect(startEmulator({ statePath })).rejects.toThrow(/newer srs.*upgrade srs/);
  });
});

describe('extension points: layers and the routing table', () => {
  it('a layer can answer before processing, or drop the connection after committing; a route can be added', async () => {
    const store = new Store(generateSeed(1, 150));
    const scoring = new EmulatorScoring(store, () => AS_OF);
    let mode: 'none' | 'limit' | 'drop' = 'none';
    const faults: Layer = async (ctx, next) => {
      if (mode === 'limit') return errorResponse(429, 'rate_limited', 'slow down', undefined, { 'retry-after': '1' });
      const result = await next();
      if (mode === 'drop' && ctx.method === 'POST') {
        ctx.res.socket?.destroy();
        return HANDLED;
      }
      return result;
    };
    const router = new Router([
      ...ROUTES,
      { method: 'GET', pattern: '/_emulator/suppliers', handler: (c) => ({ status: 200, body: { count: c.store.suppliers.length } }) },
    ]);
    const server = createEmulatorServer({ context: { store, scoring, lastPageNextPage: 'null', shape: 'nulls' }, apiKey: 'k'.repeat(32), router, layers: [faults] });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const e: RunningEmulator = { url: `http://127.0.0.1:${port}`, host: '127.0.0.1', port, apiKey: 'k'.repeat(32), close: async () => undefined };
    try {
      expect((await get(e, '/_emulator/suppliers')).json).toEqual({ count: 150 });
      mode = 'limit';
      const limited = await post(e, '/v1/suppliers', { name: 'Limited' });
      expectError(limited, 429);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(store.createdSuppliers).toHaveLength(0);
      mode = 'drop';
      await expect(post(e, '/v1/suppliers', { name: 'Dropped' })).rejects.toThrow();
      expect(store.createdSuppliers.map((s) => s.name)).toEqual(['Dropped']); // committed, but no answer
      mode = 'none';
      expect((await get(e, '/_emulator/suppliers')).json).toEqual({ count: 151 });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('seeded details', () => {
  it('a supplier whose details left the bounded cache gets the same details again', () => {
    const seed = generateSeed(7, DETAILS_CACHE_SIZE + 10);
    const first = seed.suppliers[0]!.id;
    const before = seed.details(first);
    expect(before?.newsEvents.length).toBeGreaterThan(0);
    expect(seed.details(first)).toBe(before); // cached
    // Touch more suppliers than the cache holds: the first one is evicted and regenerated, equal but a new object.
    for (const s of seed.suppliers.slice(1)) seed.details(s.id);
    const again = seed.details(first);
    expect(again).not.toBe(before);
    expect(again).toEqual(before);
  });
});
