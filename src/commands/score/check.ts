/**
 * `srs score check`: the CI gate. Scores come from the service (ids) or offline
 * from a bundle (--from, verified first). Exit 0 when every supplier passes, 3
 * when any fails or is unknown, 2 on bad input (bad ids, an unknown
 * --min-parameter), 1 on errors. It fails closed: a supplier the service does
 * not know, one without data (unless --allow-no-data) and a rule that cannot be
 * evaluated all fail. Failing suppliers are listed on stderr one line each (and
 * as GitHub annotations under GITHUB_ACTIONS=true, and in the step summary when
 * GITHUB_STEP_SUMMARY is set); stdout carries the results.
 */
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { leftOutOf, type ScoreResult } from '../../api/contract.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { CheckFailedError, ExitCode, SrsError, UsageError } from '../../errors.js';
import type { Column } from '../../output/columns.js';
import { renderList } from '../../output/render.js';
import { oneLine } from '../../output/sanitize.js';
import { comparable, digitsToShow, scoreCell, expiresBeforeIssue, isOffScale, showNumber, todayUtc, type ScoreDifference } from '../../scoring/index.js';
import { isFailing } from '../../scoring/gate.js';
import type { BaselineValue } from './evaluate.js';
import { suggest } from '../../util/suggest.js';
import { optString, renderAfterWork, type Opts } from '../kit.js';
import { calculatedWith, checkBaselineFilters, checkFiltersMatch, checkFiltersStated, riskCell, riskRank, RISK_LEVELS_HELP, type BundleOptions } from './bundle.js';
import { calculate, checkFilterIds, classifyNoScore, DEFAULT_CONCURRENCY, filtersFrom, scorecardParameterIds, Missing } from './calc.js';
import { evaluate, missingFromRun, unknownResult, type CheckResult, type CheckRules } from './evaluate.js';
import { contractError, digestOfFile, pinEvidence, type EvidenceEvent } from './evidence.js';
import { gatherIds } from './ids.js';
import { checkNotAnInput, checkOutputFile, isStdout } from './paths.js';
import { filesNoOutputMayReplace } from '../protect.js';
import { annotationRunError, githubAnnotation, junitReport, junitRunError, markdownSummary, summaryRunError } from './junit.js';
import { acceptModelOption, decimalNumber, DEFAULT_TOLERANCE, finiteNumber, MAX_EXPIRING_DAYS, optionalNumber } from './options.js';
import { count } from '../../util/plural.js';

const minOption = finiteNumber('--min');
const expiringWithinOption = finiteNumber('--expiring-within');
const maxDropOption = finiteNumber('--max-drop', 0);

/**
 * A threshold too fine for the 9 decimals scores are compared with would be read as another one (--min 1e-10 as 0,
 * so a score of 0 passed it; 5e-10 as 1e-9): refused, naming what it would be read as. One that rounding moves by
 * less than a millionth of itself (0.5531914893617021, a score pasted in) is compared at 9 decimals, as documented.
 */
function atComparedPrecision(flag: string, v: number, given: unknown): number {
  const read = comparable(v);
  // 1e-400 is 0 once parsed (it underflows): the text given says whether a value other than 0 was meant.
  const meantNonZero = v === 0 && /[1-9]/.test(String(given).split('=').pop()!.replace(/e.*$/i, ''));
  if (meantNonZero || Math.abs(read - v) > Math.abs(v) * 1e-6) {
    throw new UsageError(`${flag} ${String(given)} has more decimals than the 9 that scores are compared with (it would be read as ${showNumber(read, 9)}): give at most 9 decimals`);
  }
  return v;
}

/** Where a bundle's scores came from (its header's service: null where it records none). */
export interface ServiceOf {
  baseUrl: string | null;
  account: string | null;
  /** false for a raw response or a format-1 bundle, whose null base URL does not tell the sandbox from "not recorded". */
  recorded?: boolean;
}
/** `digest`: the baseline file's content digest (null read from stdin, where it is known only at its end). */
type BaselineHeaderListener = (options: BundleOptions | null, service: ServiceOf, asOf: string | null, digest: string | null) => void;

/**
 * A baseline is compared with scores from the same service: one saved against another base URL is
 * refused (exit 2; its suppliers were all "new" and the gate passed having compared nothing). Another
 * key's fingerprint on the same service is only warned about: a rotated key of the same account looks
 * the same. Bundles that record no service (the sandbox, older bundles, raw responses) are not compared.
 */
export function checkBaselineService(baseline: ServiceOf, run: ServiceOf, what: string, warnings: string[]): void {
  // A bundle records null for the sandbox: a sandbox baseline against a real service (or the reverse) is another
  // service too, unless one of the two records nothing (a raw response, a format-1 bundle).
  const sandboxAndService = (baseline.baseUrl === null) !== (run.baseUrl === null);
  const another = sandboxAndService ? baseline.recorded !== false && run.recorded !== false : baseline.baseUrl !== run.baseUrl;
  if (another) {
    const where = (s: ServiceOf) => s.baseUrl ?? 'the sandbox';
    throw new UsageError(`${what} was calculated against ${where(baseline)}, this run's scores come from ${where(run)}: a baseline compares one service's scores over time; save one from this service (srs score calc ID... --save FILE)`);
  }
  if (baseline.account !== null && run.account !== null && baseline.account !== run.account) {
    warnings.push(`${what} was saved with another API key (fingerprint ${baseline.account}, this run ${run.account}): unless that key is a rotated key of the same account, its suppliers are another account's, so the drops below compare another account's scores with this one's`);
  }
}

/** A baseline without a digest or a recorded service (format 1, a raw response), taken with --allow-undigested, is used, but never silently. */
function warnUnrecordedBaseline(service: ServiceOf, opts: Opts, warnings: string[]): void {
  if (service.recorded !== false) return;
  warnings.push(`--baseline ${String(opts.baseline)} carries no digest and records no service (a format-1 bundle or a raw response), taken with --allow-undigested: whether it was altered, and which service its scores came from, cannot be checked`);
}

/** How a --baseline is verified: as a --from bundle is (--accept-model, --allow-undigested apply to both). */
export interface BaselineReading {
  acceptModel?: string | undefined;
  allowUndigested?: boolean;
}

/**
 * The baseline's overall scores (null: no data then), read as a stream from a
 * bundle of either format or a raw response, and verified in the same pass as
 * a `--from` bundle is: a digest is only proof that nothing changed after it
 * was written (anyone can recompute one), so a format-2 baseline is recomputed
 * from its own entries and scorecards. A baseline whose digest does not match,
 * whose end record counts other suppliers than it holds, whose values differ
 * from the recomputation, whose entries conflict, that leaves out a supplier it
 * asked for, or of another model version (unless --accept-model) fails the gate
 * (exit 3) rather than being compared with. One without a digest (format 1, a
 * raw response) is refused unless --allow-undigested, and is then used as
 * recorded. A supplier the baseline has no value for (an error record) or two
 * different values for cannot be compared: unknown (BaselineUnknown). A
 * baseline of no supplier is refused.
 */
export async function readBaseline(ctx: Context, file: string, onHeader: BaselineHeaderListener = () => undefined, reading: BaselineReading = {}): Promise<Map<string, BaselineValue>> {
  const baseline = new Map<string, BaselineValue>();
  const name = file === '-' ? 'stdin' : file;
  const pinned = await pinEvidence(file, '--baseline');
  const d = pinned?.regular ? await digestOfFile(ctx, file, '--baseline', pinned) : undefined;
  const { verifyEvidence } = await import('./recompute.js');
  const vo = {
    tolerance: DEFAULT_TOLERANCE,
    acceptModel: reading.acceptModel,
    allowUndigested: !!reading.allowUndigested,
    overrides: {},
    today: todayUtc(ctx.now()),
    digestFirst: d,
    pinned,
    what: `--baseline ${name}`,
    // The baseline's own notes (expiry before issue, inferred scores) are the run's business, not this gate's.
    warn: () => undefined,
  };
  const observe = (ev: EvidenceEvent): void => {
    // The digest, the end record and the count are the verifier's (verify.ts), as for a --from bundle: an altered
    // baseline is a finding below ("bundle altered"), before anything is compared.
    if (ev.t === 'header') onHeader(ev.options, { baseUrl: ev.baseUrl, account: ev.account, recorded: ev.format === 2 }, ev.asOf, d?.computed ?? null);
    if (ev.t === 'result') {
      const v: unknown = ev.item.score?.value;
      if (v !== null && v !== undefined && typeof v !== 'number') throw contractError(ev.item, `--baseline ${file} line ${ev.line}`) ?? new UsageError(`--baseline ${file} line ${ev.line}: the score is not a number`, { code: 'invalid_input' });
      const value = (v as number | null | undefined) ?? null;
      const had = baseline.get(ev.item.supplierId);
      // A value off the -3..+3 scale is no score to compare with (a baseline of -7 let any drop pass).
      if (isOffScale(value)) baseline.set(ev.item.supplierId, { unknown: `the baseline's score ${value} is outside the scale -3..+3 (line ${ev.line})` });
      else if (!baseline.has(ev.item.supplierId)) baseline.set(ev.item.supplierId, value);
      else if (had !== value) baseline.set(ev.item.supplierId, { unknown: `the baseline holds different results for it (line ${ev.line})` });
    } else if (ev.t === 'error') {
      baseline.set(ev.supplierId, { unknown: `the baseline has no score for it (${ev.code}: ${ev.message})` });
    }
  };
  const v = await verifyEvidence(ctx, file, vo, () => undefined, observe);
  // Evidence without a digest, taken with --allow-undigested, is used as recorded: anyone could have written its
  // values and entries alike, so a recomputation that differs (a raw response weighs every parameter 1) says nothing.
  const findings = v.findings().filter((f) => !(v.undigested && f.kind === 'differs'));
  if (findings.length) {
    for (const f of findings.slice(1)) ctx.stderr(`also: ${oneLine(f.message)}`);
    const first = findings[0]!;
    const { FINDING_TITLES } = await import('./verify.js');
    const head = first.kind === 'altered' ? `baseline altered: ${first.message.slice(`${FINDING_TITLES.altered}: `.length)}` : `baseline not verified: ${first.message}`;
    throw new CheckFailedError(`${head} (--baseline ${name}; nothing was compared)`);
  }
  if (baseline.size === 0) throw new SrsError('runtime', ExitCode.failure, `--baseline ${name} holds no supplier: there is nothing to compare with`);
  return baseline;
}

/** A --min-parameter for a parameter that the --policy-parameter filters (`kept`) leave out: exit 2, nothing checked. */
function checkMinParametersKept(rules: CheckRules, kept: readonly string[] | undefined): void {
  if (!kept?.length) return;
  const filteredOut = [...rules.minParameter.keys()].filter((id) => !kept.includes(id));
  if (filteredOut.length) {
    throw new UsageError(`--min-parameter ${filteredOut[0]} is not among the --policy-parameter filters of this run (${kept.join(', ')}): no score is calculated for it; add --policy-parameter ${filteredOut[0]} or drop the filters`);
  }
}

/** `item` with each value the verification recomputed (and found within the tolerance) in place of the reported one. */
function withRecomputed(item: ScoreResult, rows: readonly ScoreDifference[]): ScoreResult {
  const mine = new Map<string, number>();
  for (const r of rows) if (r.ok && typeof r.recomputed === 'number') mine.set(r.path, r.recomputed);
  if (!mine.size) return item;
  const value = (path: string, reported: number | null): number | null => mine.get(path) ?? reported;
  return {
    ...item,
    score: {
      ...item.score,
      value: value('value', item.score.value),
      dataSourcesScore: { ...item.score.dataSourcesScore, value: value('dataSourcesScore', item.score.dataSourcesScore.value) },
      policyParametersScore: { ...item.score.policyParametersScore, value: value('policyParametersScore', item.score.policyParametersScore.value) },
    },
    dataSourceScores: item.dataSourceScores.map((d) => ({ ...d, score: { ...d.score, value: value(`dataSources.${d.dataSourceId}`, d.score.value) } })),
    policyParameterScores: item.policyParameterScores.map((p) => ({ ...p, score: { ...p.score, value: value(`parameters.${p.policyParameterId}`, p.score.value) } })),
  };
}

/**
 * The check's rules from its flags. `onBaselineHeader` hears the filters the
 * --baseline was calculated with (null: no record), as soon as its header is
 * read, to refuse one calculated with other filters than this run's.
 */
export async function rulesFrom(ctx: Context, opts: Opts, asOf: string, onBaselineHeader?: BaselineHeaderListener): Promise<CheckRules> {
  const minParameter = new Map<string, number>();
  for (const spec of (opts.minParameter as string[] | undefined) ?? []) {
    // The first "=" ends the id (an id holds none): "ID=1=2" is a bad minimum, not parameter "ID=1" at 2.
    const m = /^([^=]+)=(.+)$/.exec(spec);
    const v = m ? decimalNumber(m[2]!) : NaN;
    if (!m || !Number.isFinite(v)) throw new UsageError(`--min-parameter takes ID=N, e.g. 01fb6pb5wmkmq6pdyqas1n2k3m=1.5 (got "${spec}")`);
    atComparedPrecision('--min-parameter', v, spec);
    const id = m[1]!.trim();
    const before = minParameter.get(id);
    // Two minimums for one parameter: which one was meant nobody can tell (the last used to win, the looser one too).
    if (before !== undefined && before !== v) throw new UsageError(`--min-parameter ${id} is given twice, with ${before} and ${v}: give one minimum per parameter`);
    minParameter.set(id, v);
  }
  const rules: CheckRules = { minParameter, allowNoData: !!opts.allowNoData, asOf, expiryFrom: asOf };
  const min = optionalNumber(opts.min, minOption);
  if (min !== undefined) rules.min = atComparedPrecision('--min', min, opts.min);
  if (typeof opts.maxRisk === 'string') {
    if (riskRank(opts.maxRisk) === undefined) throw new UsageError(`--max-risk must be a risk level: ${RISK_LEVELS_HELP} (got "${opts.maxRisk}")`);
    rules.maxRisk = opts.maxRisk;
  }
  if (opts.expiringWithin !== undefined) {
    const d = expiringWithinOption(opts.expiringWithin);
    if (!Number.isInteger(d) || d < 0 || d > MAX_EXPIRING_DAYS) throw new UsageError(`--expiring-within takes a whole number of days from 0 to ${MAX_EXPIRING_DAYS} (got "${String(opts.expiringWithin)}")`);
    rules.expiringWithinDays = d;
  }
  const maxDrop = optionalNumber(opts.maxDrop, maxDropOption);
  if (maxDrop !== undefined) atComparedPrecision('--max-drop', maxDrop, opts.maxDrop);
  if ((maxDrop === undefined) !== (opts.baseline === undefined)) throw new UsageError('--baseline FILE and --max-drop N go together');
  if (opts.baselineStrict && opts.baseline === undefined) throw new UsageError('--baseline-strict needs --baseline FILE and --max-drop N');
  if (maxDrop !== undefined && typeof opts.baseline === 'string') {
    rules.baseline = await readBaseline(ctx, opts.baseline, onBaselineHeader, { acceptModel: acceptModelOption(opts.acceptModel), allowUndigested: !!opts.allowUndigested });
    rules.maxDrop = maxDrop;
  }
  // --require-score is accepted for old pipelines: failing on no score is the default now. With --allow-no-data it
  // asks for the opposite, and alone with it the gate ran no rule at all and passed a supplier without a score.
  if (opts.requireScore && opts.allowNoData) throw new UsageError('--require-score and --allow-no-data contradict each other (a supplier without a score fails, or passes): give one of them');
  if (rules.min === undefined && !minParameter.size && rules.maxRisk === undefined && rules.expiringWithinDays === undefined && !rules.baseline && !opts.requireScore) {
    throw new UsageError('no threshold given: use --min, --min-parameter, --max-risk, --expiring-within, --baseline with --max-drop, or --require-score');
  }
  return rules;
}

/**
 * --min-parameter ids that no scorecard of the run contains and no result
 * scores are almost certainly typos: a usage error naming them, with the
 * closest known id. (Checked after the scores are in: a parameter the service
 * scores outside every scorecard is still a real one.)
 */
function checkParameterIds(rules: CheckRules, known: Set<string>): void {
  const unknown = [...rules.minParameter.keys()].filter((id) => !known.has(id));
  if (!unknown.length) return;
  const first = unknown[0]!;
  throw new UsageError(
    `--min-parameter: ${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} in no scorecard of this run and scored for no supplier${suggest(first, known)}; srs scorecards get ID lists a scorecard's parameters with their ids (srs scorecards ls gives the scorecard ids)`,
  );
}

const parametersOf = (item: ScoreResult, into: Set<string>) => {
  for (const p of item.policyParameterScores ?? []) into.add(p.policyParameterId);
};

/**
 * The table's columns: SCORE with two decimals, or as many as it takes to read the verdict right beside
 * --min ("0.50 FAIL" for a score of 0.4957 under --min 0.496 looked like a pass).
 */
/**
 * The more exact of two spellings of one score: the decimals that make the verdict against --min visible, or
 * those every score table shows (scoreCell, enough for the label): 0.496 read "0.50" here and "0.496" in calc.
 */
const atLeastAsExact = (a: string, b: string): string => ((b.split('.')[1]?.length ?? 0) > (a.split('.')[1]?.length ?? 0) ? b : a);

function columnsFor(rules: CheckRules): Column[] {
  const min = rules.min;
  return columns.map((c) =>
    c.path === 'score' && min !== undefined ? { ...c, format: (v: unknown) => (typeof v === 'number' ? atLeastAsExact(scoreCell(v), v.toFixed(digitsToShow(v, min))) : '—') } : c,
  );
}

const columns: Column[] = [
  { path: 'supplierId', header: 'SUPPLIER', kind: 'id' },
  { path: 'status', header: 'STATUS', format: (v) => String(v).toUpperCase(), kind: 'state' },
  { path: 'score', header: 'SCORE', align: 'right', format: scoreCell, kind: 'number' },
  { path: 'riskLevel', header: 'RISK', format: (v, row) => riskCell(v, (row as CheckResult).riskRecognised), kind: 'state' },
  // CSV keeps the level as sent beside whether srs can rank it, as calc's and explain's CSV do (the table marks it).
  { path: 'riskRecognised', header: 'RISK RECOGNISED', kind: 'state', csvOnly: true },
  // Joined as text in a table whatever a reason holds (the generic list cell turned a list with a ";" into JSON).
  { path: 'reasons', header: 'REASONS', kind: 'text', format: (v) => (Array.isArray(v) ? v.join('; ') : '') },
];

/** Entries whose expiry date is before their issue date: they never count (EXPIRY_BEFORE_ISSUE), and the user hears of it. */
function invertedWindows(item: ScoreResult, out: string[]): void {
  const seen = new Set<string>();
  const look = (e: { id: string; issueDate?: string | null | undefined; expiryDate?: string | null | undefined }) => {
    if (!seen.has(e.id) && expiresBeforeIssue(e.issueDate, e.expiryDate)) {
      seen.add(e.id);
      out.push(`supplier ${item.supplierId}: entry ${e.id} expires (${e.expiryDate}) before it is issued (${e.issueDate}); it never counts`);
    }
  };
  for (const ds of item.dataSourceScores ?? []) for (const e of ds.dataPoints.dataEntries) look(e);
  for (const p of item.policyParameterScores ?? []) for (const e of p.dataPoints.dataEntries) look(e);
}

async function fromService(ctx: Context, args: string[], opts: Opts, results: CheckResult[], warnings: string[]): Promise<CheckRules> {
  // Every usage error that can be found without the service surfaces before anything is sent.
  const ids = await gatherIds(ctx, args, opts.idsFile);
  const filters = filtersFrom(opts);
  // A baseline calculated with other filters than this run's answers another question: refused before anything is sent.
  let baselineService: ServiceOf | undefined;
  const rules = await rulesFrom(ctx, opts, todayUtc(ctx.now()), (o, service) => {
    checkBaselineFilters(o, calculatedWith(filters), `--baseline ${String(opts.baseline)}`);
    baselineService = service;
    warnUnrecordedBaseline(service, opts, warnings);
  });
  // A minimum for a parameter this run's own --policy-parameter filter leaves out could never be checked
  // (with --allow-no-data it passed having evaluated nothing): refused before anything is sent.
  checkMinParametersKept(rules, filters.policyParameterIds);
  const client = await ctx.client();
  // A filter naming nothing the service has leaves every supplier without data, and with --allow-no-data the
  // gate passed having evaluated nothing: each filter id must be a data source, or a parameter of a scorecard.
  // Read once per run, for the filters and for --min-parameter alike.
  let parameters: Promise<Set<string>> | undefined;
  const serviceParameters = () => (parameters ??= scorecardParameterIds(client));
  await checkFilterIds(client, filters, serviceParameters);
  const target = await ctx.target();
  rules.source = target.baseUrl === 'sandbox' ? "the sandbox (made-up data)" : target.baseUrl;
  if (baselineService) {
    const run: ServiceOf = target.baseUrl === 'sandbox' ? { baseUrl: null, account: null } : { baseUrl: target.baseUrl, account: target.account };
    checkBaselineService(baselineService, run, `--baseline ${String(opts.baseline)}`, warnings);
  }
  const missing = new Missing();
  const { items } = await ctx.withSpinner(`Calculating scores for ${count(ids.length, 'supplier')}…`, () => calculate(client, ids, filters, DEFAULT_CONCURRENCY, missing, (m) => warnings.push(m)));
  if (rules.minParameter.size) {
    const known = new Set<string>();
    for (const it of items) parametersOf(it, known);
    if ([...rules.minParameter.keys()].some((id) => !known.has(id))) {
      for (const id of await serviceParameters()) known.add(id);
      checkParameterIds(rules, known);
    }
  }
  const noResult = await classifyNoScore(client, items, DEFAULT_CONCURRENCY);
  for (const item of items) {
    const why = noResult.get(item.supplierId);
    results.push(why ? unknownResult(item.supplierId, why.message) : evaluate(item, rules));
    invertedWindows(item, warnings);
  }
  for (const [id, why] of missing) results.push(unknownResult(id, why));
  return rules;
}

async function fromBundle(ctx: Context, file: string, opts: Opts, results: CheckResult[], warnings: string[]): Promise<CheckRules> {
  const [{ verifyEvidence, verifyOptions }] = await Promise.all([import('./recompute.js')]);
  const what = file === '-' ? 'stdin' : file;
  // The baseline's filters are compared with the bundle's when its header is read (this run's scores are the bundle's).
  let baselineOptions: BundleOptions | null | undefined;
  let baselineService: ServiceOf | undefined;
  let baselineAsOf: string | null = null;
  let baselineDigest: string | null = null;
  const today = todayUtc(ctx.now());
  const rules = await rulesFrom(ctx, opts, today, (o, service, asOf, digest) => {
    baselineOptions = o;
    baselineService = service;
    baselineAsOf = asOf;
    baselineDigest = digest;
    warnUnrecordedBaseline(service, opts, warnings);
  });
  const verify = opts.verify !== false;
  const vo = await verifyOptions(ctx, file, opts, what);
  // A copy of the bundle given as the baseline (the same file is said in run()): every score compared with itself.
  const sameContent = baselineDigest as string | null; // set by the listener above, which the compiler does not follow
  if (sameContent !== null && vo.digestFirst?.computed === sameContent && !warnings.some((w) => w.includes('is the --from bundle itself'))) {
    warnings.push(`--baseline ${String(opts.baseline)} holds the same content as ${what} (the same digest): every score is compared with itself, so --max-drop can find no drop; give an earlier bundle as the baseline`);
  }
  // Under verification an altered, undigested or other-model bundle stops at its header (verifyEvidence).
  if (verify) vo.stopAtHeader = 'nothing was checked (score check --from verifies the bundle first)';
  // Warnings go where every other warning of the check goes: stderr and the step summary.
  vo.warn = (m) => warnings.push(m);
  const seen = new Set<string>();
  const filters = filtersFrom(opts);
  const v = await verifyEvidence(
    ctx,
    file,
    vo,
    (item, rows, verifier) => {
      rules.asOf = verifier.asOf;
      parametersOf(item, seen);
      // Verified, the gate takes srs's own recomputation: a value nudged within the tolerance (1e-9) verified and
      // yet crossed a threshold that the reported value is compared with at 9 decimals.
      // What srs left out of the result is known of the item read, not of the copy with recomputed values.
      results.push(evaluate(verify ? withRecomputed(item, rows) : item, rules, leftOutOf(item)));
      // Inverted validity windows are warned about by verifyEvidence itself (from the model's warnings).
    },
    // Filters the bundle was not calculated with would be silently ignored: refused at its header.
    (ev) => {
      if (ev.t !== 'header') return;
      describeBundle(ctx, ev, what, today, rules, warnings);
      checkFiltersMatch(ev.options, filters, what);
      if (baselineOptions !== undefined) checkBaselineFilters(baselineOptions, calculatedWith(ev.options ?? filters), `--baseline ${String(opts.baseline)}`);
      if (baselineService) checkBaselineService(baselineService, { baseUrl: ev.baseUrl, account: ev.account, recorded: ev.format === 2 }, `--baseline ${String(opts.baseline)}`, warnings);
      checkFiltersStated(ev.options, filters, what, `srs score check --from ${file === '-' ? '-' : file}`);
      // As online: a minimum for a parameter the bundle's calculation left out could never be checked.
      checkMinParametersKept(rules, ev.options?.policyParameterIds);
    },
  );
  rules.asOf = v.asOf;
  // Swapped files (--from the old bundle, --baseline the new one): every drop reads as a rise.
  const baselineDate = baselineAsOf as string | null; // set by the listener above, which the compiler does not follow
  if (baselineDate !== null && baselineDate > v.asOf) {
    warnings.push(`the baseline ${String(opts.baseline)} (as of ${baselineDate}) is newer than the scores checked (${what}, as of ${v.asOf}): --max-drop measures from the later to the earlier; were the two files swapped?`);
  }
  for (const [id, message] of v.errors) results.push(unknownResult(id, message));
  const findings = v.findings();
  if (verify && findings.length) {
    for (const w of warnings) ctx.warn(w);
    for (const f of findings.slice(1)) ctx.stderr(`also: ${oneLine(f.message)}`);
    throw new CheckFailedError(`${findings[0]!.message} (score check --from verifies the bundle first; nothing was checked)`);
  }
  if (!verify) {
    warnings.push(`--no-verify: ${what} was not verified (digest, model version, completeness, recomputation); its values are taken as they are`);
    // Even unverified, a supplier the bundle's own requests name and that it holds nothing for was not evaluated: a
    // bundle cut short (head -8 of 20 suppliers) passed on the 2 left, exit 0.
    for (const id of v.unanswered()) results.push(unknownResult(id, `the bundle's requests name it, but it holds neither a result nor a recorded error for it (cut short or edited?): not evaluated`));
    // Cut at a batch's boundary, the lost suppliers' requests are gone too: no id to name, but not a pass.
    if (v.cutShort) {
      for (const w of warnings) ctx.warn(w);
      throw new CheckFailedError(`${what} is not whole: ${v.cutShort}; suppliers it lost were not evaluated, so nothing was checked, even under --no-verify (save the evidence again with score calc --save)`);
    }
  }
  if (rules.minParameter.size) {
    for (const id of v.parameterIds()) seen.add(id);
    checkParameterIds(rules, seen);
  }
  return rules;
}

/**
 * What a --from bundle's header says about the scores the gate is about to pass or fail, said where CI shows it
 * (stderr, the step summary, JUnit): their date when it is not today (a year-old bundle passed with "as of" alone to
 * tell), the sandbox's made-up data, and that verification recomputes values from the bundle's own inputs, so the
 * rules that read inputs only (risk levels, expiry dates) rest on what the bundle records.
 */
function describeBundle(ctx: Context, ev: Extract<EvidenceEvent, { t: 'header' }>, what: string, today: string, rules: CheckRules, warnings: string[]): void {
  const sandbox = ev.format === 2 && ev.baseUrl === null;
  const service = sandbox ? 'the sandbox (made-up data)' : ev.baseUrl ?? 'a service it does not record';
  rules.source = `${what} (calculated against ${service})`;
  if (sandbox && !ctx.sandbox) warnings.push(`${what} holds the sandbox's scores (calculated with --sandbox, on made-up data), not a service's`);
  const asOf = ev.asOf;
  if (asOf && asOf < today) {
    const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${asOf}T00:00:00Z`)) / 86_400_000);
    warnings.push(`${what} holds scores as of ${asOf}, ${count(days, 'day')} before today: the gate checks those scores, not today's${rules.expiringWithinDays !== undefined ? ' (--expiring-within counts from today)' : ''}; srs score calc ID... --save FILE saves today's`);
  }
  const inputsOnly = [rules.maxRisk !== undefined && '--max-risk', rules.expiringWithinDays !== undefined && '--expiring-within'].filter((o): o is string => !!o);
  if (inputsOnly.length) {
    warnings.push(`${inputsOnly.join(' and ')} read${inputsOnly.length > 1 ? '' : 's'} ${inputsOnly.length > 1 ? 'risk levels and expiry dates' : rules.maxRisk !== undefined ? 'risk levels' : 'expiry dates'} as ${what} records them: verification recomputes the values from the bundle's own entries, not these (a digest is not a signature); srs score check ID... reads them from the service`);
  }
}

/** Whether two paths name one file (the same device and inode); false when either cannot be read (said later, when read). */
function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** Appends to GITHUB_STEP_SUMMARY when it is set; a file that cannot be written only warns (the verdict stands). */
function appendStepSummary(ctx: Context, markdown: string): void {
  const file = ctx.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    // Published on the run's page: masked as stdout is (a key in the base URL's path reached it in full).
    appendFileSync(file, ctx.redact(markdown) + '\n');
  } catch (e) {
    ctx.warn(`could not append the step summary to GITHUB_STEP_SUMMARY (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Writes the --junit file; a failure is one line naming the file (a full disk was "unexpected error: ENOSPC"). */
function writeJunit(file: string, xml: string): void {
  try {
    writeFileSync(file, xml);
  } catch (e) {
    throw new SrsError('runtime', ExitCode.failure, `could not write --junit ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** The JUnit file, step summary and annotation of a check that could not evaluate (see junitRunError). */
function reportRunError(ctx: Context, opts: Opts, message: string, started: number): void {
  const text = ctx.redact(oneLine(message));
  if (typeof opts.junit === 'string') {
    try {
      writeJunit(opts.junit, junitRunError(text, { timestamp: ctx.now().toISOString(), seconds: (performance.now() - started) / 1000 }));
    } catch (e) {
      ctx.warn((e as Error).message);
    }
  }
  // Whatever stopped the check (a usage error found once the run had started too): JUnit, the step summary and the
  // annotation say the same, as CI shows each in its own place (a usage error wrote JUnit alone).
  appendStepSummary(ctx, summaryRunError(text));
  if (ctx.env.GITHUB_ACTIONS === 'true') ctx.io.stderr.write(annotationRunError(text) + '\n');
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const started = performance.now();
  const results: CheckResult[] = [];
  const warnings: string[] = [];
  const inputs = { '--from': optString(opts.from), '--baseline': optString(opts.baseline), '--ids-file': optString(opts.idsFile) };
  // An empty path named nothing: said as such (it was ": cannot read  (no such file)").
  for (const [option, path] of Object.entries(inputs)) if (path === '') throw new UsageError(`${option}: empty path; name the file to read (or - for stdin)`);
  // A bundle checked against itself as its own baseline: --max-drop compares every score with itself and passes,
  // which is said (it passed in silence).
  if (inputs['--from'] && inputs['--baseline'] && inputs['--from'] !== '-' && sameFile(inputs['--from'], inputs['--baseline'])) {
    warnings.push(`--baseline ${inputs['--baseline']} is the --from bundle itself: every score is compared with itself, so --max-drop can find no drop; give an earlier bundle as the baseline`);
  }
  const summary = ctx.env.GITHUB_STEP_SUMMARY;
  const kept = typeof opts.junit === 'string' || summary ? await filesNoOutputMayReplace(ctx) : [];
  if (typeof opts.junit === 'string') {
    checkOutputFile('--junit', opts.junit, false, true);
    checkNotAnInput('--junit', opts.junit, inputs, kept);
  }
  if (summary) {
    checkNotAnInput('GITHUB_STEP_SUMMARY', summary, inputs, kept, { '--junit': optString(opts.junit) });
    // Appended after the results, it made -o json unreadable: the summary goes to a file of its own.
    if (isStdout(summary)) throw new UsageError(`GITHUB_STEP_SUMMARY=${summary} is srs's standard output, which carries the results: point it at a file, or unset it`);
  }
  // Until the verdict is written, the JUnit file says the check has not finished: a run that is cancelled or
  // killed (a CI timeout), or stopped by a usage error, must not leave an earlier run's passing report in place.
  if (typeof opts.junit === 'string') writeJunit(opts.junit, junitRunError('the check did not finish (it was stopped, or is still running)', { timestamp: ctx.now().toISOString(), seconds: 0 }));
  // stdin can be read once: two options on it ("--from - --baseline -") read it empty the second time.
  const onStdin = (['from', 'baseline', 'idsFile'] as const).filter((k) => opts[k] === '-').map((k) => `--${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`);
  if (onStdin.length > 1) throw new UsageError(`${onStdin.join(' and ')} both read stdin, which can be read once: give all but one of them as a file`);
  let rules: CheckRules;
  try {
    if (typeof opts.from === 'string') {
      if (args.length || opts.idsFile !== undefined) throw new UsageError('--from checks a saved bundle offline; do not also give supplier ids');
      rules = await fromBundle(ctx, opts.from, opts, results, warnings);
    } else {
      // Options of a bundle's verification, given without a bundle: refused, not ignored. A --baseline is verified as
      // a --from bundle is, so --accept-model and --allow-undigested apply to it too; --no-verify does not.
      if (opts.verify === false) throw new UsageError('--no-verify applies to --from BUNDLE only (a --baseline is always verified)');
      const given = [opts.acceptModel !== undefined && '--accept-model', opts.allowUndigested !== undefined && '--allow-undigested'].filter((o) => o !== false);
      if (given.length && opts.baseline === undefined) throw new UsageError(`${given.join(' and ')} ${given.length > 1 ? 'apply' : 'applies'} to --from BUNDLE or --baseline FILE only`);
      rules = await fromService(ctx, args, opts, results, warnings);
    }
  } catch (e) {
    // A check that could not evaluate still reports, where CI looks: JUnit, the step summary, an annotation.
    if (e instanceof SrsError) reportRunError(ctx, opts, e.message, started);
    throw e;
  }

  if (rules.baseline) {
    const inRun = new Set(results.map((r) => r.supplierId));
    if (results.length && !results.some((r) => rules.baseline!.has(r.supplierId))) {
      warnings.push(`no supplier of this run is in the baseline ${String(opts.baseline)}: --max-drop compared nothing (every supplier is new)`);
    }
    const gone = [...rules.baseline.keys()].filter((id) => !inRun.has(id));
    if (gone.length && opts.baselineStrict) for (const id of gone) results.push(missingFromRun(id, rules.baseline.get(id) ?? null));
    else if (gone.length) warnings.push(`${count(gone.length, 'supplier')} of the baseline ${gone.length === 1 ? 'is' : 'are'} not in this run (${gone.slice(0, 5).join(', ')}${gone.length > 5 ? ', …' : ''}); --baseline-strict fails on this`);
  }

  // Nothing evaluated is not a pass (an empty bundle): said before any table or summary.
  if (!results.length) {
    const message = `nothing was checked: ${typeof opts.from === 'string' ? `${opts.from === '-' ? 'stdin' : opts.from} holds no supplier` : 'no supplier was scored'}; save scores with srs score calc ID... --save FILE`;
    reportRunError(ctx, opts, message, started);
    throw new SrsError('runtime', ExitCode.failure, message);
  }
  // A --query that fails on the results does not stand in for the verdict (it was exit 2, "not evaluated", in the
  // JUnit file too): the results are printed without it, and the verdict, the summary and JUnit follow as always.
  const queryProblem = await renderAfterWork(ctx, 'the results are', (ro) => renderList(ctx.sink, results, columnsFor(rules), ro));

  const failing = results.filter((r) => isFailing(r.status));
  for (const r of results) {
    // Ids and reasons carry the service's (or a bundle's) strings: one line each, whatever they hold.
    const why = oneLine(r.reasons.join('; '));
    if (r.status === 'fail') ctx.stderr(`FAIL ${oneLine(r.supplierId)}: ${why}`);
    else if (r.status === 'unknown') ctx.stderr(`UNKNOWN ${oneLine(r.supplierId)}: ${why}`);
    else if (r.status === 'no data') ctx.stderr(`NO DATA ${oneLine(r.supplierId)}: ${why} (accepted with --allow-no-data)`);
    else if (r.status === 'new') ctx.stderr(`NEW ${oneLine(r.supplierId)}: not in the baseline (passes)`);
  }
  const shownWarnings = warnings.length > 20 ? [...warnings.slice(0, 20), `… and ${count(warnings.length - 20, 'more warning')}`] : warnings;
  for (const w of shownWarnings) ctx.warn(w);
  // Reasons and ids carry the service's (or a bundle's) strings, which may hold the key sent back: masked before the
  // annotations, the step summary and JUnit escape them (an escaped key, %3A or \_ or &quot;, no longer matches).
  const masked = results.map((r) => ({ ...r, supplierId: ctx.redact(r.supplierId), riskLevel: r.riskLevel === null ? null : ctx.redact(r.riskLevel), reasons: r.reasons.map((x) => ctx.redact(x)) }));
  if (ctx.env.GITHUB_ACTIONS === 'true') for (const r of masked) if (isFailing(r.status)) ctx.io.stderr.write(githubAnnotation(r) + '\n');
  appendStepSummary(ctx, markdownSummary(masked, { asOf: rules.asOf, ...(rules.source ? { source: ctx.redact(rules.source) } : {}), warnings: shownWarnings.map((w) => ctx.redact(w)) }));
  let junitProblem: string | undefined;
  if (typeof opts.junit === 'string') {
    try {
      const properties: Array<[string, string]> = [['asOf', rules.asOf], ...(rules.source ? [['source', ctx.redact(rules.source)] as [string, string]] : []), ...shownWarnings.map((w) => ['warning', ctx.redact(oneLine(w))] as [string, string])];
      writeJunit(opts.junit, junitReport(masked, { timestamp: ctx.now().toISOString(), seconds: (performance.now() - started) / 1000, properties }));
    } catch (e) {
      junitProblem = (e as Error).message;
    }
  }
  const withStatus = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  ctx.info(
    `checked ${count(results.length, 'supplier')} as of ${rules.asOf}: ${withStatus('pass') + withStatus('new')} passed (${withStatus('new')} new), ${withStatus('fail')} failed, ${withStatus('unknown')} unknown, ${withStatus('no data')} without data (accepted)`,
  );
  // A verdict CI cannot read is not a pass: the results above stand, the exit is 1 (3 if the check failed).
  if (junitProblem !== undefined && !failing.length) throw new SrsError('runtime', ExitCode.failure, junitProblem);
  if (junitProblem !== undefined) ctx.warn(junitProblem);
  if (failing.length) {
    const failed = withStatus('fail');
    const unknown = failing.length - failed;
    const what = [failed ? `${failed} failed` : '', unknown ? `${unknown} could not be evaluated (unknown)` : ''].filter(Boolean).join(' and ');
    throw new CheckFailedError(`${what}, of ${count(results.length, 'supplier')} checked: the score check did not pass`);
  }
  if (queryProblem) throw queryProblem.afterTheWork(`the score check passed`);
}
