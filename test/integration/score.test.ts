/**
 * score calc / recompute / check end to end: the built binary against the
 * emulator, whose scores come from the same model as the offline recompute.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeScoreResult, type ReceivedScoreResult } from '../../src/api/contract.js';
import type { ScoreResult } from '../../src/api/contract.js';
import { breakdownColumns, type Breakdown } from '../../src/commands/score/view.js';
import { fixtures } from '../../src/emulator/index.js';
import { baseEnv, runSrs, startHarness, type Harness } from './harness.js';
import { writeConsistent } from '../support/consistent-bundle.js';

let h: Harness;
const fx = fixtures();
const first = fx.suppliers[0]!.id;
const ids = fx.suppliers.map((s) => s.id);
let bundlePath: string;

interface Item {
  supplierId: string;
  score: { value: number | null };
}

beforeAll(async () => {
  h = await startHarness();
  bundlePath = join(h.home, 'bundle.json');
});
afterAll(async () => {
  await h?.close();
});

/** calc --save of the first 30 suppliers to bundlePath, run once by whichever test needs the bundle first (each runs alone with -t). */
let saving: ReturnType<typeof h.run> | undefined;
function saveBundle(): ReturnType<typeof h.run> {
  saving ??= h.run(['score', 'calc', ...ids.slice(0, 30), '--save', bundlePath, '-o', 'json']);
  return saving;
}
async function savedBundle(): Promise<string> {
  const r = await saveBundle();
  if (r.code !== 0) throw new Error(`score calc --save failed (exit ${r.code}): ${r.stderr}`);
  return bundlePath;
}

describe('score calc', () => {
  it('any number of ids: batches of at most 100, merged in input order', async () => {
    const unknown = '01zzzzzzzzzzzzzzzzzzzzzzzz';
    const input = [...ids.slice().reverse(), unknown, ...ids.slice(0, 60)]; // 150 + 1 + 60 duplicates
    const before = h.requests.length;
    const r = await h.run(['score', 'calc', '--ids-file', '-', '-o', 'json'], { input: input.join('\n') + '\n# a comment\n\n' });
    // Every other result is printed; the unknown id is left out and then fails the run (exit 1, fail closed).
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`UNKNOWN ${unknown}: the service does not know supplier`);
    const items = JSON.parse(r.stdout) as Item[];
    expect(items.map((i) => i.supplierId)).toEqual(ids.slice().reverse());
    expect(r.stderr).toMatch(/60 duplicate supplier ids ignored/);
    const posts = h.requests.slice(before).filter((l) => l.startsWith('POST /v1/score-calculation'));
    expect(posts).toHaveLength(2);
    expect(r.stdout).not.toContain(unknown);
  });

  it('-o json|ndjson pass the service bytes through: the same output as parsing, validating and re-serialising every result', async () => {
    // --query @ takes the ordinary path (each body parsed and validated against the contract).
    // The emulator answers an unknown id with a result without score values.
    const input = [...ids.slice(0, 120).reverse(), '01zzzzzzzzzzzzzzzzzzzzzzzz', ...ids.slice(120)];
    const passed = await h.run(['score', 'calc', '--ids-file', '-', '-o', 'ndjson'], { input: input.join('\n') });
    const parsed = await h.run(['score', 'calc', '--ids-file', '-', '-o', 'ndjson', '--query', '@'], { input: input.join('\n') });
    // Both paths print every other result, in input order, then fail closed on the unknown id (exit 1): its result,
    // without score values, would read as a supplier without data, so it is left out of the output.
    expect(passed.code, passed.stderr).toBe(1);
    expect(parsed.code, parsed.stderr).toBe(1);
    for (const r of [passed, parsed]) expect(r.stderr).toMatch(/UNKNOWN 01z{24}: .*\n.*1 of 151 suppliers is unknown to the service/);
    const lines = passed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(input.length - 1);
    expect(lines.map((l) => (JSON.parse(l) as Item).supplierId)).toEqual(input.filter((id) => id !== '01zzzzzzzzzzzzzzzzzzzzzzzz'));
    // The parsed path prints each result completed (absent score values as null, docs/emulator.md): the same results.
    const completed = (out: string) => out.trimEnd().split('\n').map((l) => completeScoreResult(JSON.parse(l) as ReceivedScoreResult));
    expect(completed(passed.stdout)).toEqual(completed(parsed.stdout));
    const asJson = await h.run(['score', 'calc', '--ids-file', '-', '-o', 'json'], { input: input.join('\n') });
    expect(asJson.code).toBe(1);
    expect(asJson.stdout).toBe(`[\n${lines.join(',\n')}\n]\n`);
  });

  it('table: supplier, overall, label, data sources, parameters, risk', async () => {
    const r = await h.run(['score', 'calc', first, '-o', 'table']);
    expect(r.code).toBe(0);
    const [head, row] = r.stdout.split('\n');
    expect(head).toMatch(/^SUPPLIER\s+OVERALL\s+LABEL\s+DATA SOURCES\s+PARAMETERS\s+RISK$/);
    expect(row).toContain(first);
    expect(row).toMatch(/(very poor|poor|below average|neutral|fair|good|very good)/);
  });

  it('--breakdown sources|parameters|entries, as csv', async () => {
    // What the rows must be: one per data source, per parameter, per entry (of both) of the same result.
    const whole = await h.run(['score', 'calc', first, '-o', 'json']);
    expect(whole.code, whole.stderr).toBe(0);
    const [result] = JSON.parse(whole.stdout) as ScoreResult[];
    const entries = [...result!.dataSourceScores, ...result!.policyParameterScores].flatMap((x) => x.dataPoints.dataEntries.map((e) => e.id));
    const expected: Record<Breakdown, { key: string; ids: string[] }> = {
      sources: { key: 'dataSourceId', ids: result!.dataSourceScores.map((d) => d.dataSourceId) },
      parameters: { key: 'policyParameterId', ids: result!.policyParameterScores.map((p) => p.policyParameterId) },
      entries: { key: 'entryId', ids: entries },
    };
    for (const kind of ['sources', 'parameters', 'entries'] as const) {
      const r = await h.run(['score', 'calc', first, '--breakdown', kind, '-o', 'csv']);
      expect(r.code, kind).toBe(0);
      expect(r.stdout.split('\n').length, kind).toBeGreaterThan(2);
      const [header, ...rows] = parseCsv(r.stdout) as string[][];
      expect(header, kind).toEqual(breakdownColumns[kind].map((c) => c.path));
      expect(rows.length, kind).toBeGreaterThan(1);
      const col = (path: string) => header!.indexOf(path);
      expect(rows.map((row) => row[col('supplierId')]), kind).toEqual(rows.map(() => first));
      expect(rows.map((row) => row[col(expected[kind].key)]), kind).toEqual(expected[kind].ids);
    }
  });

  it('filters (--exclude-zero-values, --data-source) pass through to the service', async () => {
    const r = await h.run(['score', 'calc', first, '--exclude-zero-values', '--data-source', fx.dataSources[0]!.id, '-o', 'json']);
    expect(r.code).toBe(0);
    const [item] = JSON.parse(r.stdout) as Array<{ dataSourceScores: Array<{ dataSourceId: string }> }>;
    expect(item!.dataSourceScores.map((ds) => ds.dataSourceId)).toEqual([fx.dataSources[0]!.id]);
    // Without the filter the same supplier has more data sources, so the filter did narrow it.
    const unfiltered = await h.run(['score', 'calc', first, '-o', 'json']);
    const [whole] = JSON.parse(unfiltered.stdout) as ScoreResult[];
    expect(whole!.dataSourceScores.length).toBeGreaterThan(1);

    // A supplier with a zero-valued entry counted today, asked of the emulator directly (batches of 100).
    const dsEntries = (x: ScoreResult) => x.dataSourceScores.flatMap((ds) => ds.dataPoints.dataEntries);
    const allEntries = (x: ScoreResult) => [...dsEntries(x), ...x.policyParameterScores.flatMap((p) => p.dataPoints.dataEntries)];
    const zeroOf = (x: ScoreResult) => dsEntries(x).find((e) => e.score.value === 0);
    let withZero: { supplierId: string; entryId: string } | undefined;
    for (let i = 0; i < ids.length && !withZero; i += 100) {
      const res = await fetch(`${h.emu.url}/v1/score-calculation`, {
        method: 'POST',
        headers: { 'x-api-key': h.emu.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ supplierIds: ids.slice(i, i + 100) }),
      });
      expect(res.status).toBe(200);
      const hit = ((await res.json()) as { items: ScoreResult[] }).items.find((x) => zeroOf(x) !== undefined);
      if (hit) withZero = { supplierId: hit.supplierId, entryId: zeroOf(hit)!.id };
    }
    expect(withZero, 'the seeded data has a zero-valued entry').toBeDefined();
    const plain = await h.run(['score', 'calc', withZero!.supplierId, '-o', 'json']);
    expect(plain.code).toBe(0);
    const [kept] = JSON.parse(plain.stdout) as ScoreResult[];
    expect(dsEntries(kept!)).toContainEqual(expect.objectContaining({ id: withZero!.entryId, score: expect.objectContaining({ value: 0 }) }));
    const excl = await h.run(['score', 'calc', withZero!.supplierId, '--exclude-zero-values', '-o', 'json']);
    expect(excl.code).toBe(0);
    const [dropped] = JSON.parse(excl.stdout) as ScoreResult[];
    expect(dsEntries(dropped!).map((e) => e.id)).not.toContain(withZero!.entryId);
    expect(allEntries(dropped!).filter((e) => e.score.value === 0)).toEqual([]);
  });

  it('no ids is a usage error', async () => {
    const r = await h.run(['score', 'calc']);
    expect(r.code).toBe(2);
  });
});

describe('evidence bundle and offline recompute', () => {
  it('calc --save, then recompute --verify exits 0 without any network', async () => {
    const save = await saveBundle();
    expect(save.code).toBe(0);
    const records = readBundle(bundlePath);
    expect(records[0]).toMatchObject({ kind: 'srs.score-bundle', bundleVersion: 2, asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), modelVersion: expect.any(String) });
    expect(records.filter((r) => r.t === 'result')).toHaveLength(30);
    expect(records.at(-1)).toMatchObject({ t: 'end', suppliers: 30, digest: { algorithm: 'sha256', value: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(readFileSync(bundlePath, 'utf8')).not.toContain(h.env.SRS_API_KEY!);
    // No base URL, no key: recompute must not need either.
    const offline = { ...baseEnv(h.home + '/offline'), SRS_BASE_URL: 'http://127.0.0.1:9' };
    const r = await runSrs(['score', 'recompute', bundlePath, '--verify', '-o', 'json'], offline);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ ok: boolean; path: string }>;
    expect(rows.length).toBeGreaterThan(30 * 3);
    expect(rows.every((x) => x.ok)).toBe(true);
  });

  it('a bundle with one tampered value: "bundle altered" first; with the digest forged to match, "recomputation differs"', async () => {
    const records = readBundle(await savedBundle());
    const victim = records.find((r) => r.t === 'result' && (r.item as Item).score.value !== null)!.item as Item;
    victim.score.value = victim.score.value! + 0.25;
    const tampered = join(h.home, 'tampered.jsonl');
    writeBundle(tampered, records, { redigest: false });
    const altered = await runSrs(['score', 'recompute', tampered, '--verify', '--only-differences', '-o', 'json'], baseEnv(h.home + '/offline'));
    expect(altered.code).toBe(3);
    expect(altered.stdout).toBe('');
    expect(altered.stderr).toMatch(/bundle altered: .*does not match its digest/);
    writeBundle(tampered, records, { redigest: true });
    const r = await runSrs(['score', 'recompute', tampered, '--verify', '--only-differences', '-o', 'json'], baseEnv(h.home + '/offline'));
    expect(r.code).toBe(3);
    const rows = JSON.parse(r.stdout) as Array<{ supplierId: string; path: string; ok: boolean }>;
    expect(rows).toEqual([expect.objectContaining({ supplierId: victim.supplierId, path: 'value', ok: false })]);
    expect(r.stderr).toMatch(/recomputation differs: .*value reported/);
    // A tolerance above the change accepts it.
    const loose = await runSrs(['score', 'recompute', tampered, '--verify', '--tolerance', '0.3'], baseEnv(h.home + '/offline'));
    expect(loose.code).toBe(0);
  });

  it('content added after the end record, under a new end record with a forged digest, stops at the header: no row reads as agreeing first', async () => {
    const records = readBundle(await savedBundle());
    const more = records.filter((r) => r.t === 'result').slice(0, 3);
    const appended = join(h.home, 'appended.jsonl');
    writeBundle(appended, [...records, ...more, structuredClone(records.at(-1)!)], { redigest: true });
    const r = await runSrs(['score', 'recompute', appended, '--verify', '-o', 'json'], baseEnv(h.home + '/offline'));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('content was added after an end record (the file holds 2 end records)');
    const html = join(h.home, 'appended.html');
    const rep = await runSrs(['score', 'report', appended, '--html', html], baseEnv(h.home + '/offline'));
    expect(rep.code).toBe(3);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<b>Digest:</b> <span class="bad">does not match the content</span>');
    expect(page).toContain('content was added after an end record');
  });

  it('a bundle without its header line, or with another kind of header, is named as such (not "not valid JSON at position 914")', async () => {
    const lines = readFileSync(await savedBundle(), 'utf8').trimEnd().split('\n');
    const headless = join(h.home, 'headless.jsonl');
    writeFileSync(headless, lines.slice(1).join('\n') + '\n');
    const r = await runSrs(['score', 'recompute', headless, '--verify'], baseEnv(h.home + '/offline'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the lines of an srs score bundle without its header line \(the first line is a "request" record/);
    const foreign = join(h.home, 'foreign.jsonl');
    writeFileSync(foreign, [JSON.stringify({ ...JSON.parse(lines[0]!), kind: 'other.bundle' }), ...lines.slice(1)].join('\n') + '\n');
    const f = await runSrs(['score', 'recompute', foreign, '--verify'], baseEnv(h.home + '/offline'));
    expect(f.code).toBe(2);
    expect(f.stderr).toContain('its first line is a header of kind "other.bundle", not "srs.score-bundle"');
  });

  it('check --from gates on srs\'s recomputation: a value nudged within the tolerance verifies, but cannot cross a --min', async () => {
    const records = readBundle(await savedBundle());
    // A score whose 9-decimal rounding goes down, and which 9e-10 more takes to the next 1e-9 step.
    const frac = (v: number) => v * 1e9 - Math.floor(v * 1e9);
    const victim = records.map((r) => r.item as Item | undefined).find((it) => typeof it?.score.value === 'number' && frac(it.score.value) >= 0.1 && frac(it.score.value) < 0.5);
    expect(victim, 'a bundle value that a 9e-10 nudge takes across a 1e-9 step').toBeDefined();
    const exact = victim!.score.value!;
    const threshold = Math.floor(exact * 1e9) / 1e9 + 1e-9;
    expect(exact + 9e-10).toBeGreaterThanOrEqual(threshold);
    victim!.score.value = exact + 9e-10;
    const nudged = join(h.home, 'nudged.jsonl');
    writeBundle(nudged, records, { redigest: true });
    const offline = baseEnv(h.home + '/offline');
    expect((await runSrs(['score', 'recompute', nudged, '--verify'], offline)).code).toBe(0);
    const honest = await runSrs(['score', 'check', '--from', bundlePath, '--min', String(threshold)], offline);
    const forged = await runSrs(['score', 'check', '--from', nudged, '--min', String(threshold)], offline);
    // The honest bundle fails the supplier; the nudged one, gated on the recomputation, fails it the same way.
    expect(honest.code, honest.stderr).toBe(3);
    expect(forged.code, forged.stderr).toBe(3);
    expect(forged.stderr).toContain(`FAIL ${victim!.supplierId}:`);
  });

  it('check --from a bundle calculated with filters is refused unless the run states them (its scores are not overall scores)', async () => {
    const [p1, p2] = fx.policyParameters.map((p) => p.id);
    const filtered = join(h.home, 'filtered.jsonl');
    const save = await h.run(['score', 'calc', ...ids.slice(0, 5), '--policy-parameter', p1!, '--policy-parameter', p2!, '--exclude-zero-values', '--save', filtered, '-o', 'json']);
    expect(save.code, save.stderr).toBe(0);
    const offline = baseEnv(h.home + '/offline');
    const bare = await runSrs(['score', 'check', '--from', filtered, '--min', '0', '--allow-no-data'], offline);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`was calculated with --policy-parameter ${p1} --policy-parameter ${p2} --exclude-zero-values: its scores are those of that filtered calculation, not overall scores`);
    const stated = await runSrs(['score', 'check', '--from', filtered, '--policy-parameter', p1!, '--policy-parameter', p2!, '--exclude-zero-values', '--min', '-3', '--allow-no-data'], offline);
    expect(stated.code, stated.stderr).toBe(0);
    // As online: a --min-parameter for a parameter the calculation left out is exit 2, not a FAIL per supplier.
    const other = fx.policyParameters.map((p) => p.id).find((id) => id !== p1 && id !== p2)!;
    const leftOut = await runSrs(['score', 'check', '--from', filtered, '--policy-parameter', p1!, '--policy-parameter', p2!, '--exclude-zero-values', '--min-parameter', `${other}=0`], offline);
    expect(leftOut.code).toBe(2);
    expect(leftOut.stderr).toContain(`--min-parameter ${other} is not among the --policy-parameter filters`);
  });

  it('a raw response plus --scorecards recomputes too', async () => {
    const calc = await h.run(['score', 'calc', first, '-o', 'json']);
    const cards = await h.run(['scorecards', 'ls', '--supplier', first, '-o', 'json']);
    const resp = join(h.home, 'raw.json');
    const sc = join(h.home, 'cards.json');
    writeFileSync(resp, JSON.stringify({ items: JSON.parse(calc.stdout) }));
    writeFileSync(sc, cards.stdout);
    // A raw response has no digest: --verify says it cannot verify it, unless told to accept that.
    const strict = await runSrs(['score', 'recompute', resp, '--scorecards', sc, '--verify'], baseEnv(h.home + '/offline'));
    expect(strict.code).toBe(3);
    expect(strict.stderr).toMatch(/cannot verify: a raw score-calculation response carries no digest/);
    const r = await runSrs(['score', 'recompute', resp, '--scorecards', sc, '--verify', '--allow-undigested'], baseEnv(h.home + '/offline'));
    expect(r.code, r.stderr).toBe(0);
  });

  it('garbage input is exit 2 with one line', async () => {
    const r = await runSrs(['score', 'recompute', '-'], baseEnv(h.home + '/offline'), { input: '{"kind":"srs.score-bundle"}' });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('score check', () => {
  const scores = async () => {
    const r = await h.run(['score', 'calc', ...ids.slice(0, 30), '-o', 'json']);
    return JSON.parse(r.stdout) as Item[];
  };

  it('passes when every score meets --min, fails (exit 3) naming each failing supplier otherwise', async () => {
    const items = await scores();
    const scored = items.filter((i) => typeof i.score.value === 'number');
    const lowest = Math.min(...scored.map((i) => i.score.value!));
    const highest = Math.max(...scored.map((i) => i.score.value!));
    const scoredIds = scored.map((i) => i.supplierId);
    const pass = await h.run(['score', 'check', ...scoredIds, '--min', String(lowest - 0.01)]);
    expect(pass.code, pass.stderr).toBe(0);
    const bar = (lowest + highest) / 2;
    const expectedFailures = scored.filter((i) => i.score.value! < bar).map((i) => i.supplierId).sort();
    const fail = await h.run(['score', 'check', ...scoredIds, '--min', String(bar), '-o', 'json']);
    expect(fail.code).toBe(3);
    const results = JSON.parse(fail.stdout) as Array<{ supplierId: string; status: string }>;
    expect(results.filter((r) => r.status === 'fail').map((r) => r.supplierId).sort()).toEqual(expectedFailures);
    const lines = fail.stderr.split('\n').filter((l) => l.startsWith('FAIL '));
    expect(lines.map((l) => l.split(' ')[1]!.replace(':', '')).sort()).toEqual(expectedFailures);
  });

  it('an unknown supplier fails as unknown; no data fails unless --allow-no-data; --require-score is an accepted no-op', async () => {
    const unknown = '01zzzzzzzzzzzzzzzzzzzzzzzz';
    const r = await h.run(['score', 'check', unknown, '--min', '0', '-o', 'json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ supplierId: unknown, status: 'unknown' })]);
    expect(r.stderr).toMatch(/UNKNOWN 01z+: the service does not know supplier/);
    expect((await h.run(['score', 'check', unknown, '--min', '0', '--allow-no-data'])).code).toBe(3);
    const items = await scores();
    const empty = items.find((i) => typeof i.score.value !== 'number')!.supplierId;
    const noData = await h.run(['score', 'check', empty, '--min', '0', '-o', 'json']);
    expect(noData.code).toBe(3);
    expect(noData.stderr).toMatch(/FAIL .*no score \(no counting data\), which --allow-no-data accepts/);
    // Reasons read as text in a table and in CSV, beside another supplier's several reasons (one was shown as JSON).
    for (const format of ['table', 'csv']) {
      const both = await h.run(['score', 'check', empty, first, '--min', '3', '--max-risk', 'Low', '-o', format], { env: { COLUMNS: '250' } });
      expect(both.code).toBe(3);
      expect(both.stdout, format).not.toMatch(/\["/);
      expect(both.stdout, format).toContain('no score (no counting data), which --allow-no-data accepts');
      expect(both.stdout, format).toMatch(/is below the minimum 3; /);
      // CSV has the level as sent beside riskRecognised, as the README says (calc's and explain's CSV did already).
      if (format === 'csv') expect(both.stdout.split('\n')[0]).toBe('supplierId,status,score,riskLevel,riskRecognised,reasons');
    }
    const allowed = await h.run(['score', 'check', empty, '--min', '0', '--allow-no-data', '-o', 'json']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toEqual([expect.objectContaining({ supplierId: empty, status: 'no data' })]);
    expect((await h.run(['score', 'check', empty, '--min', '0', '--require-score'])).code).toBe(3);
  });

  it('check shows a score as exactly as calc does, and more when the verdict needs it (0.496 read "0.50" in check)', async () => {
    const ids = fx.suppliers.slice(0, 40).map((s) => s.id);
    const cell = (stdout: string, column: number) => new Map(stdout.trim().split('\n').slice(1).map((l) => { const c = l.trim().split(/\s+/); return [c[0]!, c[column]!]; }));
    const calc = cell((await h.run(['score', 'calc', ...ids, '-o', 'table'], { env: { COLUMNS: '250' } })).stdout, 1);
    const check = await h.run(['score', 'check', ...ids, '--min', '-3', '--allow-no-data', '-o', 'table'], { env: { COLUMNS: '250' } });
    const shown = cell(check.stdout, 2);
    let compared = 0;
    for (const [id, overall] of calc) {
      if (!/^-?\d/.test(overall)) continue;
      compared++;
      expect(shown.get(id), id).toBe(overall);
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('--max-risk, --expiring-within and --min-parameter gate as documented', async () => {
    const risky = await h.run(['score', 'check', first, '--max-risk', 'Low', '-o', 'json']);
    expect(risky.code).toBe(3);
    expect(risky.stdout).toMatch(/risk High is above the maximum Low/);
    const relaxed = await h.run(['score', 'check', first, '--max-risk', 'High']);
    expect(relaxed.code, relaxed.stderr).toBe(0);
    const expiring = await h.run(['score', 'check', first, '--expiring-within', '36500']);
    expect(expiring.code).toBe(3);
    expect(expiring.stderr).toMatch(/evidence expires within 36500 days/);
    const calc = JSON.parse((await h.run(['score', 'calc', first, '-o', 'json'])).stdout) as Array<{ policyParameterScores: Array<{ policyParameterId: string; score: { value: number | null } }> }>;
    const param = calc[0]!.policyParameterScores.find((p) => p.score.value !== null)!;
    const above = await h.run(['score', 'check', first, '--min-parameter', `${param.policyParameterId}=${param.score.value! + 0.1}`]);
    expect(above.code).toBe(3);
    expect(above.stderr).toContain(`parameter ${param.policyParameterId} score`);
    const below = await h.run(['score', 'check', first, '--min-parameter', `${param.policyParameterId}=${param.score.value! - 0.1}`]);
    expect(below.code).toBe(0);
    const malformed = await h.run(['score', 'check', first, '--min-parameter', 'nonsense']);
    expect(malformed.code).toBe(2);
    const bad = await h.run(['score', 'check', first, '--max-risk', 'Purple']);
    expect(bad.code).toBe(2);
    const none = await h.run(['score', 'check', first]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no threshold/);
  });

  it('--from a bundle offline, --baseline/--max-drop, JUnit XML and GitHub annotations', async () => {
    const records = readBundle(await savedBundle());
    const baseline = structuredClone(records);
    const victim = baseline.find((r) => r.t === 'result' && (r.item as Item).score.value !== null)!.item as Item & {
      dataSourceScores: Array<{ dataPoints: { dataEntries: Array<{ score: { value: number | null } }> } }>;
      policyParameterScores: Array<{ dataPoints: { dataEntries: Array<{ score: { value: number | null } }> } }>;
    };
    const now = victim.score.value!;
    // The baseline is recomputed by the gate: a month ago, every entry of the victim scored a point higher (up to +3),
    // and the baseline reports what srs's model makes of those entries.
    const raise = (e: { score: { value: number | null } }) => {
      if (typeof e.score.value === 'number') e.score.value = Math.min(3, e.score.value + 1);
    };
    for (const d of victim.dataSourceScores) for (const e of d.dataPoints.dataEntries) raise(e);
    for (const p of victim.policyParameterScores) for (const e of p.dataPoints.dataEntries) raise(e);
    const basePath = join(h.home, 'baseline.jsonl');
    await writeConsistent(basePath, baseline, baseEnv(h.home + '/offline'));
    const was = (readBundle(basePath).find((r) => r.t === 'result' && (r.item as Item).supplierId === victim.supplierId)!.item as Item).score.value!;
    expect(was - now).toBeGreaterThan(0.5);
    const junit = join(h.home, 'report.xml');
    const offline = { ...baseEnv(h.home + '/offline'), GITHUB_ACTIONS: 'true' };
    // Suppliers without data are accepted here: this test is about the drop.
    const r = await runSrs(['score', 'check', '--from', bundlePath, '--baseline', basePath, '--max-drop', '0.5', '--allow-no-data', '--junit', junit, '-o', 'json'], offline);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`::error title=srs score check%3A ${victim.supplierId}::score fell by `);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as { testsuites: { testsuite: { '@_tests': string; '@_failures': string; testcase: unknown[] } } };
    expect(doc.testsuites.testsuite['@_tests']).toBe('30');
    expect(doc.testsuites.testsuite['@_failures']).toBe('1');
    expect(doc.testsuites.testsuite.testcase).toHaveLength(30);
    const ok = await runSrs(['score', 'check', '--from', bundlePath, '--baseline', basePath, '--max-drop', '6', '--allow-no-data'], baseEnv(h.home + '/offline'));
    expect(ok.code, ok.stderr).toBe(0);
  });
});

/** The records of a format-2 bundle, one per line. */
function readBundle(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Writes records as a format-2 bundle; with `redigest` the end record gets the digest of the new content (a forger can do that). */
function writeBundle(path: string, records: Array<Record<string, unknown>>, opts: { redigest: boolean }): void {
  const body = records.slice(0, -1).map((r) => JSON.stringify(r) + '\n').join('');
  const end = structuredClone(records.at(-1)!) as { suppliers: number; digest: { value: string } };
  if (opts.redigest) {
    end.digest.value = createHash('sha256').update(body).digest('hex');
    end.suppliers = records.filter((r) => r.t === 'result' || r.t === 'error').length;
  }
  writeFileSync(path, body + JSON.stringify(end) + '\n');
}
