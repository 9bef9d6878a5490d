/**
 * `srs supplier import`, pure of Commander. A run goes through named stages,
 * top to bottom:
 *
 *   read      the file (or stdin) -> records with their line numbers (read.ts)
 *   validate  a record -> a supplier request, or `invalid` (validate.ts)
 *   dedupe    a duplicate customerSupplierId in this file -> `skipped`; then
 *             each sink's check(): the journal's resume rules (and any other
 *             sink, such as a catalog) may keep a row from being sent
 *   send      POST /v1/suppliers, at most the limit in force in flight: adaptive
 *             (limiter.ts) unless --concurrency pins it (send.ts)
 *   record    every outcome goes to the sinks (sinks.ts): the journal as the
 *             answers arrive, the --report and --failed files in line order
 *
 * Every row read ends in exactly one state: created, skipped, invalid, failed
 * or unknown (valid instead of created in a dry run), or a state a sink's
 * verdict names.
 *
 * Stopping (Ctrl-C through `signal`, an authentication failure, a file that
 * turns out to be malformed half-way, a sink that cannot write): no more rows
 * are read, the requests in flight finish (or time out) and are recorded, the
 * reports are written, and the result says where and why the run stopped.
 * Rows after that point were not read: a re-run with the same command picks up
 * where this one stopped.
 */
import { accessSync, constants, lstatSync, realpathSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import type { Readable } from 'node:stream';
import { ExitCode, SrsError, UsageError } from '../errors.js';
import { guardCsvCell } from '../output/sanitize.js';
import { mapHeaders, parseMapSpecs, unnamedColumns, type ColumnMapping } from './headers.js';
import { Journal, JOURNAL_SUFFIX, readJournal, type JournalHistory, type StoppedPrefix } from './journal.js';
import { countRecords } from './count.js';
import { ConcurrencyLimiter } from './limiter.js';
import { JournalLock } from '../util/lock.js';
import { checkTarget } from './binding.js';
import type { Target } from '../api/target.js';
import { Progress } from './progress.js';
import { asciiCompatible, filePrefix, isStreamPath, openInput, prefixMatches, ReadError, type InputFile, type SourceRecord } from './read.js';
import { checkOutputPaths, FailedWriter, isProblem, Reorder, ReportWriter, ROW_STATES, type ImportSummary, type RowOutcome, type RowState } from './report.js';
import { Sender, type SendOutcome, type SupplierCreator } from './send.js';
import { Candidate, FailedSink, JournalSink, ReportSink, type OutcomeSink, type Verdict } from './sinks.js';
import { FirstLineTable, RowValidator, rowShape } from './validate.js';
import { DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';

export type { ImportSummary, RowOutcome, RowState } from './report.js';
export type { SupplierCreator } from './send.js';
export type { Candidate, OutcomeSink, Recorded, Verdict } from './sinks.js';

export { DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';
export const MAX_PROBLEMS_SHOWN = 20;
/** Finished rows held back behind an earlier row still in flight, before reading pauses. */
const MAX_REORDER_WAITING = 4096;

export interface ImportOptions {
  /** A path, or "-" for stdin. */
  file: string;
  /** Files the journal, --report and --failed must not be (the supplier catalog's): path and what it is. */
  protect?: ReadonlyArray<readonly [path: string, what: string]> | undefined;
  encoding?: string | undefined;
  delimiter?: string | undefined;
  /** --map values, "Column Header=field". */
  maps?: readonly string[];
  dryRun?: boolean;
  /** --concurrency: pins the requests in flight; without it the limit adapts (limiter.ts). */
  concurrency?: number | undefined;
  /** --max-concurrency: the adaptive limit's ceiling. Default DEFAULT_MAX_CONCURRENCY. */
  maxConcurrency?: number | undefined;
  /** --journal; default <file>.srs-journal (none for stdin). */
  journal?: string | undefined;
  journalFsync?: boolean;
  retryUnknown?: boolean;
  report?: string | undefined;
  failed?: string | undefined;
  quiet?: boolean;
  /** Do not guard report cells against spreadsheet formulas. */
  csvRaw?: boolean;
  /** Start the --report file with a UTF-8 byte order mark (--csv-bom), for Excel. */
  csvBom?: boolean;
}

/** What a sink factory learns about the run (ImportDeps.sinks). */
export interface SinkContext {
  input: InputFile;
  dryRun: boolean;
  warn: (msg: string) => void;
  /** This run's journal, if it keeps one. */
  journalPath: string | undefined;
}

export interface ImportDeps {
  /** Called once before the first row of a real run, with the most requests the run can have in flight; never in a dry run. */
  client: (maxInFlight: number) => Promise<SupplierCreator>;
  /**
   * Further sinks (a catalog), opened after the journal: their check() runs
   * after the journal's, their record() sees every outcome. Called in dry runs
   * too (a sink then only checks).
   */
  sinks?: (run: SinkContext) => Promise<OutcomeSink[]> | OutcomeSink[];
  /**
   * The service and account this run is for (src/api/target.ts), recorded in
   * and checked against the journal (src/import/binding.ts). Undefined: not
   * known (a dry run without settings); the journal is then not checked.
   */
  target?: () => Promise<Target | undefined>;
  /** GET /v1/suppliers/{id} with the run's key (resolves when found): asked once when a key meets a journal of another key. */
  readSupplier?: (id: string) => Promise<void>;
  stdin?: Readable;
  stdinIsTTY?: boolean;
  /** Raw stderr writes (progress). */
  stderrWrite: (s: string) => void;
  stderrIsTTY: boolean;
  /** stderr's width when it is a terminal (read at every redraw of the progress line). */
  stderrColumns?: () => number | undefined;
  warn: (msg: string) => void;
  info: (msg: string) => void;
  /** Aborting stops the run gracefully (Ctrl-C). */
  signal?: AbortSignal;
  now?: () => Date;
  /** Test hook: called for every row outcome, in line order. */
  onRow?: (o: RowOutcome) => void;
  /**
   * The redaction stdout and stderr get (the API key replaced): applied to
   * everything the import writes to files (report, --failed, journal).
   */
  redact?: (s: string) => string;
}

/** 4xx answers that every row gets alike (a wrong base URL, a proxy timing out, throttling): not a bad row. */
const NOT_A_ROW_PROBLEM: ReadonlySet<number> = new Set([404, 405, 408, 429]);

/** Creates in a row the service may fail before an import stops sending (an outage, not a bad row). */
export const SERVICE_FAILURES_TO_STOP = 25;

export interface ImportResult {
  summary: ImportSummary;
  /** The first MAX_PROBLEMS_SHOWN problem rows (invalid, failed, unknown, duplicates), in line order. */
  problems: RowOutcome[];
  problemCount: number;
  /** Set when an authentication failure (or another fatal error) stopped the run. */
  fatal?: SrsError | undefined;
  /** Set when the file turned out to be malformed or undecodable part-way. */
  readError?: ReadError | undefined;
  /** With readError: the journal may be resumed once the file is fixed from the malformed line on (lines before it unchanged). */
  resumableAfterFix?: boolean;
  interrupted: boolean;
  /** Requests sent by this run. */
  requestsSent: number;
  /** The concurrency: fixed or adaptive, the highest in force, and the requests the service throttled (429/503). */
  concurrency?: { mode: 'fixed' | 'adaptive'; peak: number; final: number; throttled: number } | undefined;
}

/**
 * `<file>.srs-journal`; none for stdin, a FIFO, /dev/stdin or a process substitution (read once: --journal names one).
 * A symbolic link's journal is its target's: a re-run through a link (or a link's re-run through the file) found no
 * journal and created every row without a customerSupplierId again, exit 0.
 */
export function defaultJournalPath(file: string): string | undefined {
  if (isStreamPath(file) || underDev(file)) return undefined;
  let real = file;
  try {
    if (lstatSync(file).isSymbolicLink()) {
      real = realpathSync(file);
      // A target in a directory this user cannot write (a read-only share): the journal stays beside the link, as
      // before, rather than a run that cannot take its lock.
      accessSync(dirname(real), constants.W_OK);
    }
  } catch {
    real = file; // not there (the open says so), or the target's directory is not writable
  }
  return real + JOURNAL_SUFFIX;
}

/** /dev/stdin redirected from a regular file, /dev/fd/N: devices, never a place for a journal. */
function underDev(path: string): boolean {
  return /^\/dev(\/|$)/.test(resolvePath(path));
}

/** The options, checked before anything is opened. */
interface Plan {
  dryRun: boolean;
  /** Pinned by --concurrency, or undefined: adaptive up to maxConcurrency. */
  concurrency: number | undefined;
  maxConcurrency: number;
  journalPath: string | undefined;
  now: () => Date;
}

function plan(o: ImportOptions, d: ImportDeps): Plan {
  const dryRun = !!o.dryRun;
  const concurrency = o.concurrency;
  const maxConcurrency = o.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  for (const [flag, v] of [['--concurrency', concurrency], ['--max-concurrency', maxConcurrency]] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > MAX_CONCURRENCY)) {
      throw new UsageError(`${flag} must be a whole number between 1 and ${MAX_CONCURRENCY} (got ${v})`);
    }
  }
  const stream = isStreamPath(o.file) || underDev(o.file);
  const journalPath = o.journal ?? defaultJournalPath(o.file);
  if (journalPath !== undefined && underDev(journalPath)) {
    throw new UsageError(`--journal ${journalPath}: a journal is a file srs appends to and reads back; it cannot live under /dev (pass --journal PATH to a regular file)`);
  }
  checkOutputPaths(o.file, { '--journal': journalPath, '--report': o.report, '--failed': o.failed }, o.protect);
  if (stream && o.journal === undefined && !dryRun) {
    const what = o.file === '-' ? 'stdin' : `${o.file} (not a regular file: read once, like stdin)`;
    d.warn(`reading ${what} without --journal: a re-run cannot tell which rows this run created; pass --journal FILE to make re-runs safe`);
  }
  return { dryRun, concurrency, maxConcurrency, journalPath, now: d.now ?? (() => new Date()) };
}

/** Stage "read": opens the file (or stdin) and maps its header. */
async function openStage(o: ImportOptions, d: ImportDeps, p: Plan): Promise<InputFile> {
  return openInput(o.file, {
    encoding: o.encoding,
    delimiter: o.delimiter,
    // Records parsed ahead. Not sized to --max-concurrency: a 128-record queue (2 x 64) made a loopback
    // import 1.5-2x slower than --concurrency 8 with its 16 (bench/import.bench.mjs, 2026-11-23, under load);
    // 16 keeps even 64 requests in flight fed, since the parser is far faster than any service.
    queue: Math.max(4, 2 * (p.concurrency ?? 8)),
    ...(d.stdin ? { stdin: d.stdin as NodeJS.ReadableStream & Readable } : {}),
    stdinIsTTY: !!d.stdinIsTTY,
  });
}

/** The journal (read-only in a dry run), then the report files, then any further sinks. */
async function openSinks(o: ImportOptions, d: ImportDeps, p: Plan, input: InputFile, opened: OutcomeSink[]): Promise<void> {
  // The command's sinks (the catalog) open first: one that refuses the run (its target lock held) must do so before
  // the journal, report and failed files are created or emptied.
  const external = d.sinks ? await d.sinks({ input, dryRun: p.dryRun, warn: d.warn, journalPath: p.journalPath }) : [];
  try {
    await openOwnSinks(o, d, p, input, opened);
  } catch (e) {
    await Promise.allSettled(external.map((s) => s.close()));
    throw e;
  }
  opened.push(...external);
}

async function openOwnSinks(o: ImportOptions, d: ImportDeps, p: Plan, input: InputFile, opened: OutcomeSink[]): Promise<void> {
  if (p.journalPath !== undefined) {
    let journal: Journal | undefined;
    const path = input.identity.path;
    const prior = await readJournal(p.journalPath, input.name, input.identity, d.warn, {
      encoding: input.encoding,
      info: d.info,
      now: p.now,
      dryRun: p.dryRun,
      ...(path !== null ? { prefixMatches: (st: StoppedPrefix) => prefixMatches(path, st) } : {}),
      asciiCompatible,
    });
    // A dry run asks for the target only to check an existing journal (resolving settings may load the profile store).
    const target = p.dryRun && !prior ? undefined : await d.target?.();
    // Another service or account: refused before anything is written or sent (binding.ts).
    const meta = prior ? await checkTarget(p.journalPath, prior.meta, prior.history, target, { dryRun: p.dryRun, now: p.now, warn: d.warn, info: d.info, readSupplier: d.readSupplier }) : [];
    const history: JournalHistory | undefined = prior?.history;
    if (!p.dryRun) {
      const j = await Journal.open(p.journalPath, input.name, input.identity, {
        fsync: !!o.journalFsync,
        now: p.now,
        warn: d.warn,
        target,
        prior: prior ?? null,
        meta: [...(prior?.lines ?? []), ...meta],
        redact: d.redact,
        encoding: input.encoding,
      });
      journal = j.journal;
      if (j.resumed) d.info(`resuming from journal ${p.journalPath} (${j.history.size} rows recorded by earlier runs)`);
    }
    opened.push(new JournalSink(`journal ${p.journalPath}`, journal, history, !!o.retryUnknown));
  }
  const cells = { csvRaw: !!o.csvRaw, redact: d.redact };
  if (o.report !== undefined) opened.push(new ReportSink(`--report ${o.report}`, new ReportWriter(o.report, cells, !!o.csvBom)));
  if (o.failed !== undefined) opened.push(new FailedSink(`--failed ${o.failed}`, new FailedWriter(o.failed, input, cells), o.failed, input.name, d.warn));
}

/** Stage "validate" keeps the cells of a row only when --failed wants them. */
function keepsCells(o: ImportOptions): boolean {
  return o.failed !== undefined;
}

/**
 * plan (options) -> lock (the journal's) -> read (open the input) -> open the
 * sinks -> loop (validate, dedupe, send, record per row) -> finish (wait,
 * close, summarise).
 */
export async function runImport(o: ImportOptions, d: ImportDeps): Promise<ImportResult> {
  const started = performance.now();
  const p = plan(o, d);
  parseMapSpecs(o.maps ?? []); // a bad --map is a usage error before the file is opened
  // One run at a time per journal: a second one stops here, before reading or sending (a dry run takes no lock).
  const lock = !p.dryRun && p.journalPath !== undefined ? JournalLock.acquire(p.journalPath, { now: p.now, warn: d.warn }) : undefined;
  try {
    const input = await openStage(o, d, p);
    for (const w of input.warnings) d.warn(w);
    const run = new ImportRun(o, d, p, input);
    try {
      await run.open();
      await run.loop();
      return await run.finish(started);
    } finally {
      await run.dispose();
    }
  } finally {
    lock?.release();
  }
}

/**
 * A row must have the header's number of cells: more or fewer means a
 * delimiter inside an unquoted value, a quote left open (which runs on into
 * the next lines), or a cut-off row, and its cells would land in the wrong
 * fields. Such a row is invalid on its own; it is never joined to a neighbour.
 * Extra cells that are all empty (spreadsheets pad rows with ",,,") are fine, and so are missing cells under
 * trailing columns without a header.
 */
/**
 * A data row that repeats the header (exports joined with cat, each with its header and BOM): imported, it made a
 * supplier named "Name" with customerSupplierId "Vendor ID", exit 0.
 */
function repeatsHeader(rec: SourceRecord, header: readonly string[]): string | undefined {
  const cells = rec.fields;
  if (cells.length < header.length || header.every((h) => h.trim() === '')) return undefined;
  for (let i = 0; i < header.length; i++) {
    const cell = (i === 0 ? cells[i]!.replace(/^\uFEFF/, '') : cells[i]!).trim();
    if (cell !== header[i]!.trim()) return undefined;
  }
  return 'the row repeats the header (files joined one after another, each with its header?): not a supplier; remove the line';
}

function cellCountProblem(rec: SourceRecord, width: number, named: number): string | undefined {
  const n = rec.fields.length;
  if (n === width) return undefined;
  // Fewer cells, but none missing under a header: Excel's trailing empty header cells ("Name;Country;;") pad only
  // some rows, and those columns are ignored anyway.
  if (n < width && n >= named) return undefined;
  if (n > width) {
    let empty = true;
    for (let i = width; i < n; i++) if (rec.fields[i]!.trim() !== '') empty = false;
    if (empty) return undefined;
  }
  const runOn = rec.fields.some((f) => f.includes('\n') || f.includes('\r'));
  return (
    `line ${rec.line} has ${n} cell${n === 1 ? '' : 's'}, the header has ${width}: not imported` +
    (runOn ? ' (a quoted cell spans several lines: a quote left open?)' : n > width ? ' (an unquoted value holding the delimiter?)' : ' (a cut-off row?)')
  );
}

/** Thrown into the sender before a batch when a sink could not write: the batch does not leave. */
class SinkWriteError extends Error {
  readonly sink: OutcomeSink;
  constructor(sink: OutcomeSink) {
    super(`${sink.name} could not be written${sink.error ? ` (${describeWriteError(sink.error)})` : ''}`);
    this.sink = sink;
  }
}

/** "no space left on device" from "ENOSPC: no space left on device, write". */
function describeWriteError(e: Error): string {
  const m = /^[A-Z]+: (.*?)(, \w+.*)?$/.exec(e.message);
  return m ? m[1]! : e.message;
}

/** One run's state, its stages as methods. */
class ImportRun {
  readonly #o: ImportOptions;
  readonly #d: ImportDeps;
  readonly #p: Plan;
  readonly #input: InputFile;
  #mapping!: ColumnMapping;
  #validator!: RowValidator;
  /** The supplier id each created row got, by its first line: a service that gives one id to two rows is caught. */
  readonly #createdIds = new FirstLineTable();
  #sender: Sender | undefined;
  readonly #sinks: OutcomeSink[] = [];
  /** Sinks with check(), and those fed in line order / as answers arrive. */
  #checking: OutcomeSink[] = [];
  #ordered: OutcomeSink[] = [];
  #unordered: OutcomeSink[] = [];
  #journal: JournalSink | undefined;
  #progress: Progress | undefined;
  /** Stops the progress line's record count. */
  #counting: AbortController | undefined;
  #reorder!: Reorder;

  readonly counts = Object.fromEntries(ROW_STATES.map((s) => [s, 0])) as Record<RowState, number>;
  readonly problems: RowOutcome[] = [];
  problemCount = 0;
  total = 0;
  /** Rows of `total` the journal kept back as done by an earlier run (a resume). */
  keptBack = 0;
  lastLine: number;
  fatal: SrsError | undefined;
  readError: ReadError | undefined;
  /** The journal records the bytes before the malformed line: the file fixed from there on resumes. */
  resumableAfterFix = false;
  writeError: unknown;
  stopReason: string | undefined;
  interrupted = false;
  reachedEnd = false;
  /** Set when a sink's buffer is full: the loop waits for it to drain before reading on. */
  #needDrain = false;
  #seq = 0;
  /** Creates in a row that the service failed (unknown, or refused as unavailable): see SERVICE_FAILURES_TO_STOP. */
  #serviceFailures = 0;
  /** Whether every failure counted in #serviceFailures was a throttle (429, or 503 with Retry-After) past its retries. */
  #throttledOnly = true;
  readonly #closed = new Set<OutcomeSink>();
  readonly #onAbort = () => this.requestStop('interrupted');

  constructor(o: ImportOptions, d: ImportDeps, p: Plan, input: InputFile) {
    this.#o = o;
    this.#d = d;
    this.#p = p;
    this.#input = input;
    this.lastLine = input.headerLine;
  }

  requestStop(reason: string): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    if (reason === 'interrupted') {
      this.interrupted = true;
      this.#input.destroy(); // unblocks a read waiting on a slow stdin
      // A row waiting to retry its create is not a request in flight: it is not sent again after the signal.
      this.#sender?.stopRetries();
    }
  }

  #warn = (msg: string): void => {
    this.#progress?.clear();
    this.#d.warn(msg);
  };

  /** The header mapping, the client (before any journal is started: a missing key fails first), the sinks, the progress line. */
  async open(): Promise<void> {
    const { o, d, p, input } = { o: this.#o, d: this.#d, p: this.#p, input: this.#input };
    this.#mapping = mapHeaders(input.header, parseMapSpecs(o.maps ?? []));
    this.#validator = new RowValidator(rowShape(this.#mapping, input.delimiter));
    // Each batch of requests leaves only after every sink's beforeSend() (the journal's flush: its "sent" lines are written);
    // each sink's afterSend() runs once it left (the catalog's writes, while the service works on the batch).
    if (!p.dryRun) {
      const limiter = new ConcurrencyLimiter({ max: p.concurrency ?? p.maxConcurrency, fixed: p.concurrency });
      this.#sender = new Sender(
        await d.client(p.concurrency ?? p.maxConcurrency),
        limiter,
        () => this.#beforeSend(),
        () => this.#afterSend(),
      );
    }
    await openSinks(o, d, p, input, this.#sinks);
    this.#journal = this.#sinks.find((s): s is JournalSink => s instanceof JournalSink);
    this.#checking = this.#sinks.filter((s) => s.check);
    this.#ordered = this.#sinks.filter((s) => s.ordered);
    this.#unordered = this.#sinks.filter((s) => !s.ordered);
    for (const w of this.#mapping.warnings) d.warn(w);

    this.#reorder = new Reorder((out) => this.#emit(out));
    this.#progress = new Progress({
      write: d.stderrWrite,
      tty: d.stderrIsTTY,
      columns: d.stderrColumns,
      quiet: !!o.quiet,
      totalBytes: input.identity.size ?? undefined,
      verb: p.dryRun ? 'validating' : 'importing',
      counts: () => ({
        rows: this.total,
        kept: this.keptBack,
        problems: this.problemCount,
        bytes: input.bytesRead(),
        parsed: input.recordsParsed(),
        stopping: this.stopReason !== undefined,
        concurrency: this.#sender?.limiter.limit,
        throttled: this.#sender?.limiter.throttled,
      }),
    });
    // The total for the progress line, counted beside the import; only when a line will show.
    if (!o.quiet && input.identity.path !== null && input.identity.size) {
      const progress = this.#progress;
      this.#counting = new AbortController();
      void countRecords(input.identity.path, input.delimiter, input.headerLine, this.#counting.signal, input.encoding).then((n) => {
        progress.totalRows = n;
      });
    }
    if (d.signal?.aborted) this.requestStop('interrupted');
    d.signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#progress.start();
  }

  /** Before each batch of requests: a sink that failed to write stops it (nothing more leaves); then the journal's flush. */
  #beforeSend(): void {
    const failed = this.#failedSink();
    if (failed) throw new SinkWriteError(failed);
    for (const s of this.#sinks) s.beforeSend?.();
  }

  /** After each batch of requests left: the sinks' deferred work. */
  #afterSend(): void {
    for (const s of this.#sinks) s.afterSend?.();
  }

  /** The first sink whose write failed. */
  #failedSink(): OutcomeSink | undefined {
    for (const s of this.#sinks) if (s.error) return s;
    return undefined;
  }

  /** The main loop: read -> validate -> dedupe -> send, one record at a time, until the end or a stop. */
  async loop(): Promise<void> {
    const unnamed = unnamedColumns(this.#mapping);
    const width = this.#input.header.length;
    // The columns up to the last one with a header: a row may stop after it (trailing unnamed columns are ignored).
    let named = width;
    while (named > 0 && this.#input.header[named - 1]!.trim() === '') named--;
    let warnedUnnamed = false;
    let warnedGuard = false;
    const keep = keepsCells(this.#o);
    // Promises only where the loop must wait (a full window, the parser out of
    // records): at thousands of rows a second, one per row is measurable.
    for (;;) {
      const failed = this.#failedSink();
      if (failed) this.requestStop(failed === this.#journal ? 'cannot write the journal' : `cannot write ${failed.name}`);
      if (this.stopReason) break;
      if (!(await this.#waitForRoom())) break;
      const rec = await this.#read();
      if (!rec) break;
      this.lastLine = rec.line;

      if (!warnedUnnamed && unnamed.some((i) => (rec.fields[i] ?? '').trim() !== '')) {
        warnedUnnamed = true;
        this.#warn(`line ${rec.line}: a column without a header holds data; it is not imported (give the column a header to import it)`);
      }
      const seq = this.#seq++;
      const row = this.#validate(seq, rec, width, named, keep);
      if (!row) continue;
      if (!warnedGuard && guardedCell(row.request.name, row.customerSupplierId)) {
        warnedGuard = true;
        this.#warn(
          `line ${rec.line}: a name or customerSupplierId starts with ' before = + - or @: the formula guard srs puts in --failed and --report cells? ` +
            `It is sent as it is; remove the ' from such cells (or write the files with --csv-raw) before importing them`,
        );
      }
      if (this.#dedupe(seq, row, keep)) continue;
      if (this.#p.dryRun) {
        this.#record(seq, { line: row.line, state: 'valid', customerSupplierId: row.customerSupplierId });
        continue;
      }
      this.#send(seq, row, keep);
    }
  }

  /** Back-pressure: room in the send window, the reorder buffer and the sinks. False when the run stopped meanwhile. */
  async #waitForRoom(): Promise<boolean> {
    const sender = this.#sender;
    if (sender?.full) {
      await sender.capacity();
      if (this.stopReason) return false;
    }
    // Outcomes wait in line order behind a slow request; past a bound, so does reading.
    while (sender && this.#reorder.waiting >= MAX_REORDER_WAITING && sender.inFlight > 0) await sender.settled();
    if (this.#needDrain) {
      this.#needDrain = false;
      for (const s of this.#sinks) await s.drain?.();
      if (this.stopReason) return false;
    }
    return true;
  }

  /** Stage "read": the next record, or null at the end of the file or when the run stopped. */
  async #read(): Promise<SourceRecord | null> {
    const input = this.#input;
    try {
      let rec = input.take();
      while (rec === undefined) {
        await input.more();
        if (this.stopReason) return null;
        rec = input.take();
      }
      if (rec === null) this.reachedEnd = true;
      return rec;
    } catch (e) {
      if (this.stopReason) return null;
      if (e instanceof ReadError) {
        this.readError = e;
        this.requestStop('the file is malformed');
        return null;
      }
      throw e;
    }
  }

  /** Stage "validate" (and the in-file half of "dedupe": the validator remembers each customerSupplierId's first line). */
  #validate(seq: number, rec: SourceRecord, width: number, named: number, keep: boolean): Candidate | undefined {
    const cells = cellCountProblem(rec, width, named) ?? repeatsHeader(rec, this.#input.header);
    if (cells) {
      const cid = this.#validator.customerSupplierId(rec);
      this.#record(seq, { line: rec.line, state: 'invalid', customerSupplierId: cid, field: 'row', message: cells, fields: keep ? rec.fields : undefined });
      return undefined;
    }
    const v = this.#validator.check(rec);
    if (v.kind === 'invalid') {
      this.#record(seq, { line: v.line, state: 'invalid', customerSupplierId: v.customerSupplierId, field: v.field, message: v.message, fields: keep ? rec.fields : undefined });
      return undefined;
    }
    if (v.kind === 'duplicate') {
      this.#record(seq, { line: v.line, state: 'skipped', customerSupplierId: v.customerSupplierId, field: 'customerSupplierId', message: `duplicate customerSupplierId of line ${v.firstLine}` });
      return undefined;
    }
    return new Candidate(rec.line, v.customerSupplierId, v.request, rec.fields);
  }

  /** Stage "dedupe", across runs: the first sink with a verdict (journal, catalog) keeps the row from being sent. */
  #dedupe(seq: number, row: Candidate, keep: boolean): boolean {
    let verdict: Verdict | undefined;
    for (const s of this.#checking) {
      verdict = s.check!(row);
      if (verdict) break;
    }
    if (!verdict) return false;
    this.#record(seq, {
      line: row.line,
      state: verdict.state,
      supplierId: verdict.supplierId,
      customerSupplierId: row.customerSupplierId,
      message: verdict.message,
      fields: keep && verdict.state === 'invalid' ? row.fields : undefined,
    }, undefined, row);
    return true;
  }

  /** Stage "send": the sinks hear of the row (the journal's "sent"), the sender takes it; its answer goes to "record". */
  #send(seq: number, row: Candidate, keep: boolean): void {
    const sender = this.#sender!; // the window had room at the top of this iteration, and nothing since took it
    for (const s of this.#sinks) s.sending?.(row);
    sender.start(row.request, (r: SendOutcome) => {
      let out: RowOutcome;
      const sameId = r.state === 'created' ? this.#createdIds.firstOrSet(r.id, row.line) : undefined;
      if (r.state === 'created' && sameId !== undefined) {
        // Two rows cannot be one supplier: which row (if either) the id stands for is not known. Both were reported
        // created, and the catalog, keyed by supplier id, kept one of them: the other's id was then sent again.
        out = {
          line: row.line,
          state: 'unknown',
          customerSupplierId: row.customerSupplierId,
          message: `the service answered with supplier id ${r.id}, which it also gave line ${sameId}: two rows cannot be one supplier, so what this create made is not known (srs supplier get ${r.id} shows which one it is)`,
        };
      } else if (r.state === 'created') {
        out = { line: row.line, state: 'created', supplierId: r.id, customerSupplierId: row.customerSupplierId };
      } else {
        if (r.fatal) {
          this.fatal ??= r.fatal;
          this.requestStop(r.fatal.code === 'auth' ? 'authentication failed' : 'fatal error');
        }
        out = { line: row.line, state: r.state, customerSupplierId: row.customerSupplierId, message: r.message, fields: r.state === 'failed' && keep ? row.fields : undefined };
      }
      this.#watchService(out, r.state === 'created' ? undefined : r.status);
      this.#record(seq, out, row);
    });
  }

  /**
   * Stops the run when the service fails SERVICE_FAILURES_TO_STOP creates in a row (5xx, timeouts, dropped or refused
   * connections, throttling past every retry): an outage. Sent on, the rest of a 100,000-row file became `unknown`
   * rows nobody could check, or took days of retries. A created row or a row the service refused as invalid (a 4xx
   * other than 429: it is up) starts the count again. The rows after the stop are not sent; the re-run resumes.
   */
  #watchService(out: RowOutcome, status: number | undefined): void {
    // A row the service refused for what it holds (a 4xx; not 404, 405 or 408, which every row of a wrong base URL or
    // behind a timing-out proxy gets alike, nor 429): the service is up.
    const refusedRow = out.state === 'failed' && status !== undefined && status >= 400 && status < 500 && !NOT_A_ROW_PROBLEM.has(status);
    if (out.state === 'created' || refusedRow) {
      this.#serviceFailures = 0;
      this.#throttledOnly = true;
      return;
    }
    if (out.state !== 'unknown' && out.state !== 'failed') return;
    this.#throttledOnly &&= out.state === 'failed' && (status === 429 || status === 503);
    if (++this.#serviceFailures < SERVICE_FAILURES_TO_STOP || this.stopReason) return;
    const again = this.#journal?.writing ? 'run the same command again' : 'send the rest again';
    // Throttled past every retry, each of them: the service is up, but this run asks more than it allows.
    const message = this.#throttledOnly
      ? `the service throttled ${SERVICE_FAILURES_TO_STOP} creates in a row past their retries (the last, line ${out.line}: ${out.message ?? out.state}): srs stopped sending; ${again} with a lower --concurrency, or without it (the import then adapts to the service's pace)${this.#journal?.writing ? ': the journal resumes where this run stopped' : ''}`
      : `the service failed ${SERVICE_FAILURES_TO_STOP} creates in a row (the last, line ${out.line}: ${out.message ?? out.state}): srs stopped sending rather than send the rest of the file into an outage${this.#journal?.writing ? '; run the same command again once the service is back: the journal resumes where this run stopped' : ''}`;
    this.fatal ??= new SrsError('api', ExitCode.failure, message);
    this.requestStop(this.#throttledOnly ? 'the service is throttling' : 'the service is failing');
  }

  /** Stage "record": counts, then the sinks that take outcomes as they arrive, then (in line order) the others. */
  #record(seq: number, out: RowOutcome, sent?: Candidate, kept?: Candidate): void {
    this.counts[out.state]++;
    this.total++;
    // Rows an earlier run recorded (the journal keeps them back) take no work: not throughput (rate, ETA, rows/s).
    if (kept) this.keptBack++;
    if (isProblem(out)) this.problemCount++;
    for (const s of this.#unordered) s.record({ outcome: out, sent, kept });
    this.#reorder.done(seq, out);
  }

  #emit(out: RowOutcome): void {
    if (this.problems.length < MAX_PROBLEMS_SHOWN && isProblem(out)) this.problems.push(out);
    try {
      this.#d.onRow?.(out);
      for (const s of this.#ordered) if (s.record({ outcome: out }) === false) this.#needDrain = true;
    } catch (e) {
      this.writeError ??= e;
      this.requestStop(`cannot write ${this.#failedSink()?.name ?? 'the report'}`);
    }
  }

  /** Waits for the requests in flight, closes the sinks and builds the summary. */
  async finish(started: number): Promise<ImportResult> {
    const { d, p, o, input } = { d: this.#d, p: this.#p, o: this.#o, input: this.#input };
    const sender = this.#sender;
    // Heard until the last request is done: a signal while rows wait out a retry stops those retries, and the run
    // ends as interrupted (exit 130), not as a complete import (exit 1, complete: true).
    await sender?.idle();
    d.signal?.removeEventListener('abort', this.#onAbort);
    this.#progress?.stop();
    this.#counting?.abort();
    const complete = this.reachedEnd && !this.readError;
    input.destroy();
    // Stopped at malformed input: the journal records the bytes before that line, so that the same file fixed
    // from there on resumes (journal.ts, "Binding"). Not for stdin or UTF-16 (no prefix to check).
    if (this.readError && this.#journal?.writing && input.identity.path !== null) {
      const prefix = filePrefix(input.identity.path, this.readError.line, input.encoding);
      if (prefix) {
        this.#journal.stopped(prefix, p.now());
        this.resumableAfterFix = true;
      }
    }
    if (complete) for (const s of this.#sinks) s.finished?.();
    for (const s of this.#unordered) await this.#close(s);
    const journalError = this.#journal?.error;
    if (sender?.error && sender.error !== journalError) this.writeError ??= sender.error;
    if (journalError) {
      throw new SrsError(
        'runtime',
        ExitCode.failure,
        `${journalError.message}: the import stopped after line ${this.lastLine} (${this.counts.created} created). ` +
          'Rows answered after the failure are not recorded in the journal: a re-run reports them as unknown rather than sending them twice.',
      );
    }
    for (const s of this.#ordered) {
      try {
        await this.#close(s);
      } catch (e) {
        this.writeError ??= e;
      }
    }
    if (this.writeError) {
      const failed = this.#failedSink();
      const cause = failed?.error ?? (this.writeError instanceof SinkWriteError ? this.writeError.sink.error : undefined) ?? (this.writeError as Error);
      const code = (cause as NodeJS.ErrnoException).code;
      const what = failed ? `cannot write ${failed.name} (${code ? `${code}: ` : ''}${describeWriteError(cause)})` : `cannot write the report (${describeWriteError(cause)})`;
      const sent = sender?.sent ?? 0;
      // A dry run sends nothing and keeps no journal: pointing at one named a file that does not exist.
      const where = p.dryRun ? 'the dry run sent nothing' : p.journalPath !== undefined ? `every row sent is recorded in the journal ${p.journalPath}: run the same command again to continue` : 'without a journal, a re-run cannot tell which rows were created';
      throw new SrsError(
        'runtime',
        ExitCode.failure,
        `${what}: the import stopped after line ${this.lastLine}, and no request left after the failure (${sent} sent, ${this.counts.created} created); ${where}`,
      );
    }

    const elapsed = (performance.now() - started) / 1000;
    const c = this.counts;
    const summary: ImportSummary = {
      file: input.name,
      dryRun: p.dryRun,
      created: c.created,
      ...(p.dryRun ? { valid: c.valid } : {}),
      skipped: c.skipped,
      exists: c.exists,
      invalid: c.invalid,
      failed: c.failed,
      unknown: c.unknown,
      total: this.total,
      elapsedSeconds: Math.round(elapsed * 100) / 100,
      // This run's work: rows kept back from the journal (a resume) are counted in total, not in the rate.
      rowsPerSecond: Math.round((this.total - this.keptBack) / Math.max(elapsed, 0.001)),
      // Requests the service answered 429 or 503 (each waited for and sent again): the pace it allowed, not a row's fate.
      ...(p.dryRun ? {} : { throttled: sender?.limiter.throttled ?? 0 }),
      complete,
      ...(complete ? {} : { stopReason: this.stopReason ?? 'stopped', stoppedAfterLine: this.lastLine }),
      ...(p.journalPath !== undefined && !p.dryRun ? { journal: p.journalPath } : {}),
      ...(o.report !== undefined ? { report: o.report } : {}),
      ...(o.failed !== undefined ? { failedFile: o.failed } : {}),
    };
    const l = sender?.limiter;
    return {
      summary,
      problems: this.problems,
      problemCount: this.problemCount,
      fatal: this.fatal,
      readError: this.readError,
      resumableAfterFix: this.resumableAfterFix,
      interrupted: this.interrupted,
      requestsSent: sender?.sent ?? 0,
      concurrency: l && { mode: l.fixed ? 'fixed' : 'adaptive', peak: l.peak, final: l.limit, throttled: l.throttled },
    };
  }

  /** Whatever happened: the progress line, the input and every sink closed (best effort). */
  async dispose(): Promise<void> {
    this.#d.signal?.removeEventListener('abort', this.#onAbort);
    this.#progress?.stop();
    this.#counting?.abort();
    this.#input.destroy();
    for (const s of this.#sinks) await this.#close(s).catch(() => undefined);
  }

  /** Each sink is closed once; a second call resolves at once. */
  #close(s: OutcomeSink): Promise<void> {
    if (this.#closed.has(s)) return Promise.resolve();
    this.#closed.add(s);
    return s.close();
  }
}

/** A cell exactly as srs's CSV formula guard (guardCsvCell) writes it: a --failed or --report cell imported back. */
function guardedCell(...cells: ReadonlyArray<string | undefined>): boolean {
  for (const c of cells) if (c !== undefined && c.charCodeAt(0) === 39 && guardCsvCell(c.slice(1)) === c) return true;
  return false;
}
