/**
 * srs supplier import FILE|- : the command around src/import/index.ts.
 * Signals (src/util/signals.ts): the first SIGINT/SIGTERM stops the run
 * gracefully (no more rows are read, in-flight requests finish, journal and
 * reports are written, the summary is printed, exit 130/143); a second one quits
 * at once, with the same code (the journal is already consistent: every line is
 * written before its request leaves, so rows in flight are unknown).
 * Exit codes: 0 every row created, skipped or exists (the catalog knows it as
 * created on this target: not sent); 1 any row invalid, failed or unknown, or a
 * journal/report/catalog write failed; 2 nothing sent (the file is unusable, or
 * the journal is in use or bound to another file or target); 4 authentication;
 * 130/143 interrupted.
 */
import type { Context } from '../../context.js';
import { ApiError, AuthError, ExitCode, SrsError, UsageError } from '../../errors.js';
import { RetryBudget } from '../../api/retry.js';
import { InterruptedError, onHardExit, onInterrupt, signalExitCode, stoppedWord, type StopSignal } from '../../util/signals.js';
import { runImport, MAX_PROBLEMS_SHOWN, type ImportResult } from '../../import/index.js';
import { problemLine } from '../../import/report.js';
import { catalogPathOf } from './catalog-access.js';
import { LockHeldError } from '../../util/lock.js';
import { filesNoOutputMayReplace, type Protected } from '../protect.js';

/** The files no output of the import may replace: the catalog this run uses (checked: a named one must exist), any other the command knows of, the config file. */
async function catalogFiles(ctx: Context): Promise<Protected> {
  await catalogPathOf(ctx);
  return filesNoOutputMayReplace(ctx);
}
import { importSummaryColumns } from '../../output/columns.js';
import { renderItem } from '../../output/render.js';
import { optString, renderAfterWork, requireArg, type Opts } from '../kit.js';

/**
 * How to find out about rows whose outcome is unknown (no re-run can: the interface has no lookup by customer id,
 * and the journal keeps them back): where they are listed, and how to send them once checked. "Run the same command
 * again to find out" promised what the re-run did not do.
 */
const UNKNOWN_ADVICE = (report: string | undefined, journal = true, catalog = true): string =>
  `check them at the service before sending them again (${[catalog ? 'srs supplier ls --state unknown lists them' : '', report ? `${report} lists them` : ''].filter(Boolean).join('; ') || 'the problems above name their lines'}); ` +
  (journal || catalog ? 'a re-run keeps them back, and --retry-unknown sends them again' : 'a re-run would send them again (no journal: the input came from a pipe; no catalog: --no-catalog), so leave them out of it');

/** Retries a lookup beside the work may take (each costs RETRY_COST tokens of its budget): two. */
const LOOKUP_BUDGET = 10;


export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const file = requireArg(args, 0, 'FILE (a CSV file, or - for stdin)');
  // --concurrency pins the limit, --max-concurrency is the ceiling of an adaptive one: a pin above the ceiling is
  // one of the two ignored (the pin won, and the progress line showed it past the ceiling).
  // (--max-concurrency is set only when given: its default, DEFAULT_MAX_CONCURRENCY, applies in runImport.)
  if (typeof opts.concurrency === 'number' && typeof opts.maxConcurrency === 'number' && opts.concurrency > opts.maxConcurrency) {
    throw new UsageError(`--concurrency ${opts.concurrency} is above --max-concurrency ${opts.maxConcurrency}: --concurrency pins the requests in flight, --max-concurrency caps the adaptive limit; give one of them`);
  }
  // (--timeout, --retries and --max-pages are checked by every command, a dry run too: Context's constructor.)
  // A dry run checks the base URL, when one is given (it needs none): --base-url "", a query string, plain http to another
  // host passed the rehearsal and failed the real run.
  if (opts.dryRun === true && !ctx.sandbox) {
    const s = await ctx.settings();
    if (s.baseUrl !== undefined) (await import('../../api/http.js')).checkBaseUrl(s.baseUrl, !!ctx.globals.insecureHttp);
    // And the key, and a profile named for this run: a 3-character key or --profile nosuch passed the rehearsal and
    // failed the real run (exit 4, exit 2). target() applies every command's rules to them.
    if ((s.baseUrl && s.apiKey) || s.profileSource === 'flag' || s.profileSource === 'env') await ctx.target();
  }
  const controller = new AbortController();
  let stoppedBy: StopSignal = 'SIGINT';
  const onSignal = (sig: StopSignal) => {
    stoppedBy = sig;
    if (ctx.io.stderrIsTTY) ctx.io.stderr.write('\n'); // below the progress line
    ctx.warn(`${sig}: stopping: no more rows are read, waiting for the requests in flight to finish (press Ctrl-C again to quit at once)`);
    controller.abort();
  };
  const offSignal = onInterrupt(onSignal);
  // A second signal ends the process at once: the progress line it was drawing is ended, so the next prompt does not
  // land on it, and the rows in flight are named for what they are. Off a terminal it is the one-line JSON error every
  // other error is there: exit 130 with nothing said left a --report that looked complete and was not.
  const report = optString(opts.report);
  // The run's journal, once runImport has decided it (none for a pipe without --journal): a re-run is advised only with one.
  let journalOfRun: string | undefined;
  let sinksOpen = false;
  /** Whether the catalog recorded this run's outcomes (not with --no-catalog). */
  let catalogRecords = false;
  /**
   * The first row kept back as already created (`exists`: the catalog knows it; `skipped` with a supplier id: the
   * journal does), and how many such rows there were, to check that the service still knows them.
   */
  let firstKept: { line: number; supplierId: string; state: 'exists' | 'skipped'; count: number } | undefined;
  const offHardExit = onHardExit((sig) => {
    const message = !sinksOpen
      ? `${sig}: quit at once, before any row was sent`
      : journalOfRun
      ? `${sig}: quit at once: rows in flight have an unknown outcome${report ? `, and --report ${report} is incomplete (it lacks rows that the journal has)` : ''}; run the same command again to continue the file, and ${UNKNOWN_ADVICE(undefined)}`
      : // Without a journal a re-run sends every row again: it made 445 duplicates of 1,500 rows when this said "run the same command again".
        `${sig}: quit at once: rows in flight have an unknown outcome, and there is no journal (the input came from a pipe), so running it again would send every row again and create duplicates${report ? `; --report ${report} is incomplete` : ''}: check which suppliers exist before importing the rest (srs supplier find lists what the catalog recorded), and import from a file (or pass --journal FILE) next time`;
    // Below the progress line on a terminal.
    ctx.io.stderr.write((ctx.io.stderrIsTTY ? '\n' : '') + ctx.errorLine('interrupted', message, signalExitCode(sig)));
  });
  let result: ImportResult;
  try {
    result = await runImport(
      {
        file,
        encoding: optString(opts.encoding),
        delimiter: optString(opts.delimiter),
        maps: Array.isArray(opts.map) ? (opts.map as string[]) : [],
        dryRun: opts.dryRun === true,
        concurrency: typeof opts.concurrency === 'number' ? opts.concurrency : undefined,
        maxConcurrency: typeof opts.maxConcurrency === 'number' ? opts.maxConcurrency : undefined,
        journal: optString(opts.journal),
        journalFsync: opts.journalFsync === true,
        retryUnknown: opts.retryUnknown === true,
        report: optString(opts.report),
        failed: optString(opts.failed),
        protect: await catalogFiles(ctx),
        quiet: ctx.quiet,
        csvRaw: !!ctx.globals.csvRaw,
        csvBom: ctx.csvBom,
      },
      {
        // One keep-alive connection per request the limit can have in flight.
        client: (maxInFlight) => ctx.client({ connections: maxInFlight, longRun: true }),
        sinks: async ({ dryRun, journalPath }) => {
          journalOfRun = dryRun ? undefined : journalPath;
          sinksOpen = true;
          const { openCatalogSink } = await import('./catalog-sink.js');
          const sink = await openCatalogSink(ctx, file, { dryRun, allowExisting: opts.allowExisting === true, retryUnknown: opts.retryUnknown === true, journalPath });
          catalogRecords = !!sink;
          return sink ? [sink] : [];
        },
        // A dry run may have no base URL or key (it needs none): then there is no target to check against. One that
        // has them has them checked as the real run would (a 3-character key was "no base URL and key", then exit 4).
        target: async () => {
          if (ctx.sandbox) return ctx.target();
          const s = await ctx.settings();
          return s.baseUrl && s.apiKey ? ctx.target() : undefined;
        },
        readSupplier: async (id) => {
          await (await ctx.client()).getSupplier(id);
        },
        onRow: (o) => {
          if ((o.state === 'exists' || o.state === 'skipped') && o.supplierId) {
            if (firstKept) firstKept.count++;
            else firstKept = { line: o.line, supplierId: o.supplierId, state: o.state, count: 1 };
          }
        },
        stdin: ctx.io.stdin,
        stdinIsTTY: ctx.io.stdinIsTTY,
        stderrWrite: (s) => void ctx.io.stderr.write(s),
        stderrIsTTY: ctx.io.stderrIsTTY,
        stderrColumns: () => (ctx.io.stderr as { columns?: number }).columns,
        warn: (m) => ctx.warn(m),
        info: (m) => {
          ctx.info(m);
        },
        signal: controller.signal,
        redact: (s) => ctx.redact(s),
      },
    );
  } catch (e) {
    // A signal while waiting for another run's lock (up to 3 s) ended in that wait's "in use" error, exit 2: it is a
    // signal (130/143/129), and nothing was sent.
    if (controller.signal.aborted && e instanceof LockHeldError) throw new InterruptedError(stoppedBy, `${stoppedWord(stoppedBy)} before the import started: nothing was sent`);
    throw e;
  } finally {
    offSignal();
    offHardExit();
  }

  const { summary } = result;
  if (result.problemCount > 0) {
    const more = result.problemCount > result.problems.length;
    ctx.stderr(
      more
        ? `problems (the first ${MAX_PROBLEMS_SHOWN} of ${result.problemCount}${summary.report ? `; ${summary.report} lists every row` : '; --report FILE lists every row'}):`
        : `problems:`,
    );
    for (const p of result.problems) ctx.stderr(`  ${problemLine(p)}`);
  }
  // A --query that fails on the summary: the summary is printed as it is, and the run exits 1 at the end (not 2,
  // "nothing sent", which would invite a second import), unless the import has its own failure to report.
  const queryProblem = await renderAfterWork(ctx, 'the summary is', (ro) => renderItem(ctx.sink, summary, importSummaryColumns(summary, ctx.format), ro));
  if (summary.exists > 0) {
    ctx.info(
      `${summary.exists} row${summary.exists === 1 ? '' : 's'} ${summary.dryRun ? 'would not be' : 'not'} sent: the supplier catalog knows ${summary.exists === 1 ? 'its' : 'their'} customerSupplierId as already created on this target` +
        `${summary.report ? ` (${summary.report} has the supplier ids)` : ' (--report FILE lists them with their supplier ids)'}; --allow-existing sends them anyway`,
    );
  }

  const advice = UNKNOWN_ADVICE(summary.report, !!summary.journal, catalogRecords);
  if (result.fatal) {
    // The outage stop (and any fatal stop) says what became of the rows in flight, as the end of a run does.
    if (!summary.unknown || result.fatal.code !== 'api') throw result.fatal;
    throw new SrsError(result.fatal.code, result.fatal.exitCode, `${result.fatal.message}; ${summary.unknown} row${summary.unknown === 1 ? '' : 's'} unknown: ${advice}`);
  }
  // Rows kept back as already created rest on the catalog's or the journal's word: a service reset since (a staging
  // wipe, an emulator restarted without --state) made them "exists" or "skipped", exit 0, with none of them at the
  // service. One GET of the first says whether the service still knows it: a 404 fails the run, and so does a lookup
  // that cannot say (fail closed). Not after a signal or a stop at malformed input: those say how to resume.
  const kept = firstKept;
  if (kept && !summary.dryRun && !result.interrupted && !result.readError) {
    const what = kept.state === 'exists' ? `the catalog knows ${kept.count === 1 ? 'its' : 'their'} customerSupplierId as created on this target` : `the journal records ${kept.count === 1 ? 'it' : 'them'} as created by an earlier run`;
    const rows = `${kept.count} row${kept.count === 1 ? ' was' : 's were'} not sent because ${what}`;
    const get = `GET /v1/suppliers/${kept.supplierId}`;
    let problem: string | undefined;
    try {
      await (await ctx.client()).getSupplier(kept.supplierId, new RetryBudget(LOOKUP_BUDGET));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        problem = `${rows}, but the service does not know supplier ${kept.supplierId} (line ${kept.line}: ${get} answered 404): the service was reset or its data removed since; ${kept.state === 'exists' ? 'run the same command with --allow-existing' : 'import the file with --journal NEW (and --allow-existing)'} to send them`;
      } else if (!(e instanceof AuthError)) {
        problem = `${rows}, but srs could not check that the service still has them (${get}: ${(e as Error).message}); srs supplier get ${kept.supplierId} checks it`;
      } else throw e;
    }
    if (problem) throw new SrsError('not_found', ExitCode.failure, summary.unknown ? `${problem}; and ${summary.unknown} unknown: ${advice}` : problem);
  }
  // Without a journal (stdin, a pipe), a re-run cannot tell which rows were created: it must not be advised.
  const resume = summary.journal
    ? `run the same command again to continue (journal ${summary.journal})`
    : `there is no journal (the input came from a pipe), so running it again would send every row again and create duplicates; ` +
      `rows up to line ${summary.stoppedAfterLine} were sent (${summary.created} created${summary.unknown ? `, ${summary.unknown} unknown` : ''}): ` +
      `continue with the rows after that line, and import from a file (or pass --journal FILE) next time`;
  if (result.readError) {
    if (result.requestsSent === 0) throw result.readError;
    const at = result.readError.line;
    // The journal binds to the exact file; it records the bytes before line `at` only when it can check them again.
    const next = !summary.journal
      ? resume
      : result.resumableAfterFix
        ? `fix the file from line ${at} on and run the same command again: the journal ${summary.journal} resumes as long as lines 1-${at - 1} are unchanged`
        : `the journal ${summary.journal} vouches only for the file as it is, so a fixed file would be refused: put the header and lines ${at} to the end in a new file, fix it, and import that (it gets its own journal)`;
    throw new SrsError('invalid_input', ExitCode.failure, `${result.readError.message} (the rows before line ${at} were processed; ${next})`);
  }
  if (result.interrupted) {
    // After every row was read there is no line to resume from ("after line undefined"): the summary is whole.
    if (summary.complete) {
      const open = summary.unknown ? `; ${summary.unknown} unknown: ${advice}` : '';
      throw new InterruptedError(stoppedBy, `${stoppedWord(stoppedBy)} after every row was read and sent (${summary.created} created)${open}`);
    }
    throw new InterruptedError(stoppedBy, `${stoppedWord(stoppedBy)} after line ${summary.stoppedAfterLine}: ${resume}`);
  }
  const bad = summary.invalid + summary.failed + summary.unknown;
  if (bad > 0) {
    const parts = [
      summary.invalid ? `${summary.invalid} invalid` : '',
      summary.failed ? `${summary.failed} failed` : '',
      summary.unknown ? `${summary.unknown} unknown (may or may not have been created)` : '',
    ].filter(Boolean);
    // Invalid rows were not sent by this run (an earlier run, or a fixed --failed file, may have created them).
    const what = summary.dryRun
      ? `${bad} row${bad === 1 ? '' : 's'} would not be imported`
      : summary.failed || summary.unknown
        ? `${bad} row${bad === 1 ? ' was' : 's were'} not created for certain`
        : `${bad} row${bad === 1 ? ' was' : 's were'} not sent by this run`;
    throw new SrsError(summary.failed || summary.unknown ? 'api' : 'invalid_input', ExitCode.failure, `${what}: ${parts.join(', ')}${summary.unknown ? `; ${advice}` : ''}`);
  }
  if (queryProblem) throw queryProblem.afterTheWork(summary.dryRun ? 'the dry run is done (nothing was sent)' : `the import is done (${summary.created} created)`);
}
