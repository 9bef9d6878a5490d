/**
 * Opens an import file (or stdin) and streams its CSV records with the
 * physical line each one starts on.
 *
 * 1. Peek at the first 1 MiB (read once, also hashed for the journal's binding).
 * 2. Encoding (unless --encoding): a BOM decides (UTF-8, UTF-16LE, UTF-16BE);
 *    else NUL bytes at every other position mean UTF-16 without a BOM; else a
 *    sample that is valid UTF-8 means UTF-8; else Windows-1252. Zip (.xlsx) and
 *    OLE (.xls) workbooks and other binary files are refused.
 *    Auto-detected UTF-8 is checked in full while streaming (buffer.isUtf8 per
 *    chunk): an invalid byte after the sample stops the read with an error
 *    naming its line, offset and value (instead of silently storing U+FFFD in
 *    supplier names). It suggests another --encoding only when everything
 *    before it was plain ASCII; otherwise the file is UTF-8 with one bad spot.
 * 3. Delimiter (unless --delimiter): the most frequent of , ; TAB | outside
 *    quotes in the header line; an Excel "sep=X" first line is honoured.
 * 4. csv-parse (bom, relax_column_count, relax_quotes, max_record_size) over the
 *    decoded stream. Line numbers are counted from each record's raw text
 *    (csv-parse's own info.lines miscounts CRLF inside quoted fields).
 *    Blank lines and records whose cells are all empty (Excel's ";;;;") are skipped.
 *
 * Back-pressure: 16 KiB file chunks and a parser queue of a few records, so the
 * reader never runs far ahead of the consumer and memory stays flat.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, open as openAsync, openSync, readSync, statSync } from 'node:fs';
import { isSpecialFile, readsSpecialFile } from '../util/signals.js';
import { isatty } from 'node:tty';
import { isAscii, isUtf8 } from 'node:buffer';
import { resolve as resolvePath } from 'node:path';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { parse as csvParse, type Parser } from 'csv-parse';
import iconv from 'iconv-lite';
import { fieldForHeader } from './headers.js';
import { UsageError } from '../errors.js';
import { compressionOf } from '../util/compression.js';

export const PEEK_BYTES = 1024 * 1024;
const CHUNK_BYTES = 16 * 1024;
/** A record longer than this is a malformed file (typically an unclosed quote), not a supplier. */
export const MAX_RECORD_CHARS = 1024 * 1024;

export const DELIMITERS = [',', ';', '\t', '|'] as const;

export interface SourceRecord {
  /** Physical line (1-based) where the record starts. */
  line: number;
  fields: string[];
}

export interface FileIdentity {
  /** Absolute path, or null for stdin. */
  path: string | null;
  /** Size in bytes, or null for stdin. */
  size: number | null;
  /** SHA-256 (hex) of the first `headBytes` bytes. */
  head: string;
  headBytes: number;
}

export type EncodingSource = 'bom' | 'detected' | 'flag';

export interface ReadOptions {
  /** --encoding: auto when undefined or "auto". */
  encoding?: string | undefined;
  /** --delimiter: detected when undefined. */
  delimiter?: string | undefined;
  /** Records the parser may queue ahead of the consumer. */
  queue?: number;
  stdin?: NodeJS.ReadableStream & Readable;
  stdinIsTTY?: boolean;
}

/** The file could not be read as CSV (decoding, quoting): nothing after `line` was read. */
export class ReadError extends UsageError {
  readonly line: number;
  constructor(message: string, line: number) {
    super(message, { code: 'invalid_input' });
    this.name = 'ReadError';
    this.line = line;
  }
}

export interface InputFile {
  /** As given on the command line ("-" shows as "stdin"). */
  name: string;
  identity: FileIdentity;
  /** Canonical iconv-style name: utf-8, utf-16le, utf-16be, windows-1252, or what --encoding gave. */
  encoding: string;
  encodingSource: EncodingSource;
  /** The input started with a byte order mark. */
  bom: boolean;
  /** What the reader noticed and the user should hear before anything is sent (a forced encoding that garbles). */
  warnings: string[];
  delimiter: string;
  delimiterSource: 'detected' | 'flag' | 'sep-line';
  /** Line ending of the header line (for files written back in the input's own shape). */
  eol: string;
  header: string[];
  headerLine: number;
  /** Data records, in file order. Throws ReadError when the file turns out to be malformed. */
  records: AsyncGenerator<SourceRecord, void, undefined>;
  /**
   * The hot path under `records`: the next data record when the parser already
   * holds one (no promise per row), `null` at the end of the data (or after
   * destroy), `undefined` when the caller must await more() first. Throws
   * ReadError like `records`.
   */
  take(): SourceRecord | null | undefined;
  /** Resolves when take() may have something new (a record, the end, or an error). */
  more(): Promise<void>;
  /** Bytes of the input consumed so far. */
  bytesRead(): number;
  /**
   * Data records the parser has made so far, taken or not (blank ones included): with bytesRead, the density of
   * records in what was read, for the progress line's estimate of a total it could not count.
   */
  recordsParsed(): number;
  /** Blank lines and all-empty records skipped so far. */
  blankRecords(): number;
  /** Stops reading (releases the file, unblocks a pending read). */
  destroy(): void;
}

// ---------------------------------------------------------------- encoding

const ENCODING_ALIASES: Record<string, string> = {
  utf8: 'utf-8',
  'utf-8': 'utf-8',
  utf8bom: 'utf-8',
  'utf-8-bom': 'utf-8',
  utf16le: 'utf-16le',
  'utf-16le': 'utf-16le',
  utf16be: 'utf-16be',
  'utf-16be': 'utf-16be',
  utf16: 'utf-16',
  'utf-16': 'utf-16',
  ucs2: 'utf-16le',
  windows1252: 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  ansi: 'windows-1252',
  // The labels ERP exports (SAP's "Latin-1") are given under, read as browsers read them (the WHATWG Encoding Standard
  // maps every one to windows-1252): ISO-8859-1 proper has only control characters at 0x80-0x9F, and "Euro \x80
  // Handel" was stored with U+0080 where the file meant €.
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  l1: 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  iso88591: 'windows-1252',
  'iso_8859-1': 'windows-1252',
  cp819: 'windows-1252',
  ibm819: 'windows-1252',
  'x-cp1252': 'windows-1252',
};

/** Resolves --encoding to a name iconv-lite knows; undefined for auto. Throws UsageError for unknown names. */
export function resolveEncoding(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const key = name.trim().toLowerCase();
  if (key === '' || key === 'auto') return undefined;
  const known = ENCODING_ALIASES[key];
  if (known) return known;
  if (iconv.encodingExists(key)) return key;
  throw new UsageError(`--encoding: unknown encoding "${name}" (try auto, utf-8, utf-16le, utf-16be or windows-1252)`);
}

/** Index up to which `buf` holds only complete UTF-8 sequences (a sample may cut one in half). */
export function utf8CompleteEnd(buf: Uint8Array): number {
  const n = buf.length;
  for (let back = 1; back <= 4 && back <= n; back++) {
    const b = buf[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

export interface Detected {
  encoding: string;
  source: EncodingSource;
  bom: boolean;
}

/** Detects the encoding of a sample (the first bytes of the input). `complete`: the sample is the whole input. */
export function detectEncoding(sample: Buffer, complete: boolean): Detected {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return { encoding: 'utf-8', source: 'bom', bom: true };
  if (sample[0] === 0xff && sample[1] === 0xfe) return { encoding: 'utf-16le', source: 'bom', bom: true };
  if (sample[0] === 0xfe && sample[1] === 0xff) return { encoding: 'utf-16be', source: 'bom', bom: true };
  const probe = sample.subarray(0, 4096);
  let zerosEven = 0;
  let zerosOdd = 0;
  for (let i = 0; i < probe.length; i++) if (probe[i] === 0) i % 2 === 0 ? zerosEven++ : zerosOdd++;
  const half = probe.length / 2;
  if (zerosOdd > half * 0.3 && zerosEven < half * 0.05) return { encoding: 'utf-16le', source: 'detected', bom: false };
  if (zerosEven > half * 0.3 && zerosOdd < half * 0.05) return { encoding: 'utf-16be', source: 'detected', bom: false };
  const upto = complete ? sample.length : utf8CompleteEnd(sample);
  if (isUtf8(sample.subarray(0, upto))) return { encoding: 'utf-8', source: 'detected', bom: false };
  // Not valid UTF-8 as a whole. A Windows-1252 file's accented letters are single bytes that almost never form
  // UTF-8 sequences; a UTF-8 file with one damaged byte is mostly well-formed sequences. So a sample with at least
  // as many well-formed multi-byte sequences as stray bytes is UTF-8 with damage: read as UTF-8, the stream's check
  // then stops at the damaged line and names it (decoding it as Windows-1252 stored "MÃ¼ller" without a word).
  const { valid, invalid } = utf8Sequences(sample.subarray(0, upto));
  if (valid > 0 && valid >= invalid) return { encoding: 'utf-8', source: 'detected', bom: false };
  return { encoding: 'windows-1252', source: 'detected', bom: false };
}

/** Well-formed multi-byte UTF-8 sequences, and bytes that belong to none, in `b`. */
export function utf8Sequences(b: Buffer): { valid: number; invalid: number } {
  let valid = 0;
  let invalid = 0;
  const cont = (i: number) => i < b.length && (b[i]! & 0xc0) === 0x80;
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    let ok = need > 0;
    for (let k = 1; ok && k <= need; k++) ok = cont(i + k);
    if (ok) {
      valid++;
      i += need + 1;
    } else {
      invalid++;
      i++;
    }
  }
  return { valid, invalid };
}

/**
 * Five bytes mean nothing in Windows-1252 (0x81, 0x8D, 0x8F, 0x90, 0x9D): decoded, each would become U+FFFD in a
 * supplier's name. A sample that is not UTF-8 and holds one is in another code page (a DOS export in 850 or
 * 437 often is): refused before anything is sent, with a hint, rather than guessed.
 */
function refuseUndefinedIn1252(name: string, sample: Buffer): void {
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if (b === 0x81 || b === 0x8d || b === 0x8f || b === 0x90 || b === 0x9d) {
      throw new UsageError(
        `${name} is neither UTF-8 nor Windows-1252: byte 0x${b.toString(16)} at offset ${i} means nothing in Windows-1252 ` +
          `(a DOS export in code page 850 or 437?); pass its encoding, e.g. --encoding cp850`,
        { code: 'invalid_input' },
      );
    }
  }
  // In code page 850 or 437, ä and ö are 0x84 and 0x94; in Windows-1252 those bytes are „ and ”, quotation marks
  // that never stand between two letters. Such a byte between letters is a DOS export (Böhm read as B”hm).
  const letter = (b: number | undefined) => b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));
  for (let i = 1; i + 1 < sample.length; i++) {
    const b = sample[i]!;
    if ((b === 0x84 || b === 0x94) && letter(sample[i - 1]) && letter(sample[i + 1])) {
      throw new UsageError(
        `${name} looks like a DOS export, not Windows-1252: byte 0x${b.toString(16)} at offset ${i} stands between two letters ` +
          `(${b === 0x84 ? 'ä' : 'ö'} in code page 850 or 437, a quotation mark in Windows-1252); pass its encoding, e.g. --encoding cp850 ` +
          `(or --encoding windows-1252 if it really is)`,
        { code: 'invalid_input' },
      );
    }
  }
}

/** Refuses workbooks and binary files up front, with a hint. */
function refuseBinary(name: string, sample: Buffer, encoding: string, complete: boolean): void {
  if (sample.length >= 4 && sample[0] === 0x50 && sample[1] === 0x4b && sample[2] === 0x03 && sample[3] === 0x04) {
    throw new UsageError(`${name} is a zip file (an Excel .xlsx workbook?), not CSV: save it as "CSV UTF-8" and import that`, { code: 'invalid_input' });
  }
  const compressed = compressionOf(sample);
  if (compressed) {
    const stdin = name === 'stdin' || name === '-';
    throw new UsageError(`${name} is ${compressed.name}-compressed, not CSV: decompress it first${stdin ? '' : ` (${compressed.cat} ${JSON.stringify(name)} | srs supplier import -)`}`, { code: 'invalid_input' });
  }
  if (sample.length >= 4 && sample[0] === 0xd0 && sample[1] === 0xcf && sample[2] === 0x11 && sample[3] === 0xe0) {
    throw new UsageError(`${name} is an Excel .xls workbook, not CSV: save it as "CSV UTF-8" and import that`, { code: 'invalid_input' });
  }
  if (!encoding.startsWith('utf-16') && sample.subarray(0, 65536).includes(0)) {
    // What the bytes look like, by the same rules as detection: a UTF-16 BOM, or NULs in one byte of each unit.
    const seen = detectEncoding(sample, complete);
    if (seen.source === 'bom' && seen.encoding.startsWith('utf-16')) {
      throw new UsageError(`${name} starts with a ${seen.encoding.toUpperCase()} byte order mark, so it is not ${encoding}: drop --encoding (or pass --encoding ${seen.encoding})`, { code: 'invalid_input' });
    }
    const guess = seen.encoding.startsWith('utf-16') ? seen.encoding : 'utf-16le';
    throw new UsageError(`${name} contains NUL bytes: it is not a text file in ${encoding} (is it UTF-16 without a byte order mark? try --encoding ${guess})`, {
      code: 'invalid_input',
    });
  }
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const seen = detectEncoding(sample, complete);
    if (seen.source === 'bom' && seen.encoding.startsWith('utf-16') && seen.encoding !== encoding) {
      throw new UsageError(`${name} starts with a ${seen.encoding.toUpperCase()} byte order mark, which disagrees with --encoding ${encoding}: drop --encoding (or pass --encoding ${seen.encoding})`, { code: 'invalid_input' });
    }
  }
}

/**
 * A byte order mark must agree with the bytes after it: a UTF-16 BOM before
 * UTF-8 text (an editor that added one, a concatenation) would decode every
 * name to garbage, and a UTF-8 BOM before bytes that are not UTF-8 would store
 * replacement characters. Checked on the first MiB, before anything is sent.
 * UTF-16 text always holds ASCII code units (line breaks, delimiters), whose
 * high byte is 0: none at all in the sample means it is not UTF-16.
 */
function checkBom(name: string, sample: Buffer, encoding: string, complete: boolean): void {
  const body = sample.subarray(encoding === 'utf-8' ? 3 : 2);
  if (body.length < 2) return;
  const bomName = encoding === 'utf-8' ? 'UTF-8' : encoding === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE';
  let looksLike: string | undefined;
  if (encoding === 'utf-8') {
    const upto = complete ? body.length : utf8CompleteEnd(body);
    if (!isUtf8(body.subarray(0, upto))) looksLike = detectEncoding(body, complete).encoding;
  } else {
    const probe = body.subarray(0, 4096);
    const high = encoding === 'utf-16le' ? 1 : 0;
    let zeros = 0;
    for (let i = high; i < probe.length; i += 2) if (probe[i] === 0) zeros++;
    if (zeros === 0) looksLike = detectEncoding(body, complete).encoding;
  }
  if (looksLike === undefined) return;
  const hint = looksLike === encoding ? '' : ` (they read as ${looksLike})`;
  throw new UsageError(
    `${name} starts with a ${bomName} byte order mark, but the bytes after it are not ${bomName}${hint}: ` +
      `re-save the file in one encoding, or pass its real one with --encoding${looksLike !== encoding ? ` ${looksLike}` : ''}. Nothing was sent.`,
    { code: 'invalid_input' },
  );
}

// ---------------------------------------------------------------- delimiter

/** Picks the delimiter from the header line: the most frequent of , ; TAB | outside quotes (ties: that order). */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  let sawContent = false;
  let start = -1;
  let end = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (start < 0 && c !== '\n' && c !== '\r') start = i;
    if (c === '"') {
      quoted = !quoted;
      sawContent = true;
      continue;
    }
    if (quoted) continue;
    if (c === '\n' || c === '\r') {
      if (sawContent) {
        end = i;
        break; // end of the header line (leading blank lines are skipped)
      }
      continue;
    }
    sawContent = true;
    const n = counts.get(c);
    if (n !== undefined) counts.set(c, n + 1);
  }
  // The delimiter that makes the most header cells known column names wins, then the most frequent: a header
  // "Name;Vendor ID;Street, No., ZIP, City" has more commas, and read with them named no column (exit 2).
  const header = start < 0 ? '' : text.slice(start, end);
  let best: string = ',';
  let bestKnown = -1;
  let bestN = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d)!;
    if (n === 0) continue;
    const known = header.split(d).filter((cell) => fieldForHeader(cell.replace(/^\uFEFF/, '').replace(/^"|"$/g, '')) !== undefined).length;
    if (known > bestKnown || (known === bestKnown && n > bestN)) {
      best = d;
      bestKnown = known;
      bestN = n;
    }
  }
  return best;
}

export function resolveDelimiter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const named: Record<string, string> = { comma: ',', semicolon: ';', tab: '\t', '\\t': '\t', pipe: '|' };
  const d = named[value.toLowerCase()] ?? value;
  if (d.length !== 1 || d === '"' || d === '\n' || d === '\r') {
    throw new UsageError(`--delimiter must be one character such as , ; | or "tab" (got "${value}")`);
  }
  return d;
}

function detectEol(text: string): string {
  const i = text.search(/[\r\n]/);
  if (i < 0) return '\n';
  if (text[i] === '\r') return text[i + 1] === '\n' ? '\r\n' : '\r';
  return '\n';
}

// ---------------------------------------------------------------- streams

/**
 * The first byte that is not UTF-8, after a stretch that was: where it is
 * (line, byte offset, value) and whether everything before it was plain ASCII
 * (then the file may be in another ASCII-compatible encoding from there on;
 * otherwise it is UTF-8 with one bad spot, and another --encoding would
 * garble the characters before it).
 */
export class InvalidUtf8Error extends Error {
  readonly line: number;
  readonly offset: number;
  /** The byte, or undefined for a multi-byte character cut off at the end of the input. */
  readonly byte: number | undefined;
  readonly asciiBefore: boolean;
  constructor(line: number, offset: number, byte: number | undefined, asciiBefore: boolean) {
    super(
      byte === undefined
        ? `invalid UTF-8 at the end of the input (line ${line}, byte offset ${offset}: a cut-off multi-byte character)`
        : `line ${line} is not valid UTF-8 (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at byte offset ${offset})`,
    );
    this.name = 'InvalidUtf8Error';
    this.line = line;
    this.offset = offset;
    this.byte = byte;
    this.asciiBefore = asciiBefore;
  }
}

/** Whether an encoding gives one character per byte (windows-1252, latin1, cp850; not shift_jis, utf-32 or utf-7). */
function singleByte(encoding: string): boolean {
  // UTF-8 and CESU-8 also give 256 characters for 256 bytes (each stray byte a U+FFFD).
  if (/utf|cesu|ucs/i.test(encoding)) return false;
  try {
    return iconv.decode(Buffer.from(Array.from({ length: 256 }, (_, i) => i)), encoding).length === 256;
  } catch {
    return false;
  }
}

/** Drops the first `n` bytes of a stream (a byte order mark that the decoder after it would read as text). */
class SkipBytes extends Transform {
  #left: number;
  constructor(n: number) {
    super({ highWaterMark: CHUNK_BYTES });
    this.#left = n;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    if (this.#left === 0) return cb(null, chunk);
    const drop = Math.min(this.#left, chunk.length);
    this.#left -= drop;
    cb(null, chunk.subarray(drop));
  }
}

/**
 * Passes bytes through, failing at the first invalid UTF-8 sequence (sequences
 * split across chunks are handled) with an InvalidUtf8Error. Counts physical
 * lines (CRLF, CR or LF) as it goes, to name the line of the bad byte.
 */
/**
 * After a decoder other than UTF-8's (which Utf8Check guards): a U+FFFD it made is text lost (a byte windows-1252
 * does not define, a lone UTF-16 surrogate), and a UTF-16 file of an odd number of bytes was cut short (its last
 * character was dropped: "U3" was imported as "U"). Either stops the import naming the line, as a byte that is not
 * UTF-8 does; they were stored in supplier names with exit 0.
 */
class DecodedCheck extends Transform {
  #breaks = 0;
  #afterCr = false;
  /** A high surrogate that ended the last chunk: its pair may open the next one. */
  #carry = '';
  constructor(
    private readonly file: string,
    private readonly encoding: string,
  ) {
    super({ decodeStrings: false, encoding: 'utf8' });
  }
  override _transform(chunk: string | Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    let text = this.#carry + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    this.#carry = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    // A lone UTF-16 surrogate (a damaged code unit) passes the decoder as is, and becomes U+FFFD on the way out.
    const bad = firstLoneSurrogate(text);
    this.#count(bad === -1 ? text : text.slice(0, bad));
    if (bad !== -1) {
      const line = this.#breaks + 1;
      cb(new ReadError(`${this.file}: line ${line} holds bytes that are not ${this.encoding} text (they would be stored as U+FFFD): the file is in another encoding, or damaged; pass the right --encoding, or fix line ${line}`, line));
      return;
    }
    cb(null, text);
  }
  override _flush(cb: TransformCallback): void {
    if (this.#carry) cb(new ReadError(`${this.file}: the last line holds bytes that are not ${this.encoding} text (a lone UTF-16 surrogate): the file is damaged or cut short`, this.#breaks + 1));
    else cb();
  }
  /** Adds the line breaks of `text` (countLineBreaks), a CRLF split between two chunks counted once. */
  #count(text: string): void {
    if (!text) return;
    this.#breaks += countLineBreaks(text) - (this.#afterCr && text.charCodeAt(0) === 10 ? 1 : 0);
    this.#afterCr = text.charCodeAt(text.length - 1) === 13;
  }
}

/** The index of the first U+FFFD or unpaired surrogate in `text`, or -1. */
function firstLoneSurrogate(text: string): number {
  const m = /\ufffd|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(text);
  return m ? m.index : -1;
}

/** Counts the bytes into a UTF-16 decoder: an odd count is a file cut short (see DecodedCheck). */
class EvenBytes extends Transform {
  #bytes = 0;
  constructor(private readonly file: string) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.#bytes += chunk.length;
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    if (this.#bytes % 2) cb(new ReadError(`${this.file}: the file is UTF-16 but holds an odd number of bytes: it was cut short (its last character is incomplete); export it again`, 0));
    else cb();
  }
}

class Utf8Check extends Transform {
  #carry: Buffer = Buffer.alloc(0);
  #offset = 0;
  #breaks = 0;
  /** The last byte passed through was a CR (a CRLF split across chunks counts once). */
  #afterCr = false;
  #ascii = true;
  constructor() {
    super({ highWaterMark: CHUNK_BYTES });
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const buf = this.#carry.length ? Buffer.concat([this.#carry, chunk]) : chunk;
    const end = utf8CompleteEnd(buf);
    if (!isUtf8(buf.subarray(0, end))) {
      const bad = firstInvalidUtf8(buf.subarray(0, end));
      this.#count(buf, bad);
      if (this.#ascii && !isAscii(buf.subarray(0, bad))) this.#ascii = false;
      cb(new InvalidUtf8Error(this.#breaks + 1, this.#offset + bad, buf[bad], this.#ascii));
      return;
    }
    this.#count(buf, end);
    if (this.#ascii && !isAscii(buf.subarray(0, end))) this.#ascii = false;
    this.#offset += end;
    this.#carry = Buffer.from(buf.subarray(end));
    cb(null, buf.subarray(0, end));
  }
  override _flush(cb: TransformCallback): void {
    if (this.#carry.length) cb(new InvalidUtf8Error(this.#breaks + 1, this.#offset, undefined, this.#ascii));
    else cb();
  }
  /** Adds the line breaks in buf[0, end). */
  #count(buf: Buffer, end: number): void {
    if (end === 0) return;
    let i = 0;
    if (this.#afterCr && buf[0] === 10) i = 1; // the LF of a CRLF whose CR ended the last chunk
    const cr = buf.indexOf(13, i);
    if (cr < 0 || cr >= end) {
      for (let nl = buf.indexOf(10, i); nl >= 0 && nl < end; nl = buf.indexOf(10, nl + 1)) this.#breaks++;
    } else {
      for (; i < end; i++) {
        const c = buf[i]!;
        if (c === 10) this.#breaks++;
        else if (c === 13) {
          this.#breaks++;
          if (i + 1 < end && buf[i + 1] === 10) i++;
        }
      }
    }
    this.#afterCr = buf[end - 1] === 13;
  }
}

/** Offset of the first byte of `buf` that starts no valid UTF-8 sequence (buf ends on a complete sequence and is not valid UTF-8). */
function firstInvalidUtf8(buf: Buffer): number {
  let lo = 0;
  let hi = buf.length;
  // Largest valid prefix by bisection (isUtf8 is fast), to within a few bytes; then sequence by sequence.
  while (hi - lo > 4) {
    const mid = (lo + hi) >> 1;
    const cut = utf8CompleteEnd(buf.subarray(0, mid));
    if (isUtf8(buf.subarray(0, cut))) lo = cut;
    else hi = mid;
  }
  let p = lo;
  while (p < buf.length) {
    const b = buf[p]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || p + len > buf.length || !isUtf8(buf.subarray(p, p + len))) return p;
    p += len;
  }
  return lo;
}

/** Counts line breaks (CRLF, CR or LF each count once). */
export function countLineBreaks(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13) {
      n++;
      if (s.charCodeAt(i + 1) === 10) i++;
    }
  }
  return n;
}

const isBlankRecord = (fields: string[]): boolean => {
  for (const f of fields) if (f.trim() !== '') return false;
  return true;
};

interface Source {
  stream: Readable;
  bytesRead: () => number;
  identity: FileIdentity;
  sample: Buffer;
  complete: boolean;
  destroy: () => void;
}

/**
 * A stream that can be read once (stdin, a FIFO, a process substitution,
 * /dev/stdin): the first MiB is peeked from the stream itself and replayed.
 * Its identity has no path or size: a journal for it needs --journal.
 */
async function peekStream(input: NodeJS.ReadableStream & Readable): Promise<Source> {
  const iter = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const peeked: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < PEEK_BYTES) {
    const r = await iter.next();
    if (r.done) {
      done = true;
      break;
    }
    const b = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
    peeked.push(b);
    size += b.length;
  }
  const sample = Buffer.concat(peeked);
  const headBytes = Math.min(sample.length, PEEK_BYTES);
  let read = 0;
  async function* chain(): AsyncGenerator<Buffer> {
    for (const b of peeked) {
      read += b.length;
      yield b;
    }
    peeked.length = 0;
    if (done) return;
    for (;;) {
      const r = await iter.next();
      if (r.done) return;
      const b = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
      read += b.length;
      yield b;
    }
  }
  const stream = Readable.from(chain(), { objectMode: false, highWaterMark: CHUNK_BYTES });
  return {
    stream,
    bytesRead: () => read,
    identity: { path: null, size: null, head: sha256(sample.subarray(0, headBytes)), headBytes },
    sample,
    complete: done,
    destroy: () => {
      stream.destroy();
      void iter.return?.();
    },
  };
}

/** True when `path` names something that is not a regular file (a FIFO, /dev/stdin, a process substitution): it is read like stdin. */
export function isStreamPath(path: string): boolean {
  return path === '-' || isSpecialFile(path);
}

/** Names of this process's stdin: read as "-" (opening them fails when stdin is a socket, as under Node's spawn). */
const STDIN_ALIASES: ReadonlySet<string> = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

async function openSource(path: string, opts: ReadOptions): Promise<Source> {
  if (path === '-' || (STDIN_ALIASES.has(resolvePath(path)) && opts.stdin)) {
    const stdin = opts.stdin;
    if (!stdin) throw new UsageError('no stdin to read from');
    if (opts.stdinIsTTY) throw new UsageError('"-" reads the CSV from stdin, but stdin is a terminal; pipe or redirect the file in');
    return peekStream(stdin);
  }
  const abs = resolvePath(path);
  let fd: number;
  try {
    // Asynchronous: a FIFO waits here for a writer, and a synchronous open blocked the event loop, so neither
    // Ctrl-C nor SIGTERM ended the run (src/util/signals.ts ends it even while this open waits).
    readsSpecialFile(abs);
    fd = await new Promise<number>((resolve, reject) => openAsync(abs, 'r', (e, n) => (e ? reject(e) : resolve(n))));
  } catch (e) {
    throw new UsageError(`cannot read ${path}${describeFsError(e)}`);
  }
  let size: number;
  let sample: Buffer;
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new UsageError(`${path} is a directory, not a CSV file`);
    if (!st.isFile()) {
      if (st.isCharacterDevice() && isatty(fd)) throw new UsageError(`${path} is a terminal; pipe or redirect the CSV file in`);
      // A FIFO, a pipe behind /dev/stdin, a process substitution: read once, from this descriptor.
      const stream = createReadStream('', { fd, highWaterMark: CHUNK_BYTES, autoClose: true });
      return peekStream(stream);
    }
    size = st.size;
    sample = Buffer.alloc(Math.min(size || PEEK_BYTES, PEEK_BYTES));
    let got = 0;
    while (got < sample.length) {
      const n = readSync(fd, sample, got, sample.length - got, got);
      if (n === 0) break;
      got += n;
    }
    sample = sample.subarray(0, got);
  } catch (e) {
    closeSync(fd);
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${path}${describeFsError(e)}`);
  }
  closeSync(fd);
  const stream = createReadStream(abs, { highWaterMark: CHUNK_BYTES });
  return {
    stream,
    bytesRead: () => stream.bytesRead,
    identity: { path: abs, size, head: sha256(sample), headBytes: sample.length },
    sample,
    complete: sample.length >= size,
    destroy: () => stream.destroy(),
  };
}

function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return ' (no such file)';
  if (code === 'EACCES' || code === 'EPERM') return ' (permission denied)';
  if (code === 'EISDIR') return ' (it is a directory)';
  return code ? ` (${code})` : '';
}

/** Encodings in which a line break is the byte 0x0A or 0x0D and ASCII reads as ASCII (the only ones filePrefix handles). */
const ASCII_COMPATIBLE: ReadonlySet<string> = new Set(['utf-8', 'windows-1252', 'latin1', 'cp850', 'cp437', 'iso-8859-15']);
export function asciiCompatible(encoding: string): boolean {
  return ASCII_COMPATIBLE.has(encoding);
}

/**
 * The bytes of a file before its physical line `line` (line breaks CRLF, CR or
 * LF, as the reader counts them): their count, SHA-256 and whether all are
 * ASCII. Undefined when the file has fewer lines, cannot be read, or its
 * encoding is not ASCII-compatible (UTF-16: a line break is two bytes).
 */
export function filePrefix(path: string, line: number, encoding: string): { line: number; bytes: number; sha256: string; ascii: boolean } | undefined {
  if (!asciiCompatible(encoding) || !Number.isSafeInteger(line) || line < 1) return undefined;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const hash = createHash('sha256');
    const buf = Buffer.alloc(1024 * 1024);
    let pos = 0;
    let breaks = 0;
    let ascii = true;
    let afterCr = false;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return undefined;
      let i = 0;
      if (afterCr && buf[0] === 10) i = 1; // the LF of a CRLF split across reads: part of the last break
      afterCr = false;
      let end = -1;
      if (breaks === line - 1) end = i;
      for (; end < 0 && i < n; i++) {
        const c = buf[i]!;
        if (c !== 10 && c !== 13) continue;
        breaks++;
        if (c === 13) {
          if (i + 1 < n) {
            if (buf[i + 1] === 10) i++;
          } else afterCr = true;
        }
        if (breaks === line - 1 && !afterCr) end = i + 1;
      }
      if (end >= 0) {
        const part = buf.subarray(0, end);
        if (ascii && !isAscii(part)) ascii = false;
        hash.update(part);
        return { line, bytes: pos + end, sha256: hash.digest('hex'), ascii };
      }
      const part = buf.subarray(0, n);
      if (ascii && !isAscii(part)) ascii = false;
      hash.update(part);
      pos += n;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether the file at `path` starts with the bytes `prefix` describes (filePrefix). */
export function prefixMatches(path: string, prefix: { bytes: number; sha256: string }): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const hash = createHash('sha256');
    const buf = Buffer.alloc(1024 * 1024);
    let pos = 0;
    while (pos < prefix.bytes) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, prefix.bytes - pos), pos);
      if (n === 0) return false;
      hash.update(buf.subarray(0, n));
      pos += n;
    }
    return hash.digest('hex') === prefix.sha256;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

export function sha256(b: Uint8Array | string): string {
  return createHash('sha256').update(b).digest('hex');
}

/** Opens the input, detects its shape, reads the header. The data records then stream from `records`. */
export async function openInput(path: string, opts: ReadOptions = {}): Promise<InputFile> {
  const name = path === '-' ? 'stdin' : path;
  const forcedEncoding = resolveEncoding(opts.encoding);
  const forcedDelimiter = resolveDelimiter(opts.delimiter);
  const src = await openSource(path, opts);
  try {
    return await openParsed(name, src, forcedEncoding, forcedDelimiter, opts);
  } catch (e) {
    src.destroy();
    throw e;
  }
}

async function openParsed(name: string, src: Source, forcedEncoding: string | undefined, forcedDelimiter: string | undefined, opts: ReadOptions): Promise<InputFile> {
  if (src.sample.length === 0) throw new UsageError(`${name} is empty: expected a CSV file with a header line`, { code: 'invalid_input' });
  let det: Detected;
  let skipBytes = 0;
  const oneBytePerChar = forcedEncoding !== undefined && singleByte(forcedEncoding);
  if (forcedEncoding) {
    const s = src.sample;
    const utf8Bom = s[0] === 0xef && s[1] === 0xbb && s[2] === 0xbf;
    const bom =
      (forcedEncoding === 'utf-8' && utf8Bom) ||
      (forcedEncoding.startsWith('utf-16') && ((s[0] === 0xff && s[1] === 0xfe) || (s[0] === 0xfe && s[1] === 0xff)));
    det = { encoding: forcedEncoding, source: 'flag', bom };
    // A UTF-8 BOM before text in a single-byte encoding (what srs's own advice leads to: "the bytes after the
    // BOM are not UTF-8 ... --encoding windows-1252"): the three bytes are the mark, not "ï»¿" glued to the first
    // header, which lost that column (customerSupplierId not sent, exit 0).
    if (utf8Bom && oneBytePerChar) skipBytes = 3;
  } else {
    det = detectEncoding(src.sample, src.complete);
  }
  if (skipBytes) det.bom = true;
  const warnings: string[] = [];
  if (forcedEncoding && oneBytePerChar) {
    // Text that is valid UTF-8 and not ASCII is UTF-8 (single-byte text is almost never valid UTF-8 by chance):
    // read as asked, each byte of "ß" becomes a character ("GieÃŸerei"), and the names were stored so, exit 0.
    const body = src.sample.subarray(skipBytes);
    const upto = src.complete ? body.length : utf8CompleteEnd(body);
    if (!isAscii(body.subarray(0, upto)) && isUtf8(body.subarray(0, upto))) {
      const example = /\S*[^\x00-\x7f]\S*/.exec(body.subarray(0, upto).toString('utf8'))?.[0]?.slice(0, 40);
      warnings.push(
        `${name} reads as UTF-8${example ? ` ("${example}")` : ''}, but --encoding ${forcedEncoding} decodes each byte as a character of its own: such names would be stored garbled${example ? ` ("${iconv.decode(Buffer.from(example, 'utf8'), forcedEncoding)}")` : ''}; drop --encoding unless that is what the file holds`,
      );
    }
  }
  refuseBinary(name, src.sample, det.encoding, src.complete);
  if (det.source === 'bom') checkBom(name, src.sample, det.encoding, src.complete);
  if (det.source === 'detected' && det.encoding === 'windows-1252') refuseUndefinedIn1252(name, src.sample);

  // Decode the sample once, for the delimiter and the line ending.
  const sampleText = iconv.decode(src.sample.subarray(skipBytes, 256 * 1024), det.encoding).replace(/^\uFEFF/, '');
  const firstLine = /^[^\r\n]*/.exec(sampleText.replace(/^[\r\n]+/, ''))?.[0] ?? '';
  const sepLine = /^sep=(.)$/i.exec(firstLine);
  let delimiter: string;
  let delimiterSource: InputFile['delimiterSource'];
  if (forcedDelimiter) {
    delimiter = forcedDelimiter;
    delimiterSource = 'flag';
  } else if (sepLine) {
    delimiter = sepLine[1]!;
    delimiterSource = 'sep-line';
  } else {
    delimiter = detectDelimiter(sampleText);
    delimiterSource = 'detected';
  }
  const eol = detectEol(sampleText);

  const queue = Math.max(2, opts.queue ?? 16);
  const parser: Parser = csvParse({
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    raw: true,
    // Every record ends at CRLF, LF or CR, mixed in one file or not. (Left to itself csv-parse takes the
    // first line's ending for the whole file, and a file mixing them turns rows into multi-line cells.)
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARS,
    // csv-parse passes these on to its Transform: the queue of records ahead of the consumer.
    // (Not `highWaterMark`: Node lets it override readableHighWaterMark, making the queue 16,384 records.)
    ...({ readableHighWaterMark: queue, writableHighWaterMark: CHUNK_BYTES } as object),
  });

  const stages: Array<NodeJS.ReadableStream | NodeJS.WritableStream> = [src.stream];
  if (skipBytes) stages.push(new SkipBytes(skipBytes));
  if (det.encoding === 'utf-8') {
    // Checked when forced too: --encoding utf-8 over bytes that are not UTF-8 stored U+FFFD in names, exit 0.
    stages.push(new Utf8Check());
  } else {
    if (/^utf-?16/i.test(det.encoding)) stages.push(new EvenBytes(name));
    stages.push(iconv.decodeStream(det.encoding, { stripBOM: true }) as unknown as NodeJS.ReadWriteStream);
    stages.push(new DecodedCheck(name, det.encoding));
  }
  stages.push(parser);
  let pipeError: Error | undefined;
  pipeline(stages, (err) => {
    if (err) pipeError = err;
  });

  let line = 1;
  let blank = 0;
  let destroyed = false;
  let streamError: Error | undefined;
  parser.on('error', (e: Error) => {
    streamError ??= e;
  });

  const toReadError = (e: unknown, at: number): Error => {
    if (e instanceof ReadError) return e;
    if (pipeError instanceof ReadError) return pipeError;
    const err = (pipeError ?? e) as Error & { code?: string };
    const msg = err?.message ?? String(err);
    if (err instanceof InvalidUtf8Error) {
      // The first MiB was UTF-8 (or it would not be read as UTF-8). With non-ASCII text before the bad byte the file
      // IS UTF-8 and has one bad spot: another --encoding would garble every name before it. Only when everything
      // before was plain ASCII may the file be in another encoding from there on (ASCII reads the same in it).
      const fix = `fix line ${err.line} (re-type the character in an editor that saves UTF-8)`;
      return new ReadError(
        err.asciiBefore
          ? `${name}: ${msg}, and every line before it is plain ASCII: if the file is in another encoding from there on, pass it, e.g. --encoding windows-1252 ` +
              `(the lines before read the same in it); if only that line is wrong, ${fix}`
          : `${name}: ${msg}, though the lines before it are UTF-8 (with non-ASCII characters, which another --encoding would garble): ${fix}`,
        at,
      );
    }
    if (err?.code === 'CSV_MAX_RECORD_SIZE') {
      return new ReadError(`${name}: the record starting at line ${at} is longer than ${MAX_RECORD_CHARS} characters (an unclosed quote?)`, at);
    }
    if (err?.code === 'CSV_QUOTE_NOT_CLOSED') {
      return new ReadError(`${name}: the quoted field starting at line ${at} is never closed`, at);
    }
    if (typeof err?.code === 'string' && err.code.startsWith('CSV_')) {
      return new ReadError(`${name}: malformed CSV in the record starting at line ${at}: ${msg.replace(/\s+/g, ' ')}`, at);
    }
    return new ReadError(`${name}: cannot read at line ${at}: ${msg}`, at);
  };

  /**
   * The next raw record: parsed and buffered already (sync), null at the end,
   * undefined when the parser needs more input. Reads with parser.read(), not
   * its async iterator: at thousands of rows a second the promise per row of
   * an iterator is a measurable share of an import's time.
   */
  const takeRaw = (): SourceRecord | null | undefined => {
    if (destroyed) return null;
    const r = parser.read() as { record: string[]; raw: string } | null;
    if (r !== null) {
      const start = line;
      line += countLineBreaks(r.raw);
      return { line: start, fields: r.record };
    }
    // stream.errored is set when the parser is destroyed; its 'error' event comes a tick later. Read in that tick
    // (rows skipped from the journal are taken that fast), a destroyed parser looked like the end of the file: an
    // unclosed quote at line 51 made the second run "complete" with exit 0, 151 rows never read.
    const err = streamError ?? pipeError ?? (parser.errored as Error | null) ?? undefined;
    if (err) throw toReadError(err, line);
    if (parser.readableEnded || parser.destroyed) return null;
    return undefined;
  };
  const more = (): Promise<void> =>
    new Promise((resolve) => {
      if (destroyed || parser.readableEnded || parser.destroyed || parser.readableLength > 0) {
        resolve();
        return;
      }
      const done = () => {
        parser.off('readable', done);
        parser.off('end', done);
        parser.off('close', done);
        resolve();
      };
      parser.on('readable', done);
      parser.on('end', done);
      parser.on('close', done);
    });
  const next = async (): Promise<SourceRecord | undefined> => {
    for (;;) {
      const r = takeRaw();
      if (r === null) return undefined;
      if (r !== undefined) return r;
      await more();
    }
  };

  // The header: the first record that is not blank (after an Excel "sep=" line).
  let header: string[] | undefined;
  let headerLine = 0;
  let first = true;
  for (;;) {
    const r = await next();
    if (!r) break;
    if (first && sepLine && !forcedDelimiter && r.fields.length <= 2 && /^sep=$/i.test(r.fields[0] ?? '')) {
      first = false;
      continue;
    }
    first = false;
    if (isBlankRecord(r.fields)) continue;
    header = r.fields.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h));
    headerLine = r.line;
    break;
  }
  if (!header) throw new UsageError(`${name} has no header line (it is empty or blank)`, { code: 'invalid_input' });
  // Records the parser had made by the header (an Excel sep= line, blank lines, the header): not data.
  const beforeData = parser.info.records - parser.readableLength;

  const take = (): SourceRecord | null | undefined => {
    for (;;) {
      const r = takeRaw();
      if (!r) return r;
      if (isBlankRecord(r.fields)) {
        blank++;
        continue;
      }
      return r;
    }
  };

  async function* records(): AsyncGenerator<SourceRecord, void, undefined> {
    for (;;) {
      const r = take();
      if (r === null) return;
      if (r === undefined) await more();
      else yield r;
    }
  }

  return {
    name,
    identity: src.identity,
    encoding: det.encoding,
    encodingSource: det.source,
    bom: det.bom,
    warnings,
    delimiter,
    delimiterSource,
    eol,
    header,
    headerLine,
    records: records(),
    take,
    more,
    bytesRead: src.bytesRead,
    recordsParsed: () => Math.max(0, parser.info.records - beforeData),
    blankRecords: () => blank,
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      src.destroy();
      parser.destroy();
    },
  };
}
