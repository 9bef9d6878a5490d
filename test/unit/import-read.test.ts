import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  countLineBreaks,
  detectDelimiter,
  detectEncoding,
  utf8Sequences,
  filePrefix,
  openInput,
  prefixMatches,
  ReadError,
  resolveDelimiter,
  resolveEncoding,
  utf8CompleteEnd,
  type InputFile,
} from '../../src/import/read.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: Buffer | string): string => {
  const p = join(dir, `f${n++}.csv`);
  writeFileSync(p, content);
  return p;
};

async function all(input: InputFile): Promise<Array<[number, string[]]>> {
  const out: Array<[number, string[]]> = [];
  for await (const r of input.records) out.push([r.line, r.fields]);
  input.destroy();
  return out;
}

describe('encoding detection', () => {
  it('a BOM decides', () => {
    expect(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), true)).toEqual({ encoding: 'utf-8', source: 'bom', bom: true });
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0]), true)).toEqual({ encoding: 'utf-16le', source: 'bom', bom: true });
    expect(detectEncoding(Buffer.from([0xfe, 0xff, 0, 0x61]), true)).toEqual({ encoding: 'utf-16be', source: 'bom', bom: true });
  });

  it('UTF-16 without a BOM shows as NUL bytes at every other position', () => {
    expect(detectEncoding(iconv.encode('name,country\nAcme,DEU\n', 'utf-16le'), true).encoding).toBe('utf-16le');
    expect(detectEncoding(iconv.encode('name,country\nAcme,DEU\n', 'utf-16be'), true).encoding).toBe('utf-16be');
  });

  it('valid UTF-8 is UTF-8, anything else Windows-1252', () => {
    expect(detectEncoding(Buffer.from('name\nMüller\n'), true).encoding).toBe('utf-8');
    expect(detectEncoding(Buffer.from('name\nplain ascii\n'), true).encoding).toBe('utf-8');
    expect(detectEncoding(iconv.encode('name\nMüller € Söhne\n', 'windows-1252'), true).encoding).toBe('windows-1252');
  });

  it('UTF-8 with a stray byte is UTF-8 (the stream then names the damaged line), not Windows-1252', () => {
    const damaged = Buffer.concat([Buffer.from('name\nMüller GmbH\nGroßhandel AG\nBad '), Buffer.from([0xff]), Buffer.from('\n')]);
    expect(utf8Sequences(damaged)).toEqual({ valid: 2, invalid: 1 });
    expect(detectEncoding(damaged, true).encoding).toBe('utf-8');
    // Windows-1252 text: its accented letters are stray bytes, not sequences.
    expect(utf8Sequences(iconv.encode('Müller € Söhne São Paulo', 'windows-1252')).valid).toBe(0);
  });

  it('a sample cut inside a multi-byte character is still UTF-8', () => {
    const b = Buffer.from('ab€', 'utf8'); // € is 3 bytes
    const cut = b.subarray(0, b.length - 1);
    expect(utf8CompleteEnd(cut)).toBe(2);
    expect(detectEncoding(cut, false).encoding).toBe('utf-8');
    expect(detectEncoding(cut, true).encoding).toBe('windows-1252'); // the whole input ends mid-character
  });

  it('--encoding names', () => {
    expect(resolveEncoding(undefined)).toBeUndefined();
    expect(resolveEncoding('auto')).toBeUndefined();
    expect(resolveEncoding('UTF8')).toBe('utf-8');
    expect(resolveEncoding('cp1252')).toBe('windows-1252');
    expect(resolveEncoding('UTF-16LE')).toBe('utf-16le');
    expect(resolveEncoding('iso-8859-15')).toBe('iso-8859-15');
    expect(() => resolveEncoding('klingon')).toThrow(UsageError);
    // Latin-1 labels read as browsers read them (WHATWG): 0x80-0x9F are the Windows-1252 characters, not C1 controls.
    for (const label of ['latin1', 'Latin-1', 'ISO-8859-1', 'iso8859-1', 'l1']) expect(resolveEncoding(label), label).toBe('windows-1252');
  });

  it('--encoding latin1 stores the € and the dashes and quotes an SAP export means, not C1 control characters', async () => {
    const bytes = Buffer.from([...Buffer.from('name;country\r\nEuro '), 0x80, ...Buffer.from(' Handel;DEU\r\nQuote '), 0x84, ...Buffer.from('Gut'), 0x93, ...Buffer.from(' AG;DEU\r\n')]);
    const names = (await all(await openInput(file(bytes), { encoding: 'latin1' }))).map(([, fields]) => fields[0]);
    expect(names).toEqual(['Euro € Handel', 'Quote „Gut“ AG']);
  });
});

describe('delimiter detection', () => {
  it.each([
    ['name,country,website\n', ','],
    ['name;country;website\n', ';'],
    ['name\tcountry\twebsite\n', '\t'],
    ['name|country|website\n', '|'],
    ['"a,b";c;d\n', ';'],
    ['Name;Address, City;Country\n', ';'],
    ['\n\nname;country\n', ';'],
    ['name\n', ','],
    ['a,b;c\nx;y;z;w;v\n', ','], // only the header line counts; a tie goes to ","
    // More commas, but only ";" makes known column names of the header (a comma inside a title lost to them).
    ['Name;Vendor ID;Street, No., ZIP, City\nAcme;1;Main St, 5, 12345, Berlin\n', ';'],
    ['\uFEFFName;Vendor ID;Street, No., ZIP, City\r\n', ';'],
  ])('%j -> %j', (text, d) => expect(detectDelimiter(text)).toBe(d));

  it('--delimiter accepts names', () => {
    expect(resolveDelimiter('tab')).toBe('\t');
    expect(resolveDelimiter('semicolon')).toBe(';');
    expect(resolveDelimiter('|')).toBe('|');
    expect(() => resolveDelimiter(';;')).toThrow(UsageError);
    expect(() => resolveDelimiter('"')).toThrow(UsageError);
  });
});

describe('line breaks', () => {
  it('counts CRLF, CR and LF once each', () => {
    expect(countLineBreaks('a\r\nb\nc\rd')).toBe(3);
    expect(countLineBreaks('abc')).toBe(0);
    expect(countLineBreaks('\r\n\r\n')).toBe(2);
  });
});

describe('openInput', () => {
  const rows = 'name,country\r\nMüller,DEU\r\n"Multi\r\nLine",FRA\r\n\r\n,,\r\nLast,ITA';

  it.each([
    ['utf-8', Buffer.from(rows, 'utf8'), 'detected'],
    ['utf-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rows, 'utf8')]), 'bom'],
    ['utf-16le BOM', iconv.encode(rows, 'utf-16le', { addBOM: true }), 'bom'],
    ['utf-16be BOM', iconv.encode(rows, 'utf-16be', { addBOM: true }), 'bom'],
    ['windows-1252', iconv.encode(rows, 'windows-1252'), 'detected'],
  ])('%s: same header, records and start lines', async (_label, bytes, source) => {
    const input = await openInput(file(bytes));
    expect(input.encodingSource).toBe(source);
    expect(input.header).toEqual(['name', 'country']);
    expect(input.headerLine).toBe(1);
    expect(input.delimiter).toBe(',');
    expect(input.eol).toBe('\r\n');
    expect(await all(input)).toEqual([
      [2, ['Müller', 'DEU']],
      [3, ['Multi\r\nLine', 'FRA']],
      [7, ['Last', 'ITA']],
    ]);
    expect(input.blankRecords()).toBe(2);
  });

  it('text a decoder other than UTF-8\'s could not read stops the import naming the line, never stored as U+FFFD; a cut UTF-16 file too', async () => {
    // Found when the chunk is decoded: by openInput (the header's chunk) or while reading, either way a ReadError.
    const readAll = async (p: string, o?: { encoding: string }) => all(await openInput(p, o));
    await expect(readAll(file(Buffer.from('name,country\nOk,DEU\nM\x81ller,DEU\n', 'latin1')), { encoding: 'windows-1252' })).rejects.toThrow(/line 3 holds bytes that are not windows-1252 text/);
    const utf16 = (s: string): Buffer => {
      const b = Buffer.alloc(s.length * 2);
      for (let i = 0; i < s.length; i++) b.writeUInt16LE(s.charCodeAt(i), i * 2);
      return b;
    };
    await expect(readAll(file(utf16('\ufeffname,country\r\n\ud800B,DEU\r\nOk,FRA\r\n')))).rejects.toThrow(/line 2 holds bytes that are not utf-16le text/);
    const whole = utf16('\ufeffname,country\r\nAlpha,DEU\r\nEmoji \ud83d\ude00 GmbH,FRA\r\n');
    expect(await all(await openInput(file(whole)))).toEqual([
      [2, ['Alpha', 'DEU']],
      [3, ['Emoji \ud83d\ude00 GmbH', 'FRA']],
    ]);
    await expect(readAll(file(whole.subarray(0, whole.length - 3)))).rejects.toThrow(/UTF-16 but holds an odd number of bytes: it was cut short/);
  });

  it('a file that is neither UTF-8 nor Windows-1252 (a DOS code page) is refused with a hint, never decoded to U+FFFD; --encoding reads it', async () => {
    const dos = iconv.encode('Name;Land\r\nMüller Stahl;DEU\r\nSchöne Grüße;DEU\r\n', 'cp850');
    await expect(openInput(file(dos))).rejects.toThrow(/neither UTF-8 nor Windows-1252: byte 0x81 at offset \d+ .*--encoding cp850/);
    const forced = await openInput(file(dos), { encoding: 'cp850' });
    expect(await all(forced)).toEqual([
      [2, ['Müller Stahl', 'DEU']],
      [3, ['Schöne Grüße', 'DEU']],
    ]);
  });

  it('a DOS export without ü (ä, ö, ß only) is refused too: an ä or ö byte between letters is no Windows-1252 quotation mark', async () => {
    const dos = iconv.encode('Name;Country;Vendor ID\nGroßhandel Böhm;DEU;D-1\nHändler AG;DEU;D-2\n', 'cp850');
    await expect(openInput(file(dos))).rejects.toThrow(/looks like a DOS export, not Windows-1252: byte 0x94 at offset \d+ stands between two letters .*--encoding cp850/);
    expect(await all(await openInput(file(dos), { encoding: 'cp850' }))).toEqual([
      [2, ['Großhandel Böhm', 'DEU', 'D-1']],
      [3, ['Händler AG', 'DEU', 'D-2']],
    ]);
    // Real Windows-1252 quotation marks (around words) and umlauts still read as Windows-1252.
    const w = iconv.encode('Name;Note\nMüller „Stahl“ GmbH;said ”yes”\nSchöne Grüße;don’t\n', 'windows-1252');
    expect((await all(await openInput(file(w)))).map(([, f]) => f[0])).toEqual(['Müller „Stahl“ GmbH', 'Schöne Grüße']);
  });

  it('a forced --encoding that the bytes contradict names what the bytes are', async () => {
    const text = 'name,country\nMüller,DEU\n';
    const le = iconv.encode(text, 'utf-16le', { addBOM: true });
    await expect(openInput(file(le), { encoding: 'utf-8' })).rejects.toThrow(/starts with a UTF-16LE byte order mark, so it is not utf-8: drop --encoding \(or pass --encoding utf-16le\)/);
    await expect(openInput(file(le), { encoding: 'utf-16be' })).rejects.toThrow(/UTF-16LE byte order mark, which disagrees with --encoding utf-16be/);
    const be = iconv.encode(text, 'utf-16be');
    await expect(openInput(file(be), { encoding: 'latin1' })).rejects.toThrow(/try --encoding utf-16be\)/);
  });

  it('a UTF-8 BOM before Windows-1252 text, read with the --encoding srs advises: the BOM is dropped, not glued to the first header', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), iconv.encode('Vendor No;Name;Country\nBM-7;Müller AG;DEU\n', 'windows-1252')]);
    await expect(openInput(file(bytes))).rejects.toThrow(/pass its real one with --encoding windows-1252/);
    const input = await openInput(file(bytes), { encoding: 'windows-1252' });
    expect(input.header).toEqual(['Vendor No', 'Name', 'Country']);
    expect(input.bom).toBe(true);
    expect(await all(input)).toEqual([[2, ['BM-7', 'Müller AG', 'DEU']]]);
  });

  it('--encoding utf-8 over bytes that are not UTF-8 stops at the line, as detected UTF-8 does (it stored U+FFFD, exit 0)', async () => {
    const bytes = Buffer.concat([Buffer.from('customerSupplierId,name,country\nBE3,Gie'), Buffer.from([0xdf]), Buffer.from('erei,DEU\n')]);
    await expect((async () => all(await openInput(file(bytes), { encoding: 'utf-8' })))()).rejects.toThrow(/line 2 is not valid UTF-8 \(byte 0xDF/);
  });

  it('a single-byte --encoding over text that is valid UTF-8 (not ASCII) warns, with what the names would become', async () => {
    const utf8 = await openInput(file('name,country\nRhein Gießerei GmbH,DEU\n'), { encoding: 'windows-1252' });
    expect(utf8.warnings).toEqual([expect.stringContaining('reads as UTF-8 ("Gießerei"), but --encoding windows-1252 decodes each byte as a character of its own: such names would be stored garbled ("GieÃŸerei")')]);
    const cp = await openInput(file(iconv.encode('name,country\nRhein Gießerei GmbH,DEU\n', 'windows-1252')), { encoding: 'windows-1252' });
    expect(cp.warnings).toEqual([]);
    const ascii = await openInput(file('name,country\nPlain,DEU\n'), { encoding: 'latin1' });
    expect(ascii.warnings).toEqual([]);
    // A multi-byte encoding does not decode "each byte as a character": not this warning.
    const sjis = await openInput(file('name,country\nRhein Gießerei GmbH,DEU\n'), { encoding: 'shift_jis' });
    expect(sjis.warnings).toEqual([]);
  });

  it('honours an Excel "sep=" line and a forced delimiter', async () => {
    const a = await openInput(file('sep=|\nname|country\nA|DEU\n'));
    expect([a.delimiter, a.delimiterSource, a.headerLine]).toEqual(['|', 'sep-line', 2]);
    expect(await all(a)).toEqual([[3, ['A', 'DEU']]]);
    const b = await openInput(file('name;x\nA,B;C\n'), { delimiter: ',' });
    expect(b.header).toEqual(['name;x']);
    expect(await all(b)).toEqual([[2, ['A', 'B;C']]]);
  });

  it('keeps trailing empty cells and lets rows be short or long', async () => {
    const input = await openInput(file('name,country,,\nA,DEU,,\nB\nC,FRA,x,y,z\n'));
    expect(input.header).toEqual(['name', 'country', '', '']);
    expect(await all(input)).toEqual([
      [2, ['A', 'DEU', '', '']],
      [3, ['B']],
      [4, ['C', 'FRA', 'x', 'y', 'z']],
    ]);
  });

  it('reads stdin', async () => {
    const stdin = Readable.from([Buffer.from('name\n'), Buffer.from('A\nB\n')]);
    const input = await openInput('-', { stdin });
    expect(input.name).toBe('stdin');
    expect(input.identity.path).toBeNull();
    expect(input.identity.size).toBeNull();
    expect(await all(input)).toEqual([
      [2, ['A']],
      [3, ['B']],
    ]);
    await expect(openInput('-', { stdin: Readable.from([]), stdinIsTTY: true })).rejects.toThrow(/stdin is a terminal/);
  });

  it('refuses what is not a CSV file, before reading rows', async () => {
    await expect(openInput(join(dir, 'nope.csv'))).rejects.toThrow(/no such file/);
    const sub = join(dir, 'adir');
    mkdirSync(sub);
    await expect(openInput(sub)).rejects.toThrow(/directory/);
    await expect(openInput(file(''))).rejects.toThrow(/is empty/);
    await expect(openInput(file('\n\n  \n'))).rejects.toThrow(/no header line/);
    await expect(openInput(file(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])))).rejects.toThrow(/xlsx/);
    await expect(openInput(file(Buffer.from('name\nA\u0000B\n')))).rejects.toThrow(/NUL bytes/);
    // A compressed export (the import's help shows gunzip -c ... | srs supplier import -): named as such, not "UTF-16?".
    await expect(openInput(file(gzipSync('name\nA\n')))).rejects.toThrow(/is gzip-compressed, not CSV: decompress it first \(gunzip -c ".*" \| srs supplier import -\)$/);
    // The other formats exports come in, by their magic bytes (then compressed data, NULs included).
    const body = Buffer.from([0, 1, 2, 0, 0xff, 0x10]);
    await expect(openInput(file(Buffer.concat([Buffer.from('BZh9'), body])))).rejects.toThrow(/is bzip2-compressed, not CSV: decompress it first \(bzip2 -dc /);
    await expect(openInput(file(Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), body])))).rejects.toThrow(/is xz-compressed, not CSV: decompress it first \(xz -dc /);
    await expect(openInput(file(Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), body])))).rejects.toThrow(/is zstd-compressed, not CSV: decompress it first \(zstd -dc /);
    // A header that merely starts with "BZh" is a CSV.
    await expect(openInput(file('BZh,name\n1,A\n'))).resolves.toBeDefined();
  });

  it('invalid UTF-8 after the detection sample stops the read with a ReadError that names the fix', async () => {
    const head = 'name\n' + 'Plain ascii row\n'.repeat(80_000); // > 1 MiB of ASCII
    const bytes = Buffer.concat([Buffer.from(head), iconv.encode('Müller\n', 'windows-1252'), Buffer.from('After\n')]);
    const input = await openInput(file(bytes));
    expect(input.encoding).toBe('utf-8');
    let count = 0;
    let err: unknown;
    try {
      for await (const _ of input.records) count++;
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReadError);
    expect((err as Error).message).toContain('line 80002 is not valid UTF-8 (byte 0xFC');
    expect((err as Error).message).toContain('every line before it is plain ASCII');
    expect((err as Error).message).toContain('--encoding windows-1252');
    expect(count).toBeLessThanOrEqual(80_000);
    // Forced, the same bytes read fine.
    const forced = await openInput(file(bytes), { encoding: 'windows-1252' });
    const recs = await all(forced);
    expect(recs.at(-2)).toEqual([80_002, ['Müller']]);
  });

  it('one bad byte in a UTF-8 file (non-ASCII text before it) names its line, offset and value, and says to fix that line, not to pass --encoding', async () => {
    const row = 'Großhandel Süd row\r\n'; // CRLF: line counting across both kinds of breaks
    const head = 'name\n' + row.repeat(60_000); // > 1 MiB of UTF-8 with umlauts
    const before = Buffer.from(head);
    const bytes = Buffer.concat([before, Buffer.from('Gro'), Buffer.from([0xdf]), Buffer.from('handel\nAfter\n')]);
    const input = await openInput(file(bytes));
    expect(input.encoding).toBe('utf-8');
    let err: unknown;
    try {
      for await (const _ of input.records) void _;
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReadError);
    const msg = (err as Error).message;
    expect(msg).toContain(`line 60002 is not valid UTF-8 (byte 0xDF at byte offset ${before.length + 3})`);
    expect(msg).toContain('fix line 60002');
    expect(msg).not.toContain('--encoding windows-1252');
  });

  it('an unclosed quote is a ReadError naming the line where the record starts', async () => {
    const input = await openInput(file('name,country\nA,DEU\n"Broken,FRA\nC,ITA\n'));
    const seen: number[] = [];
    let err: unknown;
    try {
      for await (const r of input.records) seen.push(r.line);
    } catch (e) {
      err = e;
    }
    expect(seen).toEqual([2]);
    expect(err).toBeInstanceOf(ReadError);
    expect((err as ReadError).line).toBe(3);
    expect((err as Error).message).toMatch(/line 3/);
  });

  it('back-pressure: reading a few rows of a large file reads only a few chunks of it', async () => {
    const big = 'name,country\n' + 'Some Supplier Name Ltd,DEU\n'.repeat(400_000); // ~10 MB
    const input = await openInput(file(big), { queue: 16 });
    let k = 0;
    for await (const _ of input.records) if (++k === 100) break;
    await new Promise((r) => setTimeout(r, 50)); // let any read-ahead happen
    expect(input.bytesRead()).toBeLessThan(256 * 1024);
    input.destroy();
  });

  it('records the identity the journal binds to', async () => {
    const p = file('name\nA\n');
    const input = await openInput(p);
    expect(input.identity).toMatchObject({ path: p, size: 7, headBytes: 7 });
    expect(input.identity.head).toMatch(/^[0-9a-f]{64}$/);
    input.destroy();
  });
});

describe('filePrefix (the bytes before a line, for resuming a fixed file)', () => {
  it('ends right after the break before the line, counting CRLF, CR and LF once each, as the reader does', () => {
    const text = 'h\r\na\rb\nc\r\nd\n';
    const p = file(text);
    for (const [line, bytes] of [[1, 0], [2, 3], [3, 5], [4, 7], [5, 10], [6, 12]] as const) {
      const pre = filePrefix(p, line, 'utf-8')!;
      expect(pre.bytes, `line ${line}`).toBe(bytes);
      expect(pre.sha256).toBe(createHash('sha256').update(readFileSync(p).subarray(0, bytes)).digest('hex'));
      expect(prefixMatches(p, pre)).toBe(true);
    }
    expect(filePrefix(p, 7, 'utf-8')).toBeUndefined(); // the file has 6 lines (the last one empty)
    expect(filePrefix(p, 2, 'utf-16le')).toBeUndefined();
  });

  it('says whether the prefix is plain ASCII, and prefixMatches notices a change before the line but not after it', () => {
    const p = file('name\nMüller\nB\nC\n');
    expect(filePrefix(p, 2, 'utf-8')!.ascii).toBe(true);
    const pre = filePrefix(p, 3, 'utf-8')!;
    expect(pre.ascii).toBe(false);
    writeFileSync(p, 'name\nMüller\nB fixed\nC\n');
    expect(prefixMatches(p, pre)).toBe(true);
    writeFileSync(p, 'name\nMueller\nB\nC\n');
    expect(prefixMatches(p, pre)).toBe(false);
  });
});
