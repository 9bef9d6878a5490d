/**
 * GET /openapi.json on a real emulator: served without a key and never
 * faulted, a valid OpenAPI 3.1 document (checked with a maintained validator),
 * covering every endpoint of the spec plus GET /v1/categories, with schemas
 * that accept what the emulator actually answers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { Wire } from '../../src/api/contract.js';
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
  components: { schemas: Record<string, Record<string, unknown>>; responses: Record<string, unknown>; securitySchemes: Record<string, unknown> };
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

  it('every endpoint of the emulator answers what its own /openapi.json describes (spec-strict by default), including suppliers with no data', async () => {
    const ajv = newAjv();
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const fx = fixtures();
    const withData = fx.suppliers[0]!;
    const entry = fx.dataEntries.find((e) => e.supplierId === withData.id)!;
    const hasData = new Set(fx.dataEntries.map((e) => e.supplierId));
    const noData = fx.suppliers.find((s) => !hasData.has(s.id));
    expect(noData, 'the seed has a supplier without data entries').toBeDefined();
    const clean = await startEmulator({ port: 0 });
    const seen = new Set<string>();
    try {
      const call = async (method: 'get' | 'post', path: string, template: string, body?: unknown) => {
        const res = await fetch(clean.url + path, {
          method: method.toUpperCase(),
          headers: { 'x-api-key': clean.apiKey, 'content-type': 'application/json' },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const json = (await res.json()) as unknown;
        // The schema comes from the document itself: the operation's answer for that status.
        const op = doc.paths[template]?.[method] as { responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: Record<string, unknown> } } }> } | undefined;
        expect(op, `${method} ${template} is in the document`).toBeDefined();
        let answer = op!.responses[String(res.status)];
        expect(answer, `${method.toUpperCase()} ${path}: status ${res.status} is documented`).toBeDefined();
        if (answer!.$ref) answer = doc.components.responses[answer!.$ref.split('/').pop()!] as typeof answer;
        const validate = ajv.compile(answer!.content!['application/json'].schema);
        expect(validate(json), `${method.toUpperCase()} ${path} ${res.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
        seen.add(`${method.toUpperCase()} ${template}`);
        return { status: res.status, json };
      };
      // Every endpoint, for a supplier with data, one without, and one created now (no data at all).
      const created = await call('post', '/v1/suppliers', '/v1/suppliers', { name: 'OpenAPI Test Supplier' });
      expect(created.status).toBe(201);
      const createdId = (created.json as { id: string }).id;
      const full = await call('post', '/v1/suppliers', '/v1/suppliers', { name: 'Full', countryIso3Code: 'DEU', website: 'https://example.com', contacts: [{ email: 'a@example.com' }], customerSupplierId: 'X-1', colour: 'ignored' });
      expect(full.status).toBe(201);
      for (const id of [withData.id, noData!.id, createdId]) {
        expect((await call('get', `/v1/suppliers/${id}`, '/v1/suppliers/{id}')).status).toBe(200);
        expect((await call('get', `/v1/suppliers/${id}/emission-reports`, '/v1/suppliers/{id}/emission-reports')).status).toBe(200);
        expect((await call('get', `/v1/suppliers/${id}/news-events`, '/v1/suppliers/{id}/news-events')).status).toBe(200);
        expect((await call('get', `/v1/scorecards?supplierId=${id}`, '/v1/scorecards')).status).toBe(200);
      }
      const noDataDetail = (await call('get', `/v1/suppliers/${createdId}`, '/v1/suppliers/{id}')).json as { item: Record<string, unknown> };
      expect(noDataDetail.item).not.toHaveProperty('averageScore'); // no data: left out, never null
      await call('get', `/v1/suppliers/${withData.id}/news-events?dataEntryId=${entry.id}&page=1.0&perPage=5`, '/v1/suppliers/{id}/news-events');
      const calc = await call('post', '/v1/score-calculation', '/v1/score-calculation', { supplierIds: [withData.id, noData!.id, createdId, 'no-such-supplier'] });
      expect(calc.status).toBe(200);
      await call('post', '/v1/score-calculation', '/v1/score-calculation', { supplierIds: [withData.id], includeZeroValues: false, dataSourceIds: [fx.dataSources[0]!.id], policyParameterIds: [fx.policyParameters[0]!.id] });
      expect(JSON.stringify(calc.json)).not.toContain('null');
      const sc = await call('get', '/v1/scorecards?perPage=3', '/v1/scorecards');
      await call('get', `/v1/scorecards/${(sc.json as { items: Array<{ id: string }> }).items[0]!.id}`, '/v1/scorecards/{id}');
      await call('get', `/v1/data-entries/${entry.id}`, '/v1/data-entries/{id}');
      await call('get', '/v1/data-sources', '/v1/data-sources');
      await call('get', '/v1/countries?perPage=100&page=3', '/v1/countries');
      await call('get', '/v1/standard-industries?perPage=5', '/v1/standard-industries');
      await call('get', '/v1/standard-industries?subIndustriesOnly=false&perPage=100&page=2', '/v1/standard-industries');
      await call('get', '/v1/categories', '/v1/categories');
      // Errors are documented answers too.
      expect((await call('get', '/v1/suppliers/nope', '/v1/suppliers/{id}')).status).toBe(404);
      expect((await call('get', '/v1/countries?page=2.5', '/v1/countries')).status).toBe(400);
      expect((await call('post', '/v1/score-calculation', '/v1/score-calculation', { supplierIds: [] })).status).toBe(400);
      const unauthorized = await fetch(`${clean.url}/v1/countries`);
      expect(unauthorized.status).toBe(401);
      const validate = ajv.getSchema('#/components/schemas/ErrorBody')!;
      expect(validate(await unauthorized.json())).toBe(true);
    } finally {
      await clean.close();
    }
    // Every operation of the document was driven.
    const documented = Object.entries(doc.paths).flatMap(([p, item]) => (p === '/openapi.json' ? [] : Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)));
    expect([...seen].sort()).toEqual(documented.sort());
  });

  it('with --nulls the emulator is not spec-strict, and the document says so (the validator has teeth)', async () => {
    const ajv = newAjv();
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const nulls = await startEmulator({ port: 0, shape: 'nulls' });
    try {
      const res = await fetch(`${nulls.url}/v1/score-calculation`, {
        method: 'POST',
        headers: { 'x-api-key': nulls.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ supplierIds: ['no-such-supplier'] }),
      });
      const body = (await res.json()) as { items: Array<{ score: { value: unknown } }> };
      expect(body.items[0]!.score.value).toBeNull();
      expect(ajv.getSchema('#/components/schemas/ScoreCalculationResponse')!(body)).toBe(false);
    } finally {
      await nulls.close();
    }
  });

  // The service's published examples (shared/spec/examples) are what the wire contract describes.
  const EXAMPLES = join(ROOT, '../shared/spec/examples');
  const examplesThere = existsSync(EXAMPLES);
  if (!examplesThere) console.warn(`openapi.test.ts: ${EXAMPLES} is absent: the example round-trip tests are skipped`);
  it.runIf(examplesThere)('the example payloads of ../shared/spec/examples validate against their components, and round-trip through the wire schemas unchanged', () => {
    const ajv = newAjv();
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const cases: Array<[string, string, z.ZodMiniType]> = [
      ['create-supplier.request.json', 'SupplierCreateRequest', Wire.SupplierCreateRequest],
      ['create-supplier.response.json', 'SupplierCreateResponse', Wire.SupplierCreateResponse],
      ['score-calculation.request.json', 'ScoreCalculationRequest', Wire.ScoreCalculationRequest],
      ['score-calculation.response.json', 'ScoreCalculationResponse', Wire.ScoreCalculationResponse],
    ];
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(cases.map((c) => c[0]).sort());
    for (const [file, component, schema] of cases) {
      const example = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as unknown;
      const validate = ajv.getSchema(`#/components/schemas/${component}`)!;
      expect(validate(example), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      // Parsed by the wire schema and written back: the same JSON (nothing dropped, added or renamed).
      expect(JSON.parse(JSON.stringify(schema.parse(example))), file).toEqual(example);
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
