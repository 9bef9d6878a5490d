/**
 * Property: any rows written with csv-stringify, in any supported delimiter,
 * line ending and encoding, read back through openInput as the same records,
 * each with the physical line it starts on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { countLineBreaks, openInput } from '../../src/import/read.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENCODINGS = ['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
type Enc = (typeof ENCODINGS)[number];

// Characters real exports contain, including every delimiter, quotes, line breaks and non-ASCII.
const COMMON = ['a', 'Z', '0', ' ', '"', ',', ';', '\t', '|', '\n', '\r', '\r\n', '-', "'", '=', 'é', 'ü', 'ß', 'Ñ', '€', '—'];
const WIDE = [...COMMON, '中', 'Ł', 'Ω', '😀'];

const cell = (chars: readonly string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 12 }).map((cs) => cs.join(''));

function encode(text: string, enc: Enc): Buffer {
  switch (enc) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf-16le':
    case 'utf-16be':
      return iconv.encode(text, enc, { addBOM: true });
    case 'windows-1252':
      return iconv.encode(text, 'windows-1252');
  }
}

const blank = (r: string[]) => r.every((c) => c.trim() === '');

describe('csv round trip', () => {
  it('any records, delimiter, line ending and encoding read back the same, with their start lines', async () => {
    let n = 0;
    const scenario = fc
      .record({
        delimiter: fc.constantFrom(',', ';', '\t', '|'),
        enc: fc.constantFrom(...ENCODINGS),
        eol: fc.constantFrom('\n', '\r\n'),
        width: fc.integer({ min: 1, max: 5 }),
        forceDelimiter: fc.boolean(),
      })
      .chain((s) =>
        fc
          .array(fc.array(cell(s.enc === 'windows-1252' ? COMMON : WIDE), { minLength: s.width, maxLength: s.width }), { maxLength: 25 })
          .map((rows) => ({ ...s, records: rows.filter((r) => !blank(r)) })),
      );
    await fc.assert(
      fc.asyncProperty(scenario, async ({ delimiter, enc, eol, width, forceDelimiter, records }) => {
        const header = Array.from({ length: width }, (_, i) => `col${i}`);
        // Records end at CRLF, LF or CR alike, so a cell holding any line break must be quoted (csv-stringify
        // quotes only the file's own record delimiter by itself; a bare CR in an unquoted cell ends the record).
        const opts = { delimiter, record_delimiter: eol === '\r\n' ? ('windows' as const) : ('unix' as const), quoted_match: /[\r\n]/ };
        const text = stringify([header, ...records], opts);
        const path = join(dir, `p${n++}.csv`);
        writeFileSync(path, encode(text, enc));

        // Detection needs a delimiter in the header line (2+ columns); Windows-1252 is named, since ASCII-only text is also valid UTF-8.
        const input = await openInput(path, {
          ...(forceDelimiter || width === 1 ? { delimiter } : {}),
          ...(enc === 'windows-1252' ? { encoding: 'windows-1252' } : {}),
        });
        expect(input.delimiter).toBe(delimiter);
        expect(input.header).toEqual(header);
        const got: Array<{ line: number; fields: string[] }> = [];
        for await (const r of input.records) got.push(r);
        input.destroy();

        let line = 1 + countLineBreaks(stringify([header], opts));
        const want = records.map((r) => {
          const start = line;
          line += countLineBreaks(stringify([r], opts));
          return { line: start, fields: r };
        });
        expect(got).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
});
