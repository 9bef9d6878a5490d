/**
 * The supplier catalog as an import sink (src/import/sinks.ts OutcomeSink):
 * - check(row), before a row is sent (also in a dry run): a customerSupplierId the catalog knows as
 *   created on this target -> `exists` with its supplier id (unless --allow-existing); one it knows
 *   only from a create whose outcome is unknown -> `unknown` again (unless --retry-unknown);
 * - record(r): the outcomes of the rows this run sent (created, unknown), and, to repair a catalog
 *   that missed them (a crash between the journal and the catalog), the rows the journal kept back
 *   as already created or unknown. Written in batched transactions: the journal is the crash-safe
 *   record, the catalog follows it. A due batch is written in afterSend(), just after a batch of
 *   requests left, not in record() (where an answer is being handled and the next requests wait):
 *   the service works on those requests meanwhile, so the write costs the run little wall-clock time;
 * - beforeSend(): a failed catalog write stops the run before another request leaves.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { Target } from '../../api/target.js';
import type { Context } from '../../context.js';
import type { Candidate, OutcomeSink, Recorded, Verdict } from '../../import/sinks.js';
import { ExitCode, SrsError } from '../../errors.js';
import type { Catalog, CatalogRecord, CustomerIdFilter } from '../../store/catalog.js';
import { catalogPathOf, closeWithRun, IMPORT_WAIT_MS, IMPORT_WHAT, openCatalog, takeTargetLock, type OpenCatalog } from './catalog-access.js';
import type { JournalLock } from '../../util/lock.js';

/**
 * Outcomes held before one transaction writes them (SQLite's cost a row stops falling at about
 * this size: 3.6-4.4 µs at 64 rows a transaction, 3.1 at 128, 2.8 at 512, 3.2-4.0 at 1,024 and
 * 2,048; Catalog.record driven in-process over 20,000 rows, node:sqlite, 2026-11-23).
 */
const BATCH_ROWS = 512;
/** ...or after this long, so that a long slow run keeps the catalog close behind the journal. */
const BATCH_MS = 1000;
/**
 * A due batch waits for the next afterSend(); when none comes (every row kept back, a long
 * Retry-After pause), record() writes it itself past these bounds.
 */
const MAX_PENDING = 4 * BATCH_ROWS;
const MAX_WAIT_MS = 2 * BATCH_MS;
/** How often the pre-send check takes in what other processes recorded. */
const REFRESH_MS = 1000;

export class CatalogSink implements OutcomeSink {
  readonly name: string;
  readonly ordered = false;
  readonly #catalog: Catalog;
  readonly #partition: number;
  readonly #source: string;
  readonly #dryRun: boolean;
  readonly #allowExisting: boolean;
  readonly #retryUnknown: boolean;
  #pending: CatalogRecord[] = [];
  /** The pending batch is due: written at the next afterSend(). */
  #due = false;
  #lastFlush = performance.now();
  readonly #filter: CustomerIdFilter;
  #lastRefresh = performance.now();
  #error: Error | undefined;
  #closed = false;
  /** Rows this sink itself kept back (already in the catalog: nothing to repair). */
  readonly #ownVerdicts = new WeakSet<Candidate>();

  /** The per-target import lock, released when the sink closes. */
  readonly #lock: JournalLock | undefined;
  /** The whole input was read (finished()). */
  #finished = false;

  constructor(opts: { catalog: Catalog; partition: number; file: string; dryRun: boolean; allowExisting: boolean; retryUnknown: boolean; lock?: JournalLock | undefined }) {
    this.name = opts.catalog.path;
    this.#lock = opts.lock;
    this.#catalog = opts.catalog;
    this.#partition = opts.partition;
    this.#source = opts.file === '-' ? 'stdin' : basename(opts.file);
    this.#dryRun = opts.dryRun;
    this.#allowExisting = opts.allowExisting;
    this.#retryUnknown = opts.retryUnknown;
    // Most rows of an import are new: a hash filter answers those without a query (about 0.3 µs instead of 7).
    this.#filter = opts.catalog.customerIdFilter(opts.partition);
  }

  check(row: Candidate): Verdict | undefined {
    const cid = row.customerSupplierId;
    if (cid === undefined || cid === '') return undefined;
    // What other processes recorded meanwhile (another import, a create) is taken in once a second.
    if (performance.now() - this.#lastRefresh >= REFRESH_MS) {
      this.#lastRefresh = performance.now();
      this.#filter.refresh();
    }
    if (!this.#filter.mightHave(cid)) return undefined;
    const known = this.#catalog.lookupCustomerId(this.#partition, cid);
    if (!known) return undefined;
    if (known.state === 'created') {
      if (this.#allowExisting) return undefined;
      this.#ownVerdicts.add(row);
      return { state: 'exists', supplierId: known.id ?? undefined, message: `customerSupplierId already created on this target (${known.source}); not sent (--allow-existing sends it)` };
    }
    if (this.#retryUnknown) return undefined;
    this.#ownVerdicts.add(row);
    return { state: 'unknown', message: `an earlier create of this customerSupplierId has an unknown outcome (${known.source}); not resent (--retry-unknown sends it)` };
  }

  record(r: Recorded): void {
    if (this.#dryRun || this.#closed) return;
    const o = r.outcome;
    const row = r.sent ?? r.kept;
    if (!row || this.#ownVerdicts.has(row)) return;
    // Sent and created, or kept back by the journal as already created (the catalog learns it too, if it missed it).
    const created = (r.sent ? o.state === 'created' : o.state === 'skipped') && !!o.supplierId;
    if (!created && o.state !== 'unknown') return;
    this.#pending.push({
      id: created ? o.supplierId : null,
      name: row.request.name,
      customerSupplierId: row.customerSupplierId ?? null,
      countryIso3Code: row.request.countryIso3Code ?? null,
      state: created ? 'created' : 'unknown',
      source: `${this.#source}:${row.line}`,
    });
    const n = this.#pending.length;
    if (n >= BATCH_ROWS || this.#due) {
      // Written after the next batch of requests leaves (afterSend), unless none has left for long.
      if (n >= MAX_PENDING || performance.now() - this.#lastFlush >= MAX_WAIT_MS) this.#flush();
      else this.#due = true;
    } else if (performance.now() - this.#lastFlush >= BATCH_MS) this.#due = true;
  }

  /**
   * The requests of a batch just left: the due outcomes are written now, while the service works
   * on them, instead of in record(), while an answer is handled and the next requests wait. On
   * loopback (20,000 rows, a fresh warmed emulator per round, medians of 7-9 alternating runs,
   * under load, 2026-11-23) rows/s with the catalog went from 0.86-0.98x of --no-catalog's to
   * 0.93-1.0x; CPU a row is unchanged (the same SQLite work). Measured with the wall clock of
   * whole `srs supplier import` processes, like bench/import.bench.mjs; the spread is the machine's.
   */
  afterSend(): void {
    if (this.#due) this.#flush();
  }

  #flush(): void {
    this.#due = false;
    this.#lastFlush = performance.now();
    if (this.#pending.length === 0 || this.#error) return;
    const batch = this.#pending;
    this.#pending = [];
    try {
      const range = this.#catalog.record(this.#partition, batch);
      if (range) this.#filter.skip(range);
    } catch (e) {
      this.#error = new SrsError(
        'runtime',
        ExitCode.failure,
        `cannot write the supplier catalog ${this.name}: ${(e as Error).message} (the import stopped sending; the journal has every row sent, and the next run repairs the catalog from it)`,
        { cause: e },
      );
    }
  }

  beforeSend(): void {
    if (this.#error) throw this.#error;
  }

  get error(): Error | undefined {
    return this.#error;
  }

  finished(): void {
    this.#finished = true;
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#flush();
      this.#closed = true;
      // After the last outcomes are written: the next run must find them. A lock taken over from a killed import
      // (this same import, run again to repair what it left) goes back to it unless this run read the whole file:
      // refused, interrupted or failed, the repair is not done, and other runs must still be refused.
      if (this.#lock?.inherited?.what?.startsWith(IMPORT_WHAT) && !this.#finished) this.#lock.handBack();
      // Outcomes the catalog could not take (locked by another program, a full disk): as after a kill, the lock stays,
      // so that only this import run again (its journal repairs the catalog) goes ahead. Released, an overlapping
      // import found the ids unknown and created 556 of them a second time, exit 0.
      else if (this.#error) return Promise.reject(this.#error);
      else this.#lock?.release();
    }
    return this.#error ? Promise.reject(this.#error) : Promise.resolve();
  }
}

/**
 * The catalog sink for an import, or undefined when the catalog is off. A real run resolves the
 * target's partition (asking the service once after a key change); a dry run sends nothing, so it
 * consults the catalog only when it already knows this target (and never creates the file).
 */
export async function openCatalogSink(
  ctx: Context,
  file: string,
  o: { dryRun: boolean; allowExisting: boolean; retryUnknown: boolean; journalPath?: string | undefined },
): Promise<CatalogSink | undefined> {
  const path = await catalogPathOf(ctx);
  if (path === undefined) return undefined;
  let open: OpenCatalog | undefined;
  if (o.dryRun) {
    if (!existsSync(path)) return undefined;
    let target: Target;
    try {
      target = await ctx.target();
    } catch {
      return undefined; // a dry run needs no key; without one there is no target to look up
    }
    const { Catalog } = await import('../../store/catalog.js');
    let catalog: ReturnType<typeof Catalog.open>;
    try {
      catalog = Catalog.open(path, { redact: (s) => ctx.redact(s) });
    } catch (e) {
      throw e instanceof SrsError ? e : new SrsError('runtime', ExitCode.failure, (e as Error).message, { cause: e });
    }
    closeWithRun(ctx, catalog);
    const partition = catalog.knownPartition(target);
    if (partition === undefined) return undefined;
    open = { catalog, partition, target };
  } else {
    open = await openCatalog(ctx, 'srs supplier import', false);
  }
  if (!open) return undefined;
  if (!o.dryRun) {
    const written = open.catalog;
    ctx.onCleanup(() => written.checkpoint());
  }
  // One import at a time per target and catalog (a dry run sends nothing and takes no lock): see takeTargetLock.
  const lock = o.dryRun ? undefined : await takeTargetLock(ctx, open, { what: `${IMPORT_WHAT} ${file}`, journal: o.journalPath }, IMPORT_WAIT_MS);
  return new CatalogSink({ catalog: open.catalog, partition: open.partition, file, dryRun: o.dryRun, allowExisting: o.allowExisting, retryUnknown: o.retryUnknown, lock });
}
