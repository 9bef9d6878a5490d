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
import { createReadStream, fstatSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { ScoreCalculationRequest, ScoreResult, Scorecard, describeZodError, completeScoreResult, hot } from '../../api/contract.js';
import type { ScoreCalculationRequest as RequestT, ScoreResult as ScoreResultT, Scorecard as ScorecardT } from '../../api/contract.js';
import type { Context } from '../../context.js';
import { CheckFailedError, ExitCode, SrsError, UsageError } from '../../errors.js';
import { serialiseOnce } from '../../output/serialised.js';
import { BUNDLE_KIND, BUNDLE_VERSION_LINES, bundleCommonFields, parseBundleOrResponse, type BundleOptions as BundleOptionsT } from './bundle.js';
import { compressionOf } from '../../util/compression.js';
import { readsSpecialFile } from '../../util/signals.js';

/** The format `score calc --save` writes. Format 1 is still read. */
export const BUNDLE_VERSION = BUNDLE_VERSION_LINES;
/** Format 1 bundles and raw responses are one JSON document, read whole: larger ones are refused (exit 1). */
export const MAX_WHOLE_DOCUMENT_BYTES = 256 * 1024 * 1024;
/** The longest line a format-2 bundle may hold (one supplier's result). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export const DIGEST_ALGORITHM = 'sha256';

export const BundleHeader = z.object({ ...bundleCommonFields, bundleVersion: z.literal(BUNDLE_VERSION) });
export type BundleHeader = z.infer<typeof BundleHeader>;

/** Why a requested supplier has no result in a bundle. */
export const EvidenceErrorCode = z.enum(['not_found', 'no_result', 'lookup_failed', 'conflicting_results']);
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
  | { t: 'header'; format: 1 | 2 | 'response'; modelVersion: string | null; asOf: string | null; options: BundleOptionsT | null; baseUrl: string | null; account: string | null }
  | { t: 'request'; request: RequestT }
  | { t: 'scorecard'; scorecard: ScorecardT }
  /** `scorecards`: ids of the scorecards that apply (undefined for a raw response). The item is validated and complete. */
  | { t: 'result'; item: ScoreResultT; scorecards: string[] | undefined; line: number }
  | { t: 'error'; supplierId: string; code: EvidenceErrorCode; message: string }
  /** Format 2: the digest the bundle declares and the one computed over what was read (null for other formats). */
  /** `afterEnd`: the line of an end record that is not the last line (content was added after it; reading stops there). */
  | { t: 'end'; declared: { suppliers: number; digest: string } | null; computed: string | null; afterEnd?: number };

const mib = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(3));

/** A runtime limit, not a usage error: exit 1. */
function tooLarge(message: string): SrsError {
  return new SrsError('runtime', ExitCode.failure, message);
}

function invalid(where: string, message: string): UsageError {
  return new UsageError(`${where}: ${message}`, { code: 'invalid_input' });
}

/**
 * A bundle file held open for both of its passes (the digest, then the records): each pass reads this open file
 * from its first byte, so a file renamed over the path between the passes cannot be gated on after the one before
 * it was verified (4 of 30 runs passed that way), and a change written into it is noticed (sameAsPinned).
 */
export interface PinnedFile {
  /** Held for the run, closed once the file is verified (recompute.ts verifyEvidence). */
  handle: FileHandle;
  size: number;
  mtimeMs: number;
  /** A regular file, read twice from its first byte; else (a FIFO, <(...), a device) read once, from this fd. */
  regular: boolean;
}

/**
 * Opens the file once, for every read of it: undefined for stdin. What can be read only once (a FIFO, a process
 * substitution <(...), a device) is read in one pass from this open file, its digest computed as it streams, as
 * stdin is (a second open of <(cat FILE) found it empty: "empty: neither an srs score bundle ...", and a FIFO could
 * give other bytes to each open).
 */
export async function pinEvidence(file: string, what: string): Promise<PinnedFile | undefined> {
  if (file === '-' || file === '') return undefined;
  let handle: FileHandle;
  try {
    // Asynchronous: a FIFO with no writer yet waits here, and Ctrl-C must still end the run (a synchronous open
    // blocked the event loop, so neither SIGINT nor SIGTERM could; src/util/signals.ts ends the wait itself).
    readsSpecialFile(file);
    handle = await open(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${what}: cannot read ${file}${code === 'ENOENT' ? ' (no such file)' : code ? ` (${code})` : ''}`);
  }
  const st = fstatSync(handle.fd);
  return { handle, size: st.size, mtimeMs: st.mtimeMs, regular: st.isFile() };
}

/** Whether the pinned file is as it was when opened (size and modification time): else it changed while read. */
export function sameAsPinned(p: PinnedFile): boolean {
  if (!p.regular) return true; // read once: there is no second read to differ
  const st = fstatSync(p.handle.fd);
  return st.size === p.size && st.mtimeMs === p.mtimeMs;
}

async function* chunksOf(ctx: Context, file: string, what: string, pinned?: PinnedFile): AsyncGenerator<Buffer> {
  // An empty path (a script's unset variable) named nothing: it said ": cannot read  (no such file)".
  if (file === '') throw new UsageError(`${what ? `${what}: ` : ''}empty path; name the bundle to read (or - for stdin)`);
  if (file === '-') {
    if (ctx.io.stdinIsTTY) throw new UsageError(`${what}: "-" reads from stdin, but stdin is a terminal; pipe the input in`);
    for await (const c of ctx.io.stdin) yield Buffer.isBuffer(c) ? c : Buffer.from(String(c));
    return;
  }
  let stream;
  try {
    // A regular file from its first byte at each pass (the fd stays open for the next); a pipe once, closed after.
    // (The FileHandle itself, not its number: the stream then closes it as its owner, never a number reused since.)
    if (pinned) stream = createReadStream('', pinned.regular ? { fd: pinned.handle, start: 0, autoClose: false, highWaterMark: 1 << 20 } : { fd: pinned.handle, highWaterMark: 1 << 20 });
    else {
      statSync(file);
      stream = createReadStream(file, { highWaterMark: 1 << 20 });
    }
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

/**
 * Splits a byte stream into lines, each with its LF (the last one may have
 * none). Lines within a chunk point into it (chunks are never reused); a line
 * spread over chunks is joined once, when its end arrives.
 */
async function* linesOf(chunks: AsyncIterable<Buffer>, where: string, maxLine: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  for await (const chunk of chunks) {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (nl >= 0 && pendingLength) {
      pending.push(chunk.subarray(0, nl + 1));
      yield Buffer.concat(pending);
      pending = [];
      pendingLength = 0;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    while (nl >= 0) {
      yield chunk.subarray(start, nl + 1);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingLength += chunk.length - start;
      if (pendingLength > maxLine) throw tooLarge(`${where}: a line longer than ${mib(maxLine)} MiB: too large to read (srs reads lines of at most ${mib(maxLine)} MiB)`);
    }
  }
  if (pendingLength) yield Buffer.concat(pending);
}

/** What the first pass over a file finds: its digest, the one its end record declares, and the supplier records. */
export interface FileDigest {
  computed: string;
  declared: string | null;
  /** The supplier count the end record declares (null without an end record). */
  declaredSuppliers: number | null;
  /** Lines that are result or error records, as srs writes them. */
  suppliers: number;
  /** Lines that are end records, as srs writes them: more than one means content was added after an end record. */
  ends: number;
}

const RESULT_START = Buffer.from('{"t":"result"');
const ERROR_START = Buffer.from('{"t":"error"');
const END_START = Buffer.from('{"t":"end"');

/**
 * Counts the lines that start as srs writes a result or an error record
 * (compact JSON, `t` first), reading only the first bytes of each line:
 * the end record's count is checked in the digest's pass, before anything
 * is parsed or printed. A line written otherwise is not counted (the count
 * then differs: srs did not write that file as it is).
 */
export class RecordCounter {
  count = 0;
  ends = 0;
  #head: Buffer[] = [];
  #headLength = 0;
  #atLineStart = true;

  scan(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(10, pos);
      if (!this.#atLineStart) {
        if (nl < 0) return;
        pos = nl + 1;
        this.#atLineStart = true;
        continue;
      }
      const take = Math.min(RESULT_START.length - this.#headLength, (nl < 0 ? chunk.length : nl) - pos);
      if (take > 0) {
        this.#head.push(chunk.subarray(pos, pos + take));
        this.#headLength += take;
        pos += take;
      }
      if (this.#headLength < RESULT_START.length && pos !== nl) return; // the chunk ended within the line's first bytes
      const head = Buffer.concat(this.#head);
      if (head.equals(RESULT_START) || head.subarray(0, ERROR_START.length).equals(ERROR_START)) this.count++;
      else if (head.subarray(0, END_START.length).equals(END_START)) this.ends++;
      this.#head = [];
      this.#headLength = 0;
      this.#atLineStart = false;
    }
  }
}

/**
 * The SHA-256 of every line of a file but the last (the end record, whose
 * digest is returned beside it) and the count of its supplier records:
 * computed in a pass of its own, before anything is parsed, so an altered
 * bundle is known first. Hashes whole chunks, holding back only what may
 * belong to the last line.
 */
export async function digestOfFile(ctx: Context, file: string, what: string, pinned?: PinnedFile): Promise<FileDigest> {
  const hash = createHash(DIGEST_ALGORITHM);
  const counter = new RecordCounter();
  let held: Buffer[] = [];
  let heldLength = 0;
  let overlong = false;
  for await (const chunk of chunksOf(ctx, file, what, pinned)) {
    counter.scan(chunk);
    // The chunk's last line break that is not its final byte: what precedes it is not the last line.
    const p = chunk.length >= 2 ? chunk.lastIndexOf(10, chunk.length - 2) : -1;
    if (p >= 0) {
      for (const h of held) hash.update(h);
      hash.update(chunk.subarray(0, p + 1));
      held = [chunk.subarray(p + 1)];
      heldLength = chunk.length - p - 1;
      overlong = false;
    } else {
      held.push(chunk);
      heldLength += chunk.length;
    }
    if (heldLength > 2 * MAX_LINE_BYTES) {
      // Longer than any line of a format-2 bundle: whatever this is, it is not the end record.
      for (const h of held) hash.update(h);
      held = [];
      heldLength = 0;
      overlong = true;
    }
  }
  // What is held may still hold line breaks (one at a chunk's end): the last line is after the last inner one.
  const tail = Buffer.concat(held);
  const p = tail.length >= 2 ? tail.lastIndexOf(10, tail.length - 2) : -1;
  if (p >= 0) {
    hash.update(tail.subarray(0, p + 1));
    overlong = false;
  }
  let declared: string | null = null;
  let declaredSuppliers: number | null = null;
  if (!overlong) {
    try {
      const end = EndLine.safeParse(JSON.parse(tail.subarray(p + 1).toString('utf8')));
      if (end.success) {
        declared = end.data.digest.value;
        declaredSuppliers = end.data.suppliers;
      }
    } catch {
      declared = null;
    }
  }
  return { computed: hash.digest('hex'), declared, declaredSuppliers, suppliers: counter.count, ends: counter.ends };
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
 *
 * `digest: false`: the digest was computed beforehand (digestOfFile), so none
 * is computed here. Every result item is validated against the contract and
 * completed (completeScoreResult) before it is yielded, whether or not the
 * digest matched: a digest proves nothing about who wrote the bytes (anyone
 * can recompute it), and every reader (check, explain, report, recompute)
 * relies on the shape. Bulk reads use the compiled schema (hot()).
 */
export interface ReadLimits {
  /** Largest format-1 bundle or raw response (read whole). Default MAX_WHOLE_DOCUMENT_BYTES. */
  maxWholeBytes?: number;
  /** Longest line of a format-2 bundle. Default MAX_LINE_BYTES. */
  maxLineBytes?: number;
}

export async function* readEvidence(ctx: Context, file: string, what: string, opts: { digest?: boolean; pinned?: PinnedFile | undefined } & ReadLimits = {}): AsyncGenerator<EvidenceEvent> {
  const name = file === '-' ? 'stdin' : file;
  const maxWhole = opts.maxWholeBytes ?? MAX_WHOLE_DOCUMENT_BYTES;
  const maxLine = opts.maxLineBytes ?? MAX_LINE_BYTES;
  // A format-1 or raw document may be one long line (up to maxWhole); format-2 lines are held to maxLine below.
  const lines = linesOf(chunksOf(ctx, file, what, opts.pinned), name, Math.max(maxLine, maxWhole));
  const first = await lines.next();
  if (first.done) throw invalid(name, 'empty: neither an srs score bundle nor a score-calculation response');
  let head: unknown;
  try {
    head = JSON.parse(first.value.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    head = undefined;
    // A compressed bundle (evidence.jsonl.gz kept as a CI artefact) is named as such, not as binary noise in "not valid JSON".
    const compressed = compressionOf(first.value);
    if (compressed) {
      // The command to type, with the option that takes the bundle ("srs ... -" left the user to find --from).
      const option = /^--[a-z-]+/.exec(what)?.[0] ?? (ctx.commandPath === 'score check' || ctx.commandPath === 'score explain' ? '--from' : undefined);
      const command = `srs ${ctx.commandPath ?? 'score recompute'}${option ? ` ${option}` : ''} - ...`;
      throw invalid(name, `${compressed.name}-compressed: decompress it first${file === '-' ? '' : ` (${compressed.cat} ${JSON.stringify(file)} | ${command})`}`);
    }
    // The start of a bundle's header that is not JSON: the header line was cut off (head -c) or edited. Altered (exit 3),
    // as a bundle cut anywhere else is, not "the lines were moved" (exit 2).
    if (first.value.toString('utf8', 0, 64).replace(/^\uFEFF/, '').startsWith(`{"kind":"${BUNDLE_KIND}"`)) {
      throw new CheckFailedError(`bundle altered: ${name}'s first line, its header, is cut off or edited (not valid JSON); save the evidence again with score calc --save`);
    }
  }
  if (head && typeof head === 'object' && (head as { kind?: unknown }).kind === BUNDLE_KIND && (head as { bundleVersion?: unknown }).bundleVersion === BUNDLE_VERSION) {
    yield* readFormat2(head, first.value, lines, name, opts.digest !== false, maxLine);
    return;
  }
  if (head && typeof head === 'object' && (head as { kind?: unknown }).kind === BUNDLE_KIND && typeof (head as { bundleVersion?: unknown }).bundleVersion === 'number' && (head as { bundleVersion: number }).bundleVersion > BUNDLE_VERSION) {
    throw invalid(name, `a format-${(head as { bundleVersion: number }).bundleVersion} bundle: this srs reads formats 1 and ${BUNDLE_VERSION}; upgrade srs`);
  }
  // JSON Lines whose first line is a record of a bundle, or a header of another kind: said as such, not as
  // "not valid JSON (... position 914)" once the lines are read as one document.
  const rec = head && typeof head === 'object' && !Array.isArray(head) ? (head as { t?: unknown; kind?: unknown }) : undefined;
  if (rec && typeof rec.t === 'string' && ['request', 'scorecard', 'result', 'error', 'end'].includes(rec.t)) {
    throw invalid(name, `the lines of an srs score bundle without its header line (the first line is a "${rec.t}" record, not {"kind":"${BUNDLE_KIND}",...}): the file was cut or edited; save the evidence again with score calc --save`);
  }
  if (rec && typeof rec.kind === 'string' && rec.kind !== BUNDLE_KIND && 'bundleVersion' in rec) {
    throw invalid(name, `its first line is a header of kind ${JSON.stringify(rec.kind)}, not ${JSON.stringify(BUNDLE_KIND)}: not an srs score bundle`);
  }
  // Format 1 or a raw response: one JSON document, read whole.
  const parts: Buffer[] = [first.value];
  let size = first.value.length;
  for await (const line of lines) {
    size += line.length;
    if (size > maxWhole) {
      throw tooLarge(`${name}: a single JSON document over ${mib(maxWhole)} MiB is too large to read at once (format-1 bundles and raw responses are read whole); save the evidence again with this srs (format ${BUNDLE_VERSION} is read as a stream)`);
    }
    parts.push(line);
  }
  let data: unknown;
  const text = Buffer.concat(parts).toString('utf8').replace(/^\uFEFF/, '');
  try {
    data = JSON.parse(text);
  } catch (e) {
    // Lines of a bundle (format 2) whose first line is not the header: say that, not where JSON.parse stopped.
    if (text.includes('"kind":"srs.score-bundle"')) throw invalid(name, 'a bundle whose first line is not its header ({"kind":"srs.score-bundle",...}): the lines were moved or something was put before them');
    throw invalid(name, `not valid JSON (${(e as Error).message})`);
  }
  const parsed = parseBundleOrResponse(data, name);
  if (parsed.bundle) {
    const b = parsed.bundle;
    yield { t: 'header', format: 1, modelVersion: b.modelVersion, asOf: b.asOf, options: b.options, baseUrl: b.service.baseUrl, account: b.service.account ?? null };
    for (const request of b.requests) yield { t: 'request', request };
    for (const scorecard of Object.values(b.scorecardDefinitions)) yield { t: 'scorecard', scorecard };
    let n = 0;
    for (const item of b.response.items) {
      yield { t: 'result', item, scorecards: Object.hasOwn(b.scorecards, item.supplierId) ? b.scorecards[item.supplierId]! : [], line: ++n };
    }
  } else {
    yield { t: 'header', format: 'response', modelVersion: null, asOf: null, options: null, baseUrl: null, account: null };
    let n = 0;
    for (const item of parsed.items) yield { t: 'result', item, scorecards: undefined, line: ++n };
  }
  yield { t: 'end', declared: null, computed: null };
}

async function* readFormat2(head: unknown, first: Buffer, lines: AsyncGenerator<Buffer>, name: string, digest: boolean, maxLine: number): AsyncGenerator<EvidenceEvent> {
  const h = parseLine(BundleHeader, head, `${name} line 1 (the header)`);
  yield { t: 'header', format: 2, modelVersion: h.modelVersion, asOf: h.asOf, options: h.options, baseUrl: h.service.baseUrl, account: h.service.account ?? null };
  // The header's own bytes are hashed as read (re-serialising could differ from the file).
  const hash = digest ? createHash(DIGEST_ALGORITHM) : undefined;
  hash?.update(first);
  yield* restOfFormat2(lines, name, hash, maxLine);
}

/** The records after the header; `hash` (absent when the digest was computed beforehand) takes every line but the last. */
async function* restOfFormat2(lines: AsyncGenerator<Buffer>, name: string, hash: Hash | undefined, maxLine: number): AsyncGenerator<EvidenceEvent> {
  let n = 1;
  let pending: { line: Buffer; n: number } | undefined;
  let ended = false;
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
        // The item with the compiled schema (hot(): thousands of the same shape), the rest of the line as it is.
        const raw = rec as { scorecards?: unknown; item?: unknown };
        if (!Array.isArray(raw.scorecards) || !raw.scorecards.every((x) => typeof x === 'string')) parseLine(ResultLine, rec, where);
        const item = hot(ScoreResult).safeParse(raw.item);
        if (!item.success) throw invalid(where, `not a score result: ${describeZodError(item.error, 'item')}`);
        yield { t: 'result', item: completeScoreResult(item.data), scorecards: raw.scorecards as string[], line: at };
        return;
      }
      case 'error': {
        const r = parseLine(ErrorLine, rec, where);
        yield { t: 'error', supplierId: r.supplierId, code: r.code, message: r.message };
        return;
      }
      case 'end': {
        // Content after the end record: an altered bundle (the verifier says so), not malformed input. Reading stops here.
        const end = EndLine.safeParse(rec);
        ended = true;
        yield { t: 'end', declared: end.success ? { suppliers: end.data.suppliers, digest: end.data.digest.value } : null, computed: null, afterEnd: at };
        return;
      }
      default:
        throw invalid(where, `unknown record type ${JSON.stringify(rec?.t)} (expected request, scorecard, result, error or end)`);
    }
  };
  for await (const line of lines) {
    n++;
    if (line.length > maxLine) throw tooLarge(`${name} line ${n}: longer than ${mib(maxLine)} MiB: too large to read (srs reads bundle lines of at most ${mib(maxLine)} MiB)`);
    if (pending) {
      hash?.update(pending.line);
      yield* handle(pending.line, pending.n);
      if (ended) return;
    }
    // Lines point into the chunks read, which are never reused: no copy needed.
    pending = { line, n };
  }
  // Nothing after the header: cut short, as a file's digest pass finds it (altered, exit 3), from stdin too.
  if (!pending) {
    yield { t: 'end', declared: null, computed: hash ? hash.digest('hex') : null };
    return;
  }
  let endRec: unknown;
  try {
    endRec = JSON.parse(pending.line.toString('utf8'));
  } catch {
    endRec = undefined;
  }
  const end = EndLine.safeParse(endRec);
  if (!end.success) {
    // Not an end record: the file was cut short (or edited). Hash it and report it as altered. A last line that is
    // not JSON at all is a line cut short (head -c, a copy that stopped): no record to read, and the finding is the
    // missing end record (exit 3), not "not valid JSON" (exit 2).
    hash?.update(pending.line);
    if (endRec !== undefined) yield* handle(pending.line, pending.n);
    yield { t: 'end', declared: null, computed: hash ? hash.digest('hex') : null };
    return;
  }
  yield { t: 'end', declared: { suppliers: end.data.suppliers, digest: end.data.digest.value }, computed: hash ? hash.digest('hex') : null };
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
  #buf: Buffer[] = [];
  #bufLen = 0;
  #suppliers = 0;
  readonly #cardsWritten = new Set<string>();

  private constructor(path: string) {
    this.#path = path;
    this.#tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  }

  /**
   * A process that ends before finish() or abort() (Ctrl-C, SIGTERM: the signal handler exits at once) removes the
   * temporary file and says that nothing was saved: a 0-byte `.FILE.PID.tmp` stayed behind, and stderr was empty.
   */
  readonly #onExit = (): void => {
    try {
      unlinkSync(this.#tmp);
    } catch {
      /* not there */
    }
    try {
      writeSync(2, `srs: the evidence bundle was not saved (stopped before it was complete); ${this.#path} is as it was\n`);
    } catch {
      /* stderr gone */
    }
  };

  /** A write of the bundle that fails (a full disk) is one line naming the file, not "unexpected error: ENOSPC". */
  async #io<T>(what: () => Promise<T>): Promise<T> {
    try {
      return await what();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (!code) throw e;
      throw new SrsError('runtime', ExitCode.failure, `cannot write the evidence bundle ${this.#path} (${code}): nothing was saved; ${this.#path} is as it was`, { cause: e });
    }
  }

  /** Masks secrets in each line before it is hashed and written (a bundle is shared: Context.redact). */
  #redact: ((s: string) => string) | undefined;

  static async create(path: string, header: Omit<BundleHeader, 'kind' | 'bundleVersion'>, redact?: (s: string) => string): Promise<BundleWriter> {
    const w = new BundleWriter(path);
    w.#redact = redact;
    w.#fh = await w.#io(() => open(w.#tmp, 'wx', 0o666));
    process.once('exit', w.#onExit);
    await w.#line({ kind: BUNDLE_KIND, bundleVersion: BUNDLE_VERSION, ...header });
    return w;
  }

  #line(rec: unknown): Promise<void> {
    return this.#text(JSON.stringify(rec));
  }

  async #text(given: string): Promise<void> {
    const json = this.#redact ? this.#redact(given) : given;
    // Encoded once, for the digest and the file alike (hashing the string and writing it encoded it twice).
    const b = Buffer.from(json + '\n', 'utf8');
    this.#hash.update(b);
    this.#buf.push(b);
    this.#bufLen += b.length;
    if (this.#bufLen >= 1 << 20) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (!this.#bufLen) return;
    const chunks = this.#buf;
    this.#buf = [];
    this.#bufLen = 0;
    await this.#io(() => this.#fh!.writeFile(Buffer.concat(chunks)));
  }

  request(request: RequestT): Promise<void> {
    return this.#line({ t: 'request', request });
  }

  /** A supplier's result, preceded by any of its scorecards not written yet. */
  async result(item: ScoreResultT, scorecards: ScorecardT[]): Promise<void> {
    for (const card of scorecards) {
      // A scorecard without an id (the document does not mark it required) cannot be referenced.
      if (typeof card.id !== 'string' || this.#cardsWritten.has(card.id)) continue;
      this.#cardsWritten.add(card.id);
      await this.#line({ t: 'scorecard', scorecard: card });
    }
    this.#suppliers++;
    // The line JSON.stringify({ t, scorecards, item }) makes, with the item's JSON made once and handed on to the output.
    const ids = scorecards.flatMap((c) => (typeof c.id === 'string' ? [c.id] : []));
    await this.#text(`{"t":"result","scorecards":${JSON.stringify(ids)},"item":${serialiseOnce(item)}}`);
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
    this.#buf.push(Buffer.from(JSON.stringify({ t: 'end', suppliers: this.#suppliers, digest: { algorithm: DIGEST_ALGORITHM, value: digest } }) + '\n', 'utf8'));
    this.#bufLen = 1;
    await this.#flush();
    await this.#io(async () => {
      await this.#fh!.sync();
      await this.#fh!.close();
      this.#fh = undefined;
      await rename(this.#tmp, this.#path);
    });
    process.off('exit', this.#onExit);
  }

  async abort(): Promise<void> {
    process.off('exit', this.#onExit);
    await this.#fh?.close().catch(() => undefined);
    this.#fh = undefined;
    await unlink(this.#tmp).catch(() => undefined);
  }
}


/** The contract's verdict on an item that was not validated when read: a usage error naming the line, or undefined if it is sound. */
export function contractError(item: unknown, where: string): UsageError | undefined {
  const r = ScoreResult.safeParse(item);
  return r.success ? undefined : invalid(where, `not a score result: ${describeZodError(r.error)}`);
}
