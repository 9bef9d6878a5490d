import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import * as z from 'zod/mini';
import * as contract from '../../src/api/contract.js';
import { columns, type Column } from '../../src/output/columns.js';
import { cellText, getPath } from '../../src/output/fields.js';
import { renderItem, renderList, type RenderOptions, type Sink } from '../../src/output/render.js';
import { guardCsvCell, sanitizeForTerminal } from '../../src/output/sanitize.js';
import { serialiseOnce, takeSerialised } from '../../src/output/serialised.js';

function capture(): Sink & { text: () => string } {
  let buf = '';
  const add = async (s: string | Uint8Array) => void (buf += typeof s === 'string' ? s : Buffer.from(s).toString('utf8'));
  return { write: add, text: () => buf };
}

const opts = (format: RenderOptions['format'], extra: Partial<RenderOptions> = {}): RenderOptions => ({ format, color: false, ...extra });

async function* pages<T>(...chunks: T[][]): AsyncGenerator<T> {
  for (const c of chunks) for (const x of c) yield x;
}

const rows = [
  { id: 'a1', name: 'Alpha', score: { value: 1.5 }, tags: ['x', 'y'] },
  { id: 'b2', name: 'Beta, "quoted"\nline', score: { value: -2 }, tags: [] },
];
const cols: Column[] = [
  { path: 'id', header: 'ID' },
  { path: 'name', header: 'NAME' },
  { path: 'score.value', header: 'SCORE', align: 'right' },
];

describe('fields', () => {
  it('reads dot paths, array lengths and collects through arrays', () => {
    const o = { a: { b: { c: 3 } }, list: [{ n: 1 }, { n: 2 }] };
    expect(getPath(o, 'a.b.c')).toBe(3);
    expect(getPath(o, 'list.length')).toBe(2);
    expect(getPath(o, 'list.1.n')).toBe(2);
    expect(getPath(o, 'list.n')).toEqual([1, 2]);
    expect(getPath(o, 'missing.deep')).toBeUndefined();
  });
  it('renders cells: scalars, lists, objects, null', () => {
    expect(cellText(['a', 'b'])).toBe('a; b');
    // A list that joined would not read back as it is goes as JSON, one slot per element.
    expect(cellText(['Metals; Mining', 'Logistics'])).toBe('["Metals; Mining","Logistics"]');
    expect(cellText([null, '2024-05-05'])).toBe('[null,"2024-05-05"]');
    expect(cellText(getPath({ articles: [{ title: 'Plant fire' }, { title: 'Fire contained', publishedAt: '2024-05-05' }] }, 'articles.publishedAt'))).toBe('[null,"2024-05-05"]');
    expect(cellText([])).toBe('');
    expect(cellText({ k: 1 })).toBe('{"k":1}');
    expect(cellText(null)).toBe('');
    expect(cellText(0)).toBe('0');
  });
});

describe('renderList', () => {
  it('json/ndjson: takes the JSON a producer made of a record once, only for that very object and only once', async () => {
    const made = { id: 'm1', name: 'Made once' };
    expect(serialiseOnce(made)).toBe(JSON.stringify(made));
    const s = capture();
    await renderList(s, pages([made, rows[0]]), cols, opts('ndjson'));
    expect(s.text()).toBe(`${JSON.stringify(made)}\n${JSON.stringify(rows[0])}\n`);
    // Taken once; and --fields renders a selection of the record, never the remembered whole.
    expect(takeSerialised(made)).toBeUndefined();
    serialiseOnce(made);
    const t = capture();
    await renderList(t, pages([made]), cols, opts('ndjson', { fields: [{ path: 'id', header: 'ID' }] }));
    expect(t.text()).toBe('{"id":"m1"}\n');
  });
  it('json: one array document across pages', async () => {
    const s = capture();
    const n = await renderList(s, pages([rows[0]], [rows[1]]), cols, opts('json'));
    expect(n).toBe(2);
    expect(JSON.parse(s.text())).toEqual(rows);
  });
  it('json: an empty list is []', async () => {
    const s = capture();
    await renderList(s, pages<unknown>(), cols, opts('json'));
    expect(JSON.parse(s.text())).toEqual([]);
  });
  it('ndjson: one object per line', async () => {
    const s = capture();
    await renderList(s, pages(rows), cols, opts('ndjson'));
    const lines = s.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => JSON.parse(l))).toEqual(rows);
  });
  it('csv: header of paths, flattened, quoted correctly', async () => {
    const s = capture();
    await renderList(s, pages(rows), cols, opts('csv'));
    const parsed = parse(s.text()) as string[][];
    expect(parsed[0]).toEqual(['id', 'name', 'score.value']);
    expect(parsed[2]).toEqual(['b2', 'Beta, "quoted"\nline', '-2']);
  });
  it('csv: guards formula cells unless raw', async () => {
    const evil = [{ id: '=HYPERLINK("http://x")', name: '+1+cmd', score: { value: 3 } }];
    const s = capture();
    await renderList(s, evil, cols, opts('csv'));
    expect((parse(s.text()) as string[][])[1]).toEqual(['\'=HYPERLINK("http://x")', "'+1+cmd", '3']);
    const raw = capture();
    await renderList(raw, evil, cols, opts('csv', { csvRaw: true }));
    expect((parse(raw.text()) as string[][])[1]![0]).toBe('=HYPERLINK("http://x")');
  });
  it('csv: --fields selects and orders columns', async () => {
    const s = capture();
    await renderList(s, rows, cols, opts('csv', { fields: [{ path: 'score.value', header: 'score.value' }, { path: 'id', header: 'id' }] }));
    expect((parse(s.text()) as string[][])[1]).toEqual(['1.5', 'a1']);
  });
  it('table: aligned columns, numbers right, escapes neutralised', async () => {
    const s = capture();
    await renderList(s, [{ id: 'a', name: 'Evil\u001b[2J\u001b]0;pwned\u0007Name', score: { value: 12.5 } }, { id: 'bb', name: 'B', score: { value: 3 } }], cols, opts('table'));
    const lines = s.text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+SCORE$/);
    expect(s.text()).not.toContain('\u001b');
    expect(lines[1]).toContain('EvilName');
    // right-aligned numbers end in the same column
    expect(lines[1]!.length).toBe(lines[2]!.length);
    expect(lines[2]!.endsWith('   3')).toBe(true);
  });
  it('table: fits a narrow terminal by truncating the widest column', async () => {
    const s = capture();
    const long = [{ id: 'a', name: 'N'.repeat(200), score: { value: 1 } }];
    await renderList(s, long, cols, opts('table', { width: 40 }));
    for (const line of s.text().trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(s.text()).toContain('…');
  });
});

describe('renderItem', () => {
  it('json: the object itself', async () => {
    const s = capture();
    await renderItem(s, rows[0], cols, opts('json'));
    expect(JSON.parse(s.text())).toEqual(rows[0]);
  });
  it('table: one FIELD value line per column', async () => {
    const s = capture();
    await renderItem(s, rows[0], cols, opts('table'));
    expect(s.text().trimEnd().split('\n')).toEqual(['ID     a1', 'NAME   Alpha', 'SCORE  1.5']);
  });
  it('every curated column path names a field of its resource in the contract', () => {
    const schemas: Record<keyof typeof columns, z.ZodMiniType> = {
      supplierCreated: contract.SupplierCreateResponse,
      supplier: contract.SupplierDetail,
      supplierDetail: contract.SupplierDetail,
      scorecard: contract.Scorecard,
      scorecardItem: contract.ScorecardItem,
      emissionReport: contract.EmissionReport,
      newsEvent: contract.NewsEvent,
      article: contract.Article,
      dataEntry: contract.DataEntry,
      dataEntryDetail: contract.DataEntry,
      dataSource: contract.DataSource,
      country: contract.Country,
      industry: contract.StandardIndustry,
      category: contract.Category,
    };
    for (const [name, set] of Object.entries(columns) as Array<[keyof typeof columns, Column[]]>) {
      expect(set.length, name).toBeGreaterThan(0);
      for (const col of set) {
        // Walk the path through the schema: object keys, and .length on arrays.
        let schema: z.ZodMiniType = schemas[name];
        for (const part of col.path.split('.')) {
          for (;;) {
            if (schema instanceof z.ZodMiniOptional || schema instanceof z.ZodMiniNullable) schema = schema.def.innerType as z.ZodMiniType;
            else if (schema instanceof z.ZodMiniLazy) schema = schema.def.getter() as z.ZodMiniType;
            else break;
          }
          if (schema instanceof z.ZodMiniArray && part === 'length') break;
          expect(schema instanceof z.ZodMiniObject, `${name}: ${col.path}`).toBe(true);
          const next = (schema as z.ZodMiniObject).def.shape[part] as z.ZodMiniType | undefined;
          expect(next, `${name}: ${col.path} (no field "${part}")`).toBeDefined();
          schema = next!;
        }
      }
    }
  });
});

describe('sanitize', () => {
  it('strips CSI, OSC and C1, escapes other controls', () => {
    expect(sanitizeForTerminal('a\u001b[31mred\u001b[0m')).toBe('ared');
    expect(sanitizeForTerminal('x\u001b]8;;http://e\u0007link\u001b]8;;\u0007')).toBe('xlink');
    expect(sanitizeForTerminal('a\u0000b\u009bc')).toBe('a\\x00bc');
    expect(sanitizeForTerminal('two\nlines')).toBe('two lines');
  });
  it('guards formula cells', () => {
    for (const c of ['=1+1', '+A1', '-A1', '@SUM(A1)', '\tx', '\rx']) expect(guardCsvCell(c)).toBe(`'${c}`);
    expect(guardCsvCell('plain')).toBe('plain');
    expect(guardCsvCell('-2.5')).toBe('-2.5');
  });
});

describe('supplier detail columns', () => {
  it('a custom field without a label or value (the document marks neither required) shows "—", never "undefined"', () => {
    const col = columns.supplierDetail.find((c) => c.path === 'customFields')!;
    const text = col.format!([{ fieldLabel: 'Tier', fieldValue: '1' }, { fieldLabel: 'L' }, { fieldValue: null }, null], {});
    expect(text).toBe('Tier=1; L=—; —=—; —=—');
  });
});
