/**
 * Issue #19 items 2, 7, 8 end to end: names beside ids, score explain,
 * emission totals as bars, and score report --html, with the built binary
 * against the emulator.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreResult } from '../../src/api/contract.js';
import { fixtures } from '../../src/emulator/index.js';
import { ExplanationSchema, type Explanation } from '../../src/output/explanation.js';
import { onTerminal as terminal, pty } from '../support/terminal.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
const fx = fixtures();
const first = fx.suppliers[0]!.id;
const parameterName = new Map(fx.policyParameters.map((p) => [p.id, p.name]));
const sourceName = new Map(fx.dataSources.map((d) => [d.id, d.name]));
const UTF8 = { LANG: 'C.UTF-8' };
/** srs on a pseudo-terminal with this file's emulator settings (`env` on top). */
const onTerminal = (args: string[], env: Record<string, string>) => terminal(args, { ...h.env, ...env });
let bundlePath: string;

beforeAll(async () => {
  h = await startHarness();
  bundlePath = join(h.home, 'pictures-bundle.json');
  const r = await h.run(['score', 'calc', ...fx.suppliers.slice(0, 6).map((s) => s.id), '--save', bundlePath, '-o', 'csv']);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await h?.close();
});

const requestsDuring = async <T>(fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> => {
  const before = h.requests.length;
  const result = await fn();
  return { result, requests: h.requests.slice(before) };
};

describe('names beside ids', () => {
  it('score breakdowns name parameters and data sources in csv, from one listing of each; json rows keep ids only', async () => {
    const { result: r, requests } = await requestsDuring(() => h.run(['score', 'calc', first, '--breakdown', 'entries', '-o', 'csv']));
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = parseCsv(r.stdout) as string[][];
    const at = (p: string) => header!.indexOf(p);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) {
      const names = row[at('scope')] === 'dataSource' ? sourceName : parameterName;
      expect(row[at('scopeName')], row.join(',')).toBe(names.get(row[at('scopeId')]!));
    }
    // Names are resolved once per run: each list is read once, one request per page of 100.
    expect(requests.filter((l) => l.startsWith('GET /v1/data-sources ')).length).toBe(Math.ceil(fx.dataSources.length / 100));
    expect(requests.filter((l) => l.startsWith('GET /v1/scorecards ')).length).toBe(Math.ceil(fx.scorecards.length / 100));

    const p = await h.run(['score', 'calc', first, '--breakdown', 'parameters', '-o', 'csv']);
    const [ph, ...prows] = parseCsv(p.stdout) as string[][];
    for (const row of prows) expect(row[ph!.indexOf('policyParameterName')]).toBe(parameterName.get(row[ph!.indexOf('policyParameterId')]!));

    const { result: j, requests: jr } = await requestsDuring(() => h.run(['score', 'calc', first, '--breakdown', 'sources', '-o', 'json']));
    expect(j.code).toBe(0);
    const jrows = JSON.parse(j.stdout) as Array<Record<string, unknown>>;
    expect(jrows.length).toBeGreaterThan(0);
    for (const row of jrows) expect(row).not.toHaveProperty('dataSourceName');
    expect(jr.some((l) => l.startsWith('GET /v1/data-sources'))).toBe(false);
  });

  it('data-entry get: the table lists each parameter with its name and score; json is the service resource unchanged', async () => {
    const entry = fx.dataEntries[0]!.id;
    const j = await h.run(['data-entry', 'get', entry, '-o', 'json']);
    expect(j.code, j.stderr).toBe(0);
    const raw = await h.run(['api', 'GET', `/v1/data-entries/${entry}`]);
    expect(JSON.parse(j.stdout)).toEqual(JSON.parse(raw.stdout));
    const resource = JSON.parse(j.stdout) as { policyParameterScores: Array<{ policyParameter: { id: string }; score: number }> };
    expect(resource.policyParameterScores.length).toBeGreaterThan(0);

    const t = await h.run(['data-entry', 'get', entry, '-o', 'table'], { env: { COLUMNS: '120' } });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).not.toMatch(/^PARAMETERS\s/m);
    // The entry's own score with two decimals, as its parameter rows show theirs (it read -3 beside -3.00).
    const own = (JSON.parse(j.stdout) as { score: number }).score;
    expect(t.stdout).toMatch(new RegExp(`^SCORE\\s+${own.toFixed(2).replace('.', '\\.')}$`, 'm'));
    expect(t.stdout).toMatch(/^PARAMETER ID\s+PARAMETER\s+SCORE$/m);
    for (const p of resource.policyParameterScores) {
      const line = t.stdout.split('\n').find((l) => l.startsWith(p.policyParameter.id));
      expect(line, p.policyParameter.id).toBeDefined();
      expect(line).toContain(parameterName.get(p.policyParameter.id)!);
      expect(line!.trimEnd().endsWith(p.score.toFixed(2))).toBe(true);
    }
    // Every article of its news event, each on its own row with its day (the item showed the first title only).
    const articles = (JSON.parse(j.stdout) as { newsEvent: { articles: Array<{ title: string; url: string; publishedAt: string }> } }).newsEvent.articles;
    expect(articles.length).toBeGreaterThan(0);
    expect(t.stdout).toMatch(/^PUBLISHED\s+TITLE/m);
    for (const a of articles) expect(t.stdout.split('\n').some((l) => l.startsWith(`${a.publishedAt}  ${a.title}`)), a.title).toBe(true);
    const wide = await h.run(['data-entry', 'get', entry, '-o', 'table', '--wide'], { env: { COLUMNS: '80' } });
    for (const a of articles) expect(wide.stdout).toContain(a.url);
  });

  it('news ls: each event with the day it was first reported (its earliest article), which the event itself does not carry', async () => {
    const supplier = fx.suppliers[0]!.id;
    const j = JSON.parse((await h.run(['news', 'ls', supplier, '-o', 'json'])).stdout) as Array<{ id: string; articles: Array<{ publishedAt: string }> }>;
    expect(j.length).toBeGreaterThan(1);
    const t = await h.run(['news', 'ls', supplier, '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/^ID\s+FIRST REPORTED\s+NAME\s+ARTICLES$/m);
    for (const ev of j) {
      const first = ev.articles.map((a) => a.publishedAt).sort()[0]!;
      expect(t.stdout.split('\n').find((l) => l.startsWith(ev.id)), ev.id).toMatch(new RegExp(`^${ev.id}  ${first}  `));
    }
    for (const l of t.stdout.trimEnd().split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
  });

  it('scorecards get names its parameters', async () => {
    const card = fx.scorecards[0]!;
    const r = await h.run(['scorecards', 'get', card.id, '-o', 'table'], { env: { COLUMNS: '120' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(card.name);
    const j = JSON.parse((await h.run(['scorecards', 'get', card.id, '-o', 'json'])).stdout) as { items: Array<{ policyParameter: { id: string; name: string } }> };
    for (const it of j.items) expect(r.stdout.split('\n').find((l) => l.startsWith(it.policyParameter.id))).toContain(it.policyParameter.name);
  });
});

describe('score explain', () => {
  it('-o json: scorecards with the weights of scorecards get, parameters with names, the service score and the model agreeing', async () => {
    const r = await h.run(['score', 'explain', first, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const x = JSON.parse(r.stdout) as Explanation;
    expect(ExplanationSchema.safeParse(x).success).toBe(true);
    const calc = (JSON.parse((await h.run(['score', 'calc', first, '-o', 'json'])).stdout) as ScoreResult[])[0]!;
    expect(x.supplierId).toBe(first);
    expect(x.score.value).toBe(calc.score.value);
    expect(x.model.agrees).toBe(true);
    expect(x.scorecards.length).toBeGreaterThan(0);
    for (const c of x.scorecards) {
      const card = JSON.parse((await h.run(['scorecards', 'get', c.scorecardId, '-o', 'json'])).stdout) as { name: string; items: Array<{ weight: number; policyParameter: { id: string; name: string } }> };
      expect(c.name).toBe(card.name);
      expect(c.parameters.map((p) => [p.policyParameterId, p.name, p.weight])).toEqual(card.items.map((i) => [i.policyParameter.id, i.policyParameter.name, i.weight]));
      for (const p of c.parameters) {
        const reported = calc.policyParameterScores.find((q) => q.policyParameterId === p.policyParameterId);
        // On the wire a parameter without a number leaves its value out; explain shows it as null.
        expect(p.score).toBe(reported ? (reported.score.value ?? null) : null);
        expect(p.entries).toBe(reported ? reported.dataPoints.dataEntries.length : 0);
      }
    }
    expect(x.dataSources.map((d) => d.name)).toEqual(calc.dataSourceScores.map((d) => sourceName.get(d.dataSourceId)));
  });

  it('table: Unicode bars under a UTF-8 locale, pure ASCII without one or with --ascii; no colour when piped', async () => {
    const u = await h.run(['score', 'explain', first, '-o', 'table'], { env: { ...UTF8, COLUMNS: '80' } });
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toMatch(/^Overall score +-?\d\.\d\d +[·▐█]+│[·█▌]+ +\S/m);
    expect(u.stdout).toContain('█');
    expect(u.stdout).not.toContain('\u001b');
    for (const line of u.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    const x = JSON.parse((await h.run(['score', 'explain', first, '-o', 'json'])).stdout) as Explanation;
    for (const c of x.scorecards) {
      expect(u.stdout).toContain(c.name!);
      for (const p of c.parameters) expect(u.stdout).toMatch(new RegExp(`^ {4}${p.name!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +${p.weight} `, 'm'));
    }
    for (const env of [{}, { LANG: 'C' }]) {
      const a = await h.run(['score', 'explain', first, '-o', 'table'], { env });
      expect(a.code).toBe(0);
      expect(/^[\x20-\x7e\n]*$/.test(a.stdout), a.stdout).toBe(true);
      expect(a.stdout).toMatch(/#+\|/);
    }
    const forced = await h.run(['score', 'explain', first, '-o', 'table', '--ascii'], { env: UTF8 });
    expect(/^[\x20-\x7e\n]*$/.test(forced.stdout)).toBe(true);
  });

  pty.it('colour on a terminal only: red and green bars on a TTY, none with NO_COLOR, FORCE_COLOR=0 or --no-color', async () => {
    const env = { ...UTF8, COLUMNS: '80' };
    const coloured = await onTerminal(['score', 'explain', first], env);
    expect(coloured.code, coloured.out).toBe(0);
    expect(coloured.out).toMatch(/\u001b\[31m[▐█]+\u001b\[39m│/);
    expect(coloured.out).toMatch(/│\u001b\[32m[█▌]+\u001b\[39m/);
    for (const [extra, flag] of [[{ NO_COLOR: '1' }, []], [{ FORCE_COLOR: '0' }, []], [{}, ['--no-color']]] as const) {
      const plain = await onTerminal(['score', 'explain', first, ...flag], { ...env, ...extra });
      expect(plain.code).toBe(0);
      expect(plain.out).toContain('Overall score');
      expect(plain.out).not.toContain('\u001b[');
    }
  });

  it('flags expiring evidence, and explains a saved bundle offline (no request, no key)', async () => {
    const online = await h.run(['score', 'explain', first, '-o', 'json', '--expiring-within', '3650']);
    const x = JSON.parse(online.stdout) as Explanation;
    expect(x.expiring.withinDays).toBe(3650);
    expect(x.expiring.entries.length).toBeGreaterThan(0);
    const flagged = x.scorecards.flatMap((c) => c.parameters).filter((p) => p.expiringEntries > 0);
    expect(flagged.length).toBeGreaterThan(0);
    const t = await h.run(['score', 'explain', first, '-o', 'table', '--expiring-within', '3650'], { env: { COLUMNS: '100' } });
    expect(t.stdout).toMatch(/! Evidence expired or expiring within 3650 days/);
    for (const e of x.expiring.entries) expect(t.stdout).toContain(e.entryId);
    expect(t.stdout).toMatch(/entr(y|ies) +!/);

    const { result: off, requests } = await requestsDuring(() => h.run(['score', 'explain', first, '--from', bundlePath, '-o', 'json'], { env: { SRS_API_KEY: undefined, SRS_BASE_URL: undefined } }));
    expect(off.code, off.stderr).toBe(0);
    expect(requests).toEqual([]);
    const y = JSON.parse(off.stdout) as Explanation;
    expect(y.score).toEqual(x.score);
    expect(y.scorecards.map((c) => c.name)).toEqual(x.scorecards.map((c) => c.name));
  });

  it('names each supplier beside its id: the picture of explain, and a report of ids (looked up; a bundle has no names)', async () => {
    const t = await h.run(['score', 'explain', first, '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(t.code, t.stderr).toBe(0);
    const lines = t.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Supplier ${first} `));
    expect(lines[1]!.trim()).toBe(fx.suppliers[0]!.name);
    const two = fx.suppliers.slice(0, 2);
    const r = await h.run(['score', 'report', ...two.map((s) => s.id), '--html', '-']);
    expect(r.code, r.stderr).toBe(0);
    for (const s of two) {
      const name = s.name.replace(/&/g, '&#38;');
      expect(r.stdout).toContain(`<h3>${name} <span class="mono">${s.id}</span>`);
      expect(r.stdout).toContain(`<a href="#s-${s.id}">${name}</a><div class="muted mono">${s.id}</div>`);
    }
  });

  it('bad input: exit 2 naming the option; a bundle without the supplier: exit 1', async () => {
    const bad = await h.run(['score', 'explain', first, '--expiring-within', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--expiring-within/);
    const missing = await h.run(['score', 'explain', '01zzzzzzzzzzzzzzzzzzzzzzzz', '--from', bundlePath]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/holds no score for supplier 01zzzzzzzzzzzzzzzzzzzzzzzz/);
    expect(missing.stdout).toBe('');
  });
});

describe('emissions ls', () => {
  it('a table ends with one bar per year whose totals are the sums of the reports; json and csv stay the reports', async () => {
    const j = await h.run(['emissions', 'ls', first, '-o', 'json']);
    expect(j.code).toBe(0);
    const reports = JSON.parse(j.stdout) as Array<{ fromDate: string; value: number; unit: string }>;
    expect(reports.length).toBeGreaterThan(2);
    const sums = new Map<number, number>();
    for (const r of reports) sums.set(new Date(r.fromDate).getUTCFullYear(), (sums.get(new Date(r.fromDate).getUTCFullYear()) ?? 0) + r.value);
    const t = await h.run(['emissions', 'ls', first, '-o', 'table'], { env: { ...UTF8, COLUMNS: '120' } });
    expect(t.code, t.stderr).toBe(0);
    const tail = t.stdout.slice(t.stdout.indexOf('Totals per year'));
    expect(tail.length).toBeGreaterThan(0);
    for (const [year, total] of sums) {
      const expected = total.toLocaleString('en-US', { maximumFractionDigits: 1 });
      expect(tail).toMatch(new RegExp(`^${year} +[█▏▎▍▌▋▊▉]+ +${expected.replace(/[.]/g, '\\.')} tCO2e$`, 'm'));
    }
    const ascii = await h.run(['emissions', 'ls', first, '-o', 'table']);
    expect(ascii.stdout).toMatch(/^\d{4} +#+ +[\d,.]+ tCO2e$/m);
    const csv = await h.run(['emissions', 'ls', first, '-o', 'csv']);
    expect(csv.stdout).not.toContain('Totals');
    expect(parseCsv(csv.stdout)).toHaveLength(reports.length + 1);
  });
});

/** The records of a format-2 bundle (JSON Lines). */
const bundleLines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown> & { t?: string });
type CardLine = { t: 'scorecard'; scorecard: { id: string; name: string; items: Array<{ policyParameter: { name: string } }> } };

describe('score report --html', () => {
  it('from a bundle, offline: one file with the scores, the names, the distribution and the verified digest', async () => {
    const out = join(h.home, 'report.html');
    const { result: r, requests } = await requestsDuring(() => h.run(['score', 'report', bundlePath, '--html', out, '--verify'], { env: { SRS_API_KEY: undefined, SRS_BASE_URL: undefined } }));
    expect(r.code, r.stderr).toBe(0);
    expect(requests).toEqual([]);
    expect(r.stdout).toBe('');
    expect(Number(/wrote .*report\.html \(6 suppliers.*digest verified; (\d+) of \1 values agree/.exec(r.stderr)?.[1])).toBeGreaterThan(0);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`default-src 'none'`);
    expect(html).not.toMatch(/<script|<link|<img|src=|url\(|https?:\/\//i);
    for (const s of fx.suppliers.slice(0, 6)) expect(html).toContain(s.id);
    expect(html).toContain('class="hist"');
    const end = bundleLines(bundlePath).at(-1) as { digest: { value: string } };
    expect(html).toContain(`<span class="ok">verified</span> sha256 <span class="mono">${end.digest.value}</span>`);
    expect(Number(/agrees<\/span>: (\d+) of \1 values agree/.exec(html)?.[1])).toBeGreaterThan(0);
    expect(html).toContain('Findings:</b> <span class="ok">none</span> (checked: digest, model version, completeness, conflicting entries, recomputation)');
    for (const line of bundleLines(bundlePath).filter((l): l is CardLine => l.t === 'scorecard')) {
      expect(html).toContain(line.scorecard.name.replace(/&/g, '&#38;'));
      for (const it of line.scorecard.items) expect(html).toContain(it.policyParameter.name.replace(/&/g, '&#38;'));
    }
  });

  it('an edited bundle: hostile text is escaped, the digest mismatch is shown and warned about, and --verify exits 3', async () => {
    const lines = bundleLines(bundlePath);
    const card = lines.find((l): l is CardLine => l.t === 'scorecard')!;
    card.scorecard.name = '</td><script>alert(1)</script>';
    card.scorecard.items[0]!.policyParameter.name = '"><img src=x onerror=alert(2)>';
    const hostile = join(h.home, 'hostile.jsonl');
    writeFileSync(hostile, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await h.run(['score', 'report', hostile, '--html', '-', '--no-verify']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: bundle altered/);
    expect(r.stdout).not.toMatch(/<script|<img/i);
    expect(r.stdout).toContain('&#60;/td&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(r.stdout).toContain('&#34;&#62;&#60;img src=x onerror=alert(2)&#62;');
    expect(r.stdout).toContain('does not match the content');
    expect(r.stdout).not.toContain('class="ok">verified');

    // Fail closed by default: the report is written, and the run is not a success.
    for (const extra of [[], ['--verify']]) {
      const out = join(h.home, `hostile${extra.length}.html`);
      const v = await h.run(['score', 'report', hostile, '--html', out, ...extra]);
      expect(v.code).toBe(3);
      expect(v.stderr).toMatch(/bundle altered.*\(the report says so too; --no-verify to accept it\)/);
      expect(readFileSync(out, 'utf8')).toContain('does not match the content');
    }

    const ex = await h.run(['score', 'explain', first, '--from', hostile]);
    expect(ex.code).toBe(3);
    expect(ex.stdout).toBe('');
    expect(ex.stderr).toMatch(/bundle altered/);
  });

  it('an old (format 1) bundle says "no digest"; ids from the service work too; a raw response or no --html is exit 2', async () => {
    const lines = bundleLines(bundlePath);
    const header = lines[0]!;
    const results = lines.filter((l) => l.t === 'result') as Array<{ item: ScoreResult; scorecards: string[] }>;
    const old = {
      kind: header.kind,
      bundleVersion: 1,
      modelVersion: header.modelVersion,
      createdAt: header.createdAt,
      asOf: header.asOf,
      service: header.service,
      options: header.options,
      requests: lines.filter((l) => l.t === 'request').map((l) => l.request),
      response: { items: results.map((l) => l.item) },
      scorecards: Object.fromEntries(results.map((l) => [l.item.supplierId, l.scorecards])),
      scorecardDefinitions: Object.fromEntries(lines.filter((l): l is CardLine => l.t === 'scorecard').map((l) => [l.scorecard.id, l.scorecard])),
    };
    const v1 = join(h.home, 'v1.json');
    writeFileSync(v1, JSON.stringify(old, null, 2));
    const r = await h.run(['score', 'report', v1, '--html', '-', '--allow-undigested']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('<span class="warn">no digest</span>');
    // Taken without a digest: the findings line does not claim a digest check, and stderr says it was not checked.
    expect(r.stdout).toContain('(checked: model version, completeness, conflicting entries, recomputation)');
    expect(r.stderr).toMatch(/is a format-1 bundle, without a digest: taken with --allow-undigested, so whether it was altered is not known/);
    expect(Number(/agrees<\/span>: (\d+) of \1 values agree/.exec(r.stdout)?.[1])).toBeGreaterThan(0);

    const live = await h.run(['score', 'report', first, fx.suppliers[1]!.id, '--html', '-', '--title', 'Live <now>']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain('<title>Live &#60;now&#62;</title>');
    expect(live.stdout).toMatch(/calculated for this report/);
    // Only recomputation was checked: "none found" must not claim a digest, completeness or model-version check.
    expect(live.stdout).toContain('(checked: conflicting entries, recomputation)');
    // A fresh calculation also names the data sources (from GET /v1/data-sources).
    const calc = (JSON.parse((await h.run(['score', 'calc', first, '-o', 'json'])).stdout) as ScoreResult[])[0]!;
    for (const d of calc.dataSourceScores) expect(live.stdout).toContain(sourceName.get(d.dataSourceId)!.replace(/&/g, '&#38;'));

    const raw = join(h.home, 'raw.json');
    writeFileSync(raw, (await h.run(['score', 'calc', first, '-o', 'json'])).stdout);
    const rawR = await h.run(['score', 'report', raw, '--html', join(h.home, 'x.html')]);
    expect(rawR.code).toBe(2);
    expect(rawR.stderr).toMatch(/raw score-calculation response/);
    const noHtml = await h.run(['score', 'report', bundlePath]);
    expect(noHtml.code).toBe(2);
    expect(noHtml.stderr).toMatch(/--html/);
  });
});
