/**
 * End to end: the built srs binary against a real emulator over loopback,
 * every command and every output format, plus the error paths.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { fixtures } from '../../src/emulator/index.js';
import { onPath, optionalTool } from '../support/optional-tool.js';
import { startHarness, runSrs, baseEnv, BIN, type Harness } from './harness.js';

let h: Harness;
const fx = fixtures();
const supplier = fx.suppliers[0]!;
const entry = fx.dataEntries.find((e) => e.supplierId === supplier.id)!;
const scorecard = fx.scorecards[0]!;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const json = (s: string): unknown => JSON.parse(s);

/** GET from the emulator directly (not through srs): what the service itself answers. */
async function serviceGet<T>(path: string): Promise<T> {
  const res = await fetch(h.emu.url + path, { headers: { 'x-api-key': h.emu.apiKey } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Every item of a paginated list endpoint, following nextPage. */
async function serviceList<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= 100; page++) {
    const body = await serviceGet<{ items: T[]; pagination?: { nextPage?: number | null } }>(`${path}${path.includes('?') ? '&' : '?'}page=${page}&perPage=100`);
    out.push(...body.items);
    const next = body.pagination?.nextPage;
    if (body.items.length === 0 || typeof next !== 'number' || next <= page) break;
  }
  return out;
}

describe('reads in every format', () => {
  it('a --query answer piped as JSON follows the list convention (one compact element per line); an empty answer in CSV prints nothing', async () => {
    const two = await h.run(['ref', 'countries', '-o', 'json', '--query', '[:2].iso3Code']);
    expect(two.code).toBe(0);
    expect(two.stdout).toMatch(/^\[\n"[A-Z]{3}",\n"[A-Z]{3}"\n\]\n$/);
    const objects = await h.run(['ref', 'countries', '-o', 'json', '--query', '[:2].{c: iso3Code}']);
    expect(objects.stdout.split('\n')).toHaveLength(5);
    expect((await h.run(['ref', 'countries', '-o', 'json', '--query', 'length(@)'])).stdout).toMatch(/^\d+\n$/);
    expect((await h.run(['ref', 'countries', '-o', 'json', '--query', "[?regionName=='Nowhere']"])).stdout).toBe('[]\n');
    const none = await h.run(['ref', 'countries', '-o', 'csv', '--query', "[?regionName=='Nowhere']"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
  });

  it('supplier get: json is the resource itself', async () => {
    const r = await h.run(['supplier', 'get', supplier.id, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const s = json(r.stdout) as Record<string, unknown>;
    expect(s.id).toBe(supplier.id);
    expect(s.name).toBe(supplier.name);
    expect(Array.isArray(s.categories)).toBe(true);
  });

  it('supplier get: table, csv and ndjson', async () => {
    const t = await h.run(['supplier', 'get', supplier.id, '-o', 'table']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(new RegExp(`^ID\\s+${supplier.id}$`, 'm'));
    expect(t.stdout).toMatch(/^NAME\s+/m);
    const c = await h.run(['supplier', 'get', supplier.id, '-o', 'csv', '--fields', 'id,name,countryIso3Code']);
    expect(parseCsv(c.stdout)).toEqual([['id', 'name', 'countryIso3Code'], [supplier.id, supplier.name, expect.stringMatching(/^[A-Z]{3}$/)]]);
    const n = await h.run(['supplier', 'get', supplier.id, '-o', 'ndjson']);
    expect(n.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect((json(n.stdout) as { id: string }).id).toBe(supplier.id);
  });

  it('defaults to json when stdout is not a terminal', async () => {
    const r = await h.run(['scorecards', 'get', scorecard.id]);
    expect(r.code).toBe(0);
    expect((json(r.stdout) as { id: string }).id).toBe(scorecard.id);
  });

  it('scorecards ls: every page as one JSON array; --supplier filters', async () => {
    const all = await h.run(['scorecards', 'ls', '-o', 'json', '--per-page', '3']);
    expect(all.code).toBe(0);
    const cards = json(all.stdout) as Array<{ id: string }>;
    expect(cards.map((c) => c.id).sort()).toEqual(fx.scorecards.map((c) => c.id).sort());
    const mine = await h.run(['scorecards', 'ls', '--supplier', supplier.id, '-o', 'json']);
    const mineCards = json(mine.stdout) as Array<{ id: string }>;
    expect(mineCards.length).toBeGreaterThan(0);
    expect(mineCards.length).toBeLessThanOrEqual(cards.length);
    expect(mineCards.length).toBeLessThan(cards.length);
    // Exactly the cards the service lists for that supplier, in its order.
    const served = await serviceList<{ id: string }>(`/v1/scorecards?supplierId=${supplier.id}`);
    expect(served.length).toBeLessThan(fx.scorecards.length);
    expect(mineCards.map((c) => c.id)).toEqual(served.map((c) => c.id));
  });

  it('scorecards get: table shows the card and its weighted items', async () => {
    const r = await h.run(['scorecards', 'get', scorecard.id, '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NAME\s+/m);
    expect(r.stdout).toMatch(/PARAMETER ID\s+PARAMETER\s+CATEGORY\s+WEIGHT/);
  });

  it('emissions ls in csv and ndjson', async () => {
    const c = await h.run(['emissions', 'ls', supplier.id, '-o', 'csv']);
    expect(c.code).toBe(0);
    const rows = parseCsv(c.stdout) as string[][];
    expect(rows[0]).toEqual(['id', 'scope', 'fromDate', 'toDate', 'dataType', 'value', 'unit', 'verifier', 'reportedOn']);
    expect(rows.length).toBeGreaterThan(1);
    const n = await h.run(['emissions', 'ls', supplier.id, '-o', 'ndjson']);
    expect(n.stdout.trimEnd().split('\n')).toHaveLength(rows.length - 1);
  });

  it('supplier get and data-entry get in csv: a nested list is its count (customFields.length, newsEvent.articles.length), not JSON text', async () => {
    const s = await h.run(['supplier', 'get', supplier.id, '-o', 'csv']);
    expect(s.code, s.stderr).toBe(0);
    const [sHead, sRow] = parseCsv(s.stdout) as string[][];
    expect(sHead).toContain('customFields.length');
    expect(sHead).not.toContain('customFields');
    const detail = json((await h.run(['supplier', 'get', supplier.id, '-o', 'json'])).stdout) as { customFields?: unknown[] };
    expect(sRow![sHead!.indexOf('customFields.length')]).toBe(String(detail.customFields?.length ?? ''));
    const d = await h.run(['data-entry', 'get', entry.id, '-o', 'csv']);
    expect(d.code, d.stderr).toBe(0);
    const [dHead, dRow] = parseCsv(d.stdout) as string[][];
    expect(dHead).toContain('newsEvent.articles.length');
    expect(dHead).not.toContain('newsEvent.articles');
    expect(dRow!.join(',')).not.toContain('[{');
  });

  it('news ls, with --data-entry narrowing to that entry', async () => {
    const all = await h.run(['news', 'ls', supplier.id, '-o', 'json']);
    expect(all.code).toBe(0);
    const events = json(all.stdout) as Array<{ id: string; articles: unknown[] }>;
    expect(events.length).toBeGreaterThan(0);
    const one = await h.run(['news', 'ls', supplier.id, '--data-entry', entry.id, '-o', 'json']);
    const narrowed = json(one.stdout) as Array<{ id: string; name: string; articles: unknown[] }>;
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.length).toBeLessThanOrEqual(events.length);
    // Exactly the news event of that data entry, as the service describes the entry.
    expect(events.length).toBeGreaterThan(1);
    expect(narrowed).toHaveLength(1);
    const de = await serviceGet<{ id: string; newsEvent: { name: string; articles: unknown[] } }>(`/v1/data-entries/${entry.id}`);
    expect(de.id).toBe(entry.id);
    expect(narrowed[0]!.name).toBe(de.newsEvent.name);
    expect(narrowed[0]!.articles).toEqual(de.newsEvent.articles);
    expect(events.map((e) => e.id)).toContain(narrowed[0]!.id);
    const t = await h.run(['news', 'ls', supplier.id, '-o', 'table']);
    expect(t.stdout.split('\n')[0]).toMatch(/^ID\s+FIRST REPORTED\s+NAME\s+ARTICLES\s+SUMMARY/);
  });

  it('news ls --data-entry with an id the service does not know, or another supplier\'s, is exit 1, not an empty list', async () => {
    const unknown = await h.run(['news', 'ls', supplier.id, '--data-entry', '01zzzzzzzzzzzzzzzzzzzzzzzz', '-o', 'json']);
    expect(unknown.code, unknown.stderr).toBe(1);
    expect(unknown.stderr).toContain('does not know data entry 01zzzzzzzzzzzzzzzzzzzzzzzz');
    expect(unknown.stdout).toBe('');
    const other = fx.dataEntries.find((e) => e.supplierId !== supplier.id)!;
    const theirs = await h.run(['news', 'ls', supplier.id, '--data-entry', other.id, '-o', 'json']);
    expect(theirs.code, theirs.stderr).toBe(1);
    expect(theirs.stdout).toBe('');
    expect(theirs.stderr).toContain(`data entry ${other.id} is supplier ${other.supplierId}'s, not ${supplier.id}'s`);
  });

  it('data-entry get', async () => {
    const r = await h.run(['data-entry', 'get', entry.id, '-o', 'json']);
    expect(r.code).toBe(0);
    const e = json(r.stdout) as { type: string; id: string; supplier: { id: string } };
    expect(e).toMatchObject({ type: 'news_event', id: entry.id, supplier: { id: supplier.id } });
    const t = await h.run(['data-entry', 'get', entry.id, '-o', 'table']);
    expect(t.stdout).toMatch(/^TYPE\s+news_event$/m);
  });

  it('ref countries: all 249 across pages, in every format', async () => {
    const j = await h.run(['ref', 'countries', '-o', 'json']);
    const countries = json(j.stdout) as Array<{ iso3Code: string }>;
    expect(countries).toHaveLength(249);
    expect(new Set(countries.map((c) => c.iso3Code)).size).toBe(249);
    const n = await h.run(['ref', 'countries', '-o', 'ndjson']);
    expect(n.stdout.trimEnd().split('\n')).toHaveLength(249);
    const c = await h.run(['ref', 'countries', '-o', 'csv', '--fields', 'iso3Code,commonName']);
    const rows = parseCsv(c.stdout) as string[][];
    expect(rows).toHaveLength(250);
    expect(rows).toContainEqual(['DEU', 'Germany']);
    const t = await h.run(['ref', 'countries', '-o', 'table']);
    expect(t.stdout.split('\n')[0]).toMatch(/^ISO3\s+ISO2\s+NAME\s+OFFICIAL NAME\s+REGION$/);
    expect(t.stdout.trimEnd().split('\n')).toHaveLength(250);
  });

  // The build leaves undici's fallback HTTP parsers out of the bundle (scripts/build.mjs):
  // a run that needs one must still find it, in node_modules/undici.
  // NODE_DEBUG=module shows which file each require() loaded: the fallback must really run.
  it.each([
    ['llhttp without SIMD', { UNDICI_NO_WASM_SIMD: '1' }, 'llhttp/llhttp-wasm.js'],
    ['milo', { UNDICI_USE_MILO: '1' }, 'milo/simd.js'],
    ['milo without SIMD', { UNDICI_USE_MILO: '1', UNDICI_NO_WASM_SIMD: '1' }, 'milo/no-simd.js'],
  ])("undici's fallback parser (%s) loads from node_modules/undici and reads every page", async (_name, env, file) => {
    const r = await h.run(['ref', 'countries', '-o', 'json'], { env: { ...env, NODE_DEBUG: 'module' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`node_modules/undici/lib/${file}`);
    expect(json(r.stdout)).toHaveLength(249);
  });

  it('ref industries: sub-industries by default, every level with --all-levels', async () => {
    const sub = json((await h.run(['ref', 'industries', '-o', 'json'])).stdout) as Array<{ hierarchyLevel: string; code: string }>;
    expect(sub).toHaveLength(163);
    expect(new Set(sub.map((i) => i.hierarchyLevel))).toEqual(new Set(['sub_industry']));
    const all = json((await h.run(['ref', 'industries', '--all-levels', '-o', 'json'])).stdout) as Array<{ hierarchyLevel: string }>;
    expect(all).toHaveLength(11 + 25 + 74 + 163);
  });

  it('ref sources and categories', async () => {
    const s = json((await h.run(['ref', 'sources', '-o', 'json'])).stdout) as Array<{ id: string }>;
    expect(s.map((x) => x.id).sort()).toEqual(fx.dataSources.map((x) => x.id).sort());
    const c = await h.run(['ref', 'categories', '-o', 'table']);
    expect(c.code).toBe(0);
    expect(c.stdout.split('\n')[0]).toMatch(/^ID\s+NAME$/);
  });

  it('--limit stops early and says so on stderr; --page fetches one page', async () => {
    const l = await h.run(['ref', 'countries', '--limit', '7', '-o', 'json']);
    expect(json(l.stdout)).toHaveLength(7);
    expect(l.stderr).toMatch(/first 7 countries; more exist/);
    const p = await h.run(['ref', 'countries', '--page', '3', '--per-page', '100', '-o', 'json']);
    expect(json(p.stdout)).toHaveLength(49);
    const p2 = await h.run(['ref', 'countries', '--page', '1', '--per-page', '10', '-o', 'ndjson']);
    expect(p2.stdout.trimEnd().split('\n')).toHaveLength(10);
    expect(p2.stderr).toMatch(/--page 2/);
    const both = await h.run(['ref', 'countries', '--all', '--limit', '3']);
    expect(both.code).toBe(2);
    // --page with --limit: the first N items of that page (the page size stays the page's), not of a smaller page.
    const page2 = json((await h.run(['ref', 'countries', '--page', '2', '-o', 'json'])).stdout) as Array<{ iso3Code: string }>;
    expect(page2.length).toBeGreaterThan(3);
    const pl = await h.run(['ref', 'countries', '--page', '2', '--limit', '3', '-o', 'json']);
    expect((json(pl.stdout) as Array<{ iso3Code: string }>).map((c) => c.iso3Code)).toEqual(page2.slice(0, 3).map((c) => c.iso3Code));
    expect(pl.stderr).toMatch(/first 3 countries of page 2; more exist/);
  });
});

describe('--query (JMESPath)', () => {
  it('gives the same answer in every format: score calc and explain query the results, not the rows a table shows', async () => {
    const q = '[].{id: supplierId, s: score.value}';
    const j = JSON.parse((await h.run(['score', 'calc', supplier.id, '-o', 'json', '--query', q])).stdout) as Array<{ id: string; s: number }>;
    const c = await h.run(['score', 'calc', supplier.id, '-o', 'csv', '--query', q]);
    expect(c.code, c.stderr).toBe(0);
    const rows = parseCsv(c.stdout) as string[][];
    expect(rows[0]).toEqual(['id', 's']);
    expect(rows[1]).toEqual([j[0]!.id, String(j[0]!.s)]);
    const ej = JSON.parse((await h.run(['score', 'explain', supplier.id, '-o', 'json', '--query', 'score.value'])).stdout) as number;
    const ec = await h.run(['score', 'explain', supplier.id, '-o', 'csv', '--query', 'score.value']);
    expect(ec.stdout.trim().split('\n').at(-1)).toBe(String(ej));
  });

  it('CSV of a query answer has a column for every key any object has (not only the first one\'s)', async () => {
    const r = await h.run(['ref', 'countries', '-o', 'csv', '--query', "[?iso3Code=='ABW'||iso3Code=='FRA'].[{code: iso3Code},{code: iso3Code, name: commonName}][]"]);
    const rows = parseCsv(r.stdout) as string[][];
    expect(rows[0]).toEqual(['code', 'name']);
    expect(rows.slice(1).some((x) => x[1] === 'France')).toBe(true);
  });

  it('filters and reshapes JSON, tables and NDJSON', async () => {
    const j = await h.run(['ref', 'countries', '--query', "[?regionName=='Oceania'].iso3Code", '-o', 'json']);
    expect(j.code).toBe(0);
    const codes = JSON.parse(j.stdout) as string[];
    expect(codes).toContain('AUS');
    expect(codes).not.toContain('DEU');
    const t = await h.run(['ref', 'countries', '--query', "[?iso3Code=='DEU' || iso3Code=='FRA'].{code: iso3Code, name: commonName}", '-o', 'table']);
    expect(t.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(/^CODE\s+NAME$/), expect.stringMatching(/^DEU\s+Germany$/), expect.stringMatching(/^FRA\s+France$/)]);
    const n = await h.run(['ref', 'countries', '--query', 'length(@)', '-o', 'ndjson']);
    expect(n.stdout).toBe('249\n');
    const one = await h.run(['supplier', 'get', supplier.id, '--query', 'name', '-o', 'json']);
    expect(JSON.parse(one.stdout)).toBe(supplier.name);
  });
  it('with --fields, the query sees the selected fields (json, ndjson); a table shows the query result only', async () => {
    const j = await h.run(['ref', 'countries', '--fields', 'iso3Code', '--query', '[0:2]', '-o', 'json']);
    const rows = JSON.parse(j.stdout) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(Object.keys(r)).toEqual(['iso3Code']);
    const one = await h.run(['supplier', 'get', supplier.id, '--fields', 'id', '--query', 'keys(@)', '-o', 'json']);
    expect(JSON.parse(one.stdout)).toEqual(['id']);
    const card = fx.scorecards[0]!;
    const t = await h.run(['scorecards', 'get', card.id, '--query', 'name', '-o', 'table']);
    expect(t.code).toBe(0);
    expect(t.stdout.trimEnd()).toBe(card.name);
  });
  it('a malformed expression is a usage error before anything is sent', async () => {
    const before = h.requests.length;
    const r = await h.run(['ref', 'countries', '--query', '[?']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--query/);
    expect(h.requests.length).toBe(before);
  });
  it('with --fields, the query sees the selected fields in every format: the same answer under json, csv and table', async () => {
    const args = ['ref', 'countries', '--fields', 'iso3Code,regionName', '--query', "[?regionName=='Europe'] | [:3]"];
    const j = JSON.parse((await h.run([...args, '-o', 'json'])).stdout) as Array<{ iso3Code: string; regionName: string }>;
    expect(j).toHaveLength(3);
    const c = parseCsv((await h.run([...args, '-o', 'csv'])).stdout, { columns: true }) as Array<{ iso3Code: string; regionName: string }>;
    expect(c).toEqual(j);
    const t = (await h.run([...args, '-o', 'table'])).stdout;
    for (const row of j) expect(t).toMatch(new RegExp(`${row.iso3Code}\\s+Europe`));
    // A filter on a field not selected finds nothing, in every format alike.
    const none = ['ref', 'countries', '--fields', 'iso3Code', '--query', "[?regionName=='Europe']"];
    expect(JSON.parse((await h.run([...none, '-o', 'json'])).stdout)).toEqual([]);
    expect((await h.run([...none, '-o', 'csv'])).stdout.trim().split('\n').length).toBeLessThanOrEqual(1);
  });

  it('an unknown function is a usage error before anything is sent; a type error on the data is one line, exit 2', async () => {
    const before = h.requests.length;
    const r = await h.run(['ref', 'countries', '--query', 'foo(@)']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^srs: --query: Unknown function: foo\(\) in "foo\(@\)"/);
    expect(h.requests.length).toBe(before);
    const t = await h.run(['ref', 'countries', '--query', 'length(@[0].iso3Code.x)']);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/^srs: --query: Invalid type: length\(\)/);
    expect(t.stderr).not.toMatch(/unexpected error/);
  });
});

describe('supplier create', () => {
  it('from flags, then readable with get', async () => {
    const r = await h.run(['supplier', 'create', '--name', 'Embudo Valley Organics', '--country', 'usa', '--website', 'https://example.com', '--industry', '30202030', '--contact', 'john.doe@example.com,John,Doe', '--customer-id', 'SUPP-12345', '-o', 'json']);
    expect(r.code).toBe(0);
    const created = json(r.stdout) as Record<string, unknown>;
    expect(created).toMatchObject({ name: 'Embudo Valley Organics', countryIso3Code: 'USA', website: 'https://example.com', status: 'current', customerSupplierId: 'SUPP-12345' });
    expect(created.id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    const g = await h.run(['supplier', 'get', String(created.id), '-o', 'json']);
    expect(json(g.stdout)).toMatchObject({ id: created.id, name: 'Embudo Valley Organics', countryIso3Code: 'USA' });
  });

  it('trims its flags as an import trims its cells: a blank --name is refused (exit 2, nothing sent), " Padded " is sent as "Padded"', async () => {
    const before = h.requests.length;
    const blank = await h.run(['supplier', 'create', '--name', '   ', '-o', 'json']);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('name must not be empty');
    expect(h.requests.length).toBe(before);
    const padded = await h.run(['supplier', 'create', '--name', ' Padded Trim Ltd ', '--customer-id', ' PAD-TRIM-1 ', '--country', ' deu ', '-o', 'json']);
    expect(padded.code, padded.stderr).toBe(0);
    expect(json(padded.stdout)).toMatchObject({ name: 'Padded Trim Ltd', customerSupplierId: 'PAD-TRIM-1', countryIso3Code: 'DEU' });
  });

  it('from a JSON file and from stdin', async () => {
    const file = join(h.home, 'body.json');
    writeFileSync(file, JSON.stringify({ name: 'From File GmbH', countryIso3Code: 'DEU' }));
    const f = await h.run(['supplier', 'create', '--json', file, '-o', 'json']);
    expect(f.code).toBe(0);
    expect(json(f.stdout)).toMatchObject({ name: 'From File GmbH', countryIso3Code: 'DEU', website: null });
    const s = await h.run(['supplier', 'create', '--json', '-', '-o', 'csv'], { input: '{"name":"Piped Ltd"}' });
    expect(s.code).toBe(0);
    const rows = parseCsv(s.stdout) as string[][];
    expect(rows[0]).toEqual(['id', 'name', 'countryIso3Code', 'website', 'status', 'customerSupplierId']);
    expect(rows[1]![1]).toBe('Piped Ltd');
  });

  it('invalid input exits 2 naming the field, before any request is sent', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--name', 'x'.repeat(256)], /name.*255/],
      [['--name', 'A', '--country', 'DE'], /countryIso3Code.*3/],
      [['--name', 'A', '--website', 'not a uri'], /website/],
      [['--name', 'A', '--contact', 'not-an-email'], /contacts\[0\]\.email/],
      [['--name', 'A', '--customer-id', 'c'.repeat(256)], /customerSupplierId/],
      [['--country', 'DEU'], /--name is required/],
      [['--name', 'Two\nLines Ltd'], /name contains a line break/],
      [['--name', 'A', '--customer-id', 'V\r1'], /customerSupplierId contains a line break/],
    ];
    for (const [args, pattern] of cases) {
      const before = h.requests.length;
      const r = await h.run(['supplier', 'create', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
      expect(h.requests.length, 'a request was sent for invalid input').toBe(before);
    }
  });

  it('a bad --json body exits 2', async () => {
    const r = await h.run(['supplier', 'create', '--json', '-'], { input: '{"name": ' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
    const x = await h.run(['supplier', 'create', '--json', '-'], { input: '{"name":"A","unknownField":1}' });
    expect(x.code).toBe(2);
    expect(x.stderr).toMatch(/unknownField/);
  });
});

describe('errors', () => {
  it('a wrong key exits 4 with one line', async () => {
    const r = await h.run(['supplier', 'get', supplier.id], { env: { SRS_API_KEY: 'wrong-key-0000' } });
    expect(r.code).toBe(4);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/rejected the API key/);
    expect(r.stderr).not.toContain('wrong-key-0000');
  });

  it('a key with a line break (a paste accident) exits 4 at once, naming its source, not the key; nothing is sent or retried', async () => {
    const before = h.requests.length;
    const r = await h.run(['ref', 'countries', '--retries', '3'], { env: { SRS_API_KEY: 'secretAAAA\nBBBB' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^srs: the API key from SRS_API_KEY contains whitespace, a line break or a control character/);
    expect(r.stderr).not.toMatch(/secret|BBBB|attempt/);
    expect(h.requests.length).toBe(before);
    const euro = await h.run(['ref', 'countries'], { env: { SRS_API_KEY: 'k\u20acy-0123456789' } });
    expect(euro.code).toBe(4);
    expect(euro.stderr).toMatch(/^srs: the API key from SRS_API_KEY holds characters outside printable ASCII/);
    expect(h.requests.length).toBe(before);
  });

  it('auth status does not call a key fine that no command will send: it shows the status, then exits 4 naming the source', async () => {
    const r = await h.run(['auth', 'status', '-o', 'json'], { env: { SRS_API_KEY: 'secretAAAA BBBB' } });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'SRS_API_KEY' });
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'auth' });
    expect(JSON.parse(r.stderr).error.message).toMatch(/^the API key from SRS_API_KEY contains whitespace, a line break or a control character; no command will send it/);
    expect(r.stdout + r.stderr).not.toContain('secretAAAA');
  });

  it.runIf(existsSync('/proc/self'))('a config directory that cannot be made (under /proc) is exit 1 at once: Node\'s recursive mkdir looped there forever, deaf to SIGTERM', async () => {
    const r = await h.run(['auth', 'login', '--base-url', h.emu.url, '--with-key'], { env: { SRS_CONFIG_DIR: '/proc/srs-cannot-exist/config' }, timeoutMs: 10_000, input: 'abcdefghijkl' });
    expect(r.signal, 'hung: killed after 10 s').toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot use \/proc\/srs-cannot-exist\/config as srs's config directory .*\((ENOENT|EACCES|EPERM|EROFS)\)/);
    // auth status with every setting from the environment needs no config directory: the status, and a warning.
    const st = await h.run(['auth', 'status', '-o', 'json'], { env: { SRS_CONFIG_DIR: '/proc/srs-cannot-exist/config' }, timeoutMs: 10_000 });
    expect(st.signal, 'hung: killed after 10 s').toBeNull();
    expect(st.code, st.stderr).toBe(0);
    expect(JSON.parse(st.stdout)).toMatchObject({ keySource: 'SRS_API_KEY', configFile: null });
    expect(st.stderr).toMatch(/cannot use \/proc\/srs-cannot-exist\/config as srs's config directory .*: stored profiles are not shown/);
  });

  it('auth status does not call a base URL fine that every command refuses: it shows the status, then exits 2 in their words', async () => {
    const cases: Array<[string | undefined, RegExp]> = [
      ['ftp://x', /base URL "ftp:\/\/x" must start with https:\/\/ or http:\/\//],
      ['http://example.com', /refusing to send the API key over plain http to example\.com/],
      [undefined, /no base URL for profile "default"/],
    ];
    for (const [url, why] of cases) {
      const r = await h.run(['auth', 'status', '-o', 'json'], { env: { SRS_BASE_URL: url, SRS_API_KEY: 'abcdefghijkl' } });
      expect(r.code, String(url)).toBe(2);
      expect(JSON.parse(r.stdout), String(url)).toMatchObject({ keySource: 'SRS_API_KEY' });
      expect(JSON.parse(r.stderr).error.message, String(url)).toMatch(why);
    }
  });

  it('output that cannot be written (stdout on a full disk) is one line and exit 1, never a stack trace; a created supplier is named', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      // Asynchronous: the emulator runs in this process.
      const write = (args: string[]) =>
        new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
          const child = spawn(process.execPath, [BIN, ...args], { env: h.env, stdio: ['ignore', full, 'pipe'] });
          let stderr = '';
          child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
          child.on('error', reject).on('close', (status) => resolve({ status, stderr }));
        });
      for (const format of ['json', 'ndjson', 'csv', 'table']) {
        const r = await write(['ref', 'countries', '-o', format]);
        expect(r.status, format).toBe(1);
        expect(r.stderr, format).toMatch(/cannot write the output to stdout: ENOSPC/);
        expect(r.stderr, format).not.toMatch(/\n\s+at /);
      }
      const c = await write(['supplier', 'create', '--name', 'Full Disk Ltd', '--customer-id', 'FULL-1']);
      expect(c.status).toBe(1);
      expect(c.stderr).toMatch(/^srs: supplier [0-9a-z]{26} was created, but srs could not write the output to stdout: ENOSPC/);
      expect(c.stderr.trimEnd().split('\n')).toHaveLength(1);
    } finally {
      closeSync(full);
    }
  });

  it('unusable settings are one line naming what to fix: a --timeout no timer can hold, a reserved profile name, a hand-broken config file', async () => {
    for (const t of ['0', '3000000s']) {
      const r = await h.run(['ref', 'sources', '--timeout', t]);
      expect(r.code, t).toBe(2);
      expect(r.stderr, t).toMatch(/^srs: --timeout must be from 1ms to 2147483s/);
      expect(r.stderr, t).not.toMatch(/TimeoutOverflowWarning/);
    }
    const proto = await runSrs(['auth', 'login', '--profile', '__proto__', '--base-url', h.emu.url, '--with-key'], { ...h.env, SRS_API_KEY: undefined }, { input: 'whatever-key\n' });
    expect(proto.code).toBe(2);
    expect(proto.stderr).toMatch(/--profile "__proto__" is not a usable profile name/);
    const dir = join(h.home, 'broken-config');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"baseUrl":123}}}', { mode: 0o600 });
    const typed = await runSrs(['auth', 'status'], { ...h.env, SRS_CONFIG_DIR: dir, SRS_API_KEY: undefined, SRS_BASE_URL: undefined });
    expect(typed.code).toBe(1);
    expect(typed.stderr).toMatch(/^srs: config file .*config\.json: profile "default" has a baseUrl that is not text; fix the file/);
    writeFileSync(join(dir, 'config.json'), '{"profiles":', { mode: 0o600 });
    const notJson = await runSrs(['auth', 'status'], { ...h.env, SRS_CONFIG_DIR: dir, SRS_API_KEY: undefined, SRS_BASE_URL: undefined });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^srs: config file .*config\.json cannot be read .*not valid JSON.*run "srs auth login" again/);
    expect(notJson.stderr).not.toMatch(/unexpected error|\n\s+at /);
  });

  it('no key at all exits 4 and says how to log in', async () => {
    const r = await h.run(['ref', 'sources'], { env: { SRS_API_KEY: undefined } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/srs auth login/);
  });

  it('an unknown id exits 1 with one line naming the request, no stack trace', async () => {
    const r = await h.run(['supplier', 'get', '01zzzzzzzzzzzzzzzzzzzzzzzz']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/GET \/v1\/suppliers\/01zzzzzzzzzzzzzzzzzzzzzzzz failed with HTTP 404/);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('with -o json the error is one JSON object on stderr', async () => {
    const r = await h.run(['scorecards', 'get', '01zzzzzzzzzzzzzzzzzzzzzzzz', '-o', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const e = JSON.parse(r.stderr) as { error: { code: string; message: string; status: number } };
    expect(e.error).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('an unreachable host exits 1 with one clear line', async () => {
    const r = await h.run(['ref', 'countries'], { env: { SRS_BASE_URL: 'http://127.0.0.1:9', SRS_RETRIES: '0' } });
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/connection refused/);
  });

  it('usage errors exit 2 and suggest the closest command', async () => {
    const r = await h.run(['suplier', 'get', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/supplier/);
    const o = await h.run(['ref', 'countries', '-o', 'yaml']);
    expect(o.code).toBe(2);
    const m = await h.run(['ref', 'countries', '--per-page', '101']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/between 1 and 100/);
  });

  it('refuses to send the key over plain http to a remote host', async () => {
    const r = await h.run(['ref', 'countries'], { env: { SRS_BASE_URL: 'http://api.example.com' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--insecure-http/);
  });
});

describe('auth', () => {
  it('login refuses a key that cannot be sent (exit 4) and a base URL with user:password@ (exit 2), sending and storing nothing', async () => {
    const env = { ...baseEnv(h.home + '/auth-guards'), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const before = h.requests.length;
    for (const input of ['KEY\u0001ABC1234', '\u00c4\u00d6\u00dcKEY1234', 'SECRET KEY']) {
      const r = await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input });
      expect(r.code, JSON.stringify(input)).toBe(4);
      expect(r.stderr).toMatch(/cannot be sent in a header/);
    }
    const key = h.env.SRS_API_KEY!;
    const r = await runSrs(['auth', 'login', '--base-url', h.emu.url.replace('http://', `http://user:${key}@`), '--with-key'], env, { input: key });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the base URL holds user:password@/);
    expect(h.requests.length).toBe(before);
    expect((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout).not.toContain(key);
  });

  it('a base URL that is not the service: login says so (nothing stored); a redirect names where it points', async () => {
    const env = { ...baseEnv(h.home + '/auth-wrong-url'), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const key = h.env.SRS_API_KEY!;
    const wrong = await runSrs(['auth', 'login', '--base-url', `${h.emu.url}/not-here`, '--with-key'], env, { input: key });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/no Supplier Responsibility Assessment Service answered at .*\/not-here .*check the base URL; nothing was stored/);
    const { createServer } = await import('node:http');
    const moved = createServer((_req, res) => {
      res.writeHead(301, { location: 'https://api.example.com/v1/data-sources' });
      res.end();
    });
    await new Promise<void>((r) => moved.listen(0, '127.0.0.1', r));
    try {
      const r = await runSrs(['ref', 'sources'], { ...h.env, SRS_BASE_URL: `http://127.0.0.1:${(moved.address() as { port: number }).port}` });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/HTTP 301: redirected to https:\/\/api\.example\.com\/v1\/data-sources; srs does not follow redirects/);
      // auth login there: the key could not be checked, which is said, with the base URL and that nothing was stored.
      const login = await runSrs(['auth', 'login', '--base-url', `http://127.0.0.1:${(moved.address() as { port: number }).port}`, '--with-key'], env, { input: key });
      expect(login.code).toBe(1);
      expect(login.stderr).toMatch(/the key could not be checked at http:\/\/127\.0\.0\.1:\d+: .*HTTP 301.*; nothing was stored/);
    } finally {
      await new Promise((r) => moved.close(r));
    }
  });

  it('the key never reaches stdout, in any letter case, even when the service sends it back in a 200 body', async () => {
    const key = h.env.SRS_API_KEY!;
    const { createServer } = await import('node:http');
    const echo = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ id: '01fx3wwb9e3hcg5h3wr9b4ttqj', name: `echo ${key} and ${key.toLowerCase()}` }], pagination: {} }));
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(echo.address() as { port: number }).port}`;
      for (const args of [['ref', 'sources', '-o', 'json'], ['ref', 'sources', '-o', 'csv'], ['api', 'GET', '/v1/data-sources']]) {
        const r = await runSrs(args, { ...h.env, SRS_BASE_URL: url });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.toLowerCase()).not.toContain(key.toLowerCase());
        expect(r.stdout).toContain(`echo ****${key.slice(-4)} and ****${key.slice(-4)}`);
      }
    } finally {
      await new Promise((r) => echo.close(r));
    }
  });

  it('the key is masked before a table cuts a cell, URL-encoded, in a long error message and in the --report, and in what an argument check quotes', async () => {
    const key = 'ab+cd/EF=gh12345678';
    const enc = encodeURIComponent(key);
    const { createServer } = await import('node:http');
    const echo = createServer((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `invalid request: ${'x'.repeat(270)} ${key} end` }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ iso3Code: 'ABC', commonName: `${'y'.repeat(60)}${key}`, officialName: `encoded ${enc}` }], pagination: {} }));
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    try {
      const env = { ...h.env, SRS_API_KEY: key, SRS_BASE_URL: `http://127.0.0.1:${(echo.address() as { port: number }).port}`, COLUMNS: '50' };
      const leaks = (s: string) => [key, key.slice(0, 12), enc, enc.slice(0, 12)].filter((k) => s.toLowerCase().includes(k.toLowerCase()));
      for (const args of [['ref', 'countries', '-o', 'table'], ['ref', 'countries', '-o', 'json']]) {
        const r = await runSrs(args, env);
        expect(r.code, r.stderr).toBe(0);
        expect(leaks(r.stdout), r.stdout).toEqual([]);
      }
      const c = await runSrs(['supplier', 'create', '--name', 'Leak Test', '--no-catalog'], env);
      expect(c.code).toBe(1);
      expect(leaks(c.stderr), c.stderr).toEqual([]);
      const dir = mkdtempSync(join(tmpdir(), 'srs-leak-'));
      writeFileSync(join(dir, 'in.csv'), 'name,countryIso3Code\nLeak Row,DEU\n');
      const imp = await runSrs(['--no-catalog', 'supplier', 'import', join(dir, 'in.csv'), '--report', join(dir, 'report.csv'), '-o', 'json', '--quiet'], env);
      expect(JSON.parse(imp.stdout)).toMatchObject({ failed: 1 });
      expect(leaks(readFileSync(join(dir, 'report.csv'), 'utf8'))).toEqual([]);
      const ids = join(dir, 'ci.env');
      writeFileSync(ids, `export SRS_API_KEY=${key}\n`);
      const arg = await runSrs(['score', 'check', '--ids-file', ids, `a ${key}`, '--min', '0'], env);
      expect(arg.code).toBe(2);
      expect(leaks(arg.stderr), arg.stderr).toEqual([]);
    } finally {
      await new Promise((r) => echo.close(r));
    }
  });

  it('login --with-key checks the key, stores it 0600, status shows only the last 4, logout removes it', async () => {
    const env = { ...baseEnv(h.home + '/auth'), SRS_BASE_URL: undefined };
    const key = h.env.SRS_API_KEY!;
    const bad = await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], { ...env, SRS_API_KEY: undefined }, { input: 'wrong-key-1234\n' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/rejected/);
    const ok = await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input: key + '\n', env: { SRS_API_KEY: undefined } });
    expect(ok.code).toBe(0);
    expect(ok.stderr).not.toContain(key);
    expect(ok.stderr).toContain(key.slice(-4));
    const status = await runSrs(['auth', 'status', '-o', 'json'], env);
    expect(status.code).toBe(0);
    const st = JSON.parse(status.stdout) as Record<string, string>;
    expect(st).toMatchObject({ profile: 'default', baseUrl: h.emu.url, keySource: 'stored profile', key: `****${key.slice(-4)}` });
    expect(status.stdout).not.toContain(key);
    // The stored key now works on its own (no SRS_API_KEY in the environment).
    const use = await runSrs(['ref', 'sources', '--limit', '1', '-o', 'json'], env);
    expect(use.code).toBe(0);
    const { statSync } = await import('node:fs');
    expect(statSync(st.configFile!).mode & 0o777).toBe(0o600);
    const out = await runSrs(['auth', 'logout'], env);
    expect(out.code).toBe(0);
    const after = await runSrs(['auth', 'status', '-o', 'json'], env);
    expect(after.code).toBe(4);
    const gone = await runSrs(['ref', 'sources'], env);
    expect(gone.code).toBe(4);
  });

  it('login without a TTY and without --with-key refuses (exit 2)', async () => {
    const r = await runSrs(['auth', 'login', '--base-url', h.emu.url], baseEnv(h.home + '/auth2'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-key/);
  });
});

describe('sandbox', () => {
  it('create then get across invocations with no account', async () => {
    const env = baseEnv(h.home + '/sbx');
    const c = await runSrs(['--sandbox', 'supplier', 'create', '--name', 'Sandbox Supplier', '--country', 'FRA', '-o', 'json'], env);
    expect(c.code).toBe(0);
    const id = (JSON.parse(c.stdout) as { id: string }).id;
    const g = await runSrs(['--sandbox', 'supplier', 'get', id, '-o', 'json'], { ...env, SRS_SANDBOX: undefined });
    expect(JSON.parse(g.stdout)).toMatchObject({ id, name: 'Sandbox Supplier' });
    const e = await runSrs(['supplier', 'get', id, '-o', 'json'], { ...env, SRS_SANDBOX: '1' });
    expect(e.code).toBe(0);
  });

  it('never touches a stored profile key', async () => {
    // A real profile whose base URL is the harness emulator: any use of it would show up there.
    const env = baseEnv(h.home + '/sbx2');
    const key = h.env.SRS_API_KEY!;
    const login = await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input: key });
    expect(login.code).toBe(0);
    const before = h.requests.length;
    const r = await runSrs(['--sandbox', '--debug', 'ref', 'countries', '--limit', '1'], { ...env, SRS_API_KEY: key });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain(key);
    expect(r.stderr).toMatch(/debug: sandbox emulator on http:\/\/127\.0\.0\.1:\d+/);
    expect(h.requests.length, 'the sandbox sent a request to the stored profile').toBe(before);
  });
});

describe('emulator commands', () => {
  it('fixtures prints the seeded ids as JSON; another format asked for is exit 2, not JSON anyway', async () => {
    const r = await h.run(['emulator', 'fixtures']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(fx);
    const csv = await h.run(['emulator', 'fixtures', '-o', 'csv']);
    expect(csv.code).toBe(2);
    expect(csv.stdout).toBe('');
    expect(csv.stderr).toMatch(/-o csv is not available: use -o json/);
  });

  /** `srs emulator start -o json ...` as a child: its first stdout line (url and key), and the child. */
  const startCli = async (extra: string[] = []) => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('./harness.js');
    const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '-o', 'json', ...extra], { env: baseEnv(h.home + '/emu'), stdio: ['ignore', 'pipe', 'pipe'] });
    const first = await new Promise<string>((resolve) => {
      let buf = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
      });
    });
    return { child, info: JSON.parse(first) as { url: string; apiKey: string } };
  };

  it('start refuses a key srs could not send (whitespace, controls, non-ASCII): exit 2, nothing served', async () => {
    for (const key of ['a b', 'tab\there', 'clé-0123456789']) {
      const r = await runSrs(['emulator', 'start', '--port', '0', '--api-key', key], baseEnv(h.home + '/emu'));
      expect(r.code, key).toBe(2);
      expect(r.stderr, key).toMatch(/^srs: --api-key .*: choose a key of printable ASCII without spaces/);
    }
  });

  it('start with a chosen key prints no placeholder for it (it printed SRS_API_KEY=(as given), and apiKey "(as given)")', async () => {
    const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--api-key', 'chosen-key-12345', '-o', 'json'], { env: baseEnv(h.home + '/emu-chosen') });
    const first = await new Promise<string>((resolve) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
      });
    });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('close', resolve));
    const info = JSON.parse(first) as Record<string, unknown>;
    expect(Object.keys(info).sort()).toEqual(['seed', 'url']);
    expect(first).not.toMatch(/as given|chosen-key/);
  });

  it('start serves until SIGTERM and prints its address', async () => {
    const { child, info } = await startCli();
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await runSrs(['ref', 'sources', '--limit', '2', '-o', 'json'], { ...baseEnv(h.home + '/emu'), SRS_BASE_URL: info.url, SRS_API_KEY: info.apiKey });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(143); // SIGTERM, like every command
  });

  it('start answers spec-strict by default; --nulls answers no data with null; --nulls and --shape must agree', async () => {
    const noScore = async (extra: string[]) => {
      const { child, info } = await startCli(extra);
      try {
        const res = await fetch(`${info.url}/v1/score-calculation`, {
          method: 'POST',
          headers: { 'x-api-key': info.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ supplierIds: ['no-such-supplier'] }),
        });
        return ((await res.json()) as { items: Array<{ score: Record<string, unknown> }> }).items[0]!.score;
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.on('close', resolve));
      }
    };
    expect(await noScore([])).toEqual({ dataSourcesScore: {}, policyParametersScore: {} });
    expect(await noScore(['--nulls'])).toEqual({ value: null, dataSourcesScore: { value: null }, policyParametersScore: { value: null } });
    const r = await runSrs(['emulator', 'start', '--port', '0', '--nulls', '--shape', 'minimal'], baseEnv(h.home + '/emu'), { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--nulls and --shape minimal disagree/);
  });
});

describe('on a terminal', () => {
  // util-linux `script` gives srs a pseudo-terminal; it reports 0 columns, which once sent ora into an endless loop.
  const script = optionalTool({ name: 'script', pkg: 'util-linux', present: () => onPath('script') });
  // Asynchronous: the emulator answering srs lives in this process.
  const onTty = async (cmd: string, extra: Record<string, string> = {}): Promise<string> => {
    try {
      return (await promisify(execFile)('script', ['-qec', cmd, '/dev/null'], { env: { ...h.env, ...extra }, encoding: 'utf8', timeout: 20_000 })).stdout;
    } catch (e) {
      // A failing command (exit 1) still printed what we look at.
      return (e as { stdout?: string }).stdout ?? '';
    }
  };
  script.it('tables with colour on a TTY, none under NO_COLOR, and the spinner never hangs', async () => {
    const bin = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
    const coloured = await onTty(`${bin} ref countries --limit 2`);
    expect(coloured).toContain('\u001b[1mISO3');
    const plain = await onTty(`${bin} ref countries --limit 2`, { NO_COLOR: '1' });
    expect(plain).toMatch(/ISO3\s+ISO2/);
    expect(plain).not.toContain('\u001b[');
    expect(await onTty(`${bin} supplier get nope`)).toContain('\u001b[31msrs:');
  });
});

describe('help', () => {
  it('a mistyped command with --help is the same "unknown command" error (exit 2) as without it, not the parent\'s help', async () => {
    for (const args of [['nosuch', '--help'], ['suplier', '-h'], ['supplier', 'nosuch', '--help']]) {
      const r = await h.run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(/^srs: unknown command '(nosuch|suplier)'/);
    }
    const ok = await h.run(['supplier', 'get', '--help']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Usage: srs supplier get/);
  });

  it('--query shapes emulator fixtures; --fields there, and either on score report (an HTML page), is refused, not ignored', async () => {
    const q = await h.run(['emulator', 'fixtures', '--query', 'suppliers[0].id']);
    expect(q.code).toBe(0);
    expect(JSON.parse(q.stdout)).toMatch(/^[0-9a-z]{26}$/);
    const f = await h.run(['emulator', 'fixtures', '--fields', 'suppliers.id']);
    expect(f.code).toBe(2);
    expect(f.stderr).toContain('--fields does not apply to emulator fixtures');
    for (const flag of ['--query', '--fields']) {
      const r = await h.run(['score', 'report', supplier.id, '--html', '-', flag, 'x']);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toContain(`${flag} does not apply to score report (it writes an HTML page)`);
    }
    // completion prints a script, emulator start one line of connection details: the output options were ignored.
    for (const [args, message] of [
      [['completion', 'bash', '--fields', 'id'], '--fields does not apply to srs completion (it prints a shell script, not data)'],
      [['completion', 'bash', '-o', 'json'], '-o does not apply to srs completion'],
      [['completion', '--man', '--query', 'x'], '--query does not apply to srs completion (it prints a man page, not data)'],
      [['emulator', 'start', '--port', '0', '--query', 'url'], '--query does not apply to srs emulator start'],
    ] as const) {
      const r = await h.run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(message);
    }
  });

  it('global options without a command are exit 2 "a command is needed" (help on stderr), not exit 0; srs alone and --help stay 0', async () => {
    for (const args of [['-o', 'json'], ['--sandbox'], ['-q']]) {
      const r = await h.run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/a command is needed: supplier, scorecards, score/);
    }
    expect((await h.run([])).code).toBe(0);
    expect((await h.run(['--help'])).code).toBe(0);
  });

  it('a mistyped verb followed by its options is "unknown command" with a suggestion, not an unknown option; an option before any verb is still an unknown option', async () => {
    const before = h.requests.length;
    const typo = await h.run(['supplier', 'craete', '--name', 'x']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("srs: unknown command 'craete' (did you mean create?)\n");
    const ls = await h.run(['scorecards', 'lst', '--supplier', '01h58vrn1sad1y603je9gbpje8']);
    expect(ls.code).toBe(2);
    expect(ls.stderr).toMatch(/^srs: unknown command 'lst' \(did you mean/);
    const opt = await h.run(['supplier', '--bogus', 'create']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toBe('srs: unknown option \'--bogus\' (see "srs supplier --help")\n');
    expect(h.requests.length).toBe(before);
  });

  it('the lookup examples of --help run as written against the seeded data (placeholder ids answered 404)', async () => {
    const readers = [['supplier', 'get'], ['emissions', 'ls'], ['news', 'ls'], ['scorecards', 'get'], ['scorecards', 'ls'], ['data-entry', 'get']];
    let ran = 0;
    for (const c of readers) {
      const help = await h.run([...c, '--help']);
      const lines = /\nExamples:\n((?: {2}\$ .*\n?)+)/.exec(help.stdout)![1]!.trimEnd().split('\n');
      for (const line of lines) {
        const cmd = line.replace(/^ {2}\$ srs /, '');
        // A plain lookup with an id (pipes, files and other commands are shown, not run here).
        if (/[|>]/.test(cmd) || !/\b01[0-9a-hjkmnp-tv-z]{24}\b/.test(cmd) || !cmd.startsWith(c.join(' '))) continue;
        const r = await h.run(cmd.split(/\s+/));
        expect(r.code, `${line}: ${r.stderr}`).toBe(0);
        ran++;
      }
    }
    expect(ran).toBeGreaterThanOrEqual(5);
  });

  it('every command has --help with an example', async () => {
    // Every command of the real command tree (groups and leaves, the root too), not a hand-kept list.
    const walk = (cmd: Command, path: string[]): string[][] => [path, ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()]))];
    const commands = walk(buildProgram(() => async () => undefined), []);
    const expectedPaths = ['supplier import', 'score calc', 'score recompute', 'score check', 'api', 'schema', 'completion', 'help', 'supplier create', 'emulator start'];
    expect(commands.map((c) => c.join(' '))).toEqual(expect.arrayContaining(expectedPaths));
    expect(commands.length).toBeGreaterThan(20);
    // completion's first example wraps srs in shell syntax ("source <(srs completion bash)"), by design.
    const shellWrapped = new Set(['completion']);
    for (const c of commands) {
      const name = c.join(' ') || 'srs';
      const r = await h.run([...c, '--help']);
      expect(r.code, name).toBe(0);
      if (!shellWrapped.has(name)) expect(r.stdout, name).toMatch(/Examples:\n\s+\$ srs /);
      // Every line of the block is an example invoking srs (the rule test/unit/help.test.ts checks on the tree).
      const block = /\nExamples:\n((?: {2}\$ .*\n?)+)/.exec(r.stdout);
      expect(block, `${name} --help has no "Examples:" block`).not.toBeNull();
      for (const line of block![1]!.trimEnd().split('\n')) expect(line, name).toMatch(/^ {2}\$ .*\bsrs\b/);
    }
  });
  it('the build-time root help is exactly what the command tree prints', async () => {
    const cached = await h.run(['--help']);
    const live = await h.run(['--help'], { env: { SRS_NO_HELP_CACHE: '1' } });
    expect(cached.code).toBe(0);
    expect(cached.stdout).toBe(live.stdout);
    expect(cached.stdout).toMatch(/^Usage: srs /);
    const bare = await h.run([]);
    expect(bare.stdout).toBe(live.stdout);
  });
  it('srs --version prints the version', async () => {
    const r = await h.run(['--version']);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('settings that would be silently ignored or lost', () => {
  it('a bad SRS_OUTPUT is named as SRS_OUTPUT; --sandbox with --base-url is refused; a config file of another shape is refused and kept', async () => {
    const home = join(h.home, 'ignored');
    const env = baseEnv(home);
    const out = await runSrs(['ref', 'countries'], { ...env, SRS_OUTPUT: 'bogus' });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('SRS_OUTPUT must be one of table, json, ndjson, csv (got "bogus")');
    const both = await runSrs(['--sandbox', '--base-url', 'https://api.example.com', 'ref', 'countries'], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--sandbox talks to the local sandbox, so --base-url would be ignored');
    mkdirSync(env.SRS_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(env.SRS_CONFIG_DIR!, 'config.json'), '[]\n');
    const cfg = await runSrs(['ref', 'countries', '--limit', '1'], env);
    expect(cfg.code).toBe(1);
    expect(cfg.stderr).toContain('is not an object of settings');
    expect(readFileSync(join(env.SRS_CONFIG_DIR!, 'config.json'), 'utf8')).toBe('[]\n');
  });

  it('emulator start --state in a directory that does not exist is exit 2 (never a new, empty state)', async () => {
    const r = await runSrs(['emulator', 'start', '--port', '0', '--state', join(h.home, 'no-such-dir', 'state.db')], baseEnv(join(h.home, 'emu-state')));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--state .*: its directory .*no-such-dir does not exist/);
  });
});

describe('text that is not UTF-8 is refused, not sent as U+FFFD', () => {
  it('supplier create --json and srs api --input in Latin-1, or a --name holding U+FFFD, are exit 2 with nothing sent', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = `${h.home}/latin1.json`;
    writeFileSync(file, Buffer.from('{"name":"Caf\xe9 Latin","countryIso3Code":"DEU"}', 'latin1'));
    const before = h.requests.length;
    for (const args of [['supplier', 'create', '--json', file, '-o', 'json'], ['api', 'POST', '/v1/suppliers', '--input', file, '-o', 'json'], ['supplier', 'create', '--name', 'Caf\uFFFD Arg', '-o', 'json'], ['supplier', 'create', '--name', 'Ok', '--category', 'c\uFFFDt', '-o', 'json'], ['api', 'POST', '/v1/suppliers', '--field', 'name=Caf\uFFFD Four', '-o', 'json']]) {
      const r = await h.run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/not valid UTF-8|U\+FFFD/);
    }
    expect(h.requests.slice(before).filter((l) => l.includes('POST'))).toEqual([]);
    // UTF-8, with or without its byte order mark, is read.
    writeFileSync(file, '\uFEFF{"name":"Caf\u00e9 UTF8","countryIso3Code":"DEU"}');
    const ok = await h.run(['supplier', 'create', '--json', file, '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { name: string }).name).toBe('Caf\u00e9 UTF8');
  });
});
