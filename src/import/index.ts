/**
 * `srs supplier import`, pure of Commander: file -> rows -> validation ->
 * journal -> bounded-concurrency POST /v1/suppliers -> report, failed-rows
 * file and summary. Every row read ends in exactly one state: created,
 * skipped, invalid, failed or unknown (valid instead of created in a dry run).
 *
 * Stopping (Ctrl-C through `signal`, an authentication failure, a file that
 * turns out to be malformed half-way): no more rows are read, the requests in
 * flight finish (or time out) and are recorded, the reports are written, and
 * the result says where and why the run stopped. Rows after that point were
 * not read: a re-run with the same command picks up where this one stopped.
 */
import type { Readable } from 'node:stream';
import { ExitCode, SrsError, UsageError } from '../errors.js';
import { mapHeaders, parseMapSpecs, unnamedColumns } from './headers.js';
import { Journal, JOURNAL_SUFFIX, readJournal, decideResume, type JournalHistory } from './journal.js';
import { rowHash } from './hash.js';
import { Progress } from './progress.js';
import { openInput, ReadError, type InputFile, type SourceRecord } from './read.js';
import { checkOutputPaths, FailedWriter, isProblem, Reorder, ReportWriter, type ImportSummary, type RowOutcome, type RowState } from './report.js';
import { Sender, type SendOutcome, type SupplierCreator } from './send.js';
import { RowValidator, rowShape } from './validate.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';

export type { ImportSummary, RowOutcome, RowState } from './report.js';
export type { SupplierCreator } from './send.js';

export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';
export const MAX_PROBLEMS_SHOWN = 20;
/** Finished rows held back behind an earlier row still in flight, before reading pauses. */
const MAX_REORDER_WAITING = 4096;

export interface ImportOptions {
  /** A path, or "-" for stdin. */
  file: string;
  encoding?: string | undefined;
  delimiter?: string | undefined;
  /** --map values, "Column Header=field". */
  maps?: readonly string[];
  dryRun?: boolean;
  concurrency?: number;
  /** --journal; default <file>.srs-journal (none for stdin). */
  journal?: string | undefined;
  journalFsync?: boolean;
  retryUnknown?: boolean;
  report?: string | undefined;
  failed?: string | undefined;
  quiet?: boolean;
  /** Do not guard report cells against spreadsheet formulas. */
  csvRaw?: boolean;
}

export interface ImportDeps {
  /** Called once before the first row of a real run; never in a dry run. */
  client: () => Promise<SupplierCreator>;
  stdin?: Readable;
  stdinIsTTY?: boolean;
  /** Raw stderr writes (progress). */
  stderrWrite: (s: string) => void;
  stderrIsTTY: boolean;
  warn: (msg: string) => void;
  info: (msg: string) => void;
  /** Aborting stops the run gracefully (Ctrl-C). */
  signal?: AbortSignal;
  now?: () => Date;
  /** Test hook: called for every row outcome, in line order. */
  onRow?: (o: RowOutcome) => void;
}

export interface ImportResult {
  summary: ImportSummary;
  /** The first MAX_PROBLEMS_SHOWN problem rows (invalid, failed, unknown, duplicates), in line order. */
  problems: RowOutcome[];
  problemCount: number;
  /** Set when an authentication failure (or another fatal error) stopped the run. */
  fatal?: SrsError | undefined;
  /** Set when the file turned out to be malformed or undecodable part-way. */
  readError?: ReadError | undefined;
  interrupted: boolean;
  /** Requests sent by this run. */
  requestsSent: number;
}

export function defaultJournalPath(file: string): string | undefined {
  return file === '-' ? undefined : file + JOURNAL_SUFFIX;
}

export async function runImport(o: ImportOptions, d: ImportDeps): Promise<ImportResult> {
  const started = performance.now();
  const now = d.now ?? (() => new Date());
  const dryRun = !!o.dryRun;
  const concurrency = o.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number between 1 and ${MAX_CONCURRENCY} (got ${concurrency})`);
  }
  const specs = parseMapSpecs(o.maps ?? []);
  const journalPath = o.journal ?? defaultJournalPath(o.file);
  checkOutputPaths(o.file, { '--journal': journalPath, '--report': o.report, '--failed': o.failed });
  if (o.file === '-' && o.journal === undefined && !dryRun) {
    d.warn('reading stdin without --journal: a re-run cannot tell which rows this run created; pass --journal FILE to make re-runs safe');
  }

  const input: InputFile = await openInput(o.file, {
    encoding: o.encoding,
    delimiter: o.delimiter,
    queue: Math.max(4, 2 * concurrency),
    ...(d.stdin ? { stdin: d.stdin as NodeJS.ReadableStream & Readable } : {}),
    stdinIsTTY: !!d.stdinIsTTY,
  });
  let journal: Journal | undefined;
  let report: ReportWriter | undefined;
  let failedOut: FailedWriter | undefined;
  let progress: Progress | undefined;
  const onAbort = () => requestStop('interrupted');
  let stopReason: string | undefined;
  let interrupted = false;
  function requestStop(reason: string): void {
    if (stopReason) return;
    stopReason = reason;
    if (reason === 'interrupted') {
      interrupted = true;
      input.destroy(); // unblocks a read waiting on a slow stdin
    }
  }

  try {
    const mapping = mapHeaders(input.header, specs);
    const warnings: string[] = [...mapping.warnings];
    const shape = rowShape(mapping, input.delimiter);
    const validator = new RowValidator(shape);

    // The client first: a missing key or base URL fails at once, before a journal is started or a row read.
    // Each batch of requests leaves only after the journal holds its "sent" lines.
    const sender: Sender | undefined = dryRun ? undefined : new Sender(await d.client(), concurrency, () => journal?.flush());

    let history: JournalHistory | undefined;
    if (journalPath !== undefined) {
      if (dryRun) {
        history = (await readJournal(journalPath, input.name, input.identity, d.warn))?.history;
      } else {
        const opened = await Journal.open(journalPath, input.name, input.identity, { fsync: !!o.journalFsync, now, warn: d.warn });
        journal = opened.journal;
        history = opened.resumed ? opened.history : undefined;
        if (opened.resumed) d.info(`resuming from journal ${journalPath} (${opened.history.size} rows recorded by earlier runs)`);
      }
    }
    if (o.report !== undefined) report = new ReportWriter(o.report, { csvRaw: !!o.csvRaw });
    if (o.failed !== undefined) failedOut = new FailedWriter(o.failed, input);
    for (const w of warnings) d.warn(w);

    const counts: Record<RowState, number> = { created: 0, skipped: 0, invalid: 0, failed: 0, unknown: 0, valid: 0 };
    const problems: RowOutcome[] = [];
    let problemCount = 0;
    let total = 0;
    let lastLine = input.headerLine;
    let fatal: SrsError | undefined;
    let readError: ReadError | undefined;
    let writeError: unknown;

    progress = new Progress({
      write: d.stderrWrite,
      tty: d.stderrIsTTY,
      quiet: !!o.quiet,
      totalBytes: input.identity.size ?? undefined,
      verb: dryRun ? 'validating' : 'importing',
      counts: () => ({ rows: total, problems: problemCount, bytes: input.bytesRead() }),
    });
    const warn = (msg: string) => {
      progress?.clear();
      d.warn(msg);
    };

    // Set when a report stream's buffer is full: the loop waits for it to drain before reading on.
    let needDrain = false;
    const emit = (out: RowOutcome) => {
      if (problems.length < MAX_PROBLEMS_SHOWN && isProblem(out)) problems.push(out);
      try {
        d.onRow?.(out);
        if (report && !report.write(out)) needDrain = true;
        if (failedOut && out.fields && (out.state === 'failed' || out.state === 'invalid') && !failedOut.write(out.fields)) needDrain = true;
      } catch (e) {
        writeError ??= e;
        requestStop('cannot write the report');
      }
    };
    const reorder = new Reorder(emit);
    const finish = (seq: number, out: RowOutcome) => {
      counts[out.state]++;
      total++;
      if (isProblem(out)) problemCount++;
      reorder.done(seq, out);
    };

    const unnamed = unnamedColumns(mapping);
    const width = input.header.length;
    let warnedUnnamed = false;
    let warnedExtra = false;

    if (d.signal?.aborted) requestStop('interrupted');
    d.signal?.addEventListener('abort', onAbort, { once: true });
    progress.start();

    let seq = 0;
    let reachedEnd = false;
    // Promises only where the loop must wait (a full window, the parser out of
    // records): at thousands of rows a second, one per row is measurable.
    rows: for (;;) {
      if (journal?.error) requestStop('cannot write the journal');
      if (stopReason) break;
      if (sender?.full) {
        await sender.capacity();
        if (stopReason) break;
      }
      // Outcomes wait in line order behind a slow request; past a bound, so does reading.
      while (sender && reorder.waiting >= MAX_REORDER_WAITING && sender.inFlight > 0) await sender.settled();
      if (needDrain) {
        needDrain = false;
        await report?.drain();
        await failedOut?.drain();
        if (stopReason) break;
      }
      let rec: SourceRecord | null | undefined;
      try {
        rec = input.take();
        while (rec === undefined) {
          await input.more();
          if (stopReason) break rows;
          rec = input.take();
        }
      } catch (e) {
        if (stopReason) break;
        if (e instanceof ReadError) {
          readError = e;
          requestStop('the file is malformed');
          break;
        }
        throw e;
      }
      if (rec === null) {
        reachedEnd = true;
        break;
      }
      lastLine = rec.line;

      if (!warnedUnnamed && unnamed.some((i) => (rec.fields[i] ?? '').trim() !== '')) {
        warnedUnnamed = true;
        warn(`line ${rec.line}: a column without a header holds data; it is not imported (give the column a header to import it)`);
      }
      if (!warnedExtra && rec.fields.length > width && rec.fields.slice(width).some((f) => f.trim() !== '')) {
        warnedExtra = true;
        warn(`line ${rec.line}: more cells than the header has columns; the extra cells are not imported`);
      }

      const s = seq++;
      // Only rows headed for --failed keep their cells.
      const kept = failedOut ? rec.fields : undefined;
      const v = validator.check(rec);
      if (v.kind === 'invalid') {
        finish(s, { line: v.line, state: 'invalid', customerSupplierId: v.customerSupplierId, field: v.field, message: v.message, fields: kept });
        continue;
      }
      if (v.kind === 'duplicate') {
        finish(s, { line: v.line, state: 'skipped', customerSupplierId: v.customerSupplierId, field: 'customerSupplierId', message: `duplicate customerSupplierId of line ${v.firstLine}` });
        continue;
      }
      const cid = v.customerSupplierId;
      let hash: string | undefined;
      if (history || journal) {
        hash = rowHash(rec.fields);
        const decision = history ? decideResume(rec.line, history.get(rec.line), hash, !!o.retryUnknown) : { action: 'send' as const };
        if (decision.action === 'skip') {
          finish(s, { line: rec.line, state: 'skipped', supplierId: decision.id, customerSupplierId: cid, message: decision.message });
          continue;
        }
        if (decision.action === 'unknown') {
          finish(s, { line: rec.line, state: 'unknown', customerSupplierId: cid, message: decision.message });
          continue;
        }
      }
      if (dryRun) {
        finish(s, { line: rec.line, state: 'valid', customerSupplierId: cid });
        continue;
      }
      const snd = sender!; // the window had room at the top of this iteration, and nothing since took it
      journal?.sent(rec.line, hash!);
      const line = rec.line;
      snd.start(v.request, (r: SendOutcome) => {
        let out: RowOutcome;
        if (r.state === 'created') {
          journal?.created(line, r.id);
          out = { line, state: 'created', supplierId: r.id, customerSupplierId: cid };
        } else {
          if (r.fatal) {
            fatal ??= r.fatal;
            requestStop(r.fatal.code === 'auth' ? 'authentication failed' : 'fatal error');
          }
          if (r.state === 'failed') journal?.failed(line, r.message);
          else journal?.unknown(line, r.message);
          out = { line, state: r.state, customerSupplierId: cid, message: r.message, fields: r.state === 'failed' ? kept : undefined };
        }
        finish(s, out);
      });
    }
    d.signal?.removeEventListener('abort', onAbort);
    await sender?.idle();
    progress.stop();
    const complete = reachedEnd && !readError;
    input.destroy();
    journal?.close();
    const journalError = journal?.error;
    if (sender?.error && sender.error !== journalError) writeError ??= sender.error;
    journal = undefined;
    await report?.close();
    await failedOut?.close();
    report = undefined;
    failedOut = undefined;
    if (journalError) {
      throw new SrsError(
        'runtime',
        ExitCode.failure,
        `${journalError.message}: the import stopped after line ${lastLine} (${counts.created} created). ` +
          'Rows answered after the failure are not recorded in the journal: a re-run reports them as unknown rather than sending them twice.',
      );
    }
    if (writeError) {
      const msg = `cannot write the report: ${(writeError as Error).message ?? String(writeError)}`;
      throw (sender?.sent ?? 0) > 0 ? new SrsError('runtime', ExitCode.failure, `${msg} (the journal has every row sent)`) : new UsageError(msg);
    }

    const elapsed = (performance.now() - started) / 1000;
    const summary: ImportSummary = {
      file: input.name,
      dryRun,
      created: counts.created,
      ...(dryRun ? { valid: counts.valid } : {}),
      skipped: counts.skipped,
      invalid: counts.invalid,
      failed: counts.failed,
      unknown: counts.unknown,
      total,
      elapsedSeconds: Math.round(elapsed * 100) / 100,
      rowsPerSecond: Math.round(total / Math.max(elapsed, 0.001)),
      complete,
      ...(complete ? {} : { stopReason: stopReason ?? 'stopped', stoppedAfterLine: lastLine }),
      ...(journalPath !== undefined && !dryRun ? { journal: journalPath } : {}),
      ...(o.report !== undefined ? { report: o.report } : {}),
      ...(o.failed !== undefined ? { failedFile: o.failed } : {}),
    };
    return { summary, problems, problemCount, fatal, readError, interrupted, requestsSent: sender?.sent ?? 0 };
  } finally {
    d.signal?.removeEventListener('abort', onAbort);
    progress?.stop();
    input.destroy();
    journal?.close();
    if (report) await report.close().catch(() => undefined);
    if (failedOut) await failedOut.close().catch(() => undefined);
  }
}
