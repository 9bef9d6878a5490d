/**
 * A hostile service: a real HTTP server on loopback that answers with what
 * proxies and broken services really send. Each case: the built srs, one line
 * on stderr naming the endpoint and what was wrong, the documented exit code,
 * and never the key.
 */
import type { ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, useHostileServer, type Handler } from '../support/hostile-server.js';
import { runSrs } from './harness.js';

const KEY = 'hostile-test-key-0123456789-SECRET';
const hostile = useHostileServer(KEY);
const country = (iso3Code: string, commonName = 'Name') => ({ iso3Code, iso2Code: iso3Code.slice(0, 2), commonName, officialName: commonName, regionName: 'Europe' });

const scenario = (name: string, h: Handler): string => hostile.server.scenario(name, h);
const counts = { get: (name: string) => hostile.server.count(name) };

/** srs against a scenario (by name) or a URL. */
async function srs(name: string, args: string[], extra: Record<string, string> = {}) {
  const base = /^https?:/.test(name) ? name : `${hostile.server.url}/s/${name}`;
  return runSrs(args, { ...hostile.env, SRS_BASE_URL: base, ...extra });
}

const oneLine = (s: string) => s.trimEnd().split('\n');

describe('hostile responses: one line, exit 1, no stack trace', () => {
  const cases: Array<[string, Handler, RegExp]> = [
    ['html502', (_q, res) => { res.writeHead(502, { 'content-type': 'text/html' }); res.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>'); }, /GET \/v1\/countries failed with HTTP 502: HTML page: 502 Bad Gateway/],
    ['html200', (_q, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html><body>Please log in</body></html>'); }, /GET \/v1\/countries: unexpected response \(HTML instead of JSON/],
    ['truncated', (_q, res) => json(res, 200, '{"items":[{"iso3Code":"DEU","iso2Co'), /unexpected response \(body is not valid JSON/],
    // A field of the wrong type (a missing one is tolerated: the document marks no country field required).
    ['missingfield', (_q, res) => json(res, 200, { items: [{ iso3Code: 276, iso2Code: 'DE' }], pagination: { pageSize: 100, nextPage: null } }), /unexpected response \(body\.items\[0\]\.iso3Code: /],
    ['wrongtype', (_q, res) => json(res, 200, { items: 'not a list', pagination: { pageSize: 100 } }), /unexpected response \(body\.items: Invalid input: expected array, received string/], // zod's English messages, the only locale the build keeps
    ['textplain', (_q, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('OK'); }, /content-type text\/plain instead of application\/json/],
    ['empty', (_q, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(); }, /empty body/],
    ['huge', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 50) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    }, /body larger than 16 MiB/],
  ];
  for (const [name, handler, pattern] of cases) {
    it(name, async () => {
      scenario(name, handler);
      const r = await srs(name, ['ref', 'countries', '--retries', '0']);
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('--debug with -o json: the detail is inside the one JSON error object, not plain lines after it', async () => {
    scenario('missingfield3', (_q, res) => json(res, 200, { items: [{ iso3Code: 276, iso2Code: 'DE' }], pagination: { pageSize: 100 } }));
    const r = await srs('missingfield3', ['--debug', 'ref', 'countries', '--retries', '0', '-o', 'json']);
    expect(r.code).toBe(1);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    const e = (JSON.parse(last) as { error: { code: string; detail?: string } }).error;
    expect(e.code).toBe('bad_response');
    expect(typeof e.detail).toBe('string');
    expect(r.stderr).not.toMatch(/^detail: /m);
    expect(r.stderr).not.toContain(KEY);
  });

  it('--debug shows the detail, still without the key', async () => {
    scenario('missingfield2', (_q, res) => json(res, 200, { items: [{ iso3Code: 276, iso2Code: 'DE' }], pagination: { pageSize: 100 } }));
    const r = await srs('missingfield2', ['--debug', 'ref', 'countries', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/debug: -> GET \/s\/missingfield2\/v1\/countries\?page=1&perPage=100/);
    expect(r.stderr).toMatch(/detail: /);
    expect(r.stderr).not.toContain(KEY);
  });
});

describe('timeouts', () => {
  it('a server that never sends headers does not hang srs', async () => {
    scenario('stall', () => {
      /* never answer */
    });
    const t0 = Date.now();
    const r = await srs('stall', ['ref', 'countries', '--timeout', '500ms', '--retries', '0']);
    expect(r.code).toBe(1);
    // No format was chosen, so the error is one line of text (JSON only with -o json|ndjson or SRS_OUTPUT).
    expect(r.stderr).toMatch(/^srs: GET \/v1\/countries: no complete answer within 500 ms \(1 attempt over [\d.]+ m?s; see --timeout, --retries\)\n$/);
    expect(Date.now() - t0).toBeLessThan(8000);
  });
  it('a body that stops half-way times out too', async () => {
    scenario('slowbody', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
    });
    const r = await srs('slowbody', ['ref', 'countries', '--timeout', '500ms', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no complete answer within 500 ms \(1 attempt over [\d.]+ m?s; see --timeout, --retries\)/);
  });
});

describe('retries', () => {
  it('a read survives two 503s and a 429 with Retry-After', async () => {
    scenario('flaky', (_q, res, n) => {
      if (n === 1 || n === 2) return json(res, 503, { message: 'busy' });
      if (n === 3) return json(res, 429, { message: 'slow down' }, { 'retry-after': '1' });
      json(res, 200, { items: [country('DEU', 'Germany')], pagination: { pageSize: 100, nextPage: null } });
    });
    const t0 = Date.now();
    const r = await srs('flaky', ['ref', 'countries', '-o', 'json', '--retries', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([country('DEU', 'Germany')]);
    expect(counts.get('flaky')).toBe(4);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
  });

  it('gives up after --retries and says so', async () => {
    scenario('down', (_q, res) => json(res, 500, { error: 'internal' }));
    const r = await srs('down', ['ref', 'countries', '--retries', '2']);
    expect(r.code).toBe(1);
    expect(counts.get('down')).toBe(3);
    expect(r.stderr).toMatch(/HTTP 500: internal/);
  });

  it('a create is never resent after a 500 (its outcome is unknown)', async () => {
    scenario('create500', (_q, res) => json(res, 500, { message: 'boom' }));
    const r = await srs('create500', ['supplier', 'create', '--name', 'Once Only', '--retries', '5']);
    expect(r.code).toBe(1);
    expect(counts.get('create500')).toBe(1);
  });

  it('a create is never resent after the connection drops mid-request', async () => {
    scenario('createdrop', (req) => req.socket.destroy());
    const r = await srs('createdrop', ['supplier', 'create', '--name', 'Once Only', '--retries', '5']);
    expect(r.code).toBe(1);
    expect(counts.get('createdrop')).toBe(1);
    expect(r.stderr).toMatch(/connection dropped/);
  });

  it('a create refused with 503 is retried', async () => {
    scenario('create503', (_q, res, n) => (n === 1 ? json(res, 503, { message: 'maintenance' }, { 'retry-after': '0' }) : json(res, 201, { id: '01h57nhc4sapk2v8c7tqabcdef', name: 'Retried', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null })));
    const r = await srs('create503', ['supplier', 'create', '--name', 'Retried', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(counts.get('create503')).toBe(2);
  });

  it('a 503 or 429 with Retry-After (come back later) does not count toward --retries; a 429 without it does; --retries 0 sends once', async () => {
    const created = { id: '01h57nhc4sapk2v8c7tqabcdeg', name: 'Patient', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null };
    scenario('create503ra', (_q, res, n) => (n <= 5 ? json(res, n % 2 ? 503 : 429, { message: 'busy' }, { 'retry-after': '0' }) : json(res, 201, created)));
    const r = await srs('create503ra', ['supplier', 'create', '--name', 'Patient', '-o', 'json', '--retries', '2', '--no-catalog']);
    expect(r.code, r.stderr).toBe(0);
    expect(counts.get('create503ra')).toBe(6);
    scenario('create429bare', (_q, res, n) => (n <= 5 ? json(res, 429, { message: 'busy' }) : json(res, 201, created)));
    const bare = await srs('create429bare', ['supplier', 'create', '--name', 'Patient', '--retries', '2', '--no-catalog']);
    expect(bare.code).toBe(1);
    expect(counts.get('create429bare')).toBe(3);
    // A service that asks for ever (maintenance): bounded, --retries 1 gives 1 + 6 + 1 attempts, then exit 1.
    scenario('create503ever', (_q, res) => json(res, 503, { message: 'maintenance' }, { 'retry-after': '0' }));
    const ever = await srs('create503ever', ['supplier', 'create', '--name', 'Patient', '--retries', '1', '--no-catalog']);
    expect(ever.code).toBe(1);
    expect(counts.get('create503ever')).toBe(8);
    scenario('create503none', (_q, res) => json(res, 503, { message: 'busy' }, { 'retry-after': '0' }));
    const none = await srs('create503none', ['supplier', 'create', '--name', 'Patient', '--retries', '0', '--no-catalog']);
    expect(none.code).toBe(1);
    expect(counts.get('create503none')).toBe(1);
  });

  it('a 201 with the customer id folded as a service may fold it (ß as SS, composed accents) is created', async () => {
    scenario('folded', (_q, res, _n, raw) => {
      const sent = (JSON.parse(raw) as { customerSupplierId: string }).customerSupplierId;
      json(res, 201, { id: '01h57nhc4sapk2v8c7tqfolded', name: 'Folded', countryIso3Code: null, website: null, status: 'current', customerSupplierId: sent.toUpperCase().normalize('NFD') });
    });
    const r = await srs('folded', ['supplier', 'create', '--name', 'Folded', '--customer-id', 'z-straße-é', '--no-catalog', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('a 201 about another supplier (not the customerSupplierId sent) is unknown, never created', async () => {
    scenario('wrongcsid', (_q, res) => json(res, 201, { id: '01h57nhc4sapk2v8c7tqwrongs', name: 'Someone Else', countryIso3Code: null, website: null, status: 'current', customerSupplierId: 'OTHER-1' }));
    const r = await srs('wrongcsid', ['supplier', 'create', '--name', 'Mine', '--customer-id', 'MINE-1', '--no-catalog', '-o', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect((JSON.parse(r.stderr) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'outcome_unknown',
      message: expect.stringContaining('the answer is about supplier 01h57nhc4sapk2v8c7tqwrongs with customerSupplierId "OTHER-1", not the "MINE-1" sent'),
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-wrongcsid-'));
    const f = join(dir, 'rows.csv');
    writeFileSync(f, 'name,country,customerSupplierId\nMine,FRA,MINE-1\n');
    const imp = await srs('wrongcsid', ['supplier', 'import', f, '--no-catalog', '-o', 'json']);
    expect(imp.code).toBe(1);
    expect(JSON.parse(imp.stdout)).toMatchObject({ created: 0, unknown: 1 });
  });

  it('a Retry-After longer than srs waits (999999 s) is not waited for: the rows fail at once and the outage rule stops the import', async () => {
    scenario('longwait', (_q, res) => json(res, 429, { message: 'come back next week' }, { 'retry-after': '999999' }));
    const dir = mkdtempSync(join(tmpdir(), 'srs-longwait-'));
    const f = join(dir, 'rows.csv');
    writeFileSync(f, 'name,country\n' + Array.from({ length: 100 }, (_, i) => `Wait ${i},FRA`).join('\n') + '\n');
    const started = Date.now();
    const r = await srs('longwait', ['supplier', 'import', f, '--no-catalog', '-o', 'json']);
    // Each 429 stalled the run 30 s and the row failed all the same: 20 rows had not finished after 200 s.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout) as { failed: number; total: number };
    expect(s).toMatchObject({ created: 0, unknown: 0, complete: false, stopReason: 'the service is throttling' });
    expect(s.failed).toBeGreaterThanOrEqual(25);
    expect(s.failed).toBe(s.total);
    // Throttled, not down: said so, with what to change.
    expect(r.stderr).toMatch(/the service throttled 25 creates in a row past their retries \(the last, line \d+: HTTP 429: come back next week\): srs stopped sending; run the same command again with a lower --concurrency, or without it/);
    // A read says why it was not retried.
    const read = await srs('longwait', ['scorecards', 'ls']);
    expect(read.code).toBe(1);
    expect(read.stderr).toContain('failed with HTTP 429: come back next week (the service asks to wait 999999 s, longer than srs waits (30 s))');
    // Each row was sent once: not after a 30 s wait, nor again.
    expect(counts.get('longwait')).toBeLessThanOrEqual(25 + 64);
  });

  it('a 404 to every create (a wrong base URL path) stops the import as an outage does; a 400 (a bad row) does not count', async () => {
    scenario('all404', (_q, res) => json(res, 404, { message: 'no such route' }));
    const dir = mkdtempSync(join(tmpdir(), 'srs-all404-'));
    const f = join(dir, 'rows.csv');
    writeFileSync(f, 'name,country\n' + Array.from({ length: 200 }, (_, i) => `Lost ${i},FRA`).join('\n') + '\n');
    const r = await srs('all404', ['supplier', 'import', f, '--no-catalog', '-o', 'json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ complete: false, stopReason: 'the service is failing' });
    expect(counts.get('all404')).toBeLessThan(100);
    scenario('all400', (_q, res) => json(res, 400, { message: 'bad row' }));
    const bad = await srs('all400', ['supplier', 'import', f, '--no-catalog', '-o', 'json', '--journal', join(dir, 'bad.journal')]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ complete: true, failed: 200 });
  });

  it('a 503 without Retry-After after the service stored the supplier (a gateway\'s): unknown, never sent again, never "created" twice', async () => {
    // Stores every third create, then answers as Envoy does when its upstream reset after the write.
    const stored: string[] = [];
    scenario('store503', (_q, res, n, raw) => {
      const body = JSON.parse(raw) as { name: string; customerSupplierId?: string };
      stored.push(body.customerSupplierId ?? body.name);
      const created = { id: `01h57nhc4sapk2v8c7tq${String(n).padStart(6, '0')}`, name: body.name, countryIso3Code: 'FRA', website: null, status: 'current', customerSupplierId: body.customerSupplierId ?? null };
      if (n % 3 === 0) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('upstream connect error or disconnect/reset before headers. reset reason: connection termination');
      }
      return json(res, 201, created);
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-store503-'));
    const f = join(dir, 'rows.csv');
    writeFileSync(f, 'name,country,customer supplier id\n' + Array.from({ length: 12 }, (_, i) => `Co ${i},FRA,X-${i}`).join('\n') + '\n');
    const r = await srs('store503', ['supplier', 'import', f, '--concurrency', '1', '--no-catalog', '-o', 'json']);
    expect(r.code).toBe(1);
    const summary = JSON.parse(r.stdout) as { created: number; unknown: number; failed: number };
    expect(summary).toMatchObject({ created: 8, unknown: 4, failed: 0 });
    // How to find out, which a re-run cannot (it keeps them back): not "run the same command again to find out".
    expect(r.stderr).toContain('4 unknown (may or may not have been created); check them at the service before sending them again (the problems above name their lines)');
    expect(r.stderr).toContain('--retry-unknown sends them again');
    // Every customer id was sent once: nothing stored twice.
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored).toHaveLength(12);
  });

  it('a resumed import sends again a row that failed, though a twin (same cells) of it was created: a twin is not a moved row', async () => {
    let made = 0;
    scenario('twins', (q, res, n) => {
      // A supplier the journal recorded as created is looked up by the re-run: it exists.
      if (q.method === 'GET') return json(res, 200, { item: { id: q.url!.split('/').pop(), name: 'Acme Twin' } });
      if (n === 2) return json(res, 422, { message: 'try later' });
      made++;
      return json(res, 201, { id: `01h57nhc4sapk2v8c7tqtwin${String(made).padStart(2, '0')}`, name: 'Acme Twin', countryIso3Code: 'DEU', website: null, status: 'current', customerSupplierId: null });
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-twins-'));
    const f = join(dir, 'twins.csv');
    writeFileSync(f, 'name,country\nAcme Twin,DEU\nAcme Twin,DEU\nOther,DEU\n');
    const args = ['supplier', 'import', f, '--concurrency', '1', '--no-catalog', '-o', 'json', '--quiet'];
    const first = await srs('twins', args);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 2, failed: 1 });
    const second = await srs('twins', args);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ created: 1, skipped: 2 });
    // 3 creates, the failed row's second create, and the re-run's one lookup of a row its journal kept back.
    expect(counts.get('twins')).toBe(5);
  });

  it('an answer nested 100,000 levels deep: one line, never "unexpected error"; a create still names the supplier it created', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    scenario('createdeep', (_q, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(`{"id":"01h57nhc4sapk2v8c7tqdeep01","name":"Deep One","countryIso3Code":null,"website":null,"status":"current","customerSupplierId":null,"x":${deep}}`);
    });
    const created = await srs('createdeep', ['supplier', 'create', '--name', 'Deep One', '-o', 'json']);
    expect(created.code, created.stderr).toBe(1);
    expect(created.stderr).toContain('supplier 01h57nhc4sapk2v8c7tqdeep01 was created, but the data is nested too deeply for srs to handle');
    expect(created.stderr).not.toContain('unexpected error');
    scenario('readdeep', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"items":[{"iso3Code":"DEU","name":"Germany","x":${deep}}],"pagination":{"page":1,"perPage":100,"total":1,"totalPages":1}}`);
    });
    for (const fmt of ['json', 'ndjson']) {
      const r = await srs('readdeep', ['ref', 'countries', '-o', fmt]);
      expect(r.code, `${fmt}: ${r.stderr}`).toBe(1);
      expect(oneLine(r.stderr), fmt).toHaveLength(1);
      expect(r.stderr, fmt).toContain('the data is nested too deeply for srs to handle');
    }
    // A table shows its columns (the deep field is none of them): printed, or one line, never "unexpected error".
    scenario('getdeep', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"item":{"id":"01h57nhc4sapk2v8c7tqdeep02","name":"Deep Two","x":${deep}}}`);
    });
    for (const fmt of ['table', 'csv', 'json']) {
      const r = await srs('getdeep', ['supplier', 'get', '01h57nhc4sapk2v8c7tqdeep02', '-o', fmt]);
      expect([0, 1], `${fmt}: ${r.stderr}`).toContain(r.code);
      expect(r.stderr, fmt).not.toContain('unexpected error');
    }
  });

  it('a service that answers every create with the same id: the rows after the first are unknown, not created', async () => {
    scenario('createsame', (_q, res) => json(res, 201, { id: '01h57nhc4sapk2v8c7tqsame01', name: 'Same', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null }));
    const dir = mkdtempSync(join(tmpdir(), 'srs-same-id-'));
    const file = join(dir, 'rows.csv');
    writeFileSync(file, 'name,customerSupplierId\nOne,CS-1\nTwo,CS-2\nThree,CS-3\n');
    const r = await srs('createsame', ['supplier', 'import', file, '--concurrency', '1', '-o', 'json', '--report', join(dir, 'report.csv')], { SRS_DATA_DIR: join(dir, 'data') });
    expect(r.code, r.stderr).not.toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, unknown: 2 });
    expect(r.stderr).toContain('the service answered with supplier id 01h57nhc4sapk2v8c7tqsame01, which it also gave line 2');
  });

  it('a create answered with the customer id normalised (V-1001 for v-1001): the next create of v-1001 is refused as existing, not sent', async () => {
    scenario('createupper', (_req, res, n, body) => {
      const sent = JSON.parse(body) as { name: string; customerSupplierId?: string };
      json(res, 201, { id: `01h57nhc4sapk2v8c7tqupp${String(n).padStart(3, '0')}`, name: sent.name, countryIso3Code: null, website: null, status: 'current', customerSupplierId: sent.customerSupplierId?.toUpperCase() ?? null });
    });
    const data = mkdtempSync(join(tmpdir(), 'srs-upper-'));
    const first = await srs('createupper', ['supplier', 'create', '--name', 'Rhine Castings', '--customer-id', 'v-1001', '-o', 'json'], { SRS_DATA_DIR: data });
    expect(first.code, first.stderr).toBe(0);
    const again = await srs('createupper', ['supplier', 'create', '--name', 'Rhine Castings', '--customer-id', 'v-1001', '-o', 'json'], { SRS_DATA_DIR: data });
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain('exists');
    expect(counts.get('createupper')).toBe(1);
  });

  it('a key the service echoes with JSON escapes (\\u0068, \\/) is masked where srs passes its bytes on (api -o json, score calc -o json)', async () => {
    const escaped = [...KEY].map((c, i) => (i % 2 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');
    scenario('echoescaped', (req, res) => {
      if (req.method === 'POST') return json(res, 200, `{"items":[{"supplierId":"01aaaaaaaaaaaaaaaaaaaaaaaa","score":{"value":1,"dataSourcesScore":{"value":1},"policyParametersScore":{"value":1}},"dataSourceScores":[],"policyParameterScores":[],"note":"${escaped}"}]}`);
      json(res, 200, `{"items":[{"iso3Code":"DEU","iso2Code":"DE","commonName":"${escaped}","officialName":"x","regionName":"Europe"}],"pagination":{"pageSize":100}}`);
    });
    for (const args of [['api', 'GET', '/v1/countries', '-o', 'json'], ['score', 'calc', '01aaaaaaaaaaaaaaaaaaaaaaaa', '-o', 'json'], ['score', 'calc', '01aaaaaaaaaaaaaaaaaaaaaaaa', '-o', 'ndjson']]) {
      const r = await srs('echoescaped', args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout, args.join(' ')).toContain(`****${KEY.slice(-4)}`);
      expect(r.stdout).not.toContain(escaped);
      expect(r.stdout).not.toContain(KEY);
    }
  });

  it('a key the service echoes in reference names does not reach the shell completion cache (a 0644 file zsh and fish show)', async () => {
    scenario('echocache', (_q, res) => json(res, 200, { items: [country('DEU', `leak-${KEY}`), country('AUT', `x${KEY.toLowerCase()}`)], pagination: { pageSize: 100 } }));
    const data = join(mkdtempSync(join(tmpdir(), 'srs-cache-')), 'data');
    const r = await srs('echocache', ['ref', 'countries', '-o', 'json'], { SRS_DATA_DIR: data });
    expect(r.code, r.stderr).toBe(0);
    const cache = readFileSync(join(data, 'completion', 'countries.txt'), 'utf8');
    expect(cache).toContain('DEU');
    expect(cache).toContain('leak-****');
    expect(cache.toLowerCase()).not.toContain(KEY.toLowerCase());
  });

  it('srs api -o csv: a column name from the service is guarded like a cell (=HYPERLINK was written raw), and a key holding a dot is its own column', async () => {
    scenario('csvkeys', (_q, res) => json(res, 200, { items: [{ id: 'x1', '=HYPERLINK("http://evil.example","x")': 'v', 'a.b': 'dotted' }], pagination: {} }));
    const r = await srs('csvkeys', ['api', 'GET', '/v1/countries', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [head, row] = r.stdout.trim().split('\n');
    expect(head).toBe(`id,"'=HYPERLINK(""http://evil.example"",""x"")",a.b`);
    expect(row).toBe('x1,v,dotted');
  });

  it('an unrequested 101 Switching Protocols is an answer srs cannot read, not an internal assertion of the HTTP client', async () => {
    scenario('switch101', (_q, res) => {
      res.writeHead(101, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'switching' }));
    });
    const r = await srs('switch101', ['ref', 'countries', '--retries', '0']);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('an HTTP answer srs cannot read');
    expect(r.stderr).not.toContain('assert');
  });

  it('a create answered with more than 1 MiB is unknown (its memory is bounded), not read whole', async () => {
    const pad = ' '.repeat(2 << 20);
    scenario('createbig', (_q, res) => {
      const s = JSON.stringify({ id: '01h57nhc4sapk2v8c7tqbig001', name: 'Big', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null }) + pad;
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(s)) });
      res.end(s);
    });
    const r = await srs('createbig', ['supplier', 'create', '--name', 'Big', '-o', 'json']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('outcome unknown');
    expect(r.stderr).toContain('body larger than 1 MiB');
  });

  it('a 201 whose answer is not a creation response (website left out) is outcome unknown, and names the id it holds', async () => {
    scenario('createpartial', (_q, res) => json(res, 201, { id: '01h57nhc4sapk2v8c7tqpart01', name: 'Partial Co', countryIso3Code: null, status: 'current', customerSupplierId: 'P-1' }));
    const data = mkdtempSync(join(tmpdir(), 'srs-partial-'));
    const r = await srs('createpartial', ['supplier', 'create', '--name', 'Partial Co', '--customer-id', 'P-1', '-o', 'csv'], { SRS_DATA_DIR: data });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('outcome unknown');
    expect(r.stderr).toContain('the answer names the id "01h57nhc4sapk2v8c7tqpart01": the supplier was probably created (srs supplier get 01h57nhc4sapk2v8c7tqpart01)');
    // An id srs cannot use is not offered.
    scenario('createpartialbad', (_q, res) => json(res, 201, { id: '../x', name: 'Partial Co' }));
    const bad = await srs('createpartialbad', ['supplier', 'create', '--name', 'Partial Co', '--no-catalog']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('outcome unknown');
    expect(bad.stderr).not.toContain('the answer names the id');
  });

  it('auth login names the status and what the service said when it refuses the key (a 403 may be a key scoped away from reference data)', async () => {
    scenario('login403', (_q, res) => json(res, 403, { message: 'key not scoped for reference data' }));
    const home = mkdtempSync(join(tmpdir(), 'srs-login403-'));
    const r = await runSrs(['auth', 'login', '--base-url', `${hostile.server.url}/s/login403`, '--with-key'], { ...hostile.env, SRS_API_KEY: '', SRS_BASE_URL: '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, { input: KEY });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('rejected this API key (GET /v1/countries: HTTP 403: key not scoped for reference data); nothing was stored');
    expect(r.stderr).not.toContain(KEY);
  });

  it('scores in tables round as every score table does: 2.675 is 2.68, -0.004 is 0.00 (never -0.00)', async () => {
    const S = '01h58vrn1sad1y603je9gbpje8';
    scenario('rounding', (req, res) => {
      if ((req.url ?? '').includes('/v1/suppliers/')) return json(res, 200, { item: { id: S, name: 'Round Co', averageScore: -0.004 } });
      return json(res, 200, { items: [{ id: '01hayktg1aw59w0ksytab77nmm', name: 'Card', weight: 1, score: 2.675, items: [] }], pagination: { pageSize: 100 } });
    });
    const got = await srs('rounding', ['supplier', 'get', S, '-o', 'table', '--no-catalog']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(/AVG SCORE\s+0\.00\b/);
    expect(got.stdout).not.toContain('-0.00');
    const cards = await srs('rounding', ['scorecards', 'ls', '-o', 'csv', '--fields', 'score']);
    expect(cards.stdout).toContain('2.675'); // CSV keeps the value
    const table = await srs('rounding', ['scorecards', 'ls', '-o', 'table']);
    expect(table.stdout).toContain('2.68');
    expect(table.stdout).not.toContain('2.67');
  });

  it('a read of one resource answered about another id is a bad response (exit 1), never printed or recorded as the one asked for', async () => {
    const asked = '01h59065wk9v9eamxv2ykspbbp';
    scenario('otherid', (req, res) => {
      if (req.url?.includes('/v1/suppliers/')) return json(res, 200, { item: { id: '01zzzzzzzzzzzzzzzzzzzzzzzz', name: 'Someone Else' } });
      if (req.url?.includes('/v1/scorecards/')) return json(res, 200, { item: { id: '01h5cardother0000000000000', name: 'Other', items: [] } });
      return json(res, 200, { type: 'news_event', id: '01h5entryother000000000000', supplier: { id: asked }, score: 1, policyParameterScores: [], newsEvent: { title: 'x', articles: [] } });
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-other-id-'));
    const env = { SRS_DATA_DIR: join(dir, 'data') };
    for (const [args, other] of [
      [['supplier', 'get', asked], '01zzzzzzzzzzzzzzzzzzzzzzzz'],
      [['scorecards', 'get', '01h5cardasked0000000000000'], '01h5cardother0000000000000'],
      [['data-entry', 'get', '01h5entryasked000000000000'], '01h5entryother000000000000'],
    ] as const) {
      const r = await srs('otherid', [...args, '-o', 'json'], env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`the answer is about \\"${other}\\", not`);
    }
    const listed = await srs('otherid', ['supplier', 'ls', '-o', 'json'], env);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('a nextPage that is no page number (2.5) is a bad response (exit 1), not the end of the list with items lost', async () => {
    scenario('halfpage', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      const items = page === 1 ? [{ iso3Code: 'DEU', name: 'Germany' }] : [{ iso3Code: 'FRA', name: 'France' }];
      return json(res, 200, { items, pagination: { pageSize: 100, nextPage: page === 1 ? 2.5 : null } });
    });
    const r = await srs('halfpage', ['ref', 'countries', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('nextPage must be a whole page number');
    // The last-page markers the document leaves open still end a list quietly: null, 0, -1, the same page.
    for (const last of [null, 0, -1, 1]) {
      scenario(`lastpage-${String(last)}`, (_q, res) => json(res, 200, { items: [{ iso3Code: 'DEU', name: 'Germany' }], pagination: { pageSize: 100, nextPage: last } }));
      const ok = await srs(`lastpage-${String(last)}`, ['ref', 'countries', '-o', 'csv']);
      expect(ok.code, `${String(last)}: ${ok.stderr}`).toBe(0);
    }
  });

  it('a service that ignores the page number (page 2 answered with page 1, "next: 2") is exit 1, not a list cut short with exit 0', async () => {
    // The document does not name the scorecards' paging parameters: a service reading other names sends page 1 again.
    const card = (i: number) => ({ id: `01hayktg1aw59w0ksytab77n${String(i).padStart(2, '0')}`, name: `Card ${i}`, weight: 1, items: [] });
    scenario('ignorespage', (_q, res) => json(res, 200, { items: Array.from({ length: 20 }, (_, i) => card(i)), pagination: { pageSize: 20, nextPage: 2 } }));
    const r = await srs('ignorespage', ['scorecards', 'ls', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(20);
    expect(r.stderr).toContain('page 2 holds only items that earlier pages held, after a full page that named it: the service may ignore the page number, so the list may be incomplete');
  });

  it('a list that shifts while read (a page repeating the last item of the one before) prints each item once and says so', async () => {
    // 25 countries, 10 a page, and a row "inserted" before page 2: page 2 starts with page 1's last.
    const all = Array.from({ length: 25 }, (_, i) => country(`C${String(i).padStart(2, '0')}`, `Country ${i}`));
    scenario('shifting', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      const start = page === 1 ? 0 : (page - 1) * 10 - 1;
      // The repeated item changed on the way (an update while the list shifted): the same country all the same.
      const items = all.slice(start, start + 10).map((c, k) => (page > 1 && k === 0 ? { ...c, commonName: `${c.commonName} (renamed)` } : c));
      return json(res, 200, { items, pagination: { pageSize: 10, nextPage: start + 10 < all.length ? page + 1 : null } });
    });
    for (const format of ['json', 'csv'] as const) {
      const r = await srs('shifting', ['ref', 'countries', '-o', format]);
      expect(r.code, r.stderr).toBe(0);
      const codes = format === 'json' ? (JSON.parse(r.stdout) as Array<{ iso3Code: string }>).map((c) => c.iso3Code) : r.stdout.trim().split('\n').slice(1).map((l) => l.split(',')[0]);
      expect(codes).toEqual(all.map((c) => c.iso3Code));
      expect(r.stderr).toMatch(/the service sent 1 country again on a later page \(the list changed while srs read it\?\): each was printed once, as first sent/);
    }
    const api = await srs('shifting', ['api', 'GET', '/v1/countries', '--paginate', '-o', 'json']);
    expect(api.code, api.stderr).toBe(0);
    expect((JSON.parse(api.stdout) as unknown[]).length).toBe(25);
    expect(api.stderr).toMatch(/the service sent 1 item again on a later page/);
  });

  it('two industries sharing a code on different pages are both printed (a code is not said to be unique across levels)', async () => {
    const row = (code: string, level: string, name: string) => ({ code, name, hierarchyLevel: level });
    scenario('sharedcode', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      const items = page === 1 ? [row('10', 'sector', 'Energy'), row('15', 'sector', 'Materials')] : [row('10', 'industryGroup', 'Energy (group)')];
      return json(res, 200, { items, pagination: { pageSize: 2, nextPage: page === 1 ? 2 : null } });
    });
    const r = await srs('sharedcode', ['ref', 'industries', '--all-levels', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(3);
    expect(r.stderr).not.toContain('again on a later page');
  });

  it('a listing that stops on two empty pages while the service names another says so on stderr (the document does not say pages hold items)', async () => {
    scenario('gappy', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      return json(res, 200, { items: page === 1 ? [country('DEU')] : [], pagination: { pageSize: 1, nextPage: page + 1 } });
    });
    const r = await srs('gappy', ['ref', 'countries', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(1);
    expect(r.stderr).toBe('the service sent two empty pages in a row (the second, page 3, names page 4): taken as the end of the countries; if the service leaves pages empty within a list, more may follow (--page 4)\n');
    expect((await srs('gappy', ['-q', 'ref', 'countries', '-o', 'json'])).stderr).toBe('');
    // After a last page shorter than its size (a service pointing past the end), nothing to say.
    scenario('pastend', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      return json(res, 200, { items: page === 1 ? [country('DEU'), country('FRA')] : [], pagination: { pageSize: 100, nextPage: page + 1 } });
    });
    const past = await srs('pastend', ['ref', 'countries', '-o', 'json']);
    expect(past.code, past.stderr).toBe(0);
    expect(past.stderr).toBe('');
  });

  it('a list answered with items null (Go writes an empty slice so) or without items is an empty list; a score calculation so answered has no results (exit 1)', async () => {
    scenario('itemsnull', (_q, res) => json(res, 200, { items: null, pagination: { pageSize: 100 } }));
    scenario('itemsabsent', (_q, res) => json(res, 200, {}));
    for (const name of ['itemsnull', 'itemsabsent']) {
      for (const args of [['ref', 'countries'], ['scorecards', 'ls'], ['emissions', 'ls', '01h58vrn1sad1y603je9gbpje8'], ['ref', 'categories']]) {
        const r = await srs(name, [...args, '-o', 'json']);
        expect(r.code, `${name} ${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(JSON.parse(r.stdout), args.join(' ')).toEqual([]);
      }
      const calc = await srs(name, ['score', 'calc', '01h58vrn1sad1y603je9gbpje8', '-o', 'csv']);
      expect(calc.code).toBe(1);
      expect(calc.stderr).toContain('the service returned no result for supplier 01h58vrn1sad1y603je9gbpje8');
    }
    // An answer with other fields and no items is no list: a bad response, never an empty list with exit 0.
    scenario('itemserror', (_q, res) => json(res, 200, { error: 'database unavailable' }));
    for (const args of [['ref', 'countries'], ['emissions', 'ls', '01h58vrn1sad1y603je9gbpje8'], ['scorecards', 'ls']]) {
      const r = await srs('itemserror', [...args, '-o', 'json', '--retries', '0']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/unexpected response \(body\.items: /);
    }
  });

  it('connection refused is retried and then reported in one line', async () => {
    const r = await srs('http://127.0.0.1:9', ['ref', 'countries', '--retries', '1']);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/connection refused/);
  });
});

describe('untrusted text', () => {
  it('escape sequences in names never reach the terminal from a table', async () => {
    scenario('evil', (_q, res) => json(res, 200, { items: [country('EVL', 'Evil\u001b[2J\u001b]0;owned\u0007Land\u009b31m')], pagination: { pageSize: 100, nextPage: null } }));
    const t = await srs('evil', ['ref', 'countries', '-o', 'table']);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('EvilLand');
    expect(t.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
    // JSON keeps the data exact (escaped by JSON itself).
    const j = await srs('evil', ['ref', 'countries', '-o', 'json']);
    expect((JSON.parse(j.stdout) as Array<{ commonName: string }>)[0]!.commonName).toBe('Evil\u001b[2J\u001b]0;owned\u0007Land\u009b31m');
    expect(j.stdout).not.toContain('\u001b');
  });

  it('formula cells in CSV are guarded, unless --csv-raw', async () => {
    scenario('formula', (_q, res) => json(res, 200, { items: [country('FRM', '=HYPERLINK("http://evil","click")')], pagination: { pageSize: 100, nextPage: null } }));
    const c = await srs('formula', ['ref', 'countries', '-o', 'csv', '--fields', 'commonName']);
    expect(c.stdout.split('\n')[1]).toBe(`"'=HYPERLINK(""http://evil"",""click"")"`);
    const raw = await srs('formula', ['--csv-raw', 'ref', 'countries', '-o', 'csv', '--fields', 'commonName']);
    expect(raw.stdout.split('\n')[1]).toBe(`"=HYPERLINK(""http://evil"",""click"")"`);
  });
});

describe('untrusted error text', () => {
  it('escape sequences in a service error message never reach the terminal', async () => {
    scenario('evilerror', (_q, res) => json(res, 404, { message: 'gone\u001b]0;pwned\u0007\u001b[2J for good' }));
    const r = await srs('evilerror', ['supplier', 'get', '01h58vrn1sad1y603je9gbpje8', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 404: gone for good/);
    expect(r.stderr).not.toMatch(/[\u001b\u0007]/);
  });
});

describe('score calc -o json|ndjson passes results through only when the body is plain JSON of the right shape', () => {
  const A = '01aaaaaaaaaaaaaaaaaaaaaaaa';
  const B = '01bbbbbbbbbbbbbbbbbbbbbbbb';
  const C = '01cccccccccccccccccccccccc';
  const result = (supplierId: string, value: number, extra: Record<string, unknown> = {}) => ({
    supplierId,
    score: { value, dataSourcesScore: { value }, policyParametersScore: { value } },
    dataSourceScores: [],
    policyParameterScores: [],
    ...extra,
  });

  it('a pretty-printed body in another order, with an identical duplicate and an unrequested id: one compact result per line, in input order', async () => {
    const body = { items: [result(C, 3), result(B, 2), result('01zzzzzzzzzzzzzzzzzzzzzzzz', 9), result(A, 1), result(B, 2)] };
    scenario('scorepretty', (_q, res) => json(res, 200, JSON.stringify(body, null, 2)));
    for (const format of ['json', 'ndjson']) {
      const r = await srs('scorepretty', ['score', 'calc', A, B, C, '-o', format]);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      const results = format === 'json' ? lines.slice(1, -1).map((l) => l.replace(/,$/, '')) : lines;
      expect(results.map((l) => JSON.parse(l) as unknown)).toEqual([result(A, 1), result(B, 2), result(C, 3)]);
      if (format === 'json') expect(JSON.parse(r.stdout)).toEqual([result(A, 1), result(B, 2), result(C, 3)]);
    }
    // Two different results for B: neither is printed as B's; B is unknown (exit 1), the others as before.
    const differing = { items: [result(C, 3), result(B, 2), result(A, 1), result(B, -2)] };
    scenario('scoredup', (_q, res) => json(res, 200, JSON.stringify(differing, null, 2)));
    const r = await srs('scoredup', ['score', 'calc', A, B, C, '-o', 'ndjson']);
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([result(A, 1), result(C, 3)]);
    expect(r.stderr).toContain(`UNKNOWN ${B}: the service returned 2 different results for supplier ${B} in one answer`);
  });

  it('a result for a supplier the request did not name is left out and said so, in every output and in score check', async () => {
    const Z = '01zzzzzzzzzzzzzzzzzzzzzzzz';
    scenario('scoreunasked', (q, res) => {
      if (q.method === 'POST') json(res, 200, { items: [result(A, 1), result(Z, 9)] });
      else json(res, 200, { items: [], pagination: { page: 1, perPage: 100, total: 0 } }); // the scorecards of A (--save)
    });
    for (const format of ['json', 'ndjson', 'csv', 'table']) {
      const r = await srs('scoreunasked', ['score', 'calc', A, '-o', format]);
      expect(r.code, `${format}: ${r.stderr}`).toBe(0);
      expect(r.stdout).not.toContain(Z);
      expect(r.stderr, format).toContain(`the service sent a result for a supplier srs did not ask for in that request (${Z}): left out`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'srs-unasked-'));
    const saved = await srs('scoreunasked', ['score', 'calc', A, '-o', 'json', '--save', join(dir, 'b.jsonl')]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain(`(${Z}): left out`);
    const gate = await srs('scoreunasked', ['score', 'check', A, '--min', '0']);
    expect(gate.code, gate.stderr).toBe(0);
    expect(gate.stderr).toContain(`(${Z}): left out`);
  });

  it('a score calculation answer over 16 MiB is asked again in halves, down to one supplier, and the halves joined', async () => {
    const big = ' '.repeat(17 << 20);
    scenario('scorebig', (_q, res, _n, body) => {
      const ids = (JSON.parse(body) as { supplierIds: string[] }).supplierIds;
      const s = JSON.stringify({ items: ids.map((id, i) => result(id, i + 1)) }) + (ids.length > 1 ? big : '');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(s)) });
      res.end(s);
    });
    for (const format of ['csv', 'ndjson']) {
      const r = await srs('scorebig', ['score', 'calc', A, B, C, '-o', format]);
      expect(r.code, `${format}: ${r.stderr}`).toBe(0);
      expect(r.stdout, format).toContain(A);
      expect(r.stdout, format).toContain(C);
      expect(r.stdout.trimEnd().split('\n'), format).toHaveLength(format === 'csv' ? 4 : 3);
    }
    // 3 ids, then 2 + 1, then 1 + 1: five requests a run.
    expect(counts.get('scorebig')).toBe(10);
  });

  it('copies of one result that differ in bytes alone ("value":2 and "value":2.0) are one result in json and ndjson too, as in csv', async () => {
    const body = `{"items":[${JSON.stringify(result(A, 1))},${JSON.stringify(result(B, 2))},${JSON.stringify(result(B, 2)).replace(/"value":2/g, '"value":2.0')}]}`;
    scenario('scorespelling', (_q, res) => json(res, 200, body));
    for (const format of ['json', 'ndjson', 'csv']) {
      const r = await srs('scorespelling', ['score', 'calc', A, B, '-o', format]);
      expect(r.code, `${format}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('different results');
    }
  });

  it('a result without a score whose supplier srs cannot look up (503) is left out of JSON, with code lookup_failed, not not_found', async () => {
    const empty = { supplierId: B, score: { dataSourcesScore: {}, policyParametersScore: {} }, dataSourceScores: [], policyParameterScores: [] };
    scenario('lookup503', (q, res) => {
      if (q.method === 'POST') json(res, 200, { items: [result(A, 1), empty] });
      else json(res, 503, { message: 'overloaded' });
    });
    for (const format of ['json', 'ndjson']) {
      const r = await srs('lookup503', ['score', 'calc', A, B, '-o', format, '--retries', '0']);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain(B);
      expect(r.stdout).toContain(A);
      const error = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as { error: { code: string; message: string } };
      expect(error.error.code).toBe('lookup_failed');
      expect(error.error.message).toMatch(/1 of 2 suppliers is unknown \(not known to the service, or srs could not find out\)/);
    }
    // Its parameters without scores are no "no data" rows of a breakdown either, in any format, with --save too.
    const parameter = { policyParameterId: '01fcprzw40d1df5n5dt7fc57nq', score: {}, dataPoints: { dataEntries: [], risk: { riskLevel: 'Medium', riskEntries: [] }, contexts: [] } };
    scenario('lookup503params', (q, res) => {
      if (q.method === 'POST') json(res, 200, { items: [result(A, 1), { ...empty, policyParameterScores: [parameter] }] });
      else if (q.url?.includes('/v1/scorecards')) json(res, 200, { items: [], pagination: { pageSize: 100 } });
      else json(res, 503, { message: 'overloaded' });
    });
    for (const extra of [['-o', 'json'], ['-o', 'csv'], ['-o', 'json', '--save', join(hostile.env.HOME!, 'b503.jsonl')]]) {
      const r = await srs('lookup503params', ['score', 'calc', A, B, '--breakdown', 'parameters', '--retries', '0', ...extra]);
      expect(r.code, extra.join(' ')).toBe(1);
      expect(r.stdout, extra.join(' ')).not.toContain(B);
      expect(r.stderr).toContain(`UNKNOWN ${B}`);
    }
  });

  it('a compact body: the bytes of each result as the service sent them (number formatting included)', async () => {
    // 1.50 and 2e0 would come back as 1.5 and 2 if the results were re-serialised.
    const raw = `{"items":[{"supplierId":"${B}","score":{"value":2e0},"note":"caf\\u00e9"} , {"supplierId":"${A}","score":{"value":1.50}}],"meta":{"took":3}}`;
    scenario('scoreraw', (_q, res) => json(res, 200, raw));
    const r = await srs('scoreraw', ['score', 'calc', A, C, B, '-o', 'ndjson']);
    // The results sent are printed; the id without one fails the run closed (exit 1).
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/UNKNOWN 01c{24}: the service returned no result for supplier 01c{24}/);
    expect(r.stdout).toBe(`{"supplierId":"${A}","score":{"value":1.50}}\n{"supplierId":"${B}","score":{"value":2e0},"note":"caf\\u00e9"}\n`);
  });

  it('an id without a result has a row of its own in CSV and tables, marked unknown, in input order (it had none), with --save too', async () => {
    const raw = JSON.stringify({ items: [result(A, 1), result(B, 2)] });
    scenario('norow', (q, res) => (q.method === 'POST' ? json(res, 200, raw) : q.url?.includes('/v1/scorecards') ? json(res, 200, { items: [], pagination: { pageSize: 100 } }) : json(res, 200, { item: { id: A, name: 'Known' } })));
    for (const extra of [[], ['--save', join(hostile.env.HOME!, 'norow.jsonl')]]) {
      const r = await srs('norow', ['score', 'calc', A, C, B, '-o', 'csv', ...extra]);
      expect(r.code, r.stderr).toBe(1);
      const rows = r.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(','));
      expect(rows.map((c) => c[0]), extra.join(' ')).toEqual([A, C, B]);
      expect(rows[1]![2], extra.join(' ')).toBe('unknown');
    }
  });

  it('a chunked body without a content-length: the same results', async () => {
    const body = JSON.stringify({ items: [result(A, 1), result(B, 2)] });
    scenario('scorechunked', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let k = 0; k < body.length; k += 7) res.write(body.slice(k, k + 7));
      res.end();
    });
    const r = await srs('scorechunked', ['score', 'calc', B, A, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(result(B, 2))}\n${JSON.stringify(result(A, 1))}\n`);
  });

  const broken: Array<[string, string, RegExp]> = [
    ['scorebadjson', `{"items":[{"supplierId":"${A}","score":{"value":tru}}]}`, /POST \/v1\/score-calculation: unexpected response \(body is not valid JSON/],
    ['scorenoid', `{"items":[{"score":{"value":1}}]}`, /POST \/v1\/score-calculation: unexpected response \(body\.items\[0\]\.supplierId: /],
    // {"results":[]} has no items: read as none (the reader's rule), each supplier asked is unknown (see 'items null').
  ];
  for (const [name, body, pattern] of broken) {
    it(`${name}: one line, exit 1, nothing on stdout`, async () => {
      scenario(name, (_q, res) => json(res, 200, body));
      const r = await srs(name, ['score', 'calc', A, '-o', 'json', '--retries', '0']);
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
      expect(r.stdout).toBe('');
    });
  }

  it('a failed batch ends the run at once: srs does not wait for the batches still in flight', async () => {
    // The batch holding the bad id fails; every other batch is never answered while srs runs.
    const held: ServerResponse[] = [];
    // A well-formed id (srs refuses malformed ones before sending) that this service rejects.
    const bad = '01badbadbadbadbadbadbadbad';
    scenario('scorefailfast', (_q, res, _n, body) => (body.includes(`"${bad}"`) ? json(res, 400, { message: `unknown supplier id ${bad}` }) : held.push(res)));
    const ids = [bad, ...Array.from({ length: 250 }, (_, k) => `01${String(k).padStart(24, '0')}`)];
    // A request timeout longer than the test's own (30 s): an srs that waited for the held batches would fail the test.
    const r = await srs('scorefailfast', ['score', 'calc', ...ids, '-o', 'json', '--retries', '0', '--timeout', '60s']);
    expect(r.code, r.stderr).toBe(1);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/HTTP 400: unknown supplier id 01badbad/);
    // srs has exited, and the other batches are still unanswered.
    expect(held.length).toBeGreaterThan(0);
    for (const res of held) json(res, 200, { items: [] });
  });

  it('fields inside a result of the wrong type are refused by -o json as by the views that read them (one answer, one exit code)', async () => {
    scenario('scorewrongtype', (_q, res) => json(res, 200, { items: [{ ...result(A, 1), score: 'high' }] }));
    const j = await srs('scorewrongtype', ['score', 'calc', A, '-o', 'json', '--retries', '0']);
    expect(j.code, j.stderr).toBe(1);
    expect(j.stdout).toBe('');
    expect(j.stderr).toMatch(/unexpected response \(body\.items\[0\]\.score: /);
    const t = await srs('scorewrongtype', ['score', 'calc', A, '-o', 'csv', '--retries', '0']);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/unexpected response \(body\.items\[0\]\.score: /);
  });
});

describe('the key', () => {
  it('is sent only as the x-api-key header, never in the URL', () => {
    const seen = hostile.server.seen;
    expect(seen.length).toBeGreaterThan(10);
    for (const s of seen) expect(s.url).not.toContain(KEY);
    expect(seen.filter((s) => s.key === KEY).length).toBe(seen.length);
  });
});

describe('supplier create sends what the user gave', () => {
  it('--industry takes several codes separated by ";", as the code check\'s message says (and as an import cell does)', async () => {
    const bodies: string[] = [];
    scenario('industries', (_q, res, _n, body) => {
      bodies.push(body);
      json(res, 201, { id: '01h57nhc4sapk2v8c7tq000001', name: 'Two Industries', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null });
    });
    const r = await srs('industries', ['supplier', 'create', '--name', 'Two Industries', '--industry', '30202010; 30202030', '--industry', '15104050', '--no-catalog', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(bodies).toHaveLength(1);
    expect(JSON.parse(bodies[0]!).industryCodes).toEqual(['30202010', '30202030', '15104050']);
    const bad = await srs('industries', ['supplier', 'create', '--name', 'Bad Industry', '--industry', '3020;30202030', '--no-catalog']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/industryCodes\[0\]: an industry code is 8 digits/);
    expect(bodies).toHaveLength(1);
  });
});

describe('lists the document allows', () => {
  it('a list without pagination, or with pagination null, is read as its last page (the document marks no field of it required)', async () => {
    for (const [name, pagination] of [['nopagination', undefined], ['nullpagination', null]] as const) {
      scenario(name, (_q, res) => json(res, 200, pagination === undefined ? { items: [country('DEU', 'Germany')] } : { items: [country('DEU', 'Germany')], pagination }));
      const r = await srs(name, ['ref', 'countries', '-o', 'json']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect((JSON.parse(r.stdout) as Array<{ iso3Code: string }>).map((c) => c.iso3Code)).toEqual(['DEU']);
      expect(counts.get(name)).toBe(1);
    }
  });
});

describe('emission reports with timestamps the document allows', () => {
  it('offsets other than Z are shown in UTC within 80 columns; a start date srs cannot read is named as such in the totals note', async () => {
    const report = (id: string, fromDate: string, value: number) => ({ id, scope: 'scope_1', fromDate, toDate: '2024-12-31T23:59:59+00:00', reportedOn: '2025-02-01T10:00:00+01:00', verifier: 'Verifier GmbH', dataType: 'actual', value, unit: 'kg' });
    scenario('emissionsoffsets', (_q, res) =>
      json(res, 200, { items: [report('e1', '2024-01-01T00:00:00.000+00:00', 10), report('e2', '2024-06-01T02:00:00+02:00', 5), report('e3', '2024-W01-1T00:00:00Z', 7)] }),
    );
    const r = await srs('emissionsoffsets', ['emissions', 'ls', '01h57nhc4sapk2v8c7tq00000a', '-o', 'table'], { COLUMNS: '80' });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/^e1\s+scope_1\s+2024-01-01\s+2024-12-31\s/m);
    expect(r.stdout).toMatch(/^e2\s+scope_1\s+2024-06-01\s/m);
    expect(r.stdout).toMatch(/^2024\s+#+\s+15 kg$/m);
    expect(r.stderr).toContain('1 report whose start date srs cannot read (such as "2024-W01-1T00:00:00Z") is not in the totals');
    expect(r.stderr).not.toContain('without a start date');
  });
});

describe('srs api -o json prints the body as received', () => {
  it('a number past 2^53, a decimal written 1.50 and a repeated key come out as the service wrote them', async () => {
    const body = '{"n":12345678901234567890,"f":1.50,"a":1,"a":2}';
    scenario('asreceived', (_q, res) => json(res, 200, body));
    const r = await srs('asreceived', ['api', 'GET', '/v1/anything', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(body + '\n');
  });

  it('--paginate over 204 answers with no body names the status sent and the empty body (it said 200)', async () => {
    scenario('nobody', (_q, res) => {
      res.writeHead(204);
      res.end();
    });
    const r = await srs('nobody', ['api', 'GET', '/v1/countries', '--paginate', '-o', 'json']);
    expect(r.code).toBe(1);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: { status: number; message: string } };
    expect(err.error.status).toBe(204);
    expect(err.error.message).toContain('the answer has no body');
  });
});

describe('Ctrl-C while an import waits out a 429', () => {
  it('sends nothing more, ends the wait at once, and exits 130 (it resent creates for up to 30 s, then said complete, exit 1)', async () => {
    let posts = 0;
    scenario('import429', (q, res) => {
      if (q.method === 'POST') {
        posts++;
        json(res, 429, { message: 'slow down' }, { 'retry-after': '20' });
      } else json(res, 200, { items: [], pagination: { pageSize: 100 } });
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-429-'));
    const csv = join(dir, 'one.csv');
    writeFileSync(csv, 'name,customerSupplierId\nWaiting Co,W-1\nQueued Co,W-2\nQueued Too Co,W-3\n');
    const started = Date.now();
    // One request at a time: the rows after the first wait for its slot, and none of them may leave after the signal.
    const r = await runSrs(['supplier', 'import', csv, '-o', 'json', '--no-catalog', '--concurrency', '1'], { ...hostile.env, SRS_BASE_URL: `${hostile.server.url}/s/import429` }, {
      onSpawn: (kill) => {
        const wait = setInterval(() => {
          if (posts > 0) {
            clearInterval(wait);
            setTimeout(() => kill('SIGINT'), 300);
          }
        }, 20);
      },
      timeoutMs: 40_000,
    });
    expect(r.code, r.stderr).toBe(130);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(posts).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 0, unknown: 0 });
  });
});
