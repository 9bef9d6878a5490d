import { describe, expect, it } from 'vitest';
import { fitColumns, MIN_TEXT_WIDTH } from '../../src/output/fit.js';
import type { RenderOptions } from '../../src/output/render.js';
import { cutToWidth, displayWidth, hiddenNote, horizontalTable, inferKind, verticalTable } from '../../src/output/table.js';
import type { Column } from '../../src/output/columns.js';

const ID = '01hayktg1aw59w0ksytab77nmm';
const opts = (width: number | undefined, extra: Partial<RenderOptions> = {}): RenderOptions => ({ format: 'table', color: false, width, ...extra });
const lines = (s: string) => s.trimEnd().split('\n');

describe('fitColumns', () => {
  it('keeps natural widths when the row fits, or when there is no width', () => {
    const cols = [{ natural: 26, flexible: false }, { natural: 30, flexible: true }];
    expect(fitColumns(cols, 80, 2)).toEqual({ shown: [0, 1], widths: [26, 30], hidden: [] });
    expect(fitColumns(cols, undefined, 2)).toEqual({ shown: [0, 1], widths: [26, 30], hidden: [] });
  });
  it('cuts only the flexible columns, and never below the minimum', () => {
    const cols = [{ natural: 26, flexible: false }, { natural: 100, flexible: true }, { natural: 8, flexible: false }];
    const fit = fitColumns(cols, 80, 2);
    expect(fit.widths).toEqual([26, 80 - 26 - 8 - 4, 8]);
    // With 10 cells to spare beyond the text's narrowest, the whole columns stay and the text is cut to its share.
    const narrow = fitColumns(cols, 26 + MIN_TEXT_WIDTH + 10 + 8 + 4, 2);
    expect(narrow.widths).toEqual([26, MIN_TEXT_WIDTH + 10, 8]);
    // Narrower, an unranked column other than the id and the name goes (the name was cut to 6, a stub): said as hidden.
    const tight = fitColumns(cols, 26 + MIN_TEXT_WIDTH + 8 + 4, 2);
    expect(tight.shown).toEqual([0, 1]);
    expect(tight.hidden).toEqual([2]);
    expect(tight.widths).toEqual([26, MIN_TEXT_WIDTH + 8 + 2]);
    // Narrower still than the id and the name: the line overflows, the text whole up to the terminal's width (a
    // --query table's JSON cells made lines of 1,000 columns).
    expect(fitColumns(cols, 30, 2).widths).toEqual([26, 30]);
    expect(fitColumns([{ natural: 26, flexible: false }, { natural: 29, flexible: true }, { natural: 30, flexible: false }], 55, 2).widths).toEqual([26, 27]);
    // Columns named with --fields are never hidden.
    expect(fitColumns(cols.map((c) => ({ ...c, pinned: true })), 30, 2).widths).toEqual([26, 30, 8]);
  });
  it('gives short text its natural width and shares the rest between the long ones', () => {
    const cols = [{ natural: 20, flexible: false }, { natural: 5, flexible: true }, { natural: 60, flexible: true }, { natural: 60, flexible: true }];
    const fit = fitColumns(cols, 80, 2);
    // 80 - 6 (gaps) - 20 = 54: the 5-wide column keeps 5, the other two share 49 (25 + 24).
    expect(fit.widths).toEqual([20, 5, 25, 24]);
    expect(fit.widths.reduce((a, b) => a + b, 0) + 6).toBe(80);
  });
  it('hides ranked columns, rank 1 first, before it cuts anything', () => {
    const cols = [
      { natural: 26, flexible: false },
      { natural: 40, flexible: true },
      { natural: 20, flexible: true, hide: 2 },
      { natural: 23, flexible: false, hide: 1 },
    ];
    expect(fitColumns(cols, 120, 2).hidden).toEqual([]);
    expect(fitColumns(cols, 110, 2)).toMatchObject({ shown: [0, 1, 2], hidden: [3] });
    expect(fitColumns(cols, 80, 2)).toEqual({ shown: [0, 1], widths: [26, 40], hidden: [3, 2] });
    expect(fitColumns(cols, 60, 2)).toEqual({ shown: [0, 1], widths: [26, 32], hidden: [3, 2] });
  });
  it('hides a column that is the same in every row before any ranked one', () => {
    const cols = [{ natural: 26, flexible: false, constant: true }, { natural: 26, flexible: false }, { natural: 40, flexible: true, hide: 1 }];
    expect(fitColumns(cols, 80, 2).hidden).toEqual([0]);
  });
  it('--wide hides nothing and cuts nothing: every column at its natural width, a longer line', () => {
    const cols = [{ natural: 26, flexible: false }, { natural: 26, flexible: false }, { natural: 23, flexible: false, hide: 1 }, { natural: 30, flexible: true }];
    const wide = fitColumns(cols, 80, 2, true);
    expect(wide.hidden).toEqual([]);
    expect(wide.widths).toEqual([26, 26, 23, 30]);
  });
});

describe('inferKind', () => {
  it('reads ids, codes, dates and states from the path, numbers, ULIDs and URLs from the values', () => {
    expect(inferKind('supplier.id', ['x'])).toBe('id');
    expect(inferKind('iso3Code', ['DEU'])).toBe('id');
    expect(inferKind('createdAt', ['2023-01-01'])).toBe('date');
    expect(inferKind('status', ['created'])).toBe('state');
    expect(inferKind('score.value', [1.5, null])).toBe('number');
    expect(inferKind('ref', [ID])).toBe('id');
    expect(inferKind('homepage', ['https://example.com/a'])).toBe('url');
    expect(inferKind('name', ['Acme', 2])).toBe('text');
  });
});

describe('tables fitted by priority', () => {
  const cols: Column[] = [
    { path: 'id', header: 'ID', kind: 'id' },
    { path: 'name', header: 'NAME', kind: 'text' },
    { path: 'group', header: 'GROUP', kind: 'text', hide: 2 },
    { path: 'score', header: 'SCORE', kind: 'number', align: 'right' },
    { path: 'createdAt', header: 'CREATED', kind: 'date', hide: 1 },
  ];
  const rows = [
    { id: ID, name: 'Responsible Sourcing Baseline and a much longer title than fits', group: 'Corporate', score: 0.18, createdAt: '2023-09-22 14:13:42 UTC' },
    { id: '01hb0jkxyz475s6hrpxvg5dn7z', name: 'Climate', group: 'Legal & Compliance', score: -0.5, createdAt: '2023-09-23 08:31:07 UTC' },
  ];
  it('at 80 columns: ids whole, low-value columns hidden and said so once, text cut with …', async () => {
    const notes: string[] = [];
    const out = await horizontalTable(rows, cols, opts(80, { note: (m) => notes.push(m) }));
    for (const l of lines(out)) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    expect(out).toContain(ID);
    expect(out).toContain('01hb0jkxyz475s6hrpxvg5dn7z');
    expect(lines(out)[0]).toMatch(/^ID\s+NAME\s+SCORE$/);
    expect(out).toContain('…');
    expect(notes).toEqual(['hid CREATED, GROUP to fit 80 columns; --wide shows every column']);
  });
  it('the note of hidden columns fits the width too: headers that do not fit are counted', () => {
    const what = ['SUPPLIER', 'DATA SOURCE', 'POLICY PARAMETER', 'ISSUED', 'EXPIRES', 'CLAIM (no in every row)'];
    const note = hiddenNote(what, 80);
    expect(displayWidth(note)).toBeLessThanOrEqual(80);
    expect(note).toMatch(/^hid SUPPLIER, DATA SOURCE(, [A-Z ]+)* and \d more; --wide shows every column$/);
    const shown = note.slice(4, note.indexOf(' and ')).split(', ').length;
    expect(note).toContain(` and ${what.length - shown} more;`);
    expect(hiddenNote(['CREATED', 'GROUP'], 80)).toBe('hid CREATED, GROUP to fit 80 columns; --wide shows every column');
    expect(hiddenNote(['A VERY LONG HEADER THAT CANNOT FIT AT ALL'], 60)).toBe('hid 1 column to fit 60 columns; --wide shows every column');
    expect(displayWidth(hiddenNote(what, 30))).toBeLessThanOrEqual(30);
    // A constant column's explanation that is too long: the headers alone rather than a bare count.
    expect(hiddenNote(['TYPE (policy_parameter_item in every row)', 'CATEGORY'], 80)).toBe('hid TYPE, CATEGORY to fit 80 columns; --wide shows every column');
  });
  it('a name holding invisible characters (zero width space, word joiner, BOM) does not shift the columns after it', async () => {
    const named = [{ id: ID, name: 'Zero\u200bWidth\u2060Co\ufeff', groupName: 'G', score: 1 }, { id: ID, name: 'Plain Co', groupName: 'G', score: 2 }];
    const out = lines(await horizontalTable(named, cols.slice(0, 4), opts(120)));
    expect(new Set(out.slice(1).map((l) => displayWidth(l))).size, out.join('\n')).toBe(1);
    expect(out[1]).toContain('Zero\\u200bWidth\\u2060Co\\ufeff');
  });
  it('at 120 columns: more columns come back', async () => {
    const out = await horizontalTable(rows, cols, opts(120));
    expect(lines(out)[0]).toMatch(/^ID\s+NAME\s+GROUP\s+SCORE$/);
    for (const l of lines(out)) expect(displayWidth(l)).toBeLessThanOrEqual(120);
  });
  it('--wide shows every column', async () => {
    const out = await horizontalTable(rows, cols, opts(80, { wide: true }));
    expect(lines(out)[0]).toMatch(/^ID\s+NAME\s+GROUP\s+SCORE\s+CREATED$/);
    expect(out).toContain('2023-09-22 14:13:42 UTC');
    expect(out).toContain(ID);
  });
  it('cuts emoji whole (cli-table3 cut a surrogate pair in half: "😀😀\\uFFFD…")', async () => {
    for (const width of [40, 41, 42, 43]) {
      const out = await horizontalTable([{ id: ID, name: '😀'.repeat(30) }], cols.slice(0, 2), opts(width));
      expect(out).not.toMatch(/\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect(out).toMatch(/😀…/);
      for (const l of lines(out)) expect(displayWidth(l)).toBeLessThanOrEqual(width);
    }
  });

  it('cuts whole grapheme clusters: an emoji ZWJ sequence is kept or dropped whole, never left with a dangling joiner', () => {
    const family = '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
    for (let width = 9; width <= 21; width++) {
      const cut = cutToWidth(`Famille ${family.repeat(6)} Ltd`, width);
      expect(cut.endsWith('…')).toBe(true);
      expect(cut).not.toMatch(/\u200D…$/);
      const kept = cut.slice(0, -1).replace(/^Famille ?/, '').trimEnd();
      expect(kept.length % family.length, `width ${width}: ${JSON.stringify(cut)}`).toBe(0);
    }
  });

  it('counts wide characters as two cells', async () => {
    const out = await horizontalTable([{ id: ID, name: '株式会社'.repeat(20) }], cols.slice(0, 2), opts(60));
    for (const l of lines(out)) expect(displayWidth(l)).toBeLessThanOrEqual(60);
    expect(out).toContain(ID);
  });
  it('detail views wrap long text at spaces (at most 4 lines, the last cut) but never cut an id', async () => {
    const item = { id: ID, name: 'N'.repeat(200), url: `https://profiles.example/suppliers/${ID}/with/a/long/path` };
    const out = await verticalTable(item, [{ path: 'id', header: 'ID' }, { path: 'name', header: 'NAME' }, { path: 'url', header: 'PROFILE', kind: 'url' }], opts(50));
    const [idLine, ...rest] = lines(out);
    expect(idLine).toBe(`ID       ${ID}`);
    const nameLines = rest.slice(0, 4);
    expect(nameLines[0]!.startsWith('NAME     N')).toBe(true);
    for (const l of nameLines.slice(1)) expect(l.startsWith('         N')).toBe(true);
    for (const l of nameLines) expect(displayWidth(l)).toBe(50);
    expect(nameLines[3]!.endsWith('…')).toBe(true);
    expect(rest[4]).toContain(item.url);
    const notes: string[] = [];
    const words = await verticalTable({ name: 'Consolidated Northern Hemisphere Precision Forging Works' }, [{ path: 'name', header: 'NAME', kind: 'text' }], opts(30, { note: (m) => notes.push(m) }));
    expect(lines(words)).toEqual(['NAME  Consolidated Northern', '      Hemisphere Precision', '      Forging Works']);
    expect(notes).toEqual([]);
    // Cut after four lines: said once on stderr, with where to see it whole.
    await verticalTable(item, [{ path: 'name', header: 'NAME', kind: 'text' }], opts(50, { note: (m) => notes.push(m) }));
    expect(notes).toEqual(['NAME is longer than 4 lines here and cut; -o json or --wide shows it whole']);
    // --wide cuts nothing, in a detail view too.
    const wide = await verticalTable(item, [{ path: 'id', header: 'ID' }, { path: 'name', header: 'NAME' }], opts(50, { wide: true }));
    expect(lines(wide)[1]).toBe(`NAME  ${item.name}`);
  });
});

describe('tables without curated kinds (srs api, --query)', () => {
  it('hide URL columns before cutting text, and keep ids whole', async () => {
    const rows = [{ id: ID, name: 'Northwind ESG Ratings', logoUrl: 'https://assets.example/logos/northwind-esg-ratings.png', website: 'https://northwind-analytics.example' }];
    const notes: string[] = [];
    const out = await horizontalTable(rows, ['id', 'name', 'logoUrl', 'website'].map((k) => ({ path: k, header: k.toUpperCase() })), opts(80, { note: (m) => notes.push(m) }));
    expect(lines(out)).toEqual(['ID                          NAME', `${ID}  Northwind ESG Ratings`]);
    expect(notes).toEqual(['hid WEBSITE, LOGOURL to fit 80 columns; --wide shows every column']);
  });

  it('columns named with --fields are not hidden for being URLs, and a list of URLs is never cut', async () => {
    const rows = [{ id: ID, name: 'Northwind ESG Ratings', logoUrl: 'https://assets.example/logos/northwind-esg-ratings-with-a-long-file-name.png' }];
    const fields = ['name', 'logoUrl'].map((k) => ({ path: k, header: k.toUpperCase() }));
    const notes: string[] = [];
    const out = await horizontalTable(rows, fields, opts(60, { fields, note: (m) => notes.push(m) }));
    expect(out).toContain(rows[0]!.logoUrl);
    expect(notes).toEqual([]);
    const news = [{ id: ID, articles: [{ url: 'https://supplychaindispatch.example/2026/09/silverline-glassworks-publishes-first-report' }] }];
    const urlCols = ['id', 'articles.url'].map((k) => ({ path: k, header: k.toUpperCase() }));
    const listed = await horizontalTable(news, urlCols, opts(60, { fields: urlCols }));
    expect(listed).toContain(news[0]!.articles[0]!.url);
  });
});

describe('a value too wide for any table', () => {
  it('is cut at MAX_TABLE_CELL columns with a note, piped or not (cli-table3 took 24 s for 48,000 columns, deaf to Ctrl-C)', async () => {
    const { MAX_TABLE_CELL } = await import('../../src/output/table.js');
    const name = '長い名前'.repeat(6_000); // 24,000 characters, 48,000 columns
    const cols: Column[] = [{ path: 'name', header: 'NAME', kind: 'text' }];
    for (const width of [undefined, 80]) {
      const notes: string[] = [];
      const vertical = await verticalTable({ name }, cols, { ...opts(width as number), note: (m: string) => notes.push(m) });
      expect(displayWidth(vertical.trimEnd())).toBeLessThanOrEqual(MAX_TABLE_CELL + 10);
      expect(vertical).toContain('…');
      const horizontal = await horizontalTable([{ name }, { name: 'short' }], cols, { ...opts(width as number), note: (m: string) => notes.push(m) });
      expect(horizontal.split('\n')[1]!.endsWith('…')).toBe(true);
      expect(notes.some((n) => n.includes(`wider than ${MAX_TABLE_CELL.toLocaleString('en-US')} columns (NAME) is cut in this table; -o json or -o csv shows it whole`))).toBe(true);
    }
  });
});

describe('ASCII marks (a terminal whose locale is not UTF-8)', () => {
  it('a blank is "-" and a cut ends in "~"; otherwise "—" and "…"', async () => {
    const cols: Column[] = [
      { path: 'name', header: 'NAME', kind: 'text' },
      { path: 'website', header: 'WEBSITE', kind: 'text' },
    ];
    const row = { name: 'A rather long supplier name that will not fit on four lines of twenty-one columns at all, not even close', website: null };
    for (const [ascii, blank, cut] of [[true, '-', '~'], [false, '—', '…']] as const) {
      const out = await verticalTable(row, cols, { ...opts(30), ascii });
      expect(out).toMatch(new RegExp(`^WEBSITE\\s+${blank}$`, 'm'));
      expect(out).toMatch(new RegExp(`^NAME\\s+A rather`, 'm'));
      expect(out).toMatch(new RegExp(`^ +\\S.*\\${cut}$`, 'm'));
    }
  });
});

describe('ASCII marks written by column formatters', () => {
  it('a formatter\'s own "—" (score calc\'s RISK, check\'s SCORE) becomes "-" too', async () => {
    const cols: Column[] = [{ path: 'risk', header: 'RISK', kind: 'state', format: (v) => (v === null ? '—' : String(v)) }];
    const out = await horizontalTable([{ risk: null }, { risk: 'High' }], cols, { ...opts(80), ascii: true });
    expect(out).not.toMatch(/[—…]/);
    expect(lines(out)[1]).toBe('-');
  });
});
