// What the emulator's spec-strict answers cost (docs/emulator.md): the same requests against an emulator
// answering in wire form (the default: no data left out) and one answering with nulls (--nulls, no
// reshaping), interleaved, median of 40 rounds after a warm-up. POST /v1/score-calculation with 100 ids is
// built in its final form (src/emulator/scoring.ts); the lists go through src/emulator/shape.ts.
// Target: wire within 1.25x of nulls (the reshaping walk once made score calculation 15x slower).
import { startEmulator, fixtures } from '../dist/emulator.js';

const ids = fixtures().suppliers.slice(0, 100).map((s) => s.id);
const emus = { wire: await startEmulator({ port: 0, asOf: '2025-06-01' }), nulls: await startEmulator({ port: 0, shape: 'nulls', asOf: '2025-06-01' }) };
const once = async (e, path, body) => {
  const t = performance.now();
  const r = await fetch(e.url + path, { method: body ? 'POST' : 'GET', headers: { 'x-api-key': e.apiKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  return performance.now() - t;
};
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const results = [];
for (const [label, path, body] of [
  ['score-calculation 100 ids', '/v1/score-calculation', { supplierIds: ids }],
  ['scorecards page of 100', '/v1/scorecards?perPage=100', undefined],
  ['countries page of 100', '/v1/countries?perPage=100', undefined],
]) {
  const times = { wire: [], nulls: [] };
  for (let i = 0; i < 5; i++) for (const k of ['wire', 'nulls']) await once(emus[k], path, body);
  for (let i = 0; i < 40; i++) for (const k of ['wire', 'nulls']) times[k].push(await once(emus[k], path, body));
  const ratio = med(times.wire) / med(times.nulls);
  results.push({ metric: `${label}: wire ms`, value: med(times.wire), unit: 'ms' });
  results.push({ metric: `${label}: nulls ms`, value: med(times.nulls), unit: 'ms' });
  results.push({ metric: `${label}: wire / nulls`, value: ratio, target: '<= 1.25', pass: ratio <= 1.25 });
}
for (const e of Object.values(emus)) await e.close();
console.log(JSON.stringify({ name: 'emulator-shape', results }));
