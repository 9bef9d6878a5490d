/**
 * The reader view (src/api/contract.ts): srs accepts every answer the
 * interface document allows. Each command that reads the service runs (as the
 * built binary) against an emulator whose answers leave out every field the
 * client does not require ('minimal') and against one that sends every such
 * field as null ('all-nulls'). Every run exits 0; tables show blanks as —;
 * JSON output is what the service sent, passed through.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import type { ResponseShape } from '../../src/emulator/index.js';
import { startHarness, type Harness, type RunResult } from './harness.js';

const fx = fixtures();
const S0 = fx.suppliers[0]!;
const ENTRY = fx.dataEntries.find((e) => e.supplierId === S0.id)!;
const CARD = fx.scorecards[0]!;

describe.each<Exclude<ResponseShape, 'wire' | 'nulls'>>(['minimal', 'all-nulls'])('every command against %s answers', (shape) => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness({ shape });
    dir = mkdtempSync(join(tmpdir(), 'srs-reader-'));
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The emulator's own answer, fetched directly. */
  const raw = async (path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(h.emu.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-api-key': h.emu.apiKey, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expect(res.status).toBe(200);
    return res.json();
  };
  /** Every item of a paged list, as srs would collect them. */
  const rawAll = async (path: string): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (let page = 1; ; page++) {
      const body = (await raw(`${path}${path.includes('?') ? '&' : '?'}page=${page}&perPage=100`)) as { items: unknown[]; pagination: { nextPage?: number | null } };
      out.push(...body.items);
      if (typeof body.pagination.nextPage !== 'number' || body.pagination.nextPage <= page) return out;
    }
  };
  const ok = async (args: string[], input?: string): Promise<RunResult> => {
    const r = await h.run(args, input !== undefined ? { input } : {});
    expect(r.code, `srs ${args.join(' ')}\n${r.stderr}`).toBe(0);
    return r;
  };
  const table = async (args: string[]) => {
    const r = await ok([...args, '-o', 'table']);
    expect(r.stdout, `srs ${args.join(' ')}`).toContain('—');
    return r;
  };
  const json = async (args: string[]) => JSON.parse((await ok([...args, '-o', 'json'])).stdout) as unknown;

  it('the answers really are reduced (minimal: fields left out; all-nulls: null)', async () => {
    const { item } = (await raw(`/v1/suppliers/${S0.id}`)) as { item: Record<string, unknown> };
    if (shape === 'minimal') expect(item).toEqual({});
    else expect(Object.values(item).every((v) => v === null)).toBe(true);
    const entry = (await raw(`/v1/data-entries/${ENTRY.id}`)) as { policyParameterScores: Array<Record<string, unknown>>; newsEvent: Record<string, unknown> };
    expect(entry.policyParameterScores[0]!.policyParameter ?? null).toBeNull();
    expect(entry.newsEvent.articles ?? null).toBeNull();
  });

  it('supplier create and get', async () => {
    const created = (await json(['supplier', 'create', '--name', `Reader ${shape}`])) as { id: string };
    expect(created.id).toBeTruthy();
    await table(['supplier', 'get', S0.id]);
    expect(await json(['supplier', 'get', S0.id])).toEqual(((await raw(`/v1/suppliers/${S0.id}`)) as { item: unknown }).item);
  });

  it('supplier import', async () => {
    const csv = join(dir, 'in.csv');
    writeFileSync(csv, 'name,country\nReader Import One,DEU\nReader Import Two,FRA\n');
    const r = await ok(['supplier', 'import', csv, '-o', 'json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, complete: true });
  });

  it('scorecards ls (with and without --supplier) and get', async () => {
    await table(['scorecards', 'ls']);
    expect(await json(['scorecards', 'ls'])).toEqual(await rawAll('/v1/scorecards'));
    await table(['scorecards', 'ls', '--supplier', S0.id]);
    expect(await json(['scorecards', 'ls', '--supplier', S0.id])).toEqual(await rawAll(`/v1/scorecards?supplierId=${S0.id}`));
    await table(['scorecards', 'get', CARD.id]);
    expect(await json(['scorecards', 'get', CARD.id])).toEqual(((await raw(`/v1/scorecards/${CARD.id}`)) as { item: unknown }).item);
  });

  it('emissions ls, news ls (with and without --data-entry), data-entry get', async () => {
    await table(['emissions', 'ls', S0.id]);
    expect(await json(['emissions', 'ls', S0.id])).toEqual(((await raw(`/v1/suppliers/${S0.id}/emission-reports`)) as { items: unknown }).items);
    await table(['news', 'ls', S0.id]);
    expect(await json(['news', 'ls', S0.id])).toEqual(await rawAll(`/v1/suppliers/${S0.id}/news-events`));
    await table(['news', 'ls', S0.id, '--data-entry', ENTRY.id]);
    expect(await json(['news', 'ls', S0.id, '--data-entry', ENTRY.id])).toEqual(await rawAll(`/v1/suppliers/${S0.id}/news-events?dataEntryId=${ENTRY.id}`));
    await table(['data-entry', 'get', ENTRY.id]);
    expect(await json(['data-entry', 'get', ENTRY.id])).toEqual(await raw(`/v1/data-entries/${ENTRY.id}`));
  });

  it('ref countries, industries (both levels), sources, categories', async () => {
    for (const [args, path] of [
      [['ref', 'countries'], '/v1/countries'],
      [['ref', 'industries'], '/v1/standard-industries'],
      [['ref', 'industries', '--all-levels'], '/v1/standard-industries?subIndustriesOnly=false'],
      [['ref', 'sources'], '/v1/data-sources'],
    ] as const) {
      await table([...args]);
      expect(await json([...args]), args.join(' ')).toEqual(await rawAll(path));
    }
    // Categories: the document shows no shape; the emulator's keep their id (the reader requires it).
    await ok(['ref', 'categories', '-o', 'table']);
    expect(await json(['ref', 'categories'])).toEqual(await rawAll('/v1/categories'));
  });

  it('score calc (summary, json, every breakdown, --save), check and recompute', async () => {
    const ids = [S0.id, fx.suppliers[1]!.id];
    await table(['score', 'calc', ...ids]);
    const results = await json(['score', 'calc', ...ids]);
    expect(results).toEqual(((await raw('/v1/score-calculation', { supplierIds: ids })) as { items: unknown }).items);
    for (const b of ['sources', 'parameters', 'entries']) await ok(['score', 'calc', ...ids, '--breakdown', b, '-o', 'table']);
    const bundle = join(dir, `bundle-${shape}.json`);
    await ok(['score', 'calc', ...ids, '--save', bundle, '-o', 'table']);
    expect(readFileSync(bundle, 'utf8')).toContain(S0.id);
    // No data fails the gate unless allowed (fail closed); allowed, it is reported as such.
    expect((await h.run(['score', 'check', ...ids, '--min', '0', '-o', 'table'])).code).toBe(3);
    const check = await ok(['score', 'check', ...ids, '--min', '0', '--allow-no-data', '-o', 'table']);
    expect(check.stdout).toContain('NO DATA');
    expect(check.stdout).toContain('—');
    await ok(['score', 'check', '--from', bundle, '--min', '0', '--allow-no-data', '-o', 'json']);
    await ok(['score', 'explain', S0.id, '-o', 'table']);
    await ok(['score', 'recompute', bundle, '-o', 'table']);
  });

  it('api and auth login', async () => {
    const body = (await json(['api', 'GET', '/v1/countries'])) as { items: unknown[] };
    expect(body).toEqual(await raw('/v1/countries'));
    const r = await h.run(['auth', 'login', '--profile', `p-${shape}`, '--with-key'], { input: h.emu.apiKey, env: { SRS_API_KEY: undefined } });
    expect(r.code, r.stderr).toBe(0);
  });
});
