/**
 * runImport in-process against a fake client: outcome classification, line
 * order, bounded concurrency, stopping (auth, Ctrl-C) and the journal's resume
 * rules. The real HTTP path is covered by test/integration/import.test.ts.
 */
import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SupplierCreateRequest } from '../../src/api/contract.js';
import { ApiError, AuthError, BadResponseError, NetworkError } from '../../src/errors.js';
import { runImport, type ImportDeps, type ImportOptions, type RowOutcome, type SupplierCreator } from '../../src/import/index.js';
import { Progress } from '../../src/import/progress.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function csv(rows: string[], header = 'name,country,customerSupplierId'): string {
  const p = join(dir, `in${n++}.csv`);
  writeFileSync(p, [header, ...rows].join('\n') + '\n');
  return p;
}
const rowsOf = (count: number, prefix = 'R') => Array.from({ length: count }, (_, i) => `${prefix} ${i},DEU,${prefix}-${i}`);
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

interface Harness {
  deps: ImportDeps;
  rows: RowOutcome[];
  warnings: string[];
  stderr: string[];
  clientCalls: () => number;
}

function harness(client: SupplierCreator | undefined, extra: Partial<ImportDeps> = {}): Harness {
  const rows: RowOutcome[] = [];
  const warnings: string[] = [];
  const stderr: string[] = [];
  let calls = 0;
  const deps: ImportDeps = {
    client: async () => {
      calls++;
      if (!client) throw new Error('the dry run must not create a client');
      return client;
    },
    stderrWrite: (s) => void stderr.push(s),
    stderrIsTTY: false,
    warn: (m) => void warnings.push(m),
    info: () => undefined,
    onRow: (o) => void rows.push(o),
    ...extra,
  };
  return { deps, rows, warnings, stderr, clientCalls: () => calls };
}

const run = (o: ImportOptions, h: Harness) => runImport({ quiet: true, ...o }, h.deps);

/** A client answering from a function of the request, after a random delay (so answers arrive out of order). */
function fakeClient(answer: (body: SupplierCreateRequest) => string | Error, maxDelayMs = 3) {
  let inFlight = 0;
  let maxInFlight = 0;
  const seen: string[] = [];
  const client: SupplierCreator = {
    async createSupplier(body) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      seen.push(body.customerSupplierId ?? body.name);
      try {
        await tick(Math.random() * maxDelayMs);
        const a = answer(body);
        if (a instanceof Error) throw a;
        return { id: a };
      } finally {
        inFlight--;
      }
    },
  };
  return { client, seen, maxInFlight: () => maxInFlight };
}

describe('outcomes', () => {
  it('classifies each failure with classifyCreateFailure and reports every row once, in line order', async () => {
    const errors: Record<string, Error> = {
      'E-400': new ApiError({ status: 400, method: 'POST', path: '/v1/suppliers', serviceMessage: 'unknown industry code' }),
      'E-429': new ApiError({ status: 429, method: 'POST', path: '/v1/suppliers', serviceMessage: 'slow down' }),
      'E-503': new ApiError({ status: 503, method: 'POST', path: '/v1/suppliers', retryAfter: true }),
      'E-503bare': new ApiError({ status: 503, method: 'POST', path: '/v1/suppliers' }),
      'E-500': new ApiError({ status: 500, method: 'POST', path: '/v1/suppliers' }),
      'E-refused': new NetworkError({ method: 'POST', path: '/v1/suppliers', reason: 'connection refused', notSent: true }),
      'E-reset': new NetworkError({ method: 'POST', path: '/v1/suppliers', reason: 'connection dropped', notSent: false }),
      'E-badbody': new BadResponseError({ method: 'POST', path: '/v1/suppliers', status: 201, reason: 'body.id missing' }),
    };
    const file = csv([...Object.keys(errors).map((k) => `${k},DEU,${k}`), 'Fine,DEU,OK-1', 'Bad,XX,BAD-1', 'Dup,DEU,OK-1']);
    const f = fakeClient((b) => errors[b.customerSupplierId!] ?? `id-${b.customerSupplierId}`);
    const h = harness(f.client);
    const r = await run({ file, report: join(dir, 'outcomes.csv'), failed: join(dir, 'outcomes-failed.csv') }, h);
    expect(h.rows.map((x) => [x.line, x.state, x.message ?? ''])).toEqual([
      [2, 'failed', 'HTTP 400: unknown industry code'],
      [3, 'failed', 'HTTP 429: slow down'],
      [4, 'failed', 'HTTP 503'],
      [5, 'unknown', expect.stringContaining('HTTP 503')],
      [6, 'unknown', expect.stringContaining('HTTP 500')],
      [7, 'failed', expect.stringContaining('connection refused')],
      [8, 'unknown', expect.stringContaining('may or may not have been created')],
      [9, 'unknown', expect.stringContaining('unreadable')],
      [10, 'created', ''],
      [11, 'invalid', expect.stringContaining('"XX"')],
      [12, 'skipped', 'duplicate customerSupplierId of line 10'],
    ]);
    expect(r.summary).toMatchObject({ created: 1, failed: 4, unknown: 4, invalid: 1, skipped: 1, total: 11, complete: true });
    expect(r.problemCount).toBe(10);
    // --failed holds the failed and invalid rows (not unknown ones) in the input's columns.
    expect(readFileSync(join(dir, 'outcomes-failed.csv'), 'utf8')).toBe(
      'name,country,customerSupplierId\nE-400,DEU,E-400\nE-429,DEU,E-429\nE-503,DEU,E-503\nE-refused,DEU,E-refused\nBad,XX,BAD-1\n',
    );
    const journal = readFileSync(file + '.srs-journal', 'utf8');
    expect(journal.match(/"s":"sent"/g)).toHaveLength(9);
    expect(journal).toContain('{"l":10,"s":"created","id":"id-OK-1"}');
  });

  it('keeps report rows in line order whatever order the answers come in', async () => {
    const file = csv(rowsOf(300));
    const f = fakeClient((b) => `id-${b.customerSupplierId}`, 10);
    const h = harness(f.client);
    await run({ file, concurrency: 16 }, h);
    expect(h.rows.map((x) => x.line)).toEqual(Array.from({ length: 300 }, (_, i) => i + 2));
    expect(new Set(f.seen).size).toBe(300);
  });

  it('a dry run never creates a client and reports valid rows', async () => {
    const file = csv(['A,DEU,1', 'B,XX,2']);
    const h = harness(undefined);
    const r = await run({ file, dryRun: true }, h);
    expect(h.clientCalls()).toBe(0);
    expect(r.summary).toMatchObject({ dryRun: true, valid: 1, invalid: 1, created: 0 });
  });
});

describe('bounded concurrency', () => {
  it('never has more than --concurrency requests in flight, and starts no request past them until one finishes', async () => {
    const file = csv(rowsOf(200));
    const pending: Array<() => void> = [];
    let calls = 0;
    const client: SupplierCreator = {
      createSupplier: (b) =>
        new Promise((resolve) => {
          calls++;
          pending.push(() => resolve({ id: `id-${b.customerSupplierId}` }));
        }),
    };
    const h = harness(client);
    const done = run({ file, concurrency: 4 }, h);
    await tick(30);
    expect(calls).toBe(4);
    expect(h.rows).toHaveLength(0);
    for (let i = 0; i < 200; i++) {
      while (pending.length === 0) await tick(1);
      expect(pending.length).toBeLessThanOrEqual(4);
      pending.shift()!();
      await tick(0);
    }
    const r = await done;
    expect(r.summary.created).toBe(200);
  });

  it('rejects a concurrency or a ceiling outside 1..256', async () => {
    await expect(run({ file: csv(['A,DEU,1']), concurrency: 257 }, harness(undefined))).rejects.toThrow(/--concurrency must be a whole number between 1 and 256/);
    await expect(run({ file: csv(['A,DEU,1']), maxConcurrency: 0 }, harness(undefined))).rejects.toThrow(/--max-concurrency must be a whole number between 1 and 256/);
  });
});

/** A client that answers after `latencyMs(inFlight)` and reports each attempt like the HTTP transport does. */
function reportingClient(answer: (inFlight: number, attempt: number) => { latencyMs: number; throttled?: boolean }) {
  let inFlight = 0;
  let maxInFlight = 0;
  const client: SupplierCreator = {
    async createSupplier(body, onAttempt) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        for (let attempt = 0; ; attempt++) {
          const t = performance.now();
          const a = answer(inFlight, attempt);
          await tick(a.latencyMs);
          onAttempt?.(performance.now() - t, a.throttled ? 'throttled' : 'ok');
          if (!a.throttled) return { id: `id-${body.customerSupplierId}` };
        }
      } finally {
        inFlight--;
      }
    },
  };
  return { client, maxInFlight: () => maxInFlight };
}

describe('adaptive concurrency (the default)', () => {
  it('starts small and grows while answers come back as fast as ever, up to --max-concurrency', async () => {
    const f = reportingClient(() => ({ latencyMs: 20 }));
    const r = await run({ file: csv(rowsOf(600)), maxConcurrency: 24 }, harness(f.client));
    expect(r.summary.created).toBe(600);
    expect(r.concurrency).toMatchObject({ mode: 'adaptive', peak: 24, throttled: 0 });
    expect(f.maxInFlight()).toBe(24);
  });

  it('backs off when the service throttles, and never has more in flight than the limit allowed', async () => {
    // A service that throttles whatever is above 6 in flight (a request gets through on its fourth try, like after the client's retries).
    const f = reportingClient((inFlight, attempt) => ({ latencyMs: 5, throttled: inFlight > 6 && attempt < 3 }));
    const r = await run({ file: csv(rowsOf(400)) }, harness(f.client));
    expect(r.summary.created).toBe(400);
    expect(r.concurrency!.mode).toBe('adaptive');
    expect(r.concurrency!.throttled).toBeGreaterThan(0);
    expect(r.concurrency!.final).toBeLessThanOrEqual(8);
    expect(f.maxInFlight()).toBeLessThanOrEqual(r.concurrency!.peak);
  });

  it('--concurrency pins it', async () => {
    const f = reportingClient(() => ({ latencyMs: 2 }));
    const r = await run({ file: csv(rowsOf(200)), concurrency: 3 }, harness(f.client));
    expect(r.concurrency).toMatchObject({ mode: 'fixed', peak: 3, final: 3 });
    expect(f.maxInFlight()).toBe(3);
  });
});

describe('stopping', () => {
  it('an authentication failure stops sending, waits for the requests in flight and records them', async () => {
    const file = csv(rowsOf(500));
    const f = fakeClient(() => new AuthError('POST /v1/suppliers: the service rejected the API key (HTTP 401)', { status: 401 }), 5);
    const h = harness(f.client);
    const r = await run({ file, concurrency: 8 }, h);
    expect(r.fatal).toBeInstanceOf(AuthError);
    expect(r.summary.complete).toBe(false);
    expect(r.summary.stopReason).toBe('authentication failed');
    expect(f.seen.length).toBeLessThanOrEqual(16);
    expect(r.summary.failed).toBe(f.seen.length); // every request sent got an outcome
    expect(r.summary.total).toBe(h.rows.length);
    const journal = readFileSync(file + '.srs-journal', 'utf8');
    expect(journal.match(/"s":"sent"/g)!.length).toBe(journal.match(/"s":"failed"/g)!.length);
  });

  it('an abort (Ctrl-C) stops reading; in-flight rows finish; every row read has one outcome', async () => {
    const file = csv(rowsOf(2000));
    const ctl = new AbortController();
    let created = 0;
    const f = fakeClient(() => {
      if (++created === 100) ctl.abort();
      return `id-${created}`;
    }, 2);
    const h = harness(f.client, { signal: ctl.signal });
    const r = await run({ file, concurrency: 8 }, h);
    expect(r.interrupted).toBe(true);
    expect(r.summary).toMatchObject({ complete: false, stopReason: 'interrupted', unknown: 0, failed: 0 });
    expect(r.summary.created).toBe(f.seen.length);
    expect(r.summary.created).toBeLessThan(130);
    expect(h.rows.map((x) => x.line)).toEqual(Array.from({ length: r.summary.total }, (_, i) => i + 2));
    expect(r.summary.stoppedAfterLine).toBe(r.summary.total + 1);
  });
});

describe('resuming from the journal', () => {
  it('skips created rows, reports sent-without-answer as unknown, resends failed rows; --retry-unknown resends unknown ones', async () => {
    const file = csv(rowsOf(6));
    // A first run: rows 2..7; the client fails row R-2, leaves R-3 unknown, creates the rest.
    const first = fakeClient((b) =>
      b.customerSupplierId === 'R-2'
        ? new ApiError({ status: 400, method: 'POST', path: '/v1/suppliers', serviceMessage: 'no' })
        : b.customerSupplierId === 'R-3'
          ? new ApiError({ status: 502, method: 'POST', path: '/v1/suppliers' })
          : `id-${b.customerSupplierId}`,
    );
    await run({ file }, harness(first.client));
    // Simulate a run killed while R-5 (line 7) was in flight: a "sent" after its "created" with no answer.
    const journalPath = file + '.srs-journal';
    const lines = readFileSync(journalPath, 'utf8');
    const sentR5 = lines.split('\n').find((l) => l.startsWith('{"l":7,') && l.includes('"sent"'))!;
    writeFileSync(journalPath, lines + sentR5 + '\n');

    const second = fakeClient((b) => `id2-${b.customerSupplierId}`);
    const h2 = harness(second.client);
    const r2 = await run({ file }, h2);
    expect(h2.rows.map((x) => [x.line, x.state, x.supplierId ?? ''])).toEqual([
      [2, 'skipped', 'id-R-0'],
      [3, 'skipped', 'id-R-1'],
      [4, 'created', 'id2-R-2'], // failed before: provably not created, sent again
      [5, 'unknown', ''], // unknown before: not resent
      [6, 'skipped', 'id-R-4'],
      [7, 'unknown', ''], // in flight when the "run died"
    ]);
    expect(second.seen).toEqual(['R-2']);
    expect(r2.summary.unknown).toBe(2);

    const third = fakeClient((b) => `id3-${b.customerSupplierId}`);
    const h3 = harness(third.client);
    const r3 = await run({ file, retryUnknown: true }, h3);
    expect(third.seen.sort()).toEqual(['R-3', 'R-5']);
    expect(r3.summary).toMatchObject({ created: 2, skipped: 4, unknown: 0 });
  });

  it('a dry run predicts from the journal without writing to it', async () => {
    const file = csv(rowsOf(3));
    await run({ file }, harness(fakeClient((b) => `id-${b.customerSupplierId}`).client));
    const before = readFileSync(file + '.srs-journal', 'utf8');
    const h = harness(undefined);
    const r = await run({ file, dryRun: true }, h);
    expect(r.summary).toMatchObject({ skipped: 3, valid: 0 });
    expect(readFileSync(file + '.srs-journal', 'utf8')).toBe(before);
  });

  it('refuses output paths that would overwrite the input', async () => {
    const file = csv(['A,DEU,1']);
    await expect(run({ file, report: file }, harness(undefined))).rejects.toThrow(/is the input file/);
    await expect(run({ file, journal: join(dir, 'x.j'), report: join(dir, 'x.j') }, harness(undefined))).rejects.toThrow(/--report .* is --journal/);
    // Through a symlink or a hard link, the input is still the input: it is never overwritten.
    const sym = join(dir, 'link-to-input.csv');
    const hard = join(dir, 'hard-link-to-input.csv');
    symlinkSync(file, sym);
    linkSync(file, hard);
    const before = readFileSync(file, 'utf8');
    await expect(run({ file, report: sym }, harness(undefined))).rejects.toThrow(/--report .*link-to-input\.csv is the input file/);
    await expect(run({ file, failed: hard }, harness(undefined))).rejects.toThrow(/--failed .*hard-link-to-input\.csv is the input file/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    await expect(run({ file, journal: dir }, harness(undefined))).rejects.toThrow(/--journal .* is a directory: give a file path/);
  });
});

describe('progress', () => {
  const counts = { rows: 1234, problems: 2, bytes: 512 * 1024 };
  it('on a TTY: one line redrawn with \\r, only when it changes', () => {
    const out: string[] = [];
    let t = 0;
    const p = new Progress({ write: (s) => out.push(s), tty: true, quiet: false, totalBytes: 1024 * 1024, verb: 'importing', counts: () => counts, now: () => t });
    t = 1000;
    p.tick();
    p.tick();
    // No count yet: the total is estimated from the bytes read, and marked so.
    expect(out).toEqual(['\r\u001b[2Kimporting: 1,234 of ~2,468 rows (~50%), 1,234 rows/s, ETA ~1s, 2 problems']);
    p.stop();
    expect(out.at(-1)).toBe('\r\u001b[2K');
  });

  it('with the counted total: rows of the total, the recent rate, the ETA, the concurrency in force and the throttled requests', () => {
    let t = 0;
    const c = { rows: 0, problems: 0, bytes: 0, concurrency: 4, throttled: 0 };
    const p = new Progress({ write: () => undefined, tty: true, quiet: false, totalBytes: 10_000, verb: 'importing', counts: () => c, now: () => t, columns: () => 200 });
    p.totalRows = 3000;
    expect(p.line()).toBe('importing: 0 of 3,000 rows (0%), 0 rows/s, concurrency 4');
    // 100 rows/s for 20 s, then 200 rows/s: the rate shown is the last 10 s.
    for (let s = 1; s <= 20; s++) {
      t = s * 1000;
      c.rows = s * 100;
      p.line();
    }
    for (let s = 21; s <= 25; s++) {
      t = s * 1000;
      c.rows = 2000 + (s - 20) * 200;
      p.line();
    }
    c.concurrency = 16;
    c.throttled = 3;
    expect(p.line()).toBe('importing: 3,000 of 3,000 rows (100%), 150 rows/s, concurrency 16, 3 throttled');
    t = 25_000;
    c.rows = 2400;
    expect(p.line()).toMatch(/^importing: 2,400 of 3,000 rows \(80%\), \d+ rows\/s, ETA \ds, concurrency 16, 3 throttled$/);
  });

  it('drawn every 10 s (a CI log), the rate is still of the last 10 s, not the whole run\'s (the ETA was 5x off)', () => {
    let t = 0;
    const c = { rows: 0, problems: 0, bytes: 0 };
    const p = new Progress({ write: () => undefined, tty: false, quiet: false, totalBytes: undefined, verb: 'importing', counts: () => c, now: () => t });
    p.totalRows = 40_000;
    // 1,000 rows/s for 30 s, then 20 rows/s; a line every 10 s (and a few ms late, as a timer is).
    for (let s = 10; s <= 30; s += 10) {
      t = s * 1000 + 3;
      c.rows = s * 1000;
      p.line();
    }
    for (let s = 40; s <= 70; s += 10) {
      t = s * 1000 + 3 * s;
      c.rows = 30_000 + (s - 30) * 20;
      p.line();
    }
    expect(p.line()).toMatch(/^importing: 30,800 of 40,000 rows \(77%\), 20 rows\/s, ETA 7m4\ds$/);
  });

  it('on a terminal the line fits its width: the least needed parts go first, then an ellipsis', () => {
    let t = 0;
    const c = { rows: 102_345, problems: 16, bytes: 0, concurrency: 10, throttled: 52 };
    let columns: number | undefined = 80;
    const p = new Progress({ write: () => undefined, tty: true, quiet: false, totalBytes: 10_000_000, verb: 'importing', counts: () => c, now: () => t, columns: () => columns });
    p.totalRows = 200_000;
    t = 10_000;
    // 98 characters in full: at 80 columns the rows done are written short first, then concurrency goes, then throttled.
    expect(p.line()).toBe('importing: 102,345/200,000 (51%), 10,235 rows/s, ETA 10s, 16 problems');
    // Every width, down to 10 columns: a line that wraps cannot be redrawn (at 16 columns it was 20 long).
    for (const width of [80, 60, 40, 24, 22, 16, 10]) {
      columns = width;
      expect(p.line().length, `${width}: ${p.line()}`).toBeLessThan(width);
    }
    // At 22 the verb goes before the rows done are cut (the total was cut into another number: "108/2,00…").
    columns = 22;
    expect(p.line()).toMatch(/^102,345\/200,000 \(51%/);
    columns = 60;
    expect(p.line()).toBe('importing: 102,345/200,000 (51%), ETA 10s, 16 problems');
    // Narrower: the ETA goes, then the verb; the problems stay (docs/import.md).
    columns = 50;
    expect(p.line()).toBe('importing: 102,345/200,000 (51%), 16 problems');
    columns = 40;
    expect(p.line()).toBe('102,345/200,000 (51%), 16 problems');
    // A width not known (0 or undefined) is taken as 80; off a terminal the line is never cut.
    columns = 0;
    expect(p.line().length).toBeLessThanOrEqual(79);
    t = 0;
    const plain = new Progress({ write: () => undefined, tty: false, quiet: false, totalBytes: 10_000_000, verb: 'importing', counts: () => c, now: () => t, columns: () => 40 });
    plain.totalRows = 200_000;
    t = 10_000;
    expect(plain.line()).toBe('importing: 102,345 of 200,000 rows (51%), 10,235 rows/s, ETA 10s, concurrency 10, 52 throttled, 16 problems');
  });

  it('estimates a total it could not count from the records parsed per byte read, while the file is being read', () => {
    // Half of the 200 KB file read, 1,000 records parsed from it, 300 rows answered: the density, scaled to the file.
    const c = { rows: 300, problems: 0, bytes: 100_000, parsed: 1_000 };
    const p = new Progress({ write: () => undefined, tty: false, quiet: false, totalBytes: 200_000, verb: 'importing', counts: () => c, now: () => 1000 });
    expect(p.line()).toMatch(/^importing: 300 of ~2,000 rows \(~15%\)/);
    // All of it read: the records parsed are bounded by the parser's queue, not the file; no total rather than a
    // wrong one (75% done showed as ~100%), and never a percentage of the bytes read.
    Object.assign(c, { rows: 1_510, bytes: 200_000, parsed: 1_600 });
    expect(p.line()).toMatch(/^importing: 1,510 rows, /);
  });

  it('once the import is stopping (Ctrl-C), no total and no ETA: no more rows will be read', () => {
    const c = { rows: 676, problems: 0, bytes: 50_000, stopping: false };
    let t = 0;
    const p = new Progress({ write: () => undefined, tty: false, quiet: false, totalBytes: 200_000, verb: 'importing', counts: () => c, now: () => t });
    p.totalRows = 2_000;
    t = 4_000;
    expect(p.line()).toMatch(/ETA/);
    c.stopping = true;
    expect(p.line()).toMatch(/^stopping: 676 rows, \d+ rows\/s$/);
  });

  it('after a resume, the rows the journal kept back are not in the rate or the ETA', () => {
    let t = 0;
    // 1,975 rows kept back at once, then 60 rows a second of real work.
    const c = { rows: 1_975, kept: 1_975, problems: 0, bytes: 0 };
    const p = new Progress({ write: () => undefined, tty: false, quiet: false, totalBytes: 100_000, verb: 'importing', counts: () => c, now: () => t });
    p.totalRows = 3_000;
    p.line();
    for (let s = 1; s <= 5; s++) {
      t = s * 1000;
      c.rows = 1_975 + 60 * s;
      p.line();
    }
    expect(p.line()).toBe('importing: 2,275 of 3,000 rows (75%), 60 rows/s, ETA 12s');
  });

  it('stdin: rows and bytes read, no total and no ETA', () => {
    let t = 0;
    const p = new Progress({ write: () => undefined, tty: false, quiet: false, totalBytes: undefined, verb: 'importing', counts: () => ({ rows: 10, problems: 0, bytes: 2 * 1048576 }), now: () => t });
    t = 1000;
    expect(p.line()).toBe('importing: 10 rows (2.0 MB read), 10 rows/s');
  });

  it('without a TTY: plain lines, no carriage returns; --quiet: nothing', () => {
    const out: string[] = [];
    const p = new Progress({ write: (s) => out.push(s), tty: false, quiet: false, totalBytes: undefined, verb: 'validating', counts: () => counts, now: () => 2000 });
    p.tick();
    expect(out).toHaveLength(1);
    expect(out[0]).not.toContain('\r');
    expect(out[0]!.endsWith('\n')).toBe(true);
    const quiet: string[] = [];
    const q = new Progress({ write: (s) => quiet.push(s), tty: true, quiet: true, totalBytes: 1, verb: 'x', counts: () => counts });
    q.start();
    q.tick();
    q.stop();
    expect(quiet).toEqual([]);
  });
});
