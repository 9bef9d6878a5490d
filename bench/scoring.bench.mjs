// Offline scoring: 100,000 suppliers with 20 data entries each through the
// model (what `srs score recompute` does), target under 1 second.
import { scoreSupplier } from '../dist/scoring.js';
import { mulberry32 } from './common.mjs';

const SUPPLIERS = 100_000;
const ENTRIES = 20;
const PARAMS = 12;
const SOURCES = 8;

// A deterministic generator (mulberry32) so every run scores the same data.
const rnd = mulberry32(42);
const pick = (n) => Math.floor(rnd() * n);
const params = Array.from({ length: PARAMS }, (_, i) => `pp${i}`);
const scorecards = [
  { id: 'sc1', weight: 1, items: params.slice(0, 6).map((p, i) => ({ policyParameterId: p, weight: 1 + (i % 3) })) },
  { id: 'sc2', weight: 2, items: params.slice(4, 12).map((p, i) => ({ policyParameterId: p, weight: 2 - (i % 2) })) },
];
// Each entry informs two different parameters.
const twoParams = () => {
  const a = pick(PARAMS);
  const b = (a + 1 + pick(PARAMS - 1)) % PARAMS;
  return [{ policyParameterId: params[a], score: pick(7) - 3 }, { policyParameterId: params[b], score: pick(7) - 3 }];
};
const bySupplier = new Map();
const all = [];
for (let s = 0; s < SUPPLIERS; s++) {
  const supplierId = `s${s}`;
  const list = [];
  for (let e = 0; e < ENTRIES; e++) {
    const entry = {
      id: `${supplierId}e${e}`,
      supplierId,
      dataSourceId: `ds${pick(SOURCES)}`,
      score: pick(7) - 3,
      isClaim: rnd() < 0.25,
      issueDate: rnd() < 0.9 ? '2024-01-01' : '2027-01-01',
      expiryDate: rnd() < 0.8 ? '2028-12-31' : '2025-06-30',
      parameterScores: twoParams(),
    };
    list.push(entry);
    all.push(entry);
  }
  bySupplier.set(supplierId, list);
}
const ids = [...bySupplier.keys()];
const options = { asOf: '2026-11-22' };

function once() {
  const t0 = performance.now();
  let n = 0;
  for (const id of ids) {
    const r = scoreSupplier(id, bySupplier.get(id), scorecards, options);
    if (r.value !== null) n++;
  }
  return { ms: performance.now() - t0, n };
}

once(); // warm-up
const runs = [];
for (let i = 0; i < 5; i++) {
  globalThis.gc?.();
  runs.push(once().ms);
}
runs.sort((a, b) => a - b);
const median = runs[Math.floor(runs.length / 2)];
console.log(
  JSON.stringify({
    name: 'scoring',
    results: [
      { metric: 'offline_100k_suppliers_x20_entries', value: median / 1000, unit: 's (median of 5)', target: '< 1 s', pass: median < 1000 },
      { metric: 'suppliers_per_second', value: Math.round(SUPPLIERS / (median / 1000)), unit: '/s' },
    ],
  }),
);
