/** --fields is checked against the resource's schema before anything is sent, and selects fields under json and ndjson. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
const fx = fixtures();
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('--fields', () => {
  it('an unknown path exits 2 with suggestions from the schema, and sends nothing', async () => {
    const before = h.requests.length;
    const r = await h.run(['ref', 'countries', '--fields', 'iso3Code,comonName', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('srs: --fields: a country has no field "comonName" (did you mean commonName?)\n');
    const none = await h.run(['scorecards', 'ls', '--fields', 'id,nosuch']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/a scorecard has no field "nosuch" \(fields of a scorecard: id, name, /);
    expect(h.requests.length).toBe(before);
  });
  it('under json selects the fields of every item, like gh --json', async () => {
    const r = await h.run(['ref', 'countries', '--fields', 'iso3Code,commonName', '--limit', '3', '-o', 'json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(3);
    for (const c of list) expect(Object.keys(c)).toEqual(['iso3Code', 'commonName']);
  });
  it('under ndjson and for a single resource, nested paths stay nested', async () => {
    const card = fx.scorecards[0]!;
    const one = await h.run(['scorecards', 'get', card.id, '--fields', 'id,name', '-o', 'json']);
    expect(JSON.parse(one.stdout)).toEqual({ id: card.id, name: card.name });
    const nd = await h.run(['data-entry', 'get', fx.dataEntries[0]!.id, '--fields', 'id,supplier.id', '-o', 'ndjson']);
    expect(JSON.parse(nd.stdout)).toEqual({ id: fx.dataEntries[0]!.id, supplier: { id: fx.dataEntries[0]!.supplierId } });
  });
  it('score calc under json selects from each result (no raw pass-through then)', async () => {
    const s = fx.suppliers[0]!.id;
    const r = await h.run(['score', 'calc', s, '--fields', 'supplierId,score.value', '-o', 'json']);
    expect(r.code).toBe(0);
    const [item] = JSON.parse(r.stdout) as Array<{ supplierId: string; score: { value: number | null } }>;
    expect(Object.keys(item!)).toEqual(['supplierId', 'score']);
    expect(Object.keys(item!.score)).toEqual(['value']);
  });
});
