// Evidence bundles at scale (issue 17): `srs score calc --save` of 100,000
// suppliers against the emulator (`--suppliers 100000`), and `srs score
// recompute --verify` of a generated 100,000 suppliers x 20 entries bundle
// (format 2), each as a whole srs process: wall time, CPU time and peak RSS,
// targets under 10 s and 500 MB. One run each (a run takes seconds to
// minutes; the machine is shared: read the wall times as taken under load,
// and the CPU seconds beside them). calc --save sends one
// GET /v1/scorecards?supplierId= per supplier (the only way the interface
// says which scorecards apply), so its time is that of 100,000 requests.
// Usage: node bench/bundle.bench.mjs [--only recompute|calc] [--suppliers N]
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { scoreSupplier, toScoreResult, MODEL_VERSION } from '../dist/scoring.js';
import { BIN, NODE, mulberry32, peakRss, srsEnv, startEmulatorProcess, tempDir } from './common.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : process.argv[i + 1];
};
const SUPPLIERS = Number(arg('--suppliers', 100_000));
const ONLY = arg('--only', '');
const ENTRIES = 20;
const PARAMS = 12;
const SOURCES = 8;
const TARGET_S = 10;
const TARGET_MB = 500;
const dir = tempDir('srs-bench-bundle-');

// ---------------------------------------------------------------- a generated format-2 bundle

const rnd = mulberry32(17);
const pick = (n) => Math.floor(rnd() * n);
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const ulid = (n, prefix) => {
  let s = '';
  for (let k = 0; k < 26 - prefix.length; k++, n = Math.floor(n / 32)) s = CROCKFORD[n % 32] + s;
  return prefix + s;
};
const params = Array.from({ length: PARAMS }, (_, i) => ulid(i, '01pp'));
const card = (id, name, pids) => ({
  id,
  name,
  weight: 1,
  items: pids.map((p, i) => ({ type: 'policy_parameter_item', policyParameter: { id: p, name: `P${i}`, policyCategoryName: 'C' }, weight: 1 + (i % 3) })),
});
const cards = [card(ulid(1, '01sc'), 'Environment', params.slice(0, 6)), card(ulid(2, '01sc'), 'Social', params.slice(4, 12))];
const modelCards = cards.map((c) => ({ id: c.id, name: c.name, weight: c.weight, items: c.items.map((it) => ({ policyParameterId: it.policyParameter.id, weight: it.weight })) }));
const asOf = '2026-11-22';

async function generate(path) {
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  let buf = '';
  const line = async (rec) => {
    const s = JSON.stringify(rec) + '\n';
    hash.update(s);
    buf += s;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  };
  const options = { includeZeroValues: true, dataSourceIds: [], policyParameterIds: [], claimWeight: 0.5, mode: 'parameters' };
  await line({ kind: 'srs.score-bundle', bundleVersion: 2, modelVersion: MODEL_VERSION, createdAt: new Date().toISOString(), asOf, service: { baseUrl: null }, options });
  const ids = Array.from({ length: SUPPLIERS }, (_, s) => ulid(s, '01h5'));
  for (const c of cards) await line({ t: 'scorecard', scorecard: c });
  for (let b = 0; b < ids.length; b += 100) {
    const batch = ids.slice(b, b + 100);
    await line({ t: 'request', request: { supplierIds: batch } });
    for (const supplierId of batch) {
      const entries = [];
      for (let e = 0; e < ENTRIES; e++) {
        const a = pick(PARAMS);
        const c = (a + 1 + pick(PARAMS - 1)) % PARAMS;
        entries.push({
          id: `${supplierId.slice(0, 20)}e${String(e).padStart(5, '0')}`,
          supplierId,
          dataSourceId: `01ds${String(pick(SOURCES)).padStart(22, '0')}`,
          score: pick(7) - 3,
          isClaim: rnd() < 0.25,
          issueDate: rnd() < 0.9 ? '2024-01-01' : '2027-01-01',
          expiryDate: rnd() < 0.8 ? '2028-12-31' : '2025-06-30',
          parameterScores: [
            { policyParameterId: params[a], score: pick(7) - 3 },
            { policyParameterId: params[c], score: pick(7) - 3 },
          ],
        });
      }
      const item = toScoreResult(scoreSupplier(supplierId, entries, modelCards, { ...options, asOf }));
      await line({ t: 'result', scorecards: cards.map((c) => c.id), item });
    }
  }
  buf += JSON.stringify({ t: 'end', suppliers: SUPPLIERS, digest: { algorithm: 'sha256', value: hash.digest('hex') } }) + '\n';
  out.end(buf);
  await once(out, 'finish');
}

/** Wall seconds and peak RSS (MB) of one srs run, its stdout counted and dropped. */
async function measure(args, env) {
  const t0 = performance.now();
  const { mb, cpu, lines } = await peakRss(NODE, [BIN, ...args], { env });
  return { s: (performance.now() - t0) / 1000, mb, cpu, lines };
}

const results = [];
const row = (metric, value, unit, target, pass) => results.push({ metric, value, unit, ...(target ? { target, pass } : {}) });

if (ONLY !== 'calc') {
  const bundle = join(dir, 'generated.jsonl');
  const g0 = performance.now();
  await generate(bundle);
  const size = statSync(bundle).size;
  process.stderr.write(`bundle bench: generated ${SUPPLIERS} suppliers x ${ENTRIES} entries, ${(size / 1e6).toFixed(0)} MB in ${((performance.now() - g0) / 1000).toFixed(1)} s\n`);
  const r = await measure(['score', 'recompute', bundle, '--verify', '--only-differences', '-o', 'ndjson'], srsEnv());
  row(`recompute --verify, ${SUPPLIERS} x ${ENTRIES} (${(size / 1e6).toFixed(0)} MB bundle)`, r.s, 's', `< ${TARGET_S} s`, r.s < TARGET_S);
  row('recompute --verify, peak RSS', r.mb, 'MB', `< ${TARGET_MB} MB`, r.mb < TARGET_MB);
  row('recompute --verify, CPU (user + system)', r.cpu, 's');
  const all = await measure(['score', 'recompute', bundle, '--verify', '-o', 'ndjson'], srsEnv());
  row(`recompute --verify, every value printed (${all.lines} rows)`, all.s, 's');
  row('recompute --verify, every value printed, peak RSS', all.mb, 'MB');
  rmSync(bundle, { force: true });
}

if (ONLY !== 'recompute') {
  const emu = await startEmulatorProcess(['--suppliers', String(SUPPLIERS)]);
  try {
    const env = srsEnv({ SRS_BASE_URL: emu.url, SRS_API_KEY: emu.apiKey });
    const fx = JSON.parse(spawnSync(NODE, [BIN, 'emulator', 'fixtures', '--suppliers', String(SUPPLIERS)], { encoding: 'utf8', env, maxBuffer: 1 << 28 }).stdout);
    const idsFile = join(dir, 'ids.txt');
    writeFileSync(idsFile, fx.suppliers.map((s) => s.id).join('\n'));
    // The floor: the same requests sent by undici alone to a fresh emulator of its own, bodies dropped.
    const floorEmu = await startEmulatorProcess(['--suppliers', String(SUPPLIERS)]);
    try {
      const f = JSON.parse(spawnSync(NODE, [join(import.meta.dirname, 'calc-save-floor.mjs'), floorEmu.url, floorEmu.apiKey, idsFile, '16'], { encoding: 'utf8', env }).stdout);
      row(`floor: the same ${SUPPLIERS + Math.ceil(SUPPLIERS / 100)} requests, undici alone, bodies dropped (bench/calc-save-floor.mjs, fresh emulator)`, f.seconds, 's');
      row('floor: of which POST /v1/score-calculation (the emulator scores every supplier)', f.calcSeconds, 's');
      row('floor: CPU of the undici client', f.cpuSeconds, 's');
    } finally {
      await floorEmu.stop();
    }
    const out = join(dir, 'saved.jsonl');
    const r = await measure(['score', 'calc', '--ids-file', idsFile, '--save', out, '-o', 'ndjson'], env);
    const size = statSync(out).size;
    row(`calc --save against the emulator, ${SUPPLIERS} suppliers (${(size / 1e6).toFixed(0)} MB bundle)`, r.s, 's', `< ${TARGET_S} s`, r.s < TARGET_S);
    row('calc --save, peak RSS of srs', r.mb, 'MB', `< ${TARGET_MB} MB`, r.mb < TARGET_MB);
    row(`calc --save, CPU of srs (user + system; ${SUPPLIERS + Math.ceil(SUPPLIERS / 100)}+ requests: one GET /v1/scorecards?supplierId= per supplier)`, r.cpu, 's');
    const v = await measure(['score', 'recompute', out, '--verify', '--only-differences', '-o', 'ndjson'], srsEnv());
    row('recompute --verify of that bundle', v.s, 's', `< ${TARGET_S} s`, v.s < TARGET_S);
    row('recompute --verify of that bundle, peak RSS', v.mb, 'MB', `< ${TARGET_MB} MB`, v.mb < TARGET_MB);
    row('recompute --verify of that bundle, CPU (user + system)', v.cpu, 's');
  } finally {
    await emu.stop();
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ name: 'bundle', results }));
