/**
 * Evidence bundles as streams. Format 2 (what `score calc --save` writes) is
 * JSON Lines, so neither writing nor reading ever holds the whole bundle:
 *
 *   {"kind":"srs.score-bundle","bundleVersion":2,"modelVersion",...}   the header
 *   {"t":"request","request":{supplierIds,...filters}}                one per batch sent
 *   {"t":"scorecard","scorecard":{...}}                               each definition once, before its first use
 *   {"t":"result","scorecards":[ids],"item":{score result}}           one per supplier
 *   {"t":"error","supplierId","code","message"}                       a requested id without a usable result
 *   {"t":"end","suppliers":N,"digest":{"algorithm":"sha256","value"}}  the last line
 *
 * The digest is the SHA-256 of every byte before the end line, exactly as
 * written (compact JSON, one record per line, LF). Format 1 (one JSON
 * document, no digest) and a raw score-calculation response are still read,
 * whole, up to MAX_WHOLE_DOCUMENT_BYTES.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { ScoreCalculationRequest, ScoreResult, Scorecard, describeZodError } from '../../api/contract.js';
import type { ScoreCalculationRequest as RequestT, ScoreResult as ScoreResultT, Scorecard as ScorecardT } from '../../api/contract.js';
import type { Context } from '../../context.js';
import { ExitCode, SrsError, UsageError } from '../../errors.js';
import { BUNDLE_KIND, BundleOptions, parseBundleOrResponse, type BundleOptions as BundleOptionsT } from './bundle.js';
import { IsoDate } from '../../api/contract.js';
import { isCalendarDate } from '../../scoring/index.js';

/** The format `score calc --save` writes. Format 1 is still read. */
export const BUNDLE_VERSION = 2;
/** Format 1 bundles and raw responses are one JSON document, read whole: larger ones are refused (exit 1). */
export const MAX_WHOLE_DOCUMENT_BYTES = 256 * 1024 * 1024;
/** The longest line a format-2 bundle may hold (one supplier's result). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export const DIGEST_ALGORITHM = 'sha256';

export const BundleHeader = z.object({
  kind: z.literal(BUNDLE_KIND),
  bundleVersion: z.literal(BUNDLE_VERSION),
  modelVersion: z.string(),
  createdAt: z.string(),
  asOf: IsoDate.check(z.refine(isCalendarDate, 'expected a real calendar date YYYY-MM-DD')),
  service: z.object({ baseUrl: z.nullable(z.string()) }),
  options: BundleOptions,
});
export type BundleHeader = z.infer<typeof BundleHeader>;

/** Why a requested supplier has no result in a bundle. */
export const EvidenceErrorCode = z.enum(['not_found', 'no_result', 'lookup_failed']);
export type EvidenceErrorCode = z.infer<typeof EvidenceErrorCode>;

const RequestLine = z.object({ t: z.literal('request'), request: ScoreCalculationRequest });
const ScorecardLine = z.object({ t: z.literal('scorecard'), scorecard: Scorecard });
const ResultLine = z.object({ t: z.literal('result'), scorecards: z.array(z.string()), item: ScoreResult });
const ErrorLine = z.object({ t: z.literal('error'), supplierId: z.string(), code: EvidenceErrorCode, message: z.string() });
const EndLine = z.object({
  t: z.literal('end'),
  suppliers: z.number().check(z.int(), z.gte(0)),
  digest: z.object({ algorithm: z.literal(DIGEST_ALGORITHM), value: z.string() }),
});

/** What a reader yields, in file order. */
export type EvidenceEvent =
  | { t: 'header'; format: 1 | 2 | 'response'; modelVersion: string | null; asOf: string | null; options: BundleOptionsT | null; baseUrl: string | null }
  | { t: 'request'; request: RequestT }
  | { t: 'scorecard'; scorecard: ScorecardT }
  /** `scorecards`: ids of the scorecards that apply (undefined for a raw response). */
  | { t: 'result'; item: ScoreResultT; scorecards: string[] | undefined; line: number }
  | { t: 'error'; supplierId: string; code: EvidenceErrorCode; message: string }
  /** Format 2: the digest the bundle declares and the one computed over what was read (null for other formats). */
  | { t: 'end'; declared: { suppliers: number; digest: string } | null; computed: string | null };

/** A runtime limit, not a usage error: exit 1. */
function tooLarge(message: string): SrsError {
  return new SrsError('runtime', ExitCode.failure, message);
}

function invalid(where: string, message: string): UsageError {
  return new UsageError(`${where}: ${message}`, { code: 'invalid_input' });
}

async function* chunksOf(ctx: Context, file: string, what: string): AsyncGenerator<Buffer> {
  if (file === '-') {
    if (ctx.io.stdinIsTTY) throw new UsageError(`${what}: "-" reads from stdin, but stdin is a terminal; pipe the input in`);
    for await (const c of ctx.io.stdin) yield Buffer.isBuffer(c) ? c : Buffer.from(String(c));
    return;
  }
  let stream;
  try {
    statSync(file);
    stream = createReadStream(file, { highWaterMark: 1 << 20 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${what}: cannot read ${file}${code === 'ENOENT' ? ' (no such file)' : code ? ` (${code})` : ''}`);
  }
  try {
    for await (const c of stream) yield c as Buffer;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${what}: cannot read ${file}${code ? ` (${code})` : ''}`);
  }
}

/** Splits a byte stream into lines, each with its LF (the last one may have none). Lines point into the chunks read. */
async function* linesOf(chunks: AsyncIterable<Buffer>, where: string): AsyncGenerator<Buffer> {
  let rest: Buffer | undefined;
  for await (const chunk of chunks) {
    let buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) break;
      yield buf.subarray(start, nl + 1);
      start = nl + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : undefined;
    if (rest && rest.length > MAX_LINE_BYTES) throw tooLarge(`${where}: a line longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB: not a bundle srs can read (too large)`);
    buf = Buffer.alloc(0);
  }
  if (rest && rest.length) yield rest;
}

/** The SHA-256 of every line of a file but the last: checked before anything else is read ("checked first"). */
export async function digestOfFile(ctx: Context, file: string, what: string): Promise<{ computed: string; declared: string | null }> {
  const hash = createHash(DIGEST_ALGORITHM);
  let pending: Buffer | undefined;
  for await (const line of linesOf(chunksOf(ctx, file, what), what)) {
    if (pending) hash.update(pending);
    pending = Buffer.from(line);
  }
  let declared: string | null = null;
  try {
    const end = EndLine.safeParse(JSON.parse((pending ?? Buffer.alloc(0)).toString('utf8')));
    if (end.success) declared = end.data.digest.value;
  } catch {
    declared = null;
  }
  return { computed: hash.digest('hex'), declared };
}

function parseLine<T>(schema: z.ZodMiniType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(where, describeZodError(r.error));
  return r.data;
}

/**
 * Reads a bundle (format 2 streamed, format 1 whole) or a raw score-calculation
 * response, yielding its records in order. Malformed input is exit 2 naming
 * the line; a document too large to read whole is exit 1.
 */
export async function* readEvidence(ctx: Context, file: string, what: string): AsyncGenerator<EvidenceEvent> {
  const name = file === '-' ? 'stdin' : file;
  const lines = linesOf(chunksOf(ctx, file, what), name);
  const first = await lines.next();
  if (first.done) throw invalid(name, 'empty: neither an srs score bundle nor a score-calculation response');
  let head: unknown;
  try {
    head = JSON.parse(first.value.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    head = undefined;
  }
  if (head && typeof head === 'object' && (head as { kind?: unknown }).kind === BUNDLE_KIND && (head as { bundleVersion?: unknown }).bundleVersion === BUNDLE_VERSION) {
    yield* readFormat2(head, Buffer.from(first.value), lines, name);
    return;
  }
  if (head && typeof head === 'object' && (head as { kind?: unknown }).kind === BUNDLE_KIND && typeof (head as { bundleVersion?: unknown }).bundleVersion === 'number' && (head as { bundleVersion: number }).bundleVersion > BUNDLE_VERSION) {
    throw invalid(name, `a format-${(head as { bundleVersion: number }).bundleVersion} bundle: this srs reads formats 1 and ${BUNDLE_VERSION}; upgrade srs`);
  }
  // Format 1 or a raw response: one JSON document, read whole.
  const parts: Buffer[] = [Buffer.from(first.value)];
  let size = first.value.length;
  for await (const line of lines) {
    size += line.length;
    if (size > MAX_WHOLE_DOCUMENT_BYTES) {
      throw tooLarge(`${name}: a single JSON document over ${MAX_WHOLE_DOCUMENT_BYTES / 1024 / 1024} MiB is too large to read at once (format-1 bundles and raw responses are read whole); save the evidence again with this srs (format ${BUNDLE_VERSION} is read as a stream)`);
    }
    parts.push(Buffer.from(line));
  }
  let data: unknown;
  try {
    data = JSON.parse(Buffer.concat(parts).toString('utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    throw invalid(name, `not valid JSON (${(e as Error).message})`);
  }
  const parsed = parseBundleOrResponse(data, name);
  if (parsed.bundle) {
    const b = parsed.bundle;
    yield { t: 'header', format: 1, modelVersion: b.modelVersion, asOf: b.asOf, options: b.options, baseUrl: b.service.baseUrl };
    for (const request of b.requests) yield { t: 'request', request };
    for (const scorecard of Object.values(b.scorecardDefinitions)) yield { t: 'scorecard', scorecard };
    let n = 0;
    for (const item of b.response.items) {
      yield { t: 'result', item, scorecards: Object.hasOwn(b.scorecards, item.supplierId) ? b.scorecards[item.supplierId]! : [], line: ++n };
    }
  } else {
    yield { t: 'header', format: 'response', modelVersion: null, asOf: null, options: null, baseUrl: null };
    let n = 0;
    for (const item of parsed.items) yield { t: 'result', item, scorecards: undefined, line: ++n };
  }
  yield { t: 'end', declared: null, computed: null };
}

async function* readFormat2(head: unknown, first: Buffer, lines: AsyncGenerator<Buffer>, name: string): AsyncGenerator<EvidenceEvent> {
  const h = parseLine(BundleHeader, head, `${name} line 1 (the header)`);
  yield { t: 'header', format: 2, modelVersion: h.modelVersion, asOf: h.asOf, options: h.options, baseUrl: h.service.baseUrl };
  // The header's own bytes are hashed as read (re-serialising could differ from the file).
  const hash = createHash(DIGEST_ALGORITHM);
  hash.update(first);
  yield* restOfFormat2(lines, name, hash);
}

async function* restOfFormat2(lines: AsyncGenerator<Buffer>, name: string, hash: Hash): AsyncGenerator<EvidenceEvent> {
  let n = 1;
  let pending: { line: Buffer; n: number } | undefined;
  const handle = function* (line: Buffer, at: number): Generator<EvidenceEvent> {
    const where = `${name} line ${at}`;
    let rec: { t?: unknown };
    try {
      rec = JSON.parse(line.toString('utf8')) as { t?: unknown };
    } catch (e) {
      throw invalid(where, `not valid JSON (${(e as Error).message})`);
    }
    switch (rec?.t) {
      case 'request':
        yield { t: 'request', request: parseLine(RequestLine, rec, where).request };
        return;
      case 'scorecard':
        yield { t: 'scorecard', scorecard: parseLine(ScorecardLine, rec, where).scorecard };
        return;
      case 'result': {
        const r = parseLine(ResultLine, rec, where);
        yield { t: 'result', item: r.item, scorecards: r.scorecards, line: at };
        return;
      }
      case 'error': {
        const r = parseLine(ErrorLine, rec, where);
        yield { t: 'error', supplierId: r.supplierId, code: r.code, message: r.message };
        return;
      }
      case 'end':
        throw invalid(where, 'an end record before the last line');
      default:
        throw invalid(where, `unknown record type ${JSON.stringify(rec?.t)} (expected request, scorecard, result, error or end)`);
    }
  };
  for await (const line of lines) {
    n++;
    if (pending) {
      hash.update(pending.line);
      yield* handle(pending.line, pending.n);
    }
    // The chunk a line points into is reused only after the next one is read: copy lines kept across reads.
    pending = { line: Buffer.from(line), n };
  }
  if (!pending) throw invalid(name, 'truncated: no end record (the bundle was not written to the end)');
  let endRec: unknown;
  try {
    endRec = JSON.parse(pending.line.toString('utf8'));
  } catch {
    endRec = undefined;
  }
  const end = EndLine.safeParse(endRec);
  if (!end.success) {
    // Not an end record: the file was cut short (or edited). Hash it and report it as altered.
    hash.update(pending.line);
    yield* handle(pending.line, pending.n);
    yield { t: 'end', declared: null, computed: hash.digest('hex') };
    return;
  }
  yield { t: 'end', declared: { suppliers: end.data.suppliers, digest: end.data.digest.value }, computed: hash.digest('hex') };
}

/**
 * Writes a format-2 bundle: records as they come, to a temporary file in the
 * same directory (0666 less the umask: it never holds the API key), renamed
 * over `path` by finish() after the end record and an fsync. abort() removes it.
 */
export class BundleWriter {
  readonly #path: string;
  readonly #tmp: string;
  readonly #hash = createHash(DIGEST_ALGORITHM);
  #fh: FileHandle | undefined;
  #buf: string[] = [];
  #bufLen = 0;
  #suppliers = 0;
  readonly #cardsWritten = new Set<string>();

  private constructor(path: string) {
    this.#path = path;
    this.#tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  }

  static async create(path: string, header: Omit<BundleHeader, 'kind' | 'bundleVersion'>): Promise<BundleWriter> {
    const w = new BundleWriter(path);
    w.#fh = await open(w.#tmp, 'wx', 0o666);
    await w.#line({ kind: BUNDLE_KIND, bundleVersion: BUNDLE_VERSION, ...header });
    return w;
  }

  async #line(rec: unknown): Promise<void> {
    const s = JSON.stringify(rec) + '\n';
    this.#hash.update(s);
    this.#buf.push(s);
    this.#bufLen += s.length;
    if (this.#bufLen >= 1 << 20) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (!this.#bufLen) return;
    const text = this.#buf.join('');
    this.#buf = [];
    this.#bufLen = 0;
    await this.#fh!.writeFile(text, 'utf8');
  }

  request(request: RequestT): Promise<void> {
    return this.#line({ t: 'request', request });
  }

  /** A supplier's result, preceded by any of its scorecards not written yet. */
  async result(item: ScoreResultT, scorecards: ScorecardT[]): Promise<void> {
    for (const card of scorecards) {
      if (this.#cardsWritten.has(card.id)) continue;
      this.#cardsWritten.add(card.id);
      await this.#line({ t: 'scorecard', scorecard: card });
    }
    this.#suppliers++;
    await this.#line({ t: 'result', scorecards: scorecards.map((c) => c.id), item });
  }

  async error(supplierId: string, code: EvidenceErrorCode, message: string): Promise<void> {
    this.#suppliers++;
    await this.#line({ t: 'error', supplierId, code, message });
  }

  get suppliers(): number {
    return this.#suppliers;
  }

  async finish(): Promise<void> {
    const digest = this.#hash.digest('hex');
    this.#buf.push(JSON.stringify({ t: 'end', suppliers: this.#suppliers, digest: { algorithm: DIGEST_ALGORITHM, value: digest } }) + '\n');
    this.#bufLen = 1;
    await this.#flush();
    await this.#fh!.sync();
    await this.#fh!.close();
    this.#fh = undefined;
    await rename(this.#tmp, this.#path);
  }

  async abort(): Promise<void> {
    await this.#fh?.close().catch(() => undefined);
    this.#fh = undefined;
    await unlink(this.#tmp).catch(() => undefined);
  }
}

