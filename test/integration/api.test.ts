/**
 * `srs api METHOD PATH`: the built binary against a real emulator (and, for
 * retries and odd answers, a tiny scripted server). The harness checks on
 * every run that the API key never shows up in stdout or stderr.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, fieldValue, listColumns } from '../../src/commands/api/run.js';
import { Context, type IO } from '../../src/context.js';
import { fixtures } from '../../src/emulator/index.js';
import { baseEnv, runSrs, startHarness, type Harness } from './harness.js';

let h: Harness;
const fx = fixtures();
const supplier = fx.suppliers[0]!;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const json = (s: string): unknown => JSON.parse(s);
const requestsTo = (path: string) => h.requests.filter((l) => l.split(' ')[1] === path).length;

describe('srs api --query and --fields mean the same in every format', () => {
  it('the query sees the whole document; --fields selects fields of the items (json printed {} for them)', async () => {
    const answers: Record<string, string[]> = {};
    for (const format of ['json', 'ndjson', 'csv']) {
      const q = await h.run(['api', 'GET', '/v1/countries', '--field', 'perPage=2', '--query', 'items[0].iso3Code', '-o', format]);
      expect(q.code, q.stderr).toBe(0);
      const f = await h.run(['api', 'GET', '/v1/countries', '--field', 'perPage=2', '--fields', 'iso3Code', '-o', format]);
      expect(f.code, f.stderr).toBe(0);
      const codes = format === 'csv' ? (parseCsv(f.stdout, { columns: true }) as Array<{ iso3Code: string }>) : format === 'ndjson' ? f.stdout.trim().split('\n').map((l) => json(l) as { iso3Code: string }) : (json(f.stdout) as Array<{ iso3Code: string }>);
      answers[format] = [format === 'csv' ? q.stdout.trim().split('\n').at(-1)! : String(json(q.stdout)), ...codes.map((c) => c.iso3Code)];
    }
    expect(answers.ndjson).toEqual(answers.json);
    expect(answers.csv).toEqual(answers.json);
    expect(answers.json).toHaveLength(3);
    expect(answers.json![0]).toBe(answers.json![1]);
  });
  it('-o csv says which fields are not columns (objects or lists), so the CSV is not read as the whole answer', async () => {
    const r = await h.run(['api', 'GET', '/v1/scorecards', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).not.toContain('items');
    expect(r.stderr).toContain('not shown as columns (objects or lists): items; -o json has them');
  });
  it('--fields are checked against the answer: a path no item holds is exit 2 with the closest one (it printed {} and empty columns, exit 0)', async () => {
    for (const format of ['json', 'csv', 'table']) {
      const r = await h.run(['api', 'GET', '/v1/countries', '--field', 'perPage=2', '--fields', 'iso3Code,comonName', '-o', format]);
      expect(r.code, `${format}: ${r.stdout}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.replace(/\\"/g, '"')).toContain('--fields: no item of the answer has a field "comonName" (did you mean commonName?)');
    }
    // Paths through arrays (an index or not) are fields of the answer.
    const through = await h.run(['api', 'GET', '/v1/scorecards', '--fields', 'id,items.0.type', '-o', 'csv']);
    expect(through.code, through.stderr).toBe(0);
    expect(through.stdout).toContain('policy_parameter_item');
    const paged = await h.run(['api', 'GET', '/v1/countries', '--paginate', '--fields', 'bogus', '-o', 'csv']);
    expect(paged.code).toBe(2);
    // A read of one resource: --fields select its fields ({ item } is unwrapped) in every format.
    const fx = JSON.parse((await h.run(['emulator', 'fixtures', '-o', 'json'])).stdout) as { suppliers: Array<{ id: string; name: string }> };
    const one = await h.run(['api', 'GET', `/v1/suppliers/${fx.suppliers[0]!.id}`, '--fields', 'name', '-o', 'json']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ name: fx.suppliers[0]!.name });
    const bad = await h.run(['api', 'GET', `/v1/suppliers/${fx.suppliers[0]!.id}`, '--fields', 'nmae', '-o', 'json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.replace(/\\"/g, '"')).toContain('--fields: the answer has no field "nmae" (did you mean name?)');
  });
});

describe('srs api GET', () => {
  it('--field becomes a query parameter; -o json prints the body as received', async () => {
    const r = await h.run(['api', 'GET', '/v1/countries', '--field', 'perPage=3', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const body = json(r.stdout) as { items: Array<{ iso3Code: string }>; pagination: { pageSize: number; nextPage: number } };
    expect(body.items).toHaveLength(3);
    expect(body.pagination).toEqual({ pageSize: 3, nextPage: 2 });
  });

  it('takes a query string in the path, and a lower-case method', async () => {
    const r = await h.run(['api', 'get', '/v1/countries?perPage=2&page=2', '-o', 'json']);
    expect(r.code).toBe(0);
    const body = json(r.stdout) as { items: unknown[]; pagination: { nextPage: number } };
    expect(body.items).toHaveLength(2);
    expect(body.pagination.nextPage).toBe(3);
  });

  it('reads one resource: json as is, table as key/value lines, csv flattened', async () => {
    const j = await h.run(['api', 'GET', `/v1/suppliers/${supplier.id}`, '-o', 'json']);
    expect(j.code).toBe(0);
    expect((json(j.stdout) as { item: { id: string } }).item.id).toBe(supplier.id);
    const t = await h.run(['api', 'GET', `/v1/data-entries/${fx.dataEntries[0]!.id}`, '-o', 'table']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^TYPE\s+news_event$/m);
    expect(t.stdout).toMatch(new RegExp(`^ID\\s+${fx.dataEntries[0]!.id}$`, 'm'));
    const c = await h.run(['api', 'GET', `/v1/suppliers/${supplier.id}`, '-o', 'csv']);
    expect(c.code).toBe(0);
    const [head, row] = parseCsv(c.stdout) as string[][];
    expect(head).toContain('item.id');
    expect(row![head!.indexOf('item.id')]).toBe(supplier.id);
    // A table of { item } shows the resource's fields themselves, one per line.
    const it = await h.run(['api', 'GET', `/v1/suppliers/${supplier.id}`, '-o', 'table']);
    expect(it.stdout).toMatch(new RegExp(`^ID\\s+${supplier.id}$`, 'm'));
    expect(it.stdout).toMatch(/^NAME\s+\S/m);
  });

  it('a list answer prints its items under ndjson, csv and table', async () => {
    const n = await h.run(['api', 'GET', '/v1/countries', '-f', 'perPage=4', '-o', 'ndjson']);
    expect(n.code).toBe(0);
    const lines = n.stdout.trimEnd().split('\n').map((l) => json(l) as { iso3Code: string });
    expect(lines).toHaveLength(4);
    expect(lines[0]!.iso3Code).toMatch(/^[A-Z]{3}$/);
    const c = await h.run(['api', 'GET', '/v1/countries', '-f', 'perPage=4', '-o', 'csv']);
    const rows = parseCsv(c.stdout) as string[][];
    expect(rows[0]).toEqual(['iso3Code', 'iso2Code', 'commonName', 'officialName', 'regionName']);
    expect(rows).toHaveLength(5);
    const t = await h.run(['api', 'GET', '/v1/countries', '-f', 'perPage=4', '-o', 'table']);
    expect(t.stdout.split('\n')[0]).toMatch(/^ISO3 CODE\s+ISO2 CODE\s+COMMON NAME/);
    expect(t.stdout.trimEnd().split('\n')).toHaveLength(5);
  });

  it('--paginate over /v1/countries prints exactly what srs ref countries prints', async () => {
    const ref = await h.run(['ref', 'countries', '-o', 'json']);
    expect(ref.code).toBe(0);
    const before = requestsTo('/v1/countries');
    const api = await h.run(['api', 'GET', '/v1/countries', '--paginate', '-o', 'json']);
    expect(api.code).toBe(0);
    expect(json(api.stdout)).toEqual(json(ref.stdout));
    expect((json(api.stdout) as unknown[]).length).toBeGreaterThan(200);
    // perPage 100 by default: 249 countries are three pages.
    expect(requestsTo('/v1/countries') - before).toBe(3);
  });

  it('--paginate honours --field perPage and page, and streams ndjson, csv and table', async () => {
    const ref = json((await h.run(['ref', 'countries', '-o', 'json'])).stdout) as Array<{ iso3Code: string }>;
    const before = requestsTo('/v1/countries');
    const n = await h.run(['api', 'GET', '/v1/countries', '--paginate', '-f', 'perPage=50', '-o', 'ndjson']);
    expect(n.code).toBe(0);
    expect(n.stdout.trimEnd().split('\n').map((l) => (json(l) as { iso3Code: string }).iso3Code)).toEqual(ref.map((c) => c.iso3Code));
    expect(requestsTo('/v1/countries') - before).toBe(Math.ceil(ref.length / 50));
    const late = await h.run(['api', 'GET', '/v1/countries', '--paginate', '-f', 'perPage=100', '-f', 'page=3', '-o', 'json']);
    expect((json(late.stdout) as Array<{ iso3Code: string }>).map((c) => c.iso3Code)).toEqual(ref.slice(200).map((c) => c.iso3Code));
    const c = await h.run(['api', 'GET', '/v1/countries', '--paginate', '-o', 'csv']);
    const rows = parseCsv(c.stdout) as string[][];
    expect(rows[0]![0]).toBe('iso3Code');
    expect(rows.slice(1).map((r) => r[0])).toEqual(ref.map((x) => x.iso3Code));
    const t = await h.run(['api', 'GET', '/v1/standard-industries', '--paginate', '-f', 'subIndustriesOnly=false', '-o', 'table', '--fields', 'code,hierarchyLevel']);
    expect(t.code).toBe(0);
    // A field the view has a column for is shown as that column is (its header), as in every command.
    expect(t.stdout.split('\n')[0]).toMatch(/^CODE\s+HIERARCHY LEVEL$/);
    expect(t.stdout).toMatch(/\ssector$/m);
    // A field that first appears on a later page (the sectors of page 1 have no parent): the table has its column,
    // and CSV, streamed with the first page's columns, says which fields it left out.
    const wide = await h.run(['api', 'GET', '/v1/standard-industries', '--paginate', '-f', 'subIndustriesOnly=false', '-f', 'perPage=1', '-o', 'table', '--wide']);
    expect(wide.code).toBe(0);
    expect(wide.stdout.split('\n')[0]).toMatch(/PARENT INDUSTRY CODE$/);
    const csv = await h.run(['api', 'GET', '/v1/standard-industries', '--paginate', '-f', 'subIndustriesOnly=false', '-f', 'perPage=1', '-o', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stderr).toContain('fields that first appear after page 1 are not in the CSV (its columns come from the first page): parentIndustryCode');
  });

  it('one page of a longer list says where the rest is; --paginate past --max-pages suggests no option api lacks', async () => {
    const one = await h.run(['api', 'GET', '/v1/countries', '-o', 'csv']);
    expect(one.code).toBe(0);
    expect(one.stderr).toMatch(/more items on page 2: add page=2 to the path's query, or use --paginate/);
    const capped = await h.run(['api', 'GET', '/v1/countries', '--paginate', '--max-pages', '2', '-o', 'csv']);
    expect(capped.code).toBe(1);
    expect(capped.stderr).toMatch(/raise --max-pages if the list is really that long\n?$/);
    expect(capped.stderr).not.toMatch(/--limit/);
  });

  it('--paginate from a page the query names says that the pages before it are not read', async () => {
    const r = await h.run(['api', 'GET', '/v1/countries?page=3', '--paginate', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(49);
    expect(r.stderr).toContain('--paginate starts at page 3 (page=3 in the query): the pages before it are not read');
  });

  it('--paginate on a non-list answer is a bad response (exit 1)', async () => {
    const r = await h.run(['api', 'GET', `/v1/suppliers/${supplier.id}`, '--paginate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--paginate needs a list answer/);
  });

  it('warns about a path outside /v1/ and still sends it', async () => {
    const r = await h.run(['api', 'GET', '/openapi.json', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: \/openapi\.json is outside \/v1\//);
    expect((json(r.stdout) as { openapi: string }).openapi).toBe('3.1.0');
  });
});

describe('srs api POST', () => {
  it('--field builds a JSON body (values parsed as JSON when they are JSON)', async () => {
    const r = await h.run(['api', 'POST', '/v1/suppliers', '-f', 'name=Api Field Supplier', '-f', 'countryIso3Code=USA', '-f', 'customerSupplierId="123"', '-f', 'industryCodes=["45102010"]', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const created = json(r.stdout) as { id: string; name: string; countryIso3Code: string; customerSupplierId: string; status: string };
    expect(created).toMatchObject({ name: 'Api Field Supplier', countryIso3Code: 'USA', customerSupplierId: '123', status: 'current' });
    const got = await h.run(['supplier', 'get', created.id, '-o', 'json']);
    expect((json(got.stdout) as { name: string }).name).toBe('Api Field Supplier');
  });

  it('--input FILE and --input - send the whole body', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-api-'));
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify({ name: 'Api File Supplier', website: 'https://example.com' }));
    const f = await h.run(['api', 'POST', '/v1/suppliers', '--input', file, '-o', 'json']);
    expect(f.code, f.stderr).toBe(0);
    expect(json(f.stdout)).toMatchObject({ name: 'Api File Supplier', website: 'https://example.com' });
    const s = await h.run(['api', 'POST', '/v1/score-calculation', '--input', '-', '-o', 'json'], { input: JSON.stringify({ supplierIds: [supplier.id] }) });
    expect(s.code, s.stderr).toBe(0);
    const items = (json(s.stdout) as { items: Array<{ supplierId: string }> }).items;
    expect(items.map((i) => i.supplierId)).toEqual([supplier.id]);
  });

  it('a 400 from the service exits 1 with its message', async () => {
    const r = await h.run(['api', 'POST', '/v1/suppliers', '-f', 'name=x', '-f', 'countryIso3Code=XX']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 400.*countryIso3Code/);
  });
});

describe('srs api errors', () => {
  it('404 exits 1 with the usual one-line message', async () => {
    const r = await h.run(['api', 'GET', '/v1/suppliers/does-not-exist']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/GET \/v1\/suppliers\/does-not-exist failed with HTTP 404/);
    const t = await h.run(['api', 'GET', '/v1/suppliers/does-not-exist', '-o', 'table']);
    expect(t.stderr.trim().split('\n')).toHaveLength(1);
    expect(t.stderr).toMatch(/^srs: /);
    // A space or a letter outside ASCII in the path is percent-encoded: the service's 404, not a "network" failure retried.
    for (const [path, sent] of [['/v1/suppliers/a b', '/v1/suppliers/a%20b'], ['/v1/suppliers/é', '/v1/suppliers/%C3%A9']]) {
      const r = await h.run(['api', 'GET', path!, '--retries', '2']);
      expect(r.code, path).toBe(1);
      expect(r.stderr).toContain(`GET ${sent} failed with HTTP 404`);
      expect(r.stderr).not.toMatch(/attempts|network/);
    }
  });

  it('a rejected key exits 4', async () => {
    const r = await runSrs(['api', 'GET', '/v1/countries'], { ...h.env, SRS_API_KEY: 'wrong-key-for-the-api-test' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 401/);
    expect(r.stderr).not.toContain('wrong-key-for-the-api-test');
  });

  it('usage errors exit 2 and send nothing', async () => {
    const before = h.requests.length;
    const cases: Array<[string[], RegExp]> = [
      [['api', 'PUT', '/v1/countries'], /method must be GET or POST \(got .*PUT/],
      [['api', 'DELETE', '/v1/suppliers/x'], /method must be GET or POST/],
      [['api', 'GET', 'v1/countries'], /path must start with \//],
      [['api', 'GET', '//evil.example/v1/countries'], /path must name an endpoint, not start with \/\//],
      [['api', 'GET'], /missing required argument 'path'/],
      [['api', 'POST', '/v1/suppliers', '--input', '-', '-f', 'name=x'], /do not combine it with --field/],
      [['api', 'POST', '/v1/suppliers', '--paginate'], /--paginate .* does not apply to POST/],
      [['api', 'GET', '/v1/countries', '--input', '-'], /--input is the body of a POST/],
      [['api', 'GET', '/v1/countries', '-f', 'novalue'], /--field expects key=value/],
      [['api', 'GET', '/v1/countries', '-f', 'a=1', '-f', 'a=2'], /--field a given twice/],
      [['api', 'GET', '/v1/countries?perPage=2&perPage=5'], /the path's query names perPage twice: give each parameter once/],
      [['api', 'GET', '/v1/countries?perPage=2', '-f', 'perPage=3'], /--field perPage is also in the path's query: give it once/],
      [['api', 'GET', '/v1/countries', '--paginate', '-f', 'perPage=abc'], /perPage must be a whole number/],
    ];
    for (const [args, message] of cases) {
      const r = await h.run(args, { input: '{}' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect(h.requests.length).toBe(before);
  });

  it('--debug traces the requests with the key redacted', async () => {
    const r = await h.run(['--debug', 'api', 'GET', '/v1/countries', '-f', 'perPage=1']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug: -> GET \/v1\/countries\?perPage=1/);
    expect(r.stderr).toMatch(/debug: <- GET \/v1\/countries\?perPage=1 200/);
  });
});

describe('srs api against a scripted server', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  let answer: { status: number; type: string; body: string } = { status: 500, type: 'application/json', body: '{"message":"boom"}' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        res.writeHead(answer.status, { 'content-type': answer.type });
        res.end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const env = () => ({ ...baseEnv(mkdtempSync(join(tmpdir(), 'srs-api-'))), SRS_BASE_URL: url, SRS_API_KEY: 'scripted-key-SECRET' });

  it('POST /v1/suppliers is never resent after a 500; POST /v1/score-calculation and GET are', async () => {
    answer = { status: 500, type: 'application/json', body: '{"message":"boom"}' };
    seen.length = 0;
    const create = await runSrs(['--retries', '2', 'api', 'POST', '/v1/suppliers', '-f', 'name=x'], env());
    expect(create.code).toBe(1);
    expect(create.stderr).toMatch(/HTTP 500: boom/);
    expect(seen).toEqual(['POST /v1/suppliers']);
    seen.length = 0;
    const calc = await runSrs(['--retries', '2', 'api', 'POST', '/v1/score-calculation', '-f', 'supplierIds=["a"]'], env());
    expect(calc.code).toBe(1);
    expect(seen).toEqual(['POST /v1/score-calculation', 'POST /v1/score-calculation', 'POST /v1/score-calculation']);
    seen.length = 0;
    const other = await runSrs(['--retries', '2', 'api', 'POST', '/v1/something-else', '-f', 'a=1'], env());
    expect(other.code).toBe(1);
    expect(seen).toHaveLength(1);
    seen.length = 0;
    const get = await runSrs(['--retries', '1', 'api', 'GET', '/v1/countries'], env());
    expect(get.code).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('a 2xx answer that is not JSON is a bad response (exit 1)', async () => {
    answer = { status: 200, type: 'text/html', body: '<html><title>Login</title></html>' };
    const r = await runSrs(['api', 'GET', '/v1/countries'], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unexpected response \(HTML instead of JSON/);
    answer = { status: 200, type: 'application/json', body: 'not json' };
    const r2 = await runSrs(['api', 'GET', '/v1/countries'], env());
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/not valid JSON/);
  });

  it('a 204 prints nothing and succeeds', async () => {
    answer = { status: 204, type: 'application/json', body: '' };
    const r = await runSrs(['api', 'POST', '/v1/something', '-f', 'a=1'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('request building (in process)', () => {
  const ctx = () => {
    const io: IO = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
    return new Context(io, {}, {});
  };

  it('marks only GET and POST /v1/score-calculation as safe to resend', async () => {
    expect((await buildRequest(ctx(), ['GET', '/v1/countries'], {})).idempotent).toBe(true);
    expect((await buildRequest(ctx(), ['POST', '/v1/score-calculation'], {})).idempotent).toBe(true);
    expect((await buildRequest(ctx(), ['POST', '/v1/suppliers'], { field: ['name=x'] })).idempotent).toBe(false);
    expect((await buildRequest(ctx(), ['post', '/v1/suppliers/'], {})).idempotent).toBe(false);
    expect((await buildRequest(ctx(), ['POST', '/v1/other'], {})).idempotent).toBe(false);
  });

  it('parses field values as JSON when they are JSON', () => {
    expect(fieldValue('42')).toBe(42);
    expect(fieldValue('true')).toBe(true);
    expect(fieldValue('null')).toBe(null);
    expect(fieldValue('["a","b"]')).toEqual(['a', 'b']);
    expect(fieldValue('{"a":1}')).toEqual({ a: 1 });
    expect(fieldValue('"123"')).toBe('123');
    expect(fieldValue('Embudo Valley')).toBe('Embudo Valley');
    expect(fieldValue('')).toBe('');
    expect(fieldValue('a=b')).toBe('a=b');
  });

  it('GET fields are query strings, POST fields a body; the path query string is kept', async () => {
    const g = await buildRequest(ctx(), ['GET', '/v1/standard-industries?page=2'], { field: ['subIndustriesOnly=false', 'perPage=5'] });
    expect(g).toMatchObject({ method: 'GET', path: '/v1/standard-industries', query: { page: '2', subIndustriesOnly: 'false', perPage: '5' } });
    expect(g.body).toBeUndefined();
    const p = await buildRequest(ctx(), ['POST', '/v1/suppliers'], { field: ['name=Acme', 'contacts=[{"email":"a@example.com"}]'] });
    expect(p.body).toEqual({ name: 'Acme', contacts: [{ email: 'a@example.com' }] });
    const empty = await buildRequest(ctx(), ['POST', '/v1/score-calculation'], {});
    expect(empty.body).toEqual({});
  });
});

describe('listColumns', () => {
  it('takes every key any item has (a first item may lack some), plain fields only unless fewer than two', () => {
    const cols = listColumns([{ iso3Code: 'AFG', commonName: 'Afghanistan' }, { iso3Code: 'ALB', commonName: 'Albania', regionName: 'Europe' }], 'csv');
    expect(cols.map((c) => c.path)).toEqual(['iso3Code', 'commonName', 'regionName']);
    // A score result has one plain field: every field is shown (objects as JSON).
    expect(listColumns([{ supplierId: 's', score: { value: 1 }, policyParameterScores: [] }], 'table').map((c) => c.path)).toEqual(['supplierId', 'score', 'policyParameterScores']);
    // Later columns may be hidden to fit a terminal; the first two never are.
    expect(listColumns([{ a: 1, b: 2, c: 3, d: 4 }], 'table').map((c) => c.hide)).toEqual([undefined, undefined, 2, 1]);
  });
});
