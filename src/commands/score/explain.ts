/**
 * `srs score explain ID`: one supplier's score as a picture (bars on the
 * -3..+3 scale per scorecard and parameter, names, weights, entry counts,
 * expiring evidence), or as a structured document with -o json. From the
 * service, or offline from a saved bundle with --from.
 */
import type { Context } from '../../context.js';
import { CheckFailedError, SrsError, ExitCode, UsageError } from '../../errors.js';
import { renderItem, renderList } from '../../output/render.js';
import type { Column } from '../../output/columns.js';
import { requireArg, type Opts } from '../kit.js';
import { RetryBudget } from '../../api/retry.js';
import { supplierNameOrNull } from '../names.js';
import { scoreCell } from '../../scoring/index.js';
import { describeFilters } from './bundle.js';
import { filtersFrom } from './calc.js';
import { checkId } from './ids.js';
import { DEFAULT_EXPIRING_DAYS, explain, type Explanation } from './explanation.js';
import { inputFromBundle, inputFromService, offScaleScore, type PictureInput } from './picture-input.js';
import { DEFAULT_TOLERANCE, MAX_EXPIRING_DAYS } from './options.js';

/** --expiring-within: whole days from 0 to MAX_EXPIRING_DAYS. */
export function expiringDays(v: unknown): number {
  if (v === undefined) return DEFAULT_EXPIRING_DAYS;
  const s = String(v).trim();
  const n = Number(s);
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(n) || n > MAX_EXPIRING_DAYS) {
    throw new UsageError(`--expiring-within takes a whole number of days from 0 to ${MAX_EXPIRING_DAYS} (got "${String(v)}")`);
  }
  return n;
}

const csvColumns: Column[] = [
  { path: 'scorecardId', header: 'SCORECARD ID' },
  { path: 'scorecardName', header: 'SCORECARD' },
  { path: 'policyParameterId', header: 'PARAMETER ID' },
  { path: 'name', header: 'PARAMETER' },
  { path: 'weight', header: 'WEIGHT', align: 'right' },
  { path: 'score', header: 'SCORE', align: 'right', format: scoreCell },
  { path: 'label', header: 'LABEL' },
  { path: 'riskLevel', header: 'RISK' },
  { path: 'riskRecognised', header: 'RISK RECOGNISED' },
  { path: 'entries', header: 'ENTRIES', align: 'right' },
  { path: 'expiringEntries', header: 'EXPIRING', align: 'right' },
];

/** One row per parameter per scorecard (and per parameter in no scorecard), for CSV. */
function* parameterRows(x: Explanation): Generator<Record<string, unknown>> {
  for (const c of x.scorecards) for (const p of c.parameters) yield { supplierId: x.supplierId, scorecardId: c.scorecardId, scorecardName: c.name, ...p };
  for (const p of x.otherParameters) yield { supplierId: x.supplierId, scorecardId: null, scorecardName: null, ...p };
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const id = checkId(requireArg(args, 0, 'supplier id'));
  const withinDays = expiringDays(opts.expiringWithin);
  let input: PictureInput;
  let supplierName: Promise<string | null> = Promise.resolve(null);
  if (typeof opts.from === 'string') {
    input = await inputFromBundle(ctx, opts.from, opts);
    // An altered bundle, or one with conflicting entries or results, explains nothing (exit 3, as check --from):
    // which copy counts cannot be told. Other findings (no digest, another model version, values the local model
    // computes otherwise) are said.
    if (input.trust.digest.state === 'mismatch') throw new CheckFailedError(`bundle altered: ${input.trust.digest.note}; nothing was explained`);
    const fatal = input.trust.findings.find((f) => f.kind === 'altered' || f.kind === 'conflict');
    if (fatal) throw new CheckFailedError(`${fatal.message}; nothing was explained`);
    for (const f of input.trust.findings) ctx.warn(f.message);
  } else {
    const client = await ctx.client();
    // The picture names the supplier (it showed the id alone): looked up beside the calculation, and left out
    // if that lookup fails (the picture is of the score, which does not depend on it).
    const ro = ctx.renderOptions();
    if (ctx.format === 'table' && !ro.fields && !ro.query) {
      supplierName = supplierNameOrNull(client, id, new RetryBudget(10)); // two retries
    }
    input = await inputFromService(ctx, client, [id], filtersFrom(opts), 1, DEFAULT_TOLERANCE);
    // Fail closed: a supplier the service does not know (or srs could not find out about) is not "no data".
    const why = input.unknown.get(id);
    if (why) throw new SrsError('not_found', ExitCode.failure, `unknown: ${why.message}; nothing was explained`);
  }
  const item = input.items.find((i) => i.supplierId === id);
  if (!item) {
    const why = input.errors.get(id);
    throw new SrsError('not_found', ExitCode.failure, typeof opts.from === 'string' ? `--from: the bundle holds no score for supplier ${id}${why ? ` (${why})` : ''}` : `the service returned no score for supplier ${id}`);
  }
  // A score off the -3..+3 scale cannot be explained (README): it was drawn as a full +3 bar, exit 0.
  const off = offScaleScore(item);
  if (off !== undefined) throw new SrsError('bad_response', ExitCode.failure, `the result for supplier ${id} holds the score ${String(off)}, outside the scale -3..+3: srs cannot explain it (srs score calc ${id} -o json shows what was sent)`);
  // Filtered scores are partial: said before the picture (the report says it in its header).
  const filters = describeFilters(input.options, (fid) => input.names.parameters.get(fid) ?? input.names.dataSources.get(fid) ?? fid);
  if (filters) ctx.info(`filtered: ${filters}; scores and "no data" below are of this filter only`);
  const x = explain(item, input.cardsFor(id), input.names, input.asOf, input.options, withinDays);
  // Said on stderr in every format (a picture's line, a JSON field alone are easy to miss): values the local model does
  // not reproduce from the same entries and scorecards. The picture is the service's numbers all the same.
  if (!x.model.agrees) {
    const n = x.model.differences.length;
    ctx.warn(`the local model does not reproduce ${n === 1 ? 'a value' : `${n} values`} of this result from the same entries and scorecards (${x.model.differences.slice(0, 3).join('; ')}${n > 3 ? '; …' : ''}): the picture shows the service's values; srs score recompute lists them all`);
  }
  const ro = ctx.renderOptions();
  if (ctx.format === 'table' && !ro.fields && !ro.query) {
    const [{ glyphsFor }, { renderScorePicture }] = await Promise.all([import('../../output/bars.js'), import('../../output/score-picture.js')]);
    await ctx.sink.write(renderScorePicture(x, { glyphs: glyphsFor(ctx.env, opts.ascii === true), paint: ctx.paint, width: ctx.tableWidth() ?? 80, supplierName: await supplierName }));
    conflictsFail(ctx, x);
    return;
  }
  // Rows per parameter for csv, a table with --fields, and --fields in any format (its paths are a parameter row's:
  // in JSON they were applied to the explanation, and `--fields name,riskLevel` printed {} with exit 0); a --query
  // sees the explanation itself in every format (README: the query runs on the whole document before rendering).
  if ((ctx.format === 'csv' || ctx.format === 'table' || ro.fields) && !ro.query) {
    await renderList(ctx.sink, parameterRows(x), [{ path: 'supplierId', header: 'SUPPLIER' }, ...csvColumns], ro);
    conflictsFail(ctx, x);
    return;
  }
  await renderItem(ctx.sink, x, [], ro);
  conflictsFail(ctx, x);
}

/**
 * A result that lists a parameter or data source twice cannot be explained
 * (srs cannot tell which copy counts; check says unknown): each is a warning
 * naming it and every copy's score, and the command fails (exit 1) after the
 * picture, which shows none of the copies as the value.
 */
function conflictsFail(ctx: Context, x: Explanation): void {
  if (!x.conflicts.length) return;
  for (const c of x.conflicts) ctx.warn(`conflicting result: supplier ${x.supplierId}: ${c}; srs cannot tell which copy counts`);
  throw new SrsError('bad_response', ExitCode.failure, `unknown: the result for supplier ${x.supplierId} lists ${x.conflicts.length === 1 ? 'an item' : 'items'} more than once (above); nothing drawn from ${x.conflicts.length === 1 ? 'it' : 'them'} is its value (srs score calc ${x.supplierId} -o json shows what was sent)`);
}
