#!/usr/bin/env node
// `srs supplier import` at the service's pace (issue 18): default options (adaptive
// concurrency) against emulators that behave like remote services, each contender
// measured in the same run against the same emulator:
//  1. --latency 80-120 --rate-limit 150/s, 3,000 rows: rows/s against the limit, and
//     the share of requests answered 429;
//  2. --latency 80-120, no limit, 5,000 rows: default options against --concurrency 8
//     (the old default);
//  3. --capacity 16 --latency 20, 3,000 rows: default options against the best of a
//     sweep of fixed --concurrency values, and the share answered 503.
// rows/s is rows created over the import's own elapsed time (first row to last
// answer; start-up is the startup and lookup benches' business). The emulator runs in this process
// (dist/emulator.js) so that its fault counters can be read; each import is a child
// process. Prints one JSON object on stdout; progress notes go to stderr.
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, NODE, ROOT, report, srsEnv, tempDir } from './common.mjs';

const note = (s) => process.stderr.write(`bench/pace: ${s}\n`);
if (!existsSync(join(ROOT, 'dist', 'emulator.js'))) {
  note('dist/emulator.js is missing: run `npm run build` first');
  process.exit(2);
}
const { startEmulator } = await import(join(ROOT, 'dist', 'emulator.js'));

const dir = tempDir('srs-bench-pace-');
let files = 0;
function csv(rows) {
  const p = join(dir, `in-${files++}.csv`);
  const prefix = `P${files}`;
  const lines = ['name,country,customerSupplierId,website'];
  for (let i = 0; i < rows; i++) lines.push(`"Supplier ${prefix} ${i}, Ltd",DEU,${prefix}-${String(i).padStart(6, '0')},https://s${i}.example.com`);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

/** One import; `sweep`: rows that fail (503s past the retries of an over-driven fixed concurrency) are allowed, and only rows created count. */
function importRun(emu, rows, extra = [], { sweep = false } = {}) {
  const file = csv(rows);
  const env = srsEnv({ SRS_BASE_URL: emu.url, SRS_API_KEY: emu.apiKey });
  const before = emu.faultStats();
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, 'supplier', 'import', file, '-o', 'json', '--quiet', ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const s = JSON.parse(out || '{}');
      if (typeof s.created !== 'number' || (!sweep && (code !== 0 || s.created !== rows))) {
        reject(new Error(`import ${extra.join(' ')} failed (exit ${code}, ${s.created} created): ${err.slice(0, 500)}`));
        return;
      }
      const after = emu.faultStats();
      const requests = after.requests - before.requests;
      const r = {
        rate: Math.round(s.created / s.elapsedSeconds),
        failed: rows - s.created,
        requests,
        share429: (after.rateLimited - before.rateLimited) / requests,
        share503: (after.overloaded - before.overloaded) / requests,
      };
      note(`${extra.join(' ') || 'default'}: ${r.rate} rows/s created, ${r.failed} not created, ${requests} requests, ${(r.share429 * 100).toFixed(1)}% 429, ${(r.share503 * 100).toFixed(1)}% 503`);
      resolve(r);
    });
  });
}

const pct = (x) => Math.round(x * 1000) / 10;
const results = [];
try {
  // 1. A rate-limited remote service.
  {
    const emu = await startEmulator({ port: 0, faults: { latency: '80-120', rateLimit: '150/s' } });
    try {
      note('1. --latency 80-120 --rate-limit 150/s, 3,000 rows, default options');
      const d = await importRun(emu, 3000);
      results.push({ metric: 'rate-limited 150/s: import, default options', value: d.rate, unit: 'rows/s', target: '>= 135 (90% of 150)', pass: d.rate >= 135 });
      results.push({ metric: 'rate-limited 150/s: requests answered 429', value: pct(d.share429), unit: '% of requests', target: '<= 3', pass: d.share429 <= 0.03 });
    } finally {
      await emu.close();
    }
  }
  // 2. A remote service without a limit.
  {
    const emu = await startEmulator({ port: 0, faults: { latency: '80-120' } });
    try {
      note('2. --latency 80-120, 5,000 rows: default options, then --concurrency 8');
      const d = await importRun(emu, 5000);
      const c8 = await importRun(emu, 5000, ['--concurrency', '8']);
      results.push({ metric: 'latency 80-120 ms: import, default options', value: d.rate, unit: 'rows/s' });
      results.push({ metric: 'latency 80-120 ms: import --concurrency 8', value: c8.rate, unit: 'rows/s' });
      results.push({ metric: 'latency 80-120 ms: default / --concurrency 8', value: d.rate / c8.rate, unit: 'x', target: '>= 4', pass: d.rate / c8.rate >= 4 });
    } finally {
      await emu.close();
    }
  }
  // 3. A saturated service: 16 at once, 16 more queue, the rest 503.
  {
    const emu = await startEmulator({ port: 0, faults: { latency: 20, capacity: 16 } });
    try {
      note('3. --capacity 16 --latency 20, 3,000 rows: a sweep of fixed --concurrency, then default options');
      const sweep = [];
      for (const c of [8, 16, 24, 32, 48, 64]) sweep.push({ c, ...(await importRun(emu, 3000, ['--concurrency', String(c)], { sweep: true })) });
      const d = await importRun(emu, 3000);
      const best = sweep.reduce((a, b) => (b.rate > a.rate ? b : a));
      results.push({ metric: `capacity 16: best fixed concurrency of a sweep (${sweep.map((s) => `${s.c}: ${s.rate}`).join(', ')})`, value: best.rate, unit: `rows/s (--concurrency ${best.c})` });
      results.push({ metric: 'capacity 16: import, default options', value: d.rate, unit: 'rows/s' });
      results.push({ metric: 'capacity 16: default / best fixed', value: d.rate / best.rate, unit: 'x', target: '>= 0.85', pass: d.rate / best.rate >= 0.85 });
      results.push({ metric: 'capacity 16: requests answered 503, default options', value: pct(d.share503), unit: '% of requests', target: '<= 2', pass: d.share503 <= 0.02 });
    } finally {
      await emu.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
report('pace', results);
