/**
 * `srs score recompute FILE|-`: re-derives every aggregate of a saved bundle
 * (or a raw response plus --scorecards) with the local model, offline, as a
 * stream. Never creates a client: no network access at all. With --verify the
 * evidence must also be intact (digest), from this model (--accept-model),
 * complete and free of conflicting entries; see verify.ts.
 */
import type { ScoreResult, Scorecard } from '../../api/contract.js';
import { Scorecard as ScorecardSchema, describeZodError } from '../../api/contract.js';
import type { Context } from '../../context.js';
import { CheckFailedError, ExitCode, SrsError, UsageError } from '../../errors.js';
import { renderList } from '../../output/render.js';
import { oneLine } from '../../output/sanitize.js';
import type { Column } from '../../output/columns.js';
import { todayUtc, type ScoreDifference, type ScoringScorecard } from '../../scoring/index.js';
import * as z from 'zod/mini';
import { readJsonInput, type Opts } from '../kit.js';
import { describeFilters, scoringOverrides, toScoringScorecard, type ScoringOverrides } from './bundle.js';
import { digestOfFile, pinEvidence, readEvidence, sameAsPinned, type EvidenceEvent } from './evidence.js';
import { acceptModelOption, DEFAULT_TOLERANCE, finiteNumber } from './options.js';
import { count } from '../../util/plural.js';
import { EvidenceVerifier, type VerifyOptions } from './verify.js';

export { DEFAULT_TOLERANCE };

const ScorecardsInput = z.union([z.array(ScorecardSchema), z.record(z.string(), z.array(ScorecardSchema))]);

/** --scorecards for a raw response: an array for everyone, or {supplierId: [...]}. */
export async function rawScorecards(ctx: Context, opts: Opts): Promise<((id: string) => ScoringScorecard[]) | undefined> {
  if (typeof opts.scorecards !== 'string') return undefined;
  const r = ScorecardsInput.safeParse(await readJsonInput(ctx, opts.scorecards, '--scorecards'));
  if (!r.success) throw new UsageError(`--scorecards: expected {supplierId: [scorecards]} or a JSON array of the scorecards that apply to every supplier (srs scorecards ls --supplier ID -o json): ${describeZodError(r.error)}`, { code: 'invalid_input' });
  const data = r.data;
  if (Array.isArray(data)) {
    const all = data.map((c: Scorecard) => toScoringScorecard(c));
    return () => all;
  }
  const map = new Map(Object.entries(data).map(([k, v]) => [k, v.map((c) => toScoringScorecard(c))]));
  return (id) => map.get(id) ?? [];
}

/**
 * The verifier's options from the flags shared by recompute and check --from:
 * --as-of, --claim-weight, --mode (checked before anything is read),
 * --tolerance, --accept-model, --allow-undigested, --scorecards. For a file,
 * the digest is computed first, in a pass of its own.
 */
export async function verifyOptions(ctx: Context, file: string, opts: Opts, what: string): Promise<VerifyOptions> {
  const overrides = scoringOverrides(opts);
  const tolerance = parseTolerance(opts.tolerance);
  const raw = await rawScorecards(ctx, opts);
  // A regular file is held open and read twice from that one open file; stdin, a FIFO or <(...) once, hashed as read.
  const pinned = await pinEvidence(file, what);
  const digestFirst = pinned?.regular ? await digestOfFile(ctx, file, what, pinned) : undefined;
  return {
    tolerance,
    acceptModel: acceptModelOption(opts.acceptModel),
    overrides,
    today: todayUtc(ctx.now()),
    rawScorecards: raw,
    digestFirst,
    pinned,
    allowUndigested: !!opts.allowUndigested,
    what: file === '-' ? 'stdin' : file,
  };
}

/**
 * Reads and verifies evidence as a stream, calling `onResult` with each
 * supplier's result and its compared values, and `onError` with each
 * recorded error. `observe` sees every record first (score explain and
 * report keep the scorecards and results). Returns the verifier, whose
 * findings are complete.
 */
export async function verifyEvidence(
  ctx: Context,
  file: string,
  vo: VerifyOptions,
  onResult: (item: ScoreResult, rows: ScoreDifference[], verifier: EvidenceVerifier) => void | Promise<void>,
  observe?: (ev: EvidenceEvent) => void,
): Promise<EvidenceVerifier> {
  const v = new EvidenceVerifier(vo);
  let sawRaw = false;
  // Whether the file stayed as it was while read (a regular file, opened once for both passes).
  let unchanged = true;
  try {
    for await (const ev of readEvidence(ctx, file, vo.what, { digest: !vo.digestFirst, pinned: vo.pinned })) {
      observe?.(ev);
      switch (ev.t) {
        case 'header': {
          v.header(ev);
          const early = vo.stopAtHeader === undefined ? [] : v.findings();
          if (early.length) {
            for (const f of early.slice(1)) ctx.stderr(`also: ${oneLine(f.message)}`);
            throw new CheckFailedError(`${early[0]!.message}; ${vo.stopAtHeader}`);
          }
          if (ev.format === 'response' && !vo.rawScorecards) sawRaw = true;
          break;
        }
        case 'request':
          v.request(ev.request.supplierIds);
          break;
        case 'scorecard':
          v.scorecard(ev.scorecard);
          break;
        case 'result':
          await onResult(ev.item, v.result(ev.item, ev.scorecards).rows, v);
          break;
        case 'error':
          v.error(ev.supplierId, ev.message);
          break;
        case 'end':
          v.end(ev);
          break;
      }
    }
  } finally {
    // Closed however the reading ended (a finding at the header throws): an open FileHandle left to the garbage
    // collector prints a warning.
    if (vo.pinned?.regular) {
      unchanged = sameAsPinned(vo.pinned);
      await vo.pinned.handle.close();
    }
  }
  // The bytes read for the records must be the bytes whose digest was checked first.
  if (!unchanged) throw new SrsError('runtime', ExitCode.failure, `${vo.what} changed while srs read it (its size or modification time is not what it was): nothing in it is verified; read it again when nothing writes to it`);
  const warn = vo.warn ?? ((m: string) => ctx.warn(m));
  // Taken without a digest: never "verified" as if its integrity had been checked (the report listed "digest" as checked).
  if (v.undigested) warn(`${vo.what} is ${v.undigested}, without a digest: taken with --allow-undigested, so whether it was altered is not known`);
  if (sawRaw) warn('a raw response without --scorecards: parameter weights are unknown, so every scored parameter weighs 1');
  if (v.warnings) warn(`${count(v.warnings, 'warning')} about the entries: ${v.warningExamples.join('; ')}${v.warnings > v.warningExamples.length ? '; …' : ''}`);
  return v;
}

/**
 * Four decimals, or as many as it takes (up to 12) for a row that does not agree to show two different
 * numbers: a value 1e-7 off printed "-0.2516  -0.2516  -0.0000  NO".
 */
function digitsFor(row: unknown): number {
  const r = row as { reported?: unknown; recomputed?: unknown; ok?: unknown } | undefined;
  if (!r || r.ok !== false || typeof r.reported !== 'number' || typeof r.recomputed !== 'number') return 4;
  for (let d = 4; d < 12; d++) if (r.reported.toFixed(d) !== r.recomputed.toFixed(d)) return d;
  return 12;
}
const fmt = (v: unknown, row: unknown) => (typeof v === 'number' ? v.toFixed(digitsFor(row)) : v === null || v === undefined ? '—' : String(v));
/** A difference too small for four decimals is written as such (1.0e-7), never as -0.0000. */
const fmtDelta = (v: unknown, row: unknown) => (typeof v === 'number' && v !== 0 && Math.abs(v) < 5e-5 ? v.toExponential(1) : fmt(v, row));
const columns: Column[] = [
  // Too wide with the supplier in every row (80 columns): its rows go under a "SUPPLIER id" line.
  { path: 'supplierId', header: 'SUPPLIER', kind: 'id', hideIfConstant: true, group: true },
  { path: 'path', header: 'VALUE', kind: 'code' },
  { path: 'reported', header: 'REPORTED', align: 'right', format: fmt, kind: 'number' },
  { path: 'recomputed', header: 'RECOMPUTED', align: 'right', format: fmt, kind: 'number' },
  { path: 'delta', header: 'DELTA', align: 'right', format: fmtDelta, kind: 'number', hide: 1 },
  { path: 'ok', header: 'OK', format: (v) => (v ? 'yes' : 'NO'), kind: 'state' },
];

// At most 0.5: a tolerance of 6 passed any value of the -3..+3 scale as "verified".
const toleranceOption = finiteNumber('--tolerance', 0, 0.5);

export function parseTolerance(v: unknown): number {
  return v === undefined ? DEFAULT_TOLERANCE : toleranceOption(v);
}

/** Rows for the renderer as the verifier produces them, through a small queue (the reader runs ahead at most one supplier). */
async function* rowsOf(
  start: (push: (rows: Array<ScoreDifference & { supplierId: string }>) => Promise<void>) => Promise<EvidenceVerifier>,
  out: { verifier?: EvidenceVerifier },
): AsyncGenerator<ScoreDifference & { supplierId: string }> {
  let wake: (() => void) | undefined;
  let resume: (() => void) | undefined;
  let queue: Array<ScoreDifference & { supplierId: string }> = [];
  let done = false;
  let failure: unknown;
  const finished = start(async (rows) => {
    queue.push(...rows);
    wake?.();
    if (queue.length > 4096) await new Promise<void>((r) => (resume = r));
  }).then(
    (v) => {
      out.verifier = v;
      done = true;
      wake?.();
    },
    (e: unknown) => {
      failure = e;
      done = true;
      wake?.();
    },
  );
  for (;;) {
    if (queue.length) {
      const batch = queue;
      queue = [];
      const r = resume;
      resume = undefined;
      r?.();
      yield* batch;
      continue;
    }
    if (done) break;
    await new Promise<void>((r) => (wake = r));
    wake = undefined;
  }
  await finished;
  if (failure !== undefined) throw failure;
}

/**
 * --verify checks a bundle as it was calculated: --as-of, --claim-weight or --mode other than what its header
 * records recomputed another question and still printed "verified" (a what-if is recompute without --verify). A raw
 * response records none of them, so there they say what it was calculated with.
 */
function refuseOtherOptions(ev: Extract<EvidenceEvent, { t: 'header' }>, o: ScoringOverrides, what: string): void {
  if (ev.format === 'response') return;
  const differ: string[] = [];
  if (o.asOf !== undefined && ev.asOf !== null && o.asOf !== ev.asOf) differ.push(`--as-of ${o.asOf} (it was calculated as of ${ev.asOf})`);
  if (o.claimWeight !== undefined && ev.options && o.claimWeight !== ev.options.claimWeight) differ.push(`--claim-weight ${o.claimWeight} (it records ${ev.options.claimWeight})`);
  if (o.mode !== undefined && ev.options && o.mode !== ev.options.mode) differ.push(`--mode ${o.mode} (it records ${ev.options.mode})`);
  if (differ.length) throw new UsageError(`--verify checks ${what} as it was calculated, not with ${differ.join(', ')}: drop --verify to recompute under other options, or drop ${differ.length === 1 ? 'that option' : 'those options'} to verify`);
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const file = args[0] ?? '-';
  const what = file === '-' ? 'stdin' : file;
  const vo = await verifyOptions(ctx, file, opts, what);
  // Under --verify an altered, undigested or other-model bundle stops at its header: nothing in it is recomputed.
  if (opts.verify) vo.stopAtHeader = 'nothing was recomputed';
  const out: { verifier?: EvidenceVerifier } = {};
  const onlyDifferences = !!opts.onlyDifferences;
  const rows = rowsOf(
    (push) =>
      verifyEvidence(
        ctx,
        file,
        vo,
        (item, r) => {
          const shown = onlyDifferences ? r.filter((x) => !x.ok) : r;
          if (shown.length) return push(shown.map((x) => ({ supplierId: item.supplierId, ...x })));
          return undefined;
        },
        (ev) => {
          if (ev.t === 'header' && opts.verify) refuseOtherOptions(ev, vo.overrides, what);
        },
      ),
    out,
  );
  await renderList(ctx.sink, rows, columns, ctx.renderOptions());
  const v = out.verifier!;
  const findings = v.findings();
  // Nothing recomputed is nothing verified: never "verified" for an empty bundle (or one of errors only).
  if (opts.verify && !findings.length && v.suppliers === 0) {
    throw new SrsError(
      'runtime',
      ExitCode.failure,
      `nothing to verify: ${what} holds no supplier result${v.errors.size ? ` (${count(v.errors.size, 'supplier')} recorded without a result, unknown)` : ''}; save scores with srs score calc ID... --save FILE`,
    );
  }
  const recorded = v.errors.size ? `, ${v.errors.size} recorded without a result (unknown)` : '';
  // Under --verify the verdict comes first: a summary of agreeing values must not read as verified when it is not.
  const verdict = !opts.verify ? '' : findings.length ? 'NOT VERIFIED: ' : v.undigested ? 'verified without a digest (--allow-undigested): ' : 'verified: ';
  // A filtered bundle's values are those of its filters: said, so they do not pass for the suppliers' whole scores.
  const filtered = describeFilters(v.options);
  ctx.info(
    `${verdict}recomputed ${count(v.suppliers, 'supplier')}${recorded} as of ${v.asOf} (mode ${v.options.mode}, claim weight ${v.options.claimWeight}${filtered ? `; calculated with ${filtered}` : ''}): ${v.values - v.valuesDiffering} of ${count(v.values, 'value')} agree within ${vo.tolerance}${opts.verify && findings.length ? `; the evidence does not verify (${findings.map((f) => f.message.split(':')[0]).join(', ')}; below)` : ''}`,
  );
  if (!findings.length) return;
  if (opts.verify) {
    for (const f of findings.slice(1)) ctx.stderr(`also: ${oneLine(f.message)}`);
    throw new CheckFailedError(findings[0]!.message);
  }
  for (const f of findings) ctx.warn(f.message);
}
