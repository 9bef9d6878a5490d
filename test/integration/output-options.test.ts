/**
 * --fields (checked against the resource's schema before anything is sent; selecting fields under json and
 * ndjson), plurals, --page past the end, and --quiet. (A base URL ending in /v1: test/integration/profiles.test.ts.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { startHarness, withHarness, type Harness } from './harness.js';

let h: Harness;
const fx = fixtures();
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('plurals', () => {
  it('says "the first 1 country" and "1 supplier", never "(s)"', async () => {
    const one = await h.run(['ref', 'countries', '--limit', '1']);
    expect(one.stderr).toBe('showing the first 1 country; more exist (raise --limit, or drop it to fetch everything)\n');
    const two = await h.run(['ref', 'countries', '--limit', '2']);
    expect(two.stderr).toContain('showing the first 2 countries;');
    const bundle = join(mkdtempSync(join(tmpdir(), 'srs-plural-')), 'b.json');
    const saved = await h.run(['score', 'calc', fx.suppliers[0]!.id, '--save', bundle]);
    expect(saved.stderr).toContain('(1 supplier with a result, as of');
    const re = await h.run(['score', 'recompute', bundle]);
    expect(re.stderr).toMatch(/^recomputed 1 supplier as of/);
    for (const r of [one, two, saved, re]) expect(r.stderr).not.toContain('(s)');
  });
});

describe('--page past the end', () => {
  it('says so on stderr in every format, and prints an empty list', async () => {
    const r = await h.run(['ref', 'categories', '--page', '50', '--per-page', '5', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toBe('warning: page 50 is past the end of the categories at 5 per page: try a lower --page, or drop --page to fetch everything\n');
  });
});

describe('--quiet', () => {
  it('silences notes that are not problems, keeps warnings that are, and errors', async () => {
    const limit = await h.run(['--quiet', 'ref', 'countries', '--limit', '1']);
    expect(limit.code).toBe(0);
    expect(limit.stderr).toBe('');
    const dupes = await h.run(['-q', 'score', 'calc', fx.suppliers[0]!.id, fx.suppliers[0]!.id, '-o', 'json']);
    expect(dupes.code).toBe(0);
    expect(dupes.stderr).toBe('');
    const loud = await h.run(['score', 'calc', fx.suppliers[0]!.id, fx.suppliers[0]!.id, '-o', 'json']);
    expect(loud.stderr).toBe('1 duplicate supplier id ignored\n');
    const past = await h.run(['-q', 'ref', 'categories', '--page', '50']);
    expect(past.stderr).toMatch(/^warning: page 50 is past the end/);
    const err = await h.run(['-q', 'supplier', 'get', '01zzzzzzzzzzzzzzzzzzzzzzzz']);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/^srs: GET \/v1\/suppliers\/01zzzzzzzzzzzzzzzzzzzzzzzz failed with HTTP 404/);
  });
});

describe('--fields', () => {
  it('an unknown path exits 2 with suggestions from the schema, and sends nothing', async () => {
    const before = h.requests.length;
    const r = await h.run(['ref', 'countries', '--fields', 'iso3Code,comonName', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('srs: --fields: a country has no field "comonName" (did you mean commonName?)\n');
    const none = await h.run(['scorecards', 'ls', '--fields', 'id,nosuch']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/a scorecard has no field "nosuch" \(fields of a scorecard: id, name, /);
    expect(h.requests.length).toBe(before);
  });
  it('under json selects the fields of every item, like gh --json', async () => {
    const r = await h.run(['ref', 'countries', '--fields', 'iso3Code,commonName', '--limit', '3', '-o', 'json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(3);
    for (const c of list) expect(Object.keys(c)).toEqual(['iso3Code', 'commonName']);
  });
  it('under ndjson and for a single resource, nested paths stay nested', async () => {
    const card = fx.scorecards[0]!;
    const one = await h.run(['scorecards', 'get', card.id, '--fields', 'id,name', '-o', 'json']);
    expect(JSON.parse(one.stdout)).toEqual({ id: card.id, name: card.name });
    const nd = await h.run(['data-entry', 'get', fx.dataEntries[0]!.id, '--fields', 'id,supplier.id', '-o', 'ndjson']);
    expect(JSON.parse(nd.stdout)).toEqual({ id: fx.dataEntries[0]!.id, supplier: { id: fx.dataEntries[0]!.supplierId } });
  });
  it('score calc under json selects from each result (no raw pass-through then)', async () => {
    const s = fx.suppliers[0]!.id;
    const r = await h.run(['score', 'calc', s, '--fields', 'supplierId,score.value', '-o', 'json']);
    expect(r.code).toBe(0);
    const [item] = JSON.parse(r.stdout) as Array<{ supplierId: string; score: { value: number | null } }>;
    expect(Object.keys(item!)).toEqual(['supplierId', 'score']);
    expect(Object.keys(item!.score)).toEqual(['value']);
  });
});

describe('--csv-bom', () => {
  it('starts CSV output with a UTF-8 byte order mark (Excel reads non-ASCII names right), from the flag or SRS_CSV_BOM; nothing else changes', async () => {
    await withHarness({}, async (h) => {
      const plain = await h.run(['ref', 'countries', '-o', 'csv']);
      const flagged = await h.run(['ref', 'countries', '-o', 'csv', '--csv-bom']);
      const env = await h.run(['ref', 'countries', '-o', 'csv'], { env: { SRS_CSV_BOM: '1' } });
      expect(plain.stdout.startsWith('\uFEFF')).toBe(false);
      for (const r of [flagged, env]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toBe('\uFEFF' + plain.stdout);
      }
      const json = await h.run(['ref', 'countries', '-o', 'json', '--csv-bom']);
      expect(json.stdout.startsWith('[')).toBe(true);
    });
  });

  it('an import\'s --report file gets one too (Excel opens it), and only with the flag or SRS_CSV_BOM', async () => {
    await withHarness({}, async (h) => {
      const dir = mkdtempSync(join(tmpdir(), 'srs-bom-'));
      const input = join(dir, 'in.csv');
      writeFileSync(input, 'name,countryIso3Code,customerSupplierId\nCafé Zürich,CHE,bom-1\n,CHE,bom-2\n');
      const reports: string[] = [];
      for (const [n, args, env] of [
        ['plain', [], {}],
        ['flag', ['--csv-bom'], {}],
        ['env', [], { SRS_CSV_BOM: 'yes' }],
      ] as const) {
        const report = join(dir, `${n}.csv`);
        const r = await h.run(['supplier', 'import', input, '--report', report, '--journal', join(dir, `${n}.journal`), '--allow-existing', ...args], { env });
        expect(r.code, r.stderr).toBe(1); // the second row has no name
        reports.push(readFileSync(report, 'utf8'));
      }
      expect(reports[0]!.startsWith('\uFEFFline,')).toBe(false);
      expect(reports[0]!.startsWith('line,')).toBe(true);
      for (const withBom of reports.slice(1)) {
        expect(withBom.startsWith('\uFEFFline,')).toBe(true);
        expect(withBom.split('\n').length).toBe(reports[0]!.split('\n').length);
      }
    });
  });
});
