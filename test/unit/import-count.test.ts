import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countableEncoding, countRecords } from '../../src/import/count.js';
import { openInput } from '../../src/import/read.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-count-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string | Buffer): string {
  const p = join(dir, `f${n++}.csv`);
  writeFileSync(p, text);
  return p;
}

/** The records the import itself reads from the file, for comparison. */
async function parsed(path: string): Promise<{ count: number; delimiter: string; headerLine: number }> {
  const input = await openInput(path, { queue: 16, stdinIsTTY: false });
  let count = 0;
  for await (const _ of input.records) count++;
  input.destroy();
  return { count, delimiter: input.delimiter, headerLine: input.headerLine };
}

describe('countRecords (the progress line total)', () => {
  const cases: Record<string, string> = {
    plain: 'name,country\nA,DEU\nB,FRA\n',
    'no final newline, CRLF': 'name,country\r\nA,DEU\r\nB,FRA',
    'quoted line breaks, doubled quotes, delimiters in quotes': 'name,notes\n"A","line 1\nline 2"\n"B ""Best""","x, y"\nC,"\n\n"\n',
    'blank and all-empty records are skipped': 'name,country\n\nA,DEU\n,\n  \n"",""\nB,FRA\n\n',
    'leading blank lines and a sep= line': 'sep=;\n\nname;country\nA;DEU\nB;FRA\nC;ITA\n',
    'quotes inside an unquoted field': 'name,country\nA 5" pipe,DEU\nB,FRA\n',
    'text after a closing quote': 'name,country\n"A" Ltd,DEU\nB,FRA\n',
    'CR-only line ends (the count was 0)': 'name,country\rA,DEU\rB,FRA\rC,ITA\r',
    'CRLF then CR-only, in one file (the count stopped at the CRLF part)': 'name,country\r\nA,DEU\r\nB,FRA\rC,ITA\rD,ESP\r',
    'a quoted field holding a CR': 'name,notes\r"A","x\ry"\rB,z\r',
    'rows of only NBSP, form feeds, vertical tabs or an ideographic space are blank (trim() says so)': 'name,country\nA,DEU\n\u00a0,\u00a0\n\f,\v\n\u3000,"\u2003"\nB,FRA\n\u00a0x,\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`${name}: the same count as the import's parser`, async () => {
      const p = file(text);
      const want = await parsed(p);
      expect(await countRecords(p, want.delimiter, want.headerLine)).toBe(want.count);
    });
  }

  it('many records across read chunks', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => `"Supplier ${i}, Inc","${i % 7 === 0 ? 'two\nlines' : 'one'}",DEU`);
    const p = file(['name,notes,country', ...rows].join('\n') + '\n');
    expect(await countRecords(p, ',', 1)).toBe(30_000);
  });

  it('gives up (no total) on a quote never closed, a missing file, or a delimiter it cannot scan for', async () => {
    expect(await countRecords(file('name,country\n"A,DEU\nB,FRA\n'), ',', 1)).toBeUndefined();
    expect(await countRecords(join(dir, 'missing.csv'), ',', 1)).toBeUndefined();
    expect(await countRecords(file('name§country\n'), '§', 1)).toBeUndefined();
  });

  it('in a single-byte code page, its no-break space is blank too', async () => {
    const p = join(dir, 'nbsp-1252.csv');
    writeFileSync(p, Buffer.concat([Buffer.from('name,country\nA,DEU\n'), Buffer.from([0xa0, 0x2c, 0xa0, 0x0a]), Buffer.from('B,FRA\n'), Buffer.from([0xe9, 0x2c, 0x0a])]));
    expect(await countRecords(p, ',', 1, undefined, 'windows-1252')).toBe(3);
  });

  it('counts a UTF-16 file too, decoded first (it had no count, and the estimate ran far low)', async () => {
    const text = 'name,country\r\n"A, Inc",DEU\r\nB,FRA\rC,ITA\n';
    for (const [encoding, bytes] of [
      ['utf-16le', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
      ['utf-16be', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()])],
    ] as const) {
      const p = join(dir, `u16-${encoding}.csv`);
      writeFileSync(p, bytes);
      expect(await countRecords(p, ',', 1, undefined, encoding), encoding).toBe(3);
    }
  });

  it('scans only encodings whose delimiters, quotes and line feeds are single ASCII bytes', () => {
    expect(countableEncoding('utf-8')).toBe(true);
    expect(countableEncoding('windows-1252')).toBe(true);
    expect(countableEncoding('utf-16le')).toBe(false);
    expect(countableEncoding('UTF-16BE')).toBe(false);
  });
});
