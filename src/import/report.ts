/**
 * What an import writes besides the journal:
 * - --report FILE: one CSV row per input row (line, state, supplierId,
 *   customerSupplierId, field, message), streamed with csv-stringify;
 * - --failed FILE: the failed and invalid rows in the input's own shape (same
 *   header, delimiter, line ending and encoding, BOM if the input had one),
 *   ready to fix and import again;
 * - the summary (rendered by the command) and the first problems (stderr).
 * Rows reach the writers in line order (see Reorder).
 */
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { stringify, type Stringifier } from 'csv-stringify';
import iconv from 'iconv-lite';
import { UsageError } from '../errors.js';
import { guardCsvCell } from '../output/sanitize.js';
import { excelText } from './validate.js';
import { fileIdentity, fileTargetProblem } from '../util/fs.js';

export const ROW_STATES = ['created', 'skipped', 'exists', 'invalid', 'failed', 'unknown', 'valid'] as const;
export type RowState = (typeof ROW_STATES)[number];

export interface RowOutcome {
  line: number;
  state: RowState;
  supplierId?: string | undefined;
  customerSupplierId?: string | undefined;
  field?: string | undefined;
  message?: string | undefined;
  /** The row's cells, kept only for rows that go to the --failed file. */
  fields?: readonly string[] | undefined;
}

export const REPORT_HEADER = ['line', 'state', 'supplierId', 'customerSupplierId', 'field', 'message'] as const;

/** A CSV file written through csv-stringify, honouring back-pressure. */
class CsvFile {
  readonly path: string;
  readonly #csv: Stringifier;
  readonly #out: WriteStream;
  #error: Error | undefined;
  readonly #done: Promise<void>;

  constructor(path: string, flag: string, csv: Stringifier, encode?: NodeJS.ReadWriteStream) {
    this.path = path;
    this.#csv = csv;
    // Opened here, synchronously: an unwritable path fails before anything is sent (exit 2).
    let fd: number;
    try {
      fd = openSync(path, 'w', 0o644);
    } catch (e) {
      throw new UsageError(`${flag}: cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    this.#out = createWriteStream(path, { fd });
    // Known the moment the file refuses a write (ENOSPC, EIO, EPIPE), not when the pipeline is torn down:
    // the import checks `error` before every batch of requests, so none leaves after the failure.
    this.#out.on('error', (err: Error) => {
      this.#error ??= err;
    });
    if (encode) csv.setEncoding('utf8'); // iconv-lite's encoder takes strings
    const stages: Array<NodeJS.ReadableStream | NodeJS.WritableStream> = encode ? [csv, encode, this.#out] : [csv, this.#out];
    // pipeline() propagates an error from any stage to all of them, so close() always settles.
    this.#done = new Promise<void>((resolve) => {
      pipeline(stages, (err) => {
        if (err) this.#error ??= err;
        resolve();
      });
    });
  }

  /** The first error of any stage, once there is one. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** False when the caller should await drain() before writing more. */
  write(record: readonly string[]): boolean {
    if (this.#error) throw new Error(`cannot write ${this.path}: ${this.#error.message}`);
    return this.#csv.write(record as string[]);
  }

  drain(): Promise<void> {
    if (this.#error || !this.#csv.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#csv.off('drain', done);
        this.#csv.off('close', done);
        resolve();
      };
      this.#csv.once('drain', done);
      this.#csv.once('close', done);
    });
  }

  async close(): Promise<void> {
    if (!this.#csv.destroyed) this.#csv.end();
    await this.#done;
    if (this.#error) throw new Error(`cannot write ${this.path}: ${this.#error.message}`);
  }
}

/** How the report files treat a cell: the run's redaction (the API key never reaches a file), then, unless --csv-raw, the formula guard. */
export interface CellPolicy {
  csvRaw: boolean;
  /** Replaces secrets (the API key) as on stdout and stderr; identity when absent. */
  redact?: ((s: string) => string) | undefined;
}

function cellFilter(p: CellPolicy): (s: string) => string {
  const redact = p.redact;
  if (p.csvRaw) return redact ?? ((s) => s);
  return redact ? (s) => guard(redact(s)) : guard;
}

/**
 * The formula guard, except for a cell that is Excel's text idiom as the file had it (excelText, which the import
 * reads as its text): guarded ('="00042"), the --failed file "ready to fix and import again" sent the customer id
 * '="00042", a second supplier beside 00042.
 */
const guard = (s: string): string => (excelText(s) !== undefined ? s : guardCsvCell(s));

export class ReportWriter {
  readonly #file: CsvFile;
  readonly #cell: (s: string) => string;

  /** `bom`: start with a UTF-8 byte order mark (--csv-bom), so Excel reads the file as UTF-8, as stdout's CSV. */
  constructor(path: string, opts: CellPolicy, bom = false) {
    // Any cell holding a line break is quoted (a lone \r is one too for readers that take CR as a record end).
    this.#file = new CsvFile(path, '--report', stringify({ header: true, bom, columns: [...REPORT_HEADER], quoted_match: /[\r\n]/ }));
    this.#cell = cellFilter(opts);
  }

  write(o: RowOutcome): boolean {
    const c = this.#cell;
    return this.#file.write([String(o.line), o.state, o.supplierId ? c(o.supplierId) : '', c(o.customerSupplierId ?? ''), o.field ?? '', c(o.message ?? '')]);
  }

  drain(): Promise<void> {
    return this.#file.drain();
  }

  get error(): Error | undefined {
    return this.#file.error;
  }

  close(): Promise<void> {
    return this.#file.close();
  }
}

export interface InputShape {
  header: readonly string[];
  delimiter: string;
  eol: string;
  encoding: string;
  bom: boolean;
}

/**
 * The rows to fix, in the input's own columns, delimiter, line ending and
 * encoding; cells redacted and, unless --csv-raw, guarded against formulas
 * like the report's (a guarded cell reads back with its leading ').
 */
export class FailedWriter {
  readonly #file: CsvFile;
  readonly #cell: (s: string) => string;

  constructor(path: string, shape: InputShape, opts: CellPolicy = { csvRaw: false }) {
    this.#cell = cellFilter(opts);
    const utf8 = shape.encoding === 'utf-8';
    // A cell holding any line break is quoted: csv-stringify quotes only one holding the record delimiter itself, so
    // with CRLF records a cell with a lone \n went out bare, and the file ready "to fix and import again" read back
    // as two rows, the second one valid ("Umbruch" created under the original customer id).
    const csv = stringify({ delimiter: shape.delimiter, record_delimiter: shape.eol === '\r\n' ? 'windows' : shape.eol === '\r' ? 'mac' : 'unix', bom: utf8 && shape.bom, quoted_match: /[\r\n]/ });
    const enc = shape.encoding === 'utf-16' ? 'utf-16le' : shape.encoding;
    const encode = utf8 ? undefined : (iconv.encodeStream(enc, { addBOM: shape.bom || enc.startsWith('utf-16') }) as unknown as NodeJS.ReadWriteStream);
    this.#file = new CsvFile(path, '--failed', csv, encode);
    this.#file.write(shape.header);
  }

  write(fields: readonly string[]): boolean {
    // The row as it was read, cell for cell: a short row is not padded (padded, a cut-off row would import
    // cleanly as it stands, with its missing cells empty), and extra cells are kept.
    return this.#file.write(fields.map(this.#cell));
  }

  drain(): Promise<void> {
    return this.#file.drain();
  }

  get error(): Error | undefined {
    return this.#file.error;
  }

  close(): Promise<void> {
    return this.#file.close();
  }
}


/** Refuses output paths that would overwrite the input or each other (also through a symlink or a hard link). */
export function checkOutputPaths(input: string, outputs: Record<string, string | undefined>, protect: ReadonlyArray<readonly [path: string, what: string]> = []): void {
  const seen = new Map<string, string>();
  if (input !== '-') seen.set(fileIdentity(input), 'the input file');
  // Files no output may replace (the supplier catalog and its SQLite companions: a --report over it destroyed it).
  for (const [p, what] of protect) seen.set(fileIdentity(p), what);
  for (const [flag, p] of Object.entries(outputs)) {
    if (p === undefined) continue;
    const problem = fileTargetProblem(p);
    if (problem) throw new UsageError(`${flag} ${p}: ${problem}: give a file path in an existing directory`);
    const abs = fileIdentity(p);
    const clash = seen.get(abs);
    if (clash) throw new UsageError(`${flag} ${p} is ${clash}: choose another path`);
    seen.set(abs, flag);
  }
}

/** Emits outcomes in line order, whatever order the requests finish in. */
export class Reorder {
  readonly #pending = new Map<number, RowOutcome>();
  #next = 0;
  readonly #emit: (o: RowOutcome) => void;

  constructor(emit: (o: RowOutcome) => void) {
    this.#emit = emit;
  }

  /** `seq` is the row's position among processed rows (0, 1, 2, …). */
  done(seq: number, o: RowOutcome): void {
    if (seq !== this.#next) {
      this.#pending.set(seq, o);
      return;
    }
    this.#emit(o);
    this.#next++;
    for (let x = this.#pending.get(this.#next); x !== undefined; x = this.#pending.get(this.#next)) {
      this.#pending.delete(this.#next);
      this.#emit(x);
      this.#next++;
    }
  }

  get waiting(): number {
    return this.#pending.size;
  }
}

export interface ImportSummary {
  file: string;
  dryRun: boolean;
  created: number;
  /** Dry run only: rows that would be sent. */
  valid?: number;
  skipped: number;
  /** Rows not sent because the supplier catalog knows their customerSupplierId as created on this target (--allow-existing sends them). */
  exists: number;
  invalid: number;
  failed: number;
  unknown: number;
  total: number;
  elapsedSeconds: number;
  rowsPerSecond: number;
  /** Not in a dry run: the requests the service answered 429 or 503, each sent again (a count of requests, not rows). */
  throttled?: number;
  /** False when the run stopped before the end of the file. */
  complete: boolean;
  stopReason?: string | undefined;
  /** The last line processed, when the run stopped early (rows after it were not read). */
  stoppedAfterLine?: number | undefined;
  journal?: string | undefined;
  report?: string | undefined;
  failedFile?: string | undefined;
}

export const PROBLEM_STATES: ReadonlySet<RowState> = new Set<RowState>(['invalid', 'failed', 'unknown']);

/** A row worth showing a person: invalid, failed, unknown, or a duplicate that was skipped. */
export function isProblem(o: RowOutcome): boolean {
  return PROBLEM_STATES.has(o.state) || (o.state === 'skipped' && !!o.message?.startsWith('duplicate'));
}

export function problemLine(o: RowOutcome): string {
  const id = o.customerSupplierId ? ` [${o.customerSupplierId}]` : '';
  return `line ${o.line}: ${o.state}${id}: ${o.message ?? ''}`;
}
