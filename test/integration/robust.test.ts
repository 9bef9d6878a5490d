/**
 * Bounded under a broken service (issue 16): the built srs against a small
 * hostile server on loopback (test/support/hostile-server.ts).
 * - --timeout bounds each attempt as a whole: a body that trickles in forever ends
 *   within 2x --timeout with --retries 0, and the line after retries names them;
 * - pagination that never ends stops with exit 1, within 60 s and 300 MB peak RSS,
 *   in every output format;
 * - bidirectional controls from the service never reach a table or an error line.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { json, pageOf, runMeasured, useHostileServer, type Handler } from '../support/hostile-server.js';
import { onTerminal, pty } from '../support/terminal.js';
import { BIN, runSrs, withHarness } from './harness.js';

const KEY = 'robust-test-key-0123456789-SECRET';
const hostile = useHostileServer(KEY);
const server = { scenario: (n: string, h: Handler) => hostile.server.scenario(n, h), count: (n: string) => hostile.server.count(n) };

const srs = (base: string, args: string[], extra: Record<string, string> = {}) => runSrs(args, { ...hostile.env, SRS_BASE_URL: base, ...extra }, { timeoutMs: 60_000 });
const country = (iso3Code: string, commonName = 'Name') => ({ iso3Code, iso2Code: iso3Code.slice(0, 2), commonName, officialName: commonName, regionName: 'Europe' });

/** Headers at once, then one byte of a valid-looking body every 100 ms, forever (until srs hangs up). */
function trickle(_q: unknown, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const text = JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => country(`C${i}`)), pagination: { pageSize: 100, nextPage: null } });
  let i = 0;
  const t = setInterval(() => {
    if (res.destroyed || i >= text.length) return clearInterval(t);
    res.write(text[i++]!);
  }, 100);
  res.on('close', () => clearInterval(t));
}

describe('--timeout bounds each attempt as a whole', () => {
  it.each([
    ['ref countries', ['ref', 'countries']],
    ['score calc', ['score', 'calc', '01h58vrn1sad1y603je9gbpje8', '-o', 'json']],
  ])('a trickling body: %s ends within 2x --timeout with --retries 0, and says what happened', async (name, args) => {
    const base = server.scenario(`trickle-${name.replace(' ', '-')}`, trickle);
    const t0 = performance.now();
    const r = await srs(base, [...args, '--timeout', '1s', '--retries', '0', '-o', 'table']);
    const took = performance.now() - t0;
    expect(r.code, r.stderr).toBe(1);
    // Node's own start-up is part of the run: the request itself had 1 s.
    expect(took).toBeLessThan(2000 + 1000);
    expect(r.stderr).toMatch(/^srs: (GET \/v1\/countries|POST \/v1\/score-calculation): no complete answer within 1 s \(1 attempt over 1(\.\d)? s; see --timeout, --retries\)\n$/);
    expect(r.stdout).toBe('');
  });

  it('after retries, the one line names the attempts, the time and what to change', async () => {
    const base = server.scenario('never', () => {
      /* never answers */
    });
    const r = await srs(base, ['ref', 'countries', '--timeout', '300ms', '--retries', '2', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(server.count('never')).toBe(3);
    expect(r.stderr).toMatch(/^srs: GET \/v1\/countries: no complete answer within 300 ms \(3 attempts over [\d.]+ m?s; see --timeout, --retries\)\n$/);
  });

  it('a create that times out is sent once, and the line names only --timeout', async () => {
    const base = server.scenario('create-never', () => {
      /* never answers */
    });
    const r = await srs(base, ['supplier', 'create', '--name', 'Once Only', '--timeout', '300ms', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(server.count('create-never')).toBe(1);
    expect(r.stderr).toMatch(/^srs: outcome unknown: the request may have reached the service, but no usable answer came back \(POST \/v1\/suppliers: no complete answer within 300 ms \(1 attempt over [\d.]+ m?s; see --timeout\)\)\. The supplier may exist/);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('an error status after retries names them too', async () => {
    const base = server.scenario('busy', (_q, res) => json(res, 503, { message: 'busy' }));
    const r = await srs(base, ['ref', 'countries', '--retries', '2', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(server.count('busy')).toBe(3);
    expect(r.stderr).toMatch(/^srs: GET \/v1\/countries failed with HTTP 503: busy \(3 attempts over [\d.]+ m?s; see --retries\)\n$/);
  });

  it('an answer that keeps coming within --timeout is not cut short', async () => {
    const base = server.scenario('slow-ok', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
      setTimeout(() => res.end(`${JSON.stringify(country('DEU', 'Germany'))}],"pagination":{"pageSize":100,"nextPage":null}}`), 300);
    });
    const r = await srs(base, ['ref', 'countries', '--timeout', '2s', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([country('DEU', 'Germany')]);
  });
});

describe('pagination that never ends stops: exit 1, within 60 s and 300 MB peak RSS, in every format', () => {
  /** nextPage = page + 1 forever; "fresh" pages hold new items every time, "same" pages the same items. */
  const growing = (fresh: boolean) => (q: Parameters<typeof pageOf>[0], res: ServerResponse) => {
    const { page, perPage } = pageOf(q);
    const items = Array.from({ length: perPage }, (_, i) => country(`C${fresh ? (page - 1) * perPage + i : i}`, `Country ${i}`));
    json(res, 200, { items, pagination: { pageSize: perPage, nextPage: page + 1 } });
  };

  for (const format of ['json', 'ndjson', 'csv', 'table'] as const) {
    it(`the same items on every page: -o ${format} stops at page 2`, async () => {
      const base = server.scenario(`same-${format}`, growing(false));
      const r = await srs(base, ['ref', 'countries', '-o', format]);
      expect(r.code).toBe(1);
      expect(server.count(`same-${format}`)).toBe(2);
      expect(r.stderr).toContain('GET /v1/countries: the pagination does not end: page 2 holds only items that earlier pages held');
    });

    it(`new items on every page: -o ${format} stops at --max-pages (default 10,000) or the table's 10,000 rows`, async () => {
      const base = server.scenario(`fresh-${format}`, growing(true));
      const r = await runMeasured(process.execPath, BIN, ['ref', 'countries', '-o', format], { ...hostile.env, SRS_BASE_URL: base }, 120_000);
      console.info(`growing nextPage, -o ${format}: exit ${r.code} after ${(r.ms / 1000).toFixed(1)} s, ${server.count(`fresh-${format}`)} requests, ${(r.stdoutBytes / 1048576).toFixed(0)} MiB out, peak RSS ${r.peakMiB.toFixed(0)} MiB (taken under the suite's load)`);
      expect(r.code, r.stderr).toBe(1);
      expect(r.ms).toBeLessThan(60_000);
      expect(r.peakMiB).toBeGreaterThan(0);
      expect(r.peakMiB).toBeLessThan(300);
      if (format === 'table') {
        expect(r.stderr).toBe('srs: more than 10,000 countries: too many for a table; use -o ndjson (or -o csv, -o json) to list them all, or --limit N\n');
        expect(r.stdoutBytes).toBe(0);
        expect(server.count('fresh-table')).toBe(101);
      } else {
        expect(r.stderr).toContain('GET /v1/countries: the service still names a next page after 10,000 pages (1,000,000 items), the --max-pages limit: raise --max-pages');
        // One page more than the bound is read: a next page named past the end (empty) is a list of exactly 10,000.
        expect(server.count(`fresh-${format}`)).toBe(10_001);
      }
    }, 150_000);
  }

  it('--query, which sees the whole list at once, holds at most 100,000 items', async () => {
    const base = server.scenario('fresh-query', growing(true));
    const r = await runMeasured(process.execPath, BIN, ['ref', 'countries', '-o', 'json', '--query', 'length(@)'], { ...hostile.env, SRS_BASE_URL: base }, 120_000);
    console.info(`growing nextPage, --query: exit ${r.code} after ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.peakMiB.toFixed(0)} MiB (taken under the suite's load)`);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('more than 100,000 items for --query, which holds the whole list in memory: use --limit N, or -o ndjson piped to jq');
    expect(r.stdoutBytes).toBe(0);
    expect(r.ms).toBeLessThan(60_000);
    expect(r.peakMiB).toBeLessThan(300);
  }, 150_000);

  it('--max-pages (and SRS_MAX_PAGES) sets the bound; a bad value is a usage error', async () => {
    const base = server.scenario('fresh-small', growing(true));
    const r = await srs(base, ['ref', 'countries', '-o', 'ndjson', '--max-pages', '3']);
    expect(r.code).toBe(1);
    // Three pages and the fourth, read to tell a list of exactly three pages from a longer one (not printed).
    expect(server.count('fresh-small')).toBe(4);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(300); // every page within the bound is printed
    expect(r.stderr).toContain('a next page after 3 pages (300 items)');
    const viaEnv = await srs(base, ['ref', 'countries', '-o', 'csv'], { SRS_MAX_PAGES: '2' });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toContain('a next page after 2 pages (200 items)');
    const bad = await srs(base, ['ref', 'countries', '--max-pages', '0', '-o', 'table']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-pages must be a whole number >= 1 (got "0")');
  });

  it('a list that ends is untouched, and --limit still reads only what it needs', async () => {
    const base = server.scenario('ends', (q, res) => {
      const { page } = pageOf(q);
      json(res, 200, { items: [country(`P${page}A`), country(`P${page}B`)], pagination: { pageSize: 2, nextPage: page < 3 ? page + 1 : null } });
    });
    const r = await srs(base, ['ref', 'countries', '-o', 'ndjson', '--max-pages', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(6);
    const limited = await srs(server.scenario('fresh-limit', growing(true)), ['ref', 'countries', '-o', 'table', '--limit', '150']);
    expect(limited.code, limited.stderr).toBe(0);
    expect(server.count('fresh-limit')).toBe(2);
  });
});

describe('bidirectional controls never reach a table or an error line', () => {
  const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
  const hostileName = 'Acme \u202Egnp.exe\u202C \u2066x\u2069 \u200e\u200f\u061c';

  it('in a table, as escapes', async () => {
    const base = server.scenario('bidi-table', (_q, res) => json(res, 200, { items: [country('DEU', hostileName)], pagination: { pageSize: 100, nextPage: null } }));
    const r = await srs(base, ['ref', 'countries', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(BIDI);
    expect(r.stdout).toContain('Acme \\u202egnp.exe\\u202c \\u2066x\\u2069 \\u200e\\u200f\\u061c');
    // Machine formats keep the data exact.
    const j = await srs(base, ['ref', 'countries', '-o', 'json']);
    expect((JSON.parse(j.stdout) as Array<{ commonName: string }>)[0]!.commonName).toBe(hostileName);
  });

  it('in an error line and in the --debug detail', async () => {
    const base = server.scenario('bidi-error', (_q, res) => json(res, 500, { message: `denied \u202Edelif\u202C for ${hostileName}` }));
    const r = await srs(base, ['ref', 'countries', '--retries', '0', '--debug', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/srs: GET \/v1\/countries failed with HTTP 500: denied \\u202edelif\\u202c for Acme/);
    expect(r.stderr).not.toMatch(BIDI);
    // A proxy's HTML page: --debug shows the body as the detail.
    const bad = server.scenario('bidi-detail', (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${hostileName}</body></html>`);
    });
    const d = await srs(bad, ['ref', 'countries', '--retries', '0', '--debug', '-o', 'table']);
    expect(d.code).toBe(1);
    expect(d.stderr).toContain('detail: <html><body>Acme \\u202egnp.exe\\u202c');
    expect(d.stderr).not.toMatch(BIDI);
  });
});

describe('while srs retries, the spinner says so', () => {
  for (const [lang, fetching] of [['C.UTF-8', 'Fetching countries…'], ['C', 'Fetching countries...']] as const) {
    pty.it(`on a terminal (LANG=${lang}): "retrying after its Retry-After (attempt 2)" after a 503, then the table; ASCII outside UTF-8`, async () => {
      const name = `retry-spinner-${lang}`;
      const base = server.scenario(name, (_q, res, n) =>
        n === 1 ? json(res, 503, { message: 'busy' }, { 'retry-after': '1' }) : json(res, 200, { items: [country('DEU', 'Germany')], pagination: { pageSize: 100, nextPage: null } }),
      );
      // A pseudo-terminal of 100 columns (one reporting 0 columns gets no spinner).
      const r = await onTerminal(['ref', 'countries'], { ...hostile.env, SRS_BASE_URL: base, TERM: 'xterm', LANG: lang }, { cols: 100 });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain(`${fetching} HTTP 503: retrying after its Retry-After (attempt 2)`);
      expect(r.out).toContain('Germany');
      // The braille spinner frames (U+2800..U+28FF) in UTF-8, none outside it.
      if (lang === 'C') expect(r.out).not.toMatch(/[\u2800-\u28ff]/);
      else expect(r.out).toMatch(/[\u2800-\u28ff]/);
      expect(server.count(name)).toBe(2);
    });
  }
});

describe('--page against a service that points one page past the end (review round 16)', () => {
  it('the last page names no more, and a page past the end says so, instead of pointing on without end', async () => {
    await withHarness({ lastPageNextPage: 'past' }, async (h) => {
      const two = await h.run(['ref', 'countries', '--page', '2', '-o', 'json']);
      expect(two.code).toBe(0);
      expect(two.stderr).toBe('more countries on page 3: use --page 3, or drop --page to fetch everything\n');
      const last = await h.run(['ref', 'countries', '--page', '3', '-o', 'json']);
      expect(last.code).toBe(0);
      expect((JSON.parse(last.stdout) as unknown[]).length).toBeGreaterThan(0);
      expect(last.stderr).toBe('');
      const past = await h.run(['ref', 'countries', '--page', '4', '-o', 'json']);
      expect(past.code).toBe(0);
      expect(past.stdout).toBe('[]\n');
      expect(past.stderr).toBe('warning: page 4 is past the end of the countries: try a lower --page, or drop --page to fetch everything\n');
    });
  });
});
