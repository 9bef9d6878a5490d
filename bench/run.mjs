#!/usr/bin/env node
// The benchmark suite: runs every bench/*.bench.mjs (each a standalone script
// printing one JSON object {name, results:[{metric, value, unit?, target?, pass?}]}
// on its last stdout line), prints a table, and writes bench/RESULTS.md.
// Usage: npm run bench [-- name ...]   (assumes npm run build has run)
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
if (!existsSync(join(root, 'dist/srs.js'))) {
  console.error('bench: dist/ is missing; run npm run build first');
  process.exit(2);
}
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => !only.length || only.some((o) => f.startsWith(o)))
  .sort();

const sections = [];
let failed = false;
// The machine may be shared: each figure is only as good as the quiet it was taken in.
const loadAtStart = loadavg()[0];
for (const f of files) {
  process.stderr.write(`bench: ${f} ...\n`);
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, f)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const last = (r.stdout ?? '').trim().split('\n').filter(Boolean).at(-1);
  let report;
  try {
    report = JSON.parse(last ?? '');
  } catch {
    report = { name: f, results: [{ metric: 'error', value: `exit ${r.status}`, pass: false }] };
  }
  report.seconds = (Date.now() - started) / 1000;
  sections.push(report);
  for (const m of report.results) if (m.pass === false) failed = true;
}

const fmt = (v) => (typeof v === 'number' ? (Math.abs(v) >= 100 || Number.isInteger(v) ? v.toFixed(0) : v.toFixed(3)) : String(v));
const lines = [
  '# Benchmark results',
  '',
  `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString()}.`,
  'Medians of several runs after a warm-up; ratios compare contenders measured in the same run.',
  `Load average (1 min) at the start: ${loadAtStart.toFixed(2)}; at the end: ${loadavg()[0].toFixed(2)}. Each benchmark's own time: ${sections.map((s) => `${s.name} ${Math.round(s.seconds)} s`).join(', ')}.`,
  '',
  '| benchmark | metric | value | unit | target | pass |',
  '|---|---|---|---|---|---|',
];
for (const s of sections) {
  for (const m of s.results) {
    lines.push(`| ${s.name} | ${m.metric} | ${fmt(m.value)} | ${m.unit ?? ''} | ${m.target ?? ''} | ${m.pass === undefined ? '' : m.pass ? 'yes' : '**no**'} |`);
  }
}
lines.push('', 'Regenerate with `npm run build && npm run bench`.', '');
const md = lines.join('\n');
if (!only.length) writeFileSync(join(here, 'RESULTS.md'), md);
process.stdout.write(md);
process.exitCode = failed ? 1 : 0;
