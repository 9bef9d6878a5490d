/**
 * `srs score report (BUNDLE | IDS...) --html FILE`: one self-contained HTML
 * file (src/output/html-report.ts) with the overall scores and their
 * distribution, per-parameter breakdowns with names, expiring evidence, and
 * the verification: the bundle's digest and what the verifier of `score
 * recompute` finds (model version, completeness, conflicts, recomputation).
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { CheckFailedError, ExitCode, SrsError, UsageError } from '../../errors.js';
import { oneLine } from '../../output/sanitize.js';
import { isUlid } from '../../util/ulid.js';
import { count } from '../../util/plural.js';
import { MODEL_VERSION } from '../../scoring/index.js';
import { optString, type Opts } from '../kit.js';
import { RetryBudget } from '../../api/retry.js';
import { mapConcurrent } from '../../util/concurrency.js';
import { supplierNameOrNull } from '../names.js';
import { describeFilters } from './bundle.js';
import { filtersFrom, DEFAULT_CONCURRENCY } from './calc.js';
import { explain } from './explanation.js';
import { expiringDays } from './explain.js';
import { gatherIds } from './ids.js';
import { checkNotAnInput, checkOutputFile } from './paths.js';
import { filesNoOutputMayReplace } from '../protect.js';
import { inputFromBundle, inputFromService, offScaleScore, type PictureInput } from './picture-input.js';
import { parseTolerance } from './recompute.js';

/** A report of ids names at most this many suppliers (one lookup each). */
const MAX_NAMED = 1000;

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  if (typeof opts.html !== 'string' || opts.html === '') throw new UsageError('--html FILE is required (the report to write; - for stdout)');
  // The report is an HTML page: --query and --fields cannot shape it, and are refused rather than ignored in silence.
  if (ctx.globals.query !== undefined || ctx.globals.fields !== undefined) throw new UsageError(`${ctx.globals.query !== undefined ? '--query' : '--fields'} does not apply to score report (it writes an HTML page); use score calc or score explain for data`);
  const withinDays = expiringDays(opts.expiringWithin);
  const tolerance = parseTolerance(opts.tolerance);
  const out = checkOutputFile('--html', opts.html, true);
  const fromBundle = args.length === 1 && opts.idsFile === undefined && (args[0] === '-' || existsSync(args[0]!));
  checkNotAnInput('--html', out, { 'the bundle argument': fromBundle ? args[0] : undefined, '--ids-file': optString(opts.idsFile) }, await filesNoOutputMayReplace(ctx));
  if (!fromBundle) {
    // A mistyped bundle path is not a supplier id: nothing is sent for it.
    const bad = args.filter((a) => !isUlid(a));
    if (bad.length) {
      const files = bad.filter((a) => a === '-' || existsSync(a));
      if (files.length) throw new UsageError(`${files[0]}: a bundle is read alone (score report BUNDLE --html FILE); do not mix it with supplier ids or --ids-file`);
      throw new UsageError(`no such bundle file or supplier id: ${bad.slice(0, 5).map((a) => JSON.stringify(a)).join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''} (a bundle is an existing file; a supplier id is a 26-character lowercase ULID)`, { code: 'invalid_input' });
    }
  }
  let input: PictureInput;
  let source: string;
  const supplierNames = new Map<string, string>();
  if (fromBundle) {
    const file = args[0]!;
    input = await inputFromBundle(ctx, file, opts);
    source = file === '-' ? 'a bundle read from stdin' : `the bundle ${basename(file)}`;
    // As online: a score off the -3..+3 scale cannot be explained (it was drawn as a full bar, in the wrong bin).
    for (const item of input.items) {
      const off = offScaleScore(item);
      if (off !== undefined) throw new SrsError('bad_response', ExitCode.failure, `the bundle's result for supplier ${item.supplierId} cannot be explained: its score ${String(off)} is outside the scale -3..+3; no report was written`);
    }
  } else {
    const ids = await gatherIds(ctx, args, opts.idsFile);
    const concurrency = typeof opts.concurrency === 'number' ? opts.concurrency : DEFAULT_CONCURRENCY;
    const client = await ctx.client({ connections: concurrency });
    input = await inputFromService(ctx, client, ids, filtersFrom(opts), concurrency, tolerance);
    if (input.unknown.size) {
      // Fail closed: a report that leaves out (or shows as "no data") a supplier the service does not know is not written.
      for (const [id, why] of input.unknown) ctx.stderr(`UNKNOWN ${oneLine(id)}: ${oneLine(why.message)}`);
      throw new SrsError('not_found', ExitCode.failure, `${input.unknown.size} of ${count(ids.length, 'supplier')} ${input.unknown.size === 1 ? 'is' : 'are'} unknown; no report was written (leave ${input.unknown.size === 1 ? 'it' : 'them'} out, or check the ids)`);
    }
    // Normalised as a bundle records it: a report is shared, and user:password@ or ?token= in the URL would go with it.
    const given = ctx.sandbox ? null : ((await ctx.settings()).baseUrl ?? null);
    const baseUrl = given === null ? null : (await import('../../api/target.js')).normaliseBaseUrl(given);
    source = baseUrl ? `the service at ${baseUrl}` : 'the sandbox emulator';
    // The report is shared, and ids alone say little to its readers: each supplier's name, looked up (GET
    // /v1/suppliers/{id}) up to MAX_NAMED suppliers. A failed lookup leaves that name out; the scores do not depend on it.
    if (ids.length <= MAX_NAMED) {
      // Retries for a tenth of the lookups at most (each costs 5 tokens), two at least.
      const budget = new RetryBudget(Math.max(10, Math.ceil(ids.length / 10) * 5));
      const found = await ctx.withSpinner(`Looking up ${count(ids.length, 'supplier name')}…`, () =>
        mapConcurrent(ids, concurrency, (id) => supplierNameOrNull(client, id, budget)),
      );
      ids.forEach((id, i) => {
        if (found[i]) supplierNames.set(id, found[i]);
      });
    } else ctx.info(`the report shows supplier ids without names: names are looked up for at most ${MAX_NAMED} suppliers`);
  }
  // Nothing to report is not a report (an empty bundle, or one of recorded errors only): the same rule as recompute --verify and check --from.
  if (!input.items.length) {
    // A bundle cut short before its first result is an altered bundle first (exit 3), as it is to check and recompute.
    if (fromBundle && input.trust.digest.state === 'mismatch') throw new CheckFailedError(`bundle altered: ${input.trust.digest.note}; no report was written`);
    const recorded = input.errors.size ? ` (${count(input.errors.size, 'supplier')} recorded without a result, unknown)` : '';
    throw new SrsError('runtime', ExitCode.failure, `nothing to report: ${fromBundle ? `${args[0] === '-' ? 'stdin' : args[0]} holds no supplier result` : 'no supplier was scored'}${recorded}; no report was written (save scores with srs score calc ID... --save FILE)`);
  }
  // Fail closed, as the online path and check --from do: a bundle that records suppliers without a result (unknown to
  // the service, or not calculable) gives no report that would leave them out and say "Findings: none".
  if (input.errors.size) {
    for (const [id, why] of input.errors) ctx.stderr(`UNKNOWN ${oneLine(id)}: ${oneLine(why)}`);
    throw new SrsError(
      'not_found',
      ExitCode.failure,
      `${input.errors.size} of ${count(input.items.length + input.errors.size, 'supplier')} in the bundle ${input.errors.size === 1 ? 'has' : 'have'} no result (recorded as unknown); no report was written (calculate without ${input.errors.size === 1 ? 'it' : 'them'}, or check the ids)`,
    );
  }
  const explanations = input.items.map((item) => explain(item, input.cardsFor(item.supplierId), input.names, input.asOf, input.options, withinDays));
  const { renderHtmlReport } = await import('../../output/html-report.js');
  const t = input.trust;
  const html = renderHtmlReport({
    title: typeof opts.title === 'string' && opts.title ? opts.title : 'Supplier score report',
    generatedAt: ctx.now().toISOString(),
    source,
    asOf: input.asOf,
    filters: describeFilters(input.options),
    modelVersion: input.modelVersion && input.modelVersion !== MODEL_VERSION ? `${MODEL_VERSION}; the bundle was saved with ${input.modelVersion}` : MODEL_VERSION,
    explanations,
    supplierNames,
    digest: t.digest,
    recompute: { agree: t.values - t.differing, total: t.values, tolerance: t.tolerance, findings: t.findings.map((f) => f.message), checked: t.checked },
  });
  if (out === '-') await ctx.sink.write(html);
  else {
    const { writeFileAtomic } = await import('../../util/fs.js');
    // Readable like any file the user writes (0666 less the umask); it never holds the API key.
    // A report is shared: a key the service echoed in a name is masked as on stdout.
    await writeFileAtomic(out, ctx.redact(html), { mode: 0o666 });
  }
  const expiring = explanations.reduce((n, x) => n + x.expiring.entries.length, 0);
  const digest = t.digest.state === 'none' ? 'no digest' : t.digest.state === 'verified' ? 'digest verified' : 'DIGEST DOES NOT MATCH';
  ctx.info(
    `wrote ${out === '-' ? 'the report to stdout' : out} (${count(explanations.length, 'supplier')} as of ${input.asOf}; ${expiring} evidence entr${expiring === 1 ? 'y' : 'ies'} expired or expiring within ${withinDays} days; ${digest}; ${t.values - t.differing} of ${t.values} values agree within ${t.tolerance})`,
  );
  if (!t.findings.length) return;
  // Fail closed: a report of evidence that does not verify is written (it says what is wrong) but is not a success.
  if (opts.verify !== false) {
    for (const f of t.findings.slice(1)) ctx.stderr(`also: ${oneLine(f.message)}`);
    throw new CheckFailedError(`${t.findings[0]!.message} (the report says so too; --no-verify to accept it)`);
  }
  for (const f of t.findings) ctx.warn(f.message);
}
