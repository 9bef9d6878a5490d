/**
 * Tables fit the terminal by priority: every list and detail view at 80 and
 * 120 columns keeps its ids, codes and dates whole, and one run goes through a
 * real pseudo-terminal (util-linux `script`) at 80 columns.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import displayWidth from 'string-width';
import { onTerminal, pty } from '../support/terminal.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
const fx = fixtures();
const supplier = fx.suppliers[0]!;
const other = fx.suppliers[1]!;
const entry = fx.dataEntries.find((e) => e.supplierId === supplier.id)!;
const scorecard = fx.scorecards[0]!;
let bundle = '';

beforeAll(async () => {
  h = await startHarness();
  bundle = join(mkdtempSync(join(tmpdir(), 'srs-tables-')), 'evidence.json');
  const saved = await h.run(['score', 'calc', supplier.id, other.id, '--save', bundle, '-o', 'json']);
  expect(saved.code).toBe(0);
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, unknown> & Record<string, never>;
const ids = (list: unknown, ...paths: string[][]): string[] =>
  (list as Json[]).flatMap((x) =>
    paths.map((p) => p.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], x)).filter((v): v is string => typeof v === 'string'),
  );

/** Each view: its arguments, and the values that must stay whole, read from its own JSON output. */
const views: Array<{ name: string; args: () => string[]; whole: (data: unknown) => string[] }> = [
  { name: 'scorecards ls', args: () => ['scorecards', 'ls'], whole: (d) => ids(d, ['id']) },
  { name: 'ref sources', args: () => ['ref', 'sources'], whole: (d) => ids(d, ['id']) },
  { name: 'ref countries', args: () => ['ref', 'countries'], whole: (d) => ids(d, ['iso3Code'], ['iso2Code']) },
  { name: 'ref industries', args: () => ['ref', 'industries'], whole: (d) => ids(d, ['code']) },
  { name: 'ref categories', args: () => ['ref', 'categories'], whole: (d) => ids(d, ['id']) },
  { name: 'news ls', args: () => ['news', 'ls', supplier.id], whole: (d) => ids(d, ['id']) },
  { name: 'emissions ls', args: () => ['emissions', 'ls', supplier.id], whole: (d) => ids(d, ['id']) },
  { name: 'scorecards get', args: () => ['scorecards', 'get', scorecard.id], whole: (d) => [...ids([d], ['id']), ...ids((d as { items: unknown[] }).items, ['policyParameter', 'id'])] },
  { name: 'supplier get', args: () => ['supplier', 'get', supplier.id], whole: (d) => ids([d], ['id'], ['countryIso3Code'], ['publicSupplierProfileUrl']) },
  // The local catalog: the supplier get above recorded its supplier.
  { name: 'supplier ls', args: () => ['supplier', 'ls'], whole: (d) => ids(d, ['id'], ['countryIso3Code']) },
  { name: 'data-entry get', args: () => ['data-entry', 'get', entry.id], whole: (d) => ids([d], ['id'], ['supplier', 'id']) },
  { name: 'score calc', args: () => ['score', 'calc', supplier.id, other.id], whole: (d) => ids(d, ['supplierId']) },
  { name: 'score calc --breakdown parameters', args: () => ['score', 'calc', supplier.id, '--breakdown', 'parameters'], whole: (d) => ids(d, ['policyParameterId']) },
  { name: 'score calc --breakdown sources', args: () => ['score', 'calc', supplier.id, other.id, '--breakdown', 'sources'], whole: (d) => ids(d, ['supplierId'], ['dataSourceId']) },
  { name: 'score calc --breakdown entries', args: () => ['score', 'calc', supplier.id, '--breakdown', 'entries'], whole: (d) => ids(d, ['scopeId'], ['entryId']) },
  { name: 'score recompute', args: () => ['score', 'recompute', bundle], whole: (d) => ids(d, ['supplierId'], ['path']) },
];

/** The tokens of a table: whole values are separated by two spaces (or start/end a line). */
function cellsOf(table: string): Set<string> {
  return new Set(table.split('\n').flatMap((l) => l.split(/ {2,}/).map((c) => c.trim())));
}

describe.each([80, 120])('tables at %i columns', (width) => {
  it.each(views)('$name: every id whole, a line longer than the width only when whole values need it', async (v) => {
    const data = await h.run([...v.args(), '-o', 'json']);
    expect(data.code, data.stderr).toBe(0);
    const whole = v.whole(JSON.parse(data.stdout));
    expect(whole.length, v.name).toBeGreaterThan(0);
    const r = await h.run([...v.args(), '-o', 'table'], { env: { COLUMNS: String(width) } });
    expect(r.code, r.stderr).toBe(0);
    const cells = cellsOf(r.stdout);
    // Detail views show a list's columns in FIELD value lines: the value is the line's last cell.
    for (const id of whole) expect(cells.has(id) || r.stdout.includes(`${id}\n`), `${v.name} at ${width}: ${id} is not whole in\n${r.stdout}`).toBe(true);
    for (const line of r.stdout.trimEnd().split('\n')) {
      if (displayWidth(line) <= width) continue;
      // Only values that must not be cut (ids, a URL) may make a line longer: then nothing on it was cut.
      expect(line, `${v.name} at ${width}`).not.toContain('…');
    }
  });
});

describe('hidden columns', () => {
  it('says once on stderr which columns it hid; --wide shows them; --quiet keeps it quiet', async () => {
    const narrow = await h.run(['scorecards', 'ls', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(narrow.stdout.split('\n')[0]).not.toContain('CREATED');
    expect(narrow.stderr).toMatch(/^hid CREATED.* to fit 80 columns; --wide shows every column$/m);
    const wide = await h.run(['scorecards', 'ls', '-o', 'table', '--wide'], { env: { COLUMNS: '80' } });
    expect(wide.stdout.split('\n')[0]).toMatch(/GROUP.*CREATED/);
    expect(wide.stderr).not.toContain('hid ');
    for (const id of fx.scorecards.map((s) => s.id)) expect(cellsOf(wide.stdout).has(id)).toBe(true);
    const quiet = await h.run(['scorecards', 'ls', '-o', 'table', '--quiet'], { env: { COLUMNS: '80' } });
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(narrow.stdout);
  });
  it('a --query table whose whole columns overflow anyway cuts no id, but no text cell is wider than the terminal; numbers right-aligned', async () => {
    const r = await h.run(['scorecards', 'ls', '--query', '[].{id: id, createdAt: createdAt, createdBy: createdBy, score: score, items: items}', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // items was a JSON array of ~1,000 characters a row: cut to the width, "…" at the end.
    for (const l of lines.slice(1)) expect(l.length, l).toBeLessThan(26 + 24 + 26 + 20 + 80 + 10);
    expect(lines[1]).toContain('…');
    for (const id of fx.scorecards.map((s) => s.id)) expect(cellsOf(r.stdout).has(id)).toBe(true);
    // SCORE is right-aligned: every score ends where its header ends.
    const end = lines[0]!.indexOf('SCORE') + 'SCORE'.length;
    for (const l of lines.slice(1)) expect(l.slice(end - 1, end + 1), l).toMatch(/^\d $/);
  });
  it('supplier ls at 80 columns: CUSTOMER ID and STATE the same in every row are hidden (and said) before names are cut', async () => {
    for (const n of [1, 2, 3]) expect((await h.run(['supplier', 'create', '--name', `Northwind Precision Castings Holding ${n}`, '--country', 'DEU'])).code).toBe(0);
    const r = await h.run(['supplier', 'ls', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).not.toMatch(/CUSTOMER ID|STATE/);
    expect(r.stderr).toMatch(/hid STATE \(created in every row\)/);
    for (const n of [1, 2, 3]) expect(r.stdout).toContain(`Northwind Precision Castings Holding ${n}`);
  });
  it('a narrow terminal (40-60 columns): columns go, from the right, all but the id and the name, so lines fit (they were 80 wide at 50)', async () => {
    for (const width of [40, 50, 60]) {
      for (const args of [['scorecards', 'ls'], ['ref', 'sources']]) {
        const r = await h.run([...args, '-o', 'table'], { env: { COLUMNS: String(width) } });
        expect(r.code, r.stderr).toBe(0);
        const lines = r.stdout.trimEnd().split('\n');
        for (const l of lines) expect(displayWidth(l), `${args.join(' ')} at ${width}: ${l}`).toBeLessThanOrEqual(width);
        expect(lines[0], args.join(' ')).toMatch(/^ID\s+NAME/);
        for (const l of lines.slice(1)) expect(l, args.join(' ')).toMatch(/^[0-9a-z]{26}  \S/);
        expect(r.stderr).toMatch(/^hid /m);
      }
    }
  });
  it('piped tables without a width are never cut', async () => {
    const r = await h.run(['news', 'ls', supplier.id, '-o', 'table']);
    expect(r.stdout).not.toContain('…');
    expect(r.stdout.split('\n')[0]).toContain('SUMMARY');
  });
});

describe('a real pseudo-terminal at 80 columns', () => {
  pty.it('TERM=dumb (Emacs\' shell): a table, without colour, spinner or cursor codes, which such a terminal shows as text', async () => {
    const { code, out } = await onTerminal(['scorecards', 'ls'], { ...h.env, TERM: 'dumb' }, { cols: 80 });
    expect(code, out).toBe(0);
    expect(out).toMatch(/^ID\s+NAME/m);
    expect(out).not.toMatch(/\u001b/);
  });

  pty.it('a terminal whose locale is not UTF-8 cuts table cells with "~", as pictures do; UTF-8 with "…" (blanks: unit tests of table.ts)', async () => {
    const id = fx.suppliers[0]!.id;
    for (const [lang, cut] of [['C', '~'], ['C.UTF-8', '…']] as const) {
      const env = { ...h.env, NO_COLOR: '1', TERM: 'xterm', LANG: lang, LC_ALL: undefined, LC_CTYPE: undefined };
      // A list at 40 columns: the names are cut after the whole ids (blanks: the unit tests of table.ts).
      const { out: list } = await onTerminal(['ref', 'sources', '--fields', 'id,name'], env, { cols: 40 });
      expect(list, lang).toMatch(new RegExp(`^[0-9a-z]{26}\\s+\\S.*\\${cut}$`, 'm'));
      expect(list, lang).not.toContain(lang === 'C' ? '…' : '~');
      // A supplier's detail at 24 columns: its name wraps at spaces, not cut while lines are left.
      const { out: detail } = await onTerminal(['supplier', 'get', id, '--fields', 'name'], env, { cols: 24 });
      expect(detail.replace(/\s+/g, ' '), lang).toContain(fx.suppliers[0]!.name);
    }
  });

  pty.it('scorecards ls, score calc --breakdown entries and ref sources keep every id whole (util-linux script)', async () => {
    // No COLUMNS: the width comes from the terminal itself. NO_COLOR keeps the spinner off the captured screen.
    const run = async (args: string[]): Promise<string> => (await onTerminal(args, { ...h.env, NO_COLOR: '1', TERM: 'xterm' }, { cols: 80 })).out;
    const cases: Array<[string[], string[]]> = [
      [['scorecards', 'ls'], fx.scorecards.map((s) => s.id)],
      [['ref', 'sources'], fx.dataSources.map((s) => s.id)],
    ];
    for (const [args, expected] of cases) {
      const screen = await run(args);
      const table = screen.split('\n').filter((l) => !l.startsWith('hid '));
      expect(table[0], screen).toMatch(/^ID\s+NAME/);
      for (const line of table) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
      const cells = cellsOf(table.join('\n'));
      for (const id of expected) expect(cells.has(id), `${args.join(' ')}: ${id} not whole on the terminal:\n${screen}`).toBe(true);
    }
    const entries = await run(['score', 'calc', supplier.id, '--breakdown', 'entries']);
    const ulids = entries.match(/[0-9a-hjkmnp-tv-z]{20,}…?/g) ?? [];
    expect(ulids.length).toBeGreaterThan(0);
    for (const u of ulids) expect(u, entries).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    // Which kind of id SOURCE/PARAMETER holds is on every row, in a word.
    const rows = entries.split('\n').filter((l) => /^[a-z]/.test(l) && !l.startsWith('hid '));
    expect(entries).toMatch(/^FOR\s+SOURCE\/PARAMETER/m);
    for (const row of rows) expect(row, entries).toMatch(/^(source|parameter)\s/);
  });
});

describe('data formats on a terminal', () => {
  pty.it('csv and json shown on a terminal carry no escape sequence, bidi override or C1 control; piped, the data is exact (util-linux script)', async () => {
    const evil = 'Evil\u202egnp.exe\u200fname\u001b[31mRED\u009b31m';
    const created = await h.run(['supplier', 'create', '--name', evil, '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    for (const format of ['csv', 'json', 'ndjson']) {
      const { code, out: stdout } = await onTerminal(['supplier', 'get', id, '-o', format, '--fields', 'id,name'], { ...h.env, NO_COLOR: '1', TERM: 'xterm' });
      expect(code, format).toBe(0);
      expect(stdout, format).toContain(id);
      expect(stdout, format).toContain('\\u202e');
      expect(stdout, format).not.toMatch(/[\u001b\u0080-\u009f\u202a-\u202e\u200e\u200f]/);
      if (format !== 'csv') expect((JSON.parse(stdout) as { name: string }).name, format).toBe(evil);
    }
    const piped = await h.run(['supplier', 'get', id, '-o', 'csv', '--fields', 'name']);
    expect(piped.stdout).toContain(evil);
  });
});
