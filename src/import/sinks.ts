/**
 * Where an import's outcomes go: the journal, the --report file, the --failed
 * file (and, from src/store, the supplier catalog). Each is an OutcomeSink, so
 * runImport (src/import/index.ts) orchestrates them without knowing what they
 * are:
 *
 *   check(row)     before a valid row is sent (and in a dry run): a verdict
 *                  ("already created", "outcome unknown", "exists") keeps the
 *                  row from being sent; the first sink with a verdict wins;
 *   sending(row)   the row is taken by the sender (the journal's "sent" line);
 *   beforeSend()   just before a batch of requests leaves: throws when the sink
 *                  can no longer vouch for what it records (a failed write),
 *                  so no further request leaves;
 *   afterSend()    just after a batch of requests left: deferred work (the
 *                  catalog's batched writes) done here overlaps with the
 *                  service answering them, instead of delaying the next batch;
 *   record(r)      a row's final outcome; `ordered` sinks get outcomes in line
 *                  order, the others as answers arrive. Returning false asks
 *                  the run to await drain() before reading on;
 *   close()        end of run (flushes; rejects with the write error).
 */
import type { SupplierCreateRequest } from '../api/contract.js';
import { rowHash } from './hash.js';
import { Journal, decideResume, hashSlot, standsFor, type JournalHistory, type StoppedPrefix } from './journal.js';
import { FailedWriter, ReportWriter, type RowOutcome, type RowState } from './report.js';

/** A valid row on its way to the service. */
export class Candidate {
  readonly line: number;
  /** Trimmed, as sent; undefined when the file has none for this row. */
  readonly customerSupplierId: string | undefined;
  readonly request: SupplierCreateRequest;
  readonly fields: readonly string[];
  #hash: string | undefined;

  constructor(line: number, customerSupplierId: string | undefined, request: SupplierCreateRequest, fields: readonly string[]) {
    this.line = line;
    this.customerSupplierId = customerSupplierId;
    this.request = request;
    this.fields = fields;
  }

  /** Short hash of the row's cells (computed once, only when a sink asks). */
  get hash(): string {
    this.#hash ??= rowHash(this.fields);
    return this.#hash;
  }
}

/** A sink's reason not to send a row. */
export interface Verdict {
  state: RowState;
  supplierId?: string | undefined;
  message: string;
}

/** An outcome as the sinks see it. */
export interface Recorded {
  outcome: RowOutcome;
  /** Set when this run sent the row. */
  sent?: Candidate | undefined;
  /** Set when a sink's verdict kept a valid row from being sent (the catalog repairs itself from the journal's). */
  kept?: Candidate | undefined;
}

export interface OutcomeSink {
  /** For messages: the file it writes, or what it is. */
  readonly name: string;
  /** True: record() is called in line order; false: as answers arrive. */
  readonly ordered: boolean;
  check?(row: Candidate): Verdict | undefined;
  sending?(row: Candidate): void;
  beforeSend?(): void;
  afterSend?(): void;
  record(r: Recorded): boolean | void;
  drain?(): Promise<void>;
  /** The first write that failed, once one has. */
  readonly error?: Error | undefined;
  /** The whole input was read and every row has its outcome (called before close(), only then). */
  finished?(): void;
  close(): Promise<void>;
}

/**
 * The journal as a sink: checks what earlier runs recorded (also in a dry run,
 * read-only: `journal` undefined), writes "sent" before a request leaves and
 * the outcome when its answer arrives.
 */
export class JournalSink implements OutcomeSink {
  readonly name: string;
  readonly ordered = false;
  readonly #journal: Journal | undefined;
  readonly #history: JournalHistory | undefined;
  readonly #retryUnknown: boolean;

  constructor(name: string, journal: Journal | undefined, history: JournalHistory | undefined, retryUnknown: boolean) {
    this.name = name;
    this.#journal = journal;
    this.#history = history;
    this.#retryUnknown = retryUnknown;
  }

  /** The row hash of each line read in this run (index line; 0: none), for telling a twin from a moved row. */
  #hashes = new Float64Array(0);

  #seen(line: number, hash: string): void {
    if (line >= this.#hashes.length) {
      const next = new Float64Array(Math.max(1024, this.#hashes.length * 2, line + 1));
      next.set(this.#hashes);
      this.#hashes = next;
    }
    this.#hashes[line] = hashSlot(hash);
  }

  check(row: Candidate): Verdict | undefined {
    if (!this.#history) return undefined;
    const history = this.#history;
    const prior = history.get(row.line);
    this.#seen(row.line, row.hash);
    // Only a row its own line's record does not stand for is looked for elsewhere (the index is built on the first
    // such row): a line that recorded these very cells (failed: sent again) is itself, not a moved row.
    let from = standsFor(prior, row.hash) ? undefined : history.movedFrom(row.line, row.hash);
    // A twin, not a moved row: the line the cells were created from still holds them in this run (two identical
    // rows; the second one failed in the earlier run was skipped as "already created", and lost).
    if (from !== undefined && from < row.line && this.#hashes[from] === hashSlot(row.hash)) from = undefined;
    const d = decideResume(row.line, prior, row.hash, this.#retryUnknown, from !== undefined ? { line: from, prior: history.get(from)! } : undefined);
    if (d.action === 'skip') return { state: 'skipped', supplierId: d.id, message: d.message };
    if (d.action === 'unknown') return { state: 'unknown', message: d.message };
    return undefined;
  }

  sending(row: Candidate): void {
    this.#journal?.sent(row.line, row.hash);
  }

  /** A journal is written (not a dry run). */
  get writing(): boolean {
    return this.#journal !== undefined;
  }

  /** The run stopped at malformed input (journal.ts "stopped"). */
  stopped(prefix: StoppedPrefix, at: Date): void {
    this.#journal?.stopped(prefix, at);
  }

  beforeSend(): void {
    this.#journal?.flush();
  }

  record(r: Recorded): void {
    const j = this.#journal;
    if (!j || !r.sent) return;
    const o = r.outcome;
    if (o.state === 'created') j.created(o.line, o.supplierId ?? '');
    else if (o.state === 'failed') j.failed(o.line, o.message ?? '');
    else if (o.state === 'unknown') j.unknown(o.line, o.message ?? '');
  }

  get error(): Error | undefined {
    return this.#journal?.error;
  }

  close(): Promise<void> {
    this.#journal?.close();
    return Promise.resolve();
  }
}

/** What a file sink needs from its writer (ReportWriter, FailedWriter). */
interface FileWriter {
  drain(): Promise<void>;
  close(): Promise<void>;
  readonly error: Error | undefined;
}

/** A file written in line order: back-pressure, the write error and close come from its writer. */
abstract class FileSink<W extends FileWriter> implements OutcomeSink {
  readonly name: string;
  readonly ordered = true;
  protected readonly w: W;

  constructor(name: string, w: W) {
    this.name = name;
    this.w = w;
  }

  abstract record(r: Recorded): boolean;

  drain(): Promise<void> {
    return this.w.drain();
  }

  get error(): Error | undefined {
    return this.w.error;
  }

  close(): Promise<void> {
    return this.w.close();
  }
}

/** --report FILE: every row, in line order. */
export class ReportSink extends FileSink<ReportWriter> {
  record(r: Recorded): boolean {
    return this.w.write(r.outcome);
  }
}

/** --failed FILE: the failed and invalid rows, in the input's own shape, in line order. */
export class FailedSink extends FileSink<FailedWriter> {
  readonly #warn: (m: string) => void;
  readonly #file: string;
  readonly #input: string;
  /** Rows that failed to send and carry no customerSupplierId: nothing but the journal tells them apart. */
  #unmarked = 0;

  constructor(name: string, w: FailedWriter, file: string, input: string, warn: (m: string) => void) {
    super(name, w);
    this.#file = file;
    this.#input = input;
    this.#warn = warn;
  }

  record(r: Recorded): boolean {
    const o = r.outcome;
    if (!o.fields || (o.state !== 'failed' && o.state !== 'invalid')) return true;
    if (o.state === 'failed' && !o.customerSupplierId) this.#unmarked++;
    return this.w.write(o.fields);
  }

  override close(): Promise<void> {
    // Two ways to send them again, each safe alone: importing the --failed file, or running the input again (its
    // journal resends failed rows). Both, one after the other, created a row without a customerSupplierId twice.
    if (this.#unmarked) {
      this.#warn(
        `${this.#file} holds ${this.#unmarked} row${this.#unmarked === 1 ? '' : 's'} without a customerSupplierId that failed to send: import ${this.#file}, or run ${this.#input} again, not both (a run of ${this.#input} resends its failed rows, and nothing tells a row without a customerSupplierId from its copy)`,
      );
    }
    return super.close();
  }
}
