/**
 * src/schema/registry.ts and `srs schema`: every entry converts to a JSON
 * Schema (draft 2020-12) that compiles, names resolve in every accepted
 * spelling, and the schemas accept real data: the shared example response
 * (when ../shared is beside the repo) and what the emulator and the commands'
 * own code produce.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreResult } from '../../src/api/contract.js';
import { evaluate } from '../../src/commands/score/evaluate.js';
import { run as schemaRun } from '../../src/commands/schema/run.js';
import { Context, type IO } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { fixtures, startEmulator, type StartedEmulator } from '../../src/emulator/index.js';
import { COMMAND_OUTPUTS, findSchema, JSON_SCHEMA_DIALECT, jsonSchemaOf, RESOURCES, SCHEMAS, schemaNames, type SchemaEntry } from '../../src/schema/registry.js';
import { compareScores } from '../../src/scoring/index.js';

const EXAMPLE = join(import.meta.dirname, '../../../shared/spec/examples/score-calculation.response.json');

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

function validatorFor(name: string) {
  const entry = findSchema(name);
  if (!entry) throw new Error(`no schema ${name}`);
  const validate = newAjv().compile(jsonSchemaOf(entry));
  return (data: unknown): void => {
    const ok = validate(data);
    expect(ok, `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  };
}

describe('the registry', () => {
  it('has every resource the brief names, and command outputs', () => {
    expect(RESOURCES.map((e) => e.name).sort()).toEqual(
      [
        'supplier-create-request',
        'supplier-create-response',
        'supplier',
        'scorecard',
        'emission-report',
        'score-calculation-request',
        'score-result',
        'data-entry',
        'news-event',
        'data-source',
        'country',
        'standard-industry',
        'category',
        'pagination',
        'error',
      ].sort(),
    );
    for (const n of ['supplier get', 'scorecards ls', 'score calc', 'score check', 'score recompute', 'supplier import', 'ref countries']) {
      expect(COMMAND_OUTPUTS.map((e) => e.name)).toContain(n);
    }
    expect(new Set(schemaNames()).size).toBe(SCHEMAS.length);
  });

  it.each(SCHEMAS.map((e) => [e.name, e] as [string, SchemaEntry]))('%s converts to a JSON Schema that compiles', (_name, entry) => {
    const js = jsonSchemaOf(entry);
    expect(js.$schema).toBe(JSON_SCHEMA_DIALECT);
    expect(typeof js.title).toBe('string');
    expect(typeof js.description).toBe('string');
    expect(['object', 'array']).toContain(js.type);
    expect(() => newAjv().compile(js)).not.toThrow();
    // Round-trips through JSON (what the command prints).
    expect(JSON.parse(JSON.stringify(js))).toEqual(js);
    // No zod noise: safe-integer bounds are dropped.
    expect(JSON.stringify(js)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('finds names in every spelling, and nothing for unknown ones', () => {
    expect(findSchema('score-result')?.name).toBe('score-result');
    expect(findSchema('Score-Result')?.name).toBe('score-result');
    expect(findSchema('score calc')?.name).toBe('score calc');
    expect(findSchema(['score', 'calc'])?.name).toBe('score calc');
    expect(findSchema('score-calc')?.name).toBe('score calc');
    expect(findSchema('srs score calc')?.name).toBe('score calc');
    expect(findSchema(['data', 'entry'])?.name).toBe('data-entry');
    expect(findSchema(['data-entry', 'get'])?.name).toBe('data-entry get');
    expect(findSchema('supplier')?.name).toBe('supplier');
    expect(findSchema('nope')).toBeUndefined();
    expect(findSchema('')).toBeUndefined();
    expect(findSchema([])).toBeUndefined();
  });

  it('request schemas are strict (the client refuses unknown keys), response schemas pass unknown fields through', () => {
    const req = jsonSchemaOf(findSchema('supplier-create-request')!);
    expect(req.additionalProperties).toBe(false);
    expect(req.required).toEqual(['name']);
    const res = jsonSchemaOf(findSchema('supplier')!);
    expect(res.additionalProperties).toEqual({});
    const calc = jsonSchemaOf(findSchema('score calc')!) as { type: string; items: { required: string[] } };
    expect(calc.type).toBe('array');
    // The document marks nothing in a score result required; srs needs to know whose it is.
    expect(calc.items.required).toEqual(['supplierId']);
    const score = (calc.items as unknown as { properties: Record<string, { anyOf?: Array<{ type?: string }> }> }).properties.score!;
    expect(score.anyOf?.map((s) => s.type)).toContain('null');
  });
});

describe('the schemas accept real data', () => {
  it.runIf(existsSync(EXAMPLE))('score-result accepts every item of the shared example response', () => {
    const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { items: unknown[] };
    expect(example.items.length).toBeGreaterThan(0);
    const check = validatorFor('score-result');
    for (const item of example.items) check(item);
    validatorFor('score calc')(example.items);
  });

  it('score-result rejects an item without supplierId', () => {
    const validate = newAjv().compile(jsonSchemaOf(findSchema('score-result')!));
    expect(validate({ score: { value: 1, dataSourcesScore: { value: 1 }, policyParametersScore: { value: 1 } }, dataSourceScores: [], policyParameterScores: [] })).toBe(false);
  });

  describe('emulator answers', () => {
    let emu: StartedEmulator;
    const fx = fixtures();
    const supplier = fx.suppliers[0]!;
    const get = async (path: string, init?: RequestInit): Promise<unknown> => {
      const res = await fetch(emu.url + path, { ...init, headers: { 'x-api-key': emu.apiKey, 'content-type': 'application/json' } });
      return res.json();
    };
    beforeAll(async () => {
      emu = await startEmulator({ port: 0, asOf: '2025-01-15' });
    });
    afterAll(async () => {
      await emu?.close();
    });

    it('score-result, score check and score recompute accept what the emulator and the commands produce', async () => {
      const ids = fx.suppliers.slice(0, 5).map((s) => s.id);
      const r = (await get('/v1/score-calculation', { method: 'POST', body: JSON.stringify({ supplierIds: ids }) })) as { items: ScoreResult[] };
      expect(r.items).toHaveLength(5);
      const one = validatorFor('score-result');
      for (const item of r.items) one(item);
      validatorFor('score calc')(r.items);
      const checks = r.items.map((i) => evaluate(i, { minParameter: new Map(), min: 0, allowNoData: true, asOf: '2025-01-15' }));
      validatorFor('score check')(checks);
      const rows = r.items.flatMap((i) => compareScores(i, i).map((d) => ({ supplierId: i.supplierId, ...d })));
      validatorFor('score recompute')(rows);
    });

    it('resources accept the emulator\'s records', async () => {
      validatorFor('supplier')(((await get(`/v1/suppliers/${supplier.id}`)) as { item: unknown }).item);
      validatorFor('ref countries')(((await get('/v1/countries')) as { items: unknown[] }).items);
      validatorFor('scorecards ls')(((await get('/v1/scorecards')) as { items: unknown[] }).items);
      validatorFor('pagination')(((await get('/v1/scorecards?perPage=2')) as { pagination: unknown }).pagination);
      validatorFor('error')(await get('/v1/suppliers/nope'));
      const created = await get('/v1/suppliers', { method: 'POST', body: JSON.stringify({ name: 'Schema Test Supplier', countryIso3Code: 'USA' }) });
      validatorFor('supplier-create-response')(created);
      validatorFor('supplier-create-request')({ name: 'Schema Test Supplier', countryIso3Code: 'USA', contacts: [{ email: 'a@example.com' }] });
    });
  });
});

describe('srs schema (run function)', () => {
  function ctxWith(output?: string, extra: Record<string, string> = {}) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const io: IO = { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
    const ctx = new Context(io, {}, { ...(output ? { output } : {}), ...extra });
    return { ctx, out: () => (stdout.read() as Buffer | null)?.toString() ?? '' };
  }

  it('-o ndjson prints the schema on one line (it printed 80 indented lines)', async () => {
    const { ctx, out } = ctxWith('ndjson');
    await schemaRun(ctx, ['country'], {});
    const lines = out().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0]!) as { $schema: string }).$schema).toBe(JSON_SCHEMA_DIALECT);
  });

  it('prints the schema as pretty JSON with $schema and title, whatever -o says (csv and table say so on stderr)', async () => {
    for (const format of [undefined, 'csv', 'table']) {
      const { ctx, out } = ctxWith(format);
      await schemaRun(ctx, ['score', 'calc'], {});
      const text = out();
      expect(text).toMatch(/^\{\n {2}"\$schema"/);
      const js = JSON.parse(text) as Record<string, unknown>;
      expect(js.$schema).toBe(JSON_SCHEMA_DIALECT);
      expect(js.title).toBe('srs score calc -o json');
      expect(js.type).toBe('array');
    }
  });

  it('--query shapes a schema; --fields, which cannot apply, is refused', async () => {
    const { ctx, out } = ctxWith('json', { query: 'title' });
    await ctx.prepare();
    await schemaRun(ctx, ['country'], {});
    expect(JSON.parse(out())).toMatch(/country/i);
    const f = ctxWith('json', { fields: 'x' });
    await expect(schemaRun(f.ctx, ['country'], {})).rejects.toThrow(/--fields does not apply to a schema/);
  });

  it('lists the names without an argument (json)', async () => {
    const { ctx, out } = ctxWith('json');
    await schemaRun(ctx, [], {});
    const list = JSON.parse(out()) as Array<{ name: string; kind: string }>;
    expect(list.map((e) => e.name)).toEqual(schemaNames());
    expect(list.find((e) => e.name === 'score-result')?.kind).toBe('resource');
  });

  it('an unknown name is a usage error listing the valid names', async () => {
    const { ctx } = ctxWith('json');
    const err = await schemaRun(ctx, ['nope'], {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as UsageError).message).toContain('score-result');
    expect((err as UsageError).message).toContain('score calc');
  });
});
