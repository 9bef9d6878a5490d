/**
 * GET /openapi.json on a real emulator: served without a key and never
 * faulted, a valid OpenAPI 3.1 document (checked with a maintained validator),
 * covering every endpoint of the spec plus GET /v1/categories, with schemas
 * that accept what the emulator actually answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi.js';
import { fixtures, startEmulator, type StartedEmulator } from '../../src/emulator/index.js';

const ROOT = join(import.meta.dirname, '../..');
const SPEC = join(ROOT, '../shared/spec/service-interface.md');

/** Every METHOD /path of the spec's endpoint table (kept here so the test runs without ../shared). */
const SPEC_ENDPOINTS = [
  'POST /v1/suppliers',
  'GET /v1/suppliers/{id}',
  'GET /v1/suppliers/{id}/emission-reports',
  'GET /v1/suppliers/{id}/news-events',
  'GET /v1/scorecards',
  'GET /v1/scorecards/{id}',
  'POST /v1/score-calculation',
  'GET /v1/data-entries/{id}',
  'GET /v1/data-sources',
  'GET /v1/countries',
  'GET /v1/standard-industries',
];

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>; responses: Record<string, unknown>; requestBody?: unknown; security?: unknown[] }>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
  security: unknown[];
};

let emu: StartedEmulator;
let doc: Doc;

beforeAll(async () => {
  // Faults on every /v1 request: /openapi.json must not be touched by them.
  emu = await startEmulator({ port: 0, faults: { failRate: 1 } });
  const res = await fetch(`${emu.url}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  doc = (await res.json()) as Doc;
});
afterAll(async () => {
  await emu?.close();
});

describe('GET /openapi.json', () => {
  it('needs no key, and is the same document the generator builds', () => {
    expect(doc).toEqual(openApiDocument());
    expect(emu.faultStats().requests).toBe(0);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator({ strict: false });
    // The validator resolves $refs in place: give it a copy.
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // Every $ref resolves.
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('every components schema compiles as JSON Schema 2020-12', () => {
    const ajv = newAjv();
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    for (const name of Object.keys(doc.components.schemas)) expect(() => ajv.getSchema(`#/components/schemas/${name}`), name).not.toThrow();
  });

  it('has every path and method of the spec, plus GET /v1/categories', () => {
    const present = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    for (const e of [...SPEC_ENDPOINTS, 'GET /v1/categories']) expect(present, e).toContain(e);
  });

  it.runIf(existsSpec())('matches the endpoint table of shared/spec/service-interface.md', () => {
    const text = readFileSync(SPEC, 'utf8');
    const rows = [...text.matchAll(/^\| (GET|POST) \| (\/v1\/[^ |]+) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.sort()).toEqual([...SPEC_ENDPOINTS].sort());
  });

  it('has the x-api-key scheme, required everywhere but /openapi.json', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/openapi.json']!.get!.security).toEqual([]);
  });

  it('documents page/perPage bounds, the filters, bodies and error responses', () => {
    const params = (p: string) => Object.fromEntries((doc.paths[p]!.get!.parameters ?? []).map((x) => [x.name, x]));
    expect(params('/v1/countries').page!.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(params('/v1/countries').perPage!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 100 });
    expect(params('/v1/scorecards').supplierId).toBeDefined();
    expect(params('/v1/suppliers/{id}/news-events').dataEntryId).toBeDefined();
    expect(params('/v1/suppliers/{id}/news-events').id).toMatchObject({ in: 'path' });
    expect(params('/v1/standard-industries').subIndustriesOnly!.schema).toMatchObject({ enum: ['true', 'false'], default: 'true' });
    expect(doc.paths['/v1/suppliers']!.post!.requestBody).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/SupplierCreateRequest' } } } });
    expect(doc.paths['/v1/suppliers']!.post!.responses['201']).toBeDefined();
    expect(doc.paths['/v1/score-calculation']!.post!.requestBody).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ScoreCalculationRequest' } } } });
    for (const [p, item] of Object.entries(doc.paths)) {
      if (p === '/openapi.json') continue;
      for (const op of Object.values(item)) expect(op.responses['401'], p).toEqual({ $ref: '#/components/responses/Unauthorized' });
    }
    expect(doc.paths['/v1/suppliers/{id}']!.get!.responses['404']).toBeDefined();
    expect(doc.paths['/v1/countries']!.get!.responses['400']).toBeDefined();
  });

  it('its response schemas accept what the emulator answers', async () => {
    const ajv = newAjv();
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const fx = fixtures();
    const supplier = fx.suppliers[0]!;
    const entry = fx.dataEntries.find((e) => e.supplierId === supplier.id)!;
    const clean = await startEmulator({ port: 0 });
    try {
      const get = async (path: string, init?: RequestInit) => {
        const res = await fetch(clean.url + path, { ...init, headers: { 'x-api-key': clean.apiKey, 'content-type': 'application/json', ...init?.headers } });
        return { status: res.status, body: (await res.json()) as unknown };
      };
      const check = (schema: string, body: unknown) => {
        const validate = ajv.getSchema(`#/components/schemas/${schema}`)!;
        expect(validate(body), `${schema}: ${JSON.stringify(validate.errors)}`).toBe(true);
      };
      check('CountryList', (await get('/v1/countries?perPage=5')).body);
      check('StandardIndustryList', (await get('/v1/standard-industries?perPage=5')).body);
      check('DataSourceList', (await get('/v1/data-sources')).body);
      check('CategoryList', (await get('/v1/categories')).body);
      check('ScorecardList', (await get('/v1/scorecards?perPage=3')).body);
      check('SupplierDetailResponse', (await get(`/v1/suppliers/${supplier.id}`)).body);
      check('EmissionReportList', (await get(`/v1/suppliers/${supplier.id}/emission-reports`)).body);
      check('NewsEventList', (await get(`/v1/suppliers/${supplier.id}/news-events`)).body);
      check('DataEntry', (await get(`/v1/data-entries/${entry.id}`)).body);
      check('ScoreCalculationResponse', (await get('/v1/score-calculation', { method: 'POST', body: JSON.stringify({ supplierIds: [supplier.id] }) })).body);
      const created = await get('/v1/suppliers', { method: 'POST', body: JSON.stringify({ name: 'OpenAPI Test Supplier' }) });
      expect(created.status).toBe(201);
      check('SupplierCreateResponse', created.body);
      const missing = await get('/v1/suppliers/nope');
      expect(missing.status).toBe(404);
      check('ErrorBody', missing.body);
      const unauthorized = await fetch(`${clean.url}/v1/countries`);
      expect(unauthorized.status).toBe(401);
      check('ErrorBody', await unauthorized.json());
    } finally {
      await clean.close();
    }
  });
});

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

function existsSpec(): boolean {
  try {
    readFileSync(SPEC);
    return true;
  } catch {
    return false;
  }
}
