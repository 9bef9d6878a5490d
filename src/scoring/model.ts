/**
 * The score model's aggregation: pure functions, no I/O. The rules are written
 * down in docs/scoring.md (keep the two in step, and bump MODEL_VERSION in
 * types.ts whenever a formula changes). Dates and the validity window are in
 * dates.ts, options and their defaults in options.ts, the scale, rounding and
 * labels in labels.ts.
 *
 * Hot path notes: scorecards and options are prepared once (and reused across
 * scoreSupplier calls while unchanged); each supplier is then scored in one
 * plain loop over its entries into scratch arrays indexed by data source and
 * parameter (no per-entry closures or objects), and the counted-entry lists
 * are only built when read. 100,000 suppliers x 20 entries take about half a
 * second.
 */
import type {
  AggregationMode,
  CountedEntry,
  DataSourceResult,
  ParameterResult,
  ScorecardResult,
  ScoringEntry,
  ScoringOptions,
  ScoringScorecard,
  SupplierScore,
} from './types.js';
import { hasCalendarDatePrefix, normalizeDate, todayUtc } from './dates.js';
import { ScoringError } from './errors.js';
import { SCORE_MAX, SCORE_MIN } from './labels.js';
import { resolveOptions, type ResolvedScoringOptions } from './options.js';

/** Weight of a verified entry (isClaim: false). Not an option. */
export const VERIFIED_WEIGHT = 1;

// Where the model departs from (or fills in) the public methodology; each is
// listed in docs/scoring.md, "Departures from the public methodology".

/**
 * A scorecard item with weight 0 is left out of that scorecard's weighting, as
 * if absent: it does not count towards the mean of a parameter's weights, and
 * does not make the scorecard apply. (The parameter is still listed.)
 */
export const ZERO_WEIGHT_EXCLUDES_ITEM = true;
/**
 * The weight of every scored parameter when no scorecard applies (none given,
 * or every item weighs 0 or is filtered out): the plain mean of the parameters.
 */
export const FALLBACK_PARAMETER_WEIGHT = 1;

// ---------------------------------------------------------------- preparation (once per scorecards + options)

interface CompiledScorecard {
  id: string;
  name: string | undefined;
  /** Indices (into Prepared.pIds) and weights of the items that apply: positive weight, selected parameter. */
  idx: number[];
  weights: number[];
}

/**
 * Scorecards and options compiled once, plus scratch arrays reused for every
 * supplier (indexed by data source / parameter index; `stamp` says whether a
 * slot belongs to the current run). Runs are synchronous and never call user
 * code, so one Prepared is never used by two runs at once.
 */
interface Prepared {
  options: ResolvedScoringOptions;
  asOf: string;
  includeZero: boolean;
  claimWeight: number;
  mode: AggregationMode;
  /** No scorecard applies: every scored parameter weighs 1. */
  fallback: boolean;
  hasDsFilter: boolean;
  hasPpFilter: boolean;
  /** With a filter, holds exactly the selected ids; without, grows as ids are met. */
  dsIndex: Map<string, number>;
  dsIds: string[];
  pIndex: Map<string, number>;
  pIds: string[];
  /** Effective scorecard weight of each parameter (1 for all in fallback, 0 when in no scorecard). */
  pWeight: number[];
  /** Listed for every supplier: the dataSourceIds filter; scorecard parameters and the policyParameterIds filter. */
  baseDs: number[];
  baseP: number[];
  cards: CompiledScorecard[];
  gen: number;
  dsStamp: number[];
  dsSum: number[];
  dsW: number[];
  dsList: CountedEntry[][];
  dsTouched: number[];
  pStamp: number[];
  pSum: number[];
  pW: number[];
  pVal: number[];
  pList: CountedEntry[][];
  pTouched: number[];
  /** Rank of each id in code-unit order (recomputed when ids were added). */
  dsRank: number[];
  pRank: number[];
}

const NO_ENTRIES: CountedEntry[] = [];
const NO_INPUT: ReadonlyArray<ScoringEntry> = [];
const NO_PARAMETER_SCORES: ScoringEntry['parameterScores'] = [];

function addDs(p: Prepared, id: string): number {
  const i = p.dsIds.length;
  p.dsIndex.set(id, i);
  p.dsIds.push(id);
  p.dsStamp.push(0);
  p.dsSum.push(0);
  p.dsW.push(0);
  p.dsList.push(NO_ENTRIES);
  return i;
}

function addP(p: Prepared, id: string, weight: number): number {
  const i = p.pIds.length;
  p.pIndex.set(id, i);
  p.pIds.push(id);
  p.pWeight.push(weight);
  p.pStamp.push(0);
  p.pSum.push(0);
  p.pW.push(0);
  p.pVal.push(0);
  p.pList.push(NO_ENTRIES);
  return i;
}

function prepare(scorecards: ReadonlyArray<ScoringScorecard>, options: ScoringOptions | undefined): Prepared {
  const opts = resolveOptions(options);
  Object.freeze(opts.dataSourceIds);
  Object.freeze(opts.policyParameterIds);
  Object.freeze(opts);
  const ppFilter = opts.policyParameterIds.length > 0 ? new Set(opts.policyParameterIds) : null;
  const weightSum = new Map<string, number>();
  const weightCount = new Map<string, number>();
  const listed = new Set<string>();
  const items: Array<{ sc: ScoringScorecard; pids: string[]; weights: number[] }> = [];
  for (const sc of scorecards) {
    const pids: string[] = [];
    const weights: number[] = [];
    const seen = new Set<string>();
    for (const item of sc.items) {
      const pid = item.policyParameterId;
      const w = item.weight;
      if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
        throw new ScoringError(`scorecard ${sc.id}: weight of parameter ${pid} must be a finite number >= 0, got ${String(w)}`);
      }
      if (seen.has(pid)) throw new ScoringError(`scorecard ${sc.id}: parameter ${pid} appears more than once`);
      seen.add(pid);
      if (ppFilter !== null && !ppFilter.has(pid)) continue;
      listed.add(pid);
      if (w === 0 && ZERO_WEIGHT_EXCLUDES_ITEM) continue;
      pids.push(pid);
      weights.push(w);
      weightSum.set(pid, (weightSum.get(pid) ?? 0) + w);
      weightCount.set(pid, (weightCount.get(pid) ?? 0) + 1);
    }
    items.push({ sc, pids, weights });
  }
  if (ppFilter !== null) for (const pid of opts.policyParameterIds) listed.add(pid);
  const fallback = weightSum.size === 0;

  const p: Prepared = {
    options: opts,
    asOf: opts.asOf,
    includeZero: opts.includeZeroValues,
    claimWeight: opts.claimWeight,
    mode: opts.mode,
    fallback,
    hasDsFilter: opts.dataSourceIds.length > 0,
    hasPpFilter: ppFilter !== null,
    dsIndex: new Map(),
    dsIds: [],
    pIndex: new Map(),
    pIds: [],
    pWeight: [],
    baseDs: [],
    baseP: [],
    cards: [],
    gen: 0,
    dsStamp: [],
    dsSum: [],
    dsW: [],
    dsList: [],
    dsTouched: [],
    pStamp: [],
    pSum: [],
    pW: [],
    pVal: [],
    pList: [],
    pTouched: [],
    dsRank: [],
    pRank: [],
  };
  for (const id of opts.dataSourceIds) p.baseDs.push(addDs(p, id));
  for (const pid of listed) {
    const sum = weightSum.get(pid);
    const weight = fallback ? FALLBACK_PARAMETER_WEIGHT : sum === undefined ? 0 : sum / (weightCount.get(pid) as number);
    p.baseP.push(addP(p, pid, weight));
  }
  for (const { sc, pids, weights } of items) {
    p.cards.push({ id: sc.id, name: sc.name, idx: pids.map((pid) => p.pIndex.get(pid) as number), weights });
  }
  return p;
}

// ---------------------------------------------------------------- one run over a supplier's entries

function badScore(entry: ScoringEntry, what: string, v: unknown): ScoringError {
  return new ScoringError(`entry ${entry.id}: ${what} must be a number from -3 to 3, got ${String(v)}`);
}

// The last two dates found valid: entries share few distinct dates, and
// comparing with a known-good string is cheaper than checking it again.
let goodDateA = '';
let goodDateB = '';

/** normalizeDate() without building a message unless the date is bad. */
function entryDate(e: ScoringEntry, s: string | null | undefined, field: string): string | null {
  if (s === undefined || s === null || s === '') return null;
  if (s === goodDateA || s === goodDateB) return s;
  if (typeof s === 'string' && s.length === 10 && hasCalendarDatePrefix(s)) {
    goodDateB = goodDateA;
    goodDateA = s;
    return s;
  }
  return normalizeDate(s, `entry ${e.id}: ${field}`);
}

function counted(
  e: ScoringEntry,
  dataSourceId: string,
  value: number,
  weight: number,
  issueDate: string | null,
  expiryDate: string | null,
): CountedEntry {
  return {
    id: e.id,
    supplierId: e.supplierId,
    dataSourceId,
    value,
    weight,
    isClaim: e.isClaim === true,
    issueDate,
    expiryDate,
  };
}

/**
 * The model's single pass over entries[start, end): fills the scratch sums
 * (and, when `collect`, the counted-entry lists) of the data sources and
 * parameters it touches. Scoring and the lazy `entries` lists both use it, so
 * they cannot disagree. With `stopAtOtherSupplier` it stops at the first entry
 * of another supplier; it returns the index where it stopped.
 */
function run(
  p: Prepared,
  supplierId: string,
  entries: ReadonlyArray<ScoringEntry>,
  start: number,
  end: number,
  collect: boolean,
  stopAtOtherSupplier: boolean,
): number {
  const gen = ++p.gen;
  const asOf = p.asOf;
  const includeZero = p.includeZero;
  const claimWeight = p.claimWeight;
  const hasDsFilter = p.hasDsFilter;
  const hasPpFilter = p.hasPpFilter;
  const dsIndex = p.dsIndex;
  const pIndex = p.pIndex;
  const dsStamp = p.dsStamp;
  const dsSum = p.dsSum;
  const dsW = p.dsW;
  const dsTouched = p.dsTouched;
  const pStamp = p.pStamp;
  const pSum = p.pSum;
  const pW = p.pW;
  const pTouched = p.pTouched;
  const newWeight = p.fallback ? FALLBACK_PARAMETER_WEIGHT : 0;
  dsTouched.length = 0;
  pTouched.length = 0;
  for (let i = 0; i < p.baseDs.length; i++) {
    const d = p.baseDs[i] as number;
    dsStamp[d] = gen;
    dsSum[d] = 0;
    dsW[d] = 0;
    if (collect) p.dsList[d] = [];
    dsTouched.push(d);
  }
  for (let i = 0; i < p.baseP.length; i++) {
    const k = p.baseP[i] as number;
    pStamp[k] = gen;
    pSum[k] = 0;
    pW[k] = 0;
    if (collect) p.pList[k] = [];
    pTouched.push(k);
  }

  let i = start;
  for (; i < end; i++) {
    const e = entries[i] as ScoringEntry;
    if (e.supplierId !== supplierId) {
      if (stopAtOtherSupplier) break;
      continue;
    }
    const score = e.score;
    if (typeof score !== 'number' || !(score >= SCORE_MIN && score <= SCORE_MAX)) throw badScore(e, 'score', score);
    const issue = entryDate(e, e.issueDate, 'issueDate');
    const expiry = entryDate(e, e.expiryDate, 'expiryDate');
    const ps = e.parameterScores ?? NO_PARAMETER_SCORES;
    const np = ps.length;
    // Validity window: issueDate <= asOf <= expiryDate, inclusive, open where a date is absent.
    const dsId = e.dataSourceId;
    let d = (issue !== null && issue > asOf) || (expiry !== null && expiry < asOf) ? -1 : dsIndex.get(dsId);
    if (d === undefined) {
      if (hasDsFilter) d = -1; // with a filter every selected id is indexed
      else d = addDs(p, dsId);
    }
    if (d < 0) {
      // Out of scope, but still validated.
      for (let j = 0; j < np; j++) checkParameterScore(e, ps, j);
      continue;
    }
    const w = e.isClaim === true ? claimWeight : VERIFIED_WEIGHT;

    let informsSelected = false;
    for (let j = 0; j < np; j++) {
      const ep = checkParameterScore(e, ps, j);
      let k = pIndex.get(ep.policyParameterId);
      if (k === undefined) {
        if (hasPpFilter) continue; // with a filter every selected id is indexed
        k = addP(p, ep.policyParameterId, newWeight);
      }
      if (pStamp[k] !== gen) {
        pStamp[k] = gen;
        pSum[k] = 0;
        pW[k] = 0;
        if (collect) p.pList[k] = [];
        pTouched.push(k);
      }
      const v = ep.score;
      if (v === 0 && !includeZero) continue;
      informsSelected = true;
      if (w > 0) {
        pSum[k] = (pSum[k] as number) + w * v;
        pW[k] = (pW[k] as number) + w;
        if (collect) (p.pList[k] as CountedEntry[]).push(counted(e, dsId, v, w, issue, expiry));
      }
    }
    // With a parameter filter, an entry counts for its data source only if it
    // counts (zeros rule applied) for at least one selected parameter.
    if (hasPpFilter && !informsSelected) continue;
    if (dsStamp[d] !== gen) {
      dsStamp[d] = gen;
      dsSum[d] = 0;
      dsW[d] = 0;
      if (collect) p.dsList[d] = [];
      dsTouched.push(d);
    }
    if (score === 0 && !includeZero) continue;
    if (w > 0) {
      dsSum[d] = (dsSum[d] as number) + w * score;
      dsW[d] = (dsW[d] as number) + w;
      if (collect) (p.dsList[d] as CountedEntry[]).push(counted(e, dsId, score, w, issue, expiry));
    }
  }
  return i;
}

/** Validates parameterScores[j] (range, no repeated parameter) and returns it. */
function checkParameterScore(
  e: ScoringEntry,
  ps: ReadonlyArray<{ policyParameterId: string; score: number }>,
  j: number,
): { policyParameterId: string; score: number } {
  const ep = ps[j] as { policyParameterId: string; score: number };
  const v = ep.score;
  if (typeof v !== 'number' || !(v >= SCORE_MIN && v <= SCORE_MAX)) {
    throw badScore(e, `score for parameter ${ep.policyParameterId}`, v);
  }
  for (let k = 0; k < j; k++) {
    if ((ps[k] as { policyParameterId: string }).policyParameterId === ep.policyParameterId) {
      throw new ScoringError(`entry ${e.id}: parameter ${ep.policyParameterId} appears more than once`);
    }
  }
  return ep;
}

// ---------------------------------------------------------------- results with lazy entry lists

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/**
 * A supplier's score. Keeps (privately) the input it was computed from, so
 * the counted-entry lists can be built on first read, with one more run with
 * collection on, rather than for every supplier.
 */
class SupplierScoreImpl implements SupplierScore {
  supplierId: string;
  asOf: string;
  value: number | null = null;
  dataSourcesScore: number | null = null;
  policyParametersScore: number | null = null;
  dataSources: DataSourceResult[] = NO_DS_RESULTS;
  parameters: ParameterResult[] = NO_P_RESULTS;
  scorecards: ScorecardResult[] = NO_SC_RESULTS;
  options: ResolvedScoringOptions;
  readonly #p: Prepared;
  readonly #entries: ReadonlyArray<ScoringEntry>;
  readonly #start: number;
  #end: number;
  #ds: Map<string, CountedEntry[]> | undefined;
  #pp: Map<string, CountedEntry[]> | undefined;

  constructor(p: Prepared, supplierId: string, entries: ReadonlyArray<ScoringEntry>, start: number, end: number) {
    this.supplierId = supplierId;
    this.asOf = p.asOf;
    this.options = p.options;
    this.#p = p;
    this.#entries = entries;
    this.#start = start;
    this.#end = end;
  }

  #load(): void {
    const p = this.#p;
    run(p, this.supplierId, this.#entries, this.#start, this.#end, true, false);
    const ds = new Map<string, CountedEntry[]>();
    for (const d of p.dsTouched) {
      ds.set(p.dsIds[d] as string, p.dsList[d] as CountedEntry[]);
      p.dsList[d] = NO_ENTRIES;
    }
    const pp = new Map<string, CountedEntry[]>();
    for (const k of p.pTouched) {
      pp.set(p.pIds[k] as string, p.pList[k] as CountedEntry[]);
      p.pList[k] = NO_ENTRIES;
    }
    this.#ds = ds;
    this.#pp = pp;
  }

  /** @internal Where the supplier's run of entries ended (scoreSuppliers' fast path). */
  get end(): number {
    return this.#end;
  }

  /** @internal */
  entriesOf(kind: 'ds' | 'pp', id: string): CountedEntry[] {
    if (this.#ds === undefined) this.#load();
    const m = (kind === 'ds' ? this.#ds : this.#pp) as Map<string, CountedEntry[]>;
    let list = m.get(id);
    if (list === undefined) {
      list = [];
      m.set(id, list);
    }
    return list;
  }

  /** @internal */
  setEntriesOf(kind: 'ds' | 'pp', id: string, list: CountedEntry[]): void {
    if (this.#ds === undefined) this.#load();
    ((kind === 'ds' ? this.#ds : this.#pp) as Map<string, CountedEntry[]>).set(id, list);
  }
}

class DataSourceResultImpl implements DataSourceResult {
  dataSourceId: string;
  value: number | null;
  readonly #owner: SupplierScoreImpl;

  constructor(owner: SupplierScoreImpl, dataSourceId: string, value: number | null) {
    this.dataSourceId = dataSourceId;
    this.value = value;
    this.#owner = owner;
  }

  /** The entries that counted, built on first read from the input entries. */
  get entries(): CountedEntry[] {
    return this.#owner.entriesOf('ds', this.dataSourceId);
  }

  set entries(list: CountedEntry[]) {
    this.#owner.setEntriesOf('ds', this.dataSourceId, list);
  }

  toJSON(): DataSourceResult {
    return { dataSourceId: this.dataSourceId, value: this.value, entries: this.entries };
  }

  [inspectCustom](): DataSourceResult {
    return this.toJSON();
  }
}

class ParameterResultImpl implements ParameterResult {
  policyParameterId: string;
  value: number | null;
  weight: number;
  readonly #owner: SupplierScoreImpl;

  constructor(owner: SupplierScoreImpl, policyParameterId: string, value: number | null, weight: number) {
    this.policyParameterId = policyParameterId;
    this.value = value;
    this.weight = weight;
    this.#owner = owner;
  }

  /** The entries that counted, each with its score for this parameter; built on first read. */
  get entries(): CountedEntry[] {
    return this.#owner.entriesOf('pp', this.policyParameterId);
  }

  set entries(list: CountedEntry[]) {
    this.#owner.setEntriesOf('pp', this.policyParameterId, list);
  }

  toJSON(): ParameterResult {
    return { policyParameterId: this.policyParameterId, value: this.value, weight: this.weight, entries: this.entries };
  }

  [inspectCustom](): ParameterResult {
    return this.toJSON();
  }
}

const NO_DS_RESULTS: DataSourceResult[] = [];
const NO_P_RESULTS: ParameterResult[] = [];
const NO_SC_RESULTS: ScorecardResult[] = [];

function clampScore(v: number): number {
  return v < SCORE_MIN ? SCORE_MIN : v > SCORE_MAX ? SCORE_MAX : v;
}

/** Ranks of ids in code-unit order, recomputed only after new ids were indexed. */
function ranks(ids: string[]): number[] {
  const order = ids.map((_, i) => i).sort((a, b) => {
    const x = ids[a] as string;
    const y = ids[b] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const rank: number[] = new Array(ids.length);
  for (let r = 0; r < order.length; r++) rank[order[r] as number] = r;
  return rank;
}

/** Insertion sort of a short list of indices by rank (no comparator calls). */
function sortByRank(list: number[], rank: number[]): void {
  for (let i = 1; i < list.length; i++) {
    const x = list[i] as number;
    const rx = rank[x] as number;
    let j = i - 1;
    while (j >= 0 && (rank[list[j] as number] as number) > rx) {
      list[j + 1] = list[j] as number;
      j--;
    }
    list[j + 1] = x;
  }
}

function scoreRange(
  p: Prepared,
  supplierId: string,
  entries: ReadonlyArray<ScoringEntry>,
  start: number,
  end: number,
  stopAtOtherSupplier = false,
): SupplierScoreImpl {
  const stop = run(p, supplierId, entries, start, end, false, stopAtOtherSupplier);
  const out = new SupplierScoreImpl(p, supplierId, entries, start, stopAtOtherSupplier ? stop : end);

  // Data sources: weighted mean each; dataSourcesScore = plain mean of the non-null ones.
  const dsTouched = p.dsTouched;
  if (dsTouched.length > 1) {
    if (p.dsRank.length !== p.dsIds.length) p.dsRank = ranks(p.dsIds);
    sortByRank(dsTouched, p.dsRank);
  }
  const dataSources: DataSourceResult[] = new Array(dsTouched.length);
  let dsSum = 0;
  let dsN = 0;
  for (let i = 0; i < dsTouched.length; i++) {
    const d = dsTouched[i] as number;
    const w = p.dsW[d] as number;
    let value: number | null = null;
    if (w > 0) {
      value = clampScore((p.dsSum[d] as number) / w);
      dsSum += value;
      dsN++;
    }
    dataSources[i] = new DataSourceResultImpl(out, p.dsIds[d] as string, value);
  }
  const dataSourcesScore = dsN > 0 ? clampScore(dsSum / dsN) : null;

  // Parameters: weighted mean each; mode "parameters" combines them with their scorecard weights.
  const pTouched = p.pTouched;
  if (pTouched.length > 1) {
    if (p.pRank.length !== p.pIds.length) p.pRank = ranks(p.pIds);
    sortByRank(pTouched, p.pRank);
  }
  const pVal = p.pVal;
  const gen = p.gen;
  const parameters: ParameterResult[] = new Array(pTouched.length);
  let num = 0;
  let den = 0;
  for (let i = 0; i < pTouched.length; i++) {
    const k = pTouched[i] as number;
    const w = p.pW[k] as number;
    const weight = p.pWeight[k] as number;
    let value: number | null = null;
    if (w > 0) {
      value = clampScore((p.pSum[k] as number) / w);
      pVal[k] = value;
      if (weight > 0) {
        num += weight * value;
        den += weight;
      }
    } else {
      pVal[k] = Number.NaN;
    }
    parameters[i] = new ParameterResultImpl(out, p.pIds[k] as string, value, weight);
  }

  // Scorecards: each one's weighted mean, re-normalised over its scored parameters.
  const cards = p.cards;
  const scorecards: ScorecardResult[] = new Array(cards.length);
  let cSum = 0;
  let cN = 0;
  for (let i = 0; i < cards.length; i++) {
    const c = cards[i] as CompiledScorecard;
    let cNum = 0;
    let cDen = 0;
    for (let j = 0; j < c.idx.length; j++) {
      const k = c.idx[j] as number;
      if (p.pStamp[k] !== gen) continue;
      const v = pVal[k] as number;
      if (v !== v) continue; // NaN: no score
      const w = c.weights[j] as number;
      cNum += w * v;
      cDen += w;
    }
    let value: number | null = null;
    if (cDen > 0) {
      value = clampScore(cNum / cDen);
      cSum += value;
      cN++;
    }
    scorecards[i] = c.name === undefined ? { scorecardId: c.id, value } : { scorecardId: c.id, name: c.name, value };
  }

  let policyParametersScore: number | null;
  if (p.mode === 'scorecards' && !p.fallback) policyParametersScore = cN > 0 ? clampScore(cSum / cN) : null;
  else policyParametersScore = den > 0 ? clampScore(num / den) : null;

  out.value = policyParametersScore ?? dataSourcesScore;
  out.dataSourcesScore = dataSourcesScore;
  out.policyParametersScore = policyParametersScore;
  out.dataSources = dataSources;
  out.parameters = parameters;
  out.scorecards = scorecards;
  return out;
}

// ---------------------------------------------------------------- public entry points

/**
 * Scores one supplier. Entries of other suppliers are ignored. Throws a
 * ScoringError on invalid options, scorecard weights, dates or scores.
 *
 * The `entries` lists of the data-source and parameter results are built on
 * first read (a getter; JSON.stringify includes them), from the input entries:
 * do not change those before reading the lists. `options` is frozen.
 * Scorecards and options are prepared once per scorecards array and reused by
 * later calls with equal option values and unchanged scorecards, so calling it
 * in a loop is cheap.
 */
export function scoreSupplier(
  supplierId: string,
  entries: ReadonlyArray<ScoringEntry>,
  scorecards: ReadonlyArray<ScoringScorecard>,
  options?: ScoringOptions,
): SupplierScore {
  return scoreRange(cachedPrepare(scorecards, options), supplierId, entries, 0, entries.length);
}

// ---------------------------------------------------------------- reusing preparations across calls

/**
 * The last preparation made for a scorecards array (by identity), with a copy
 * of the option values and scorecard contents it was made from. A call with
 * equal values reuses it (calling scoreSupplier in a loop costs no more than
 * scoreSuppliers); a call with other values, or after the scorecards were
 * changed in place, prepares afresh.
 */
interface CacheSlot {
  asOf: string | undefined;
  includeZeroValues: boolean | undefined;
  claimWeight: number | undefined;
  mode: AggregationMode | undefined;
  dataSourceIds: string[] | undefined;
  policyParameterIds: string[] | undefined;
  /** Per scorecard: id, name, item count, then the items' ids and weights, flattened. */
  cards: unknown[];
  prepared: Prepared;
}

const preparedCache = new WeakMap<ReadonlyArray<ScoringScorecard>, CacheSlot>();
let todayDay = -1;
let todayString = '';

/** todayUtc() for the current time, recomputed only when the UTC day changes. */
function currentDay(): string {
  const day = Math.floor(Date.now() / 86_400_000);
  if (day !== todayDay) {
    todayDay = day;
    todayString = todayUtc();
  }
  return todayString;
}

function sameIds(a: string[] | undefined, b: ReadonlyArray<string> | undefined): boolean {
  if (a === undefined || b === undefined || b === null) return a === undefined && (b === undefined || b === null);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function cardsSnapshot(scorecards: ReadonlyArray<ScoringScorecard>): unknown[] {
  const out: unknown[] = [];
  for (const sc of scorecards) {
    out.push(sc.id, sc.name, sc.items.length);
    for (const item of sc.items) out.push(item.policyParameterId, item.weight);
  }
  return out;
}

function sameCards(snapshot: unknown[], scorecards: ReadonlyArray<ScoringScorecard>): boolean {
  let k = 0;
  for (let i = 0; i < scorecards.length; i++) {
    const sc = scorecards[i] as ScoringScorecard;
    const items = sc.items;
    if (snapshot[k++] !== sc.id || snapshot[k++] !== sc.name || snapshot[k++] !== items.length) return false;
    for (let j = 0; j < items.length; j++) {
      const item = items[j] as { policyParameterId: string; weight: number };
      if (snapshot[k++] !== item.policyParameterId || snapshot[k++] !== item.weight) return false;
    }
  }
  return k === snapshot.length;
}

function cachedPrepare(scorecards: ReadonlyArray<ScoringScorecard>, options: ScoringOptions | undefined): Prepared {
  const o = options ?? {};
  const slot = preparedCache.get(scorecards);
  if (
    slot !== undefined &&
    slot.asOf === o.asOf &&
    (o.asOf !== undefined || slot.prepared.asOf === currentDay()) &&
    slot.includeZeroValues === o.includeZeroValues &&
    slot.claimWeight === o.claimWeight &&
    slot.mode === o.mode &&
    sameIds(slot.dataSourceIds, o.dataSourceIds) &&
    sameIds(slot.policyParameterIds, o.policyParameterIds) &&
    sameCards(slot.cards, scorecards)
  ) {
    return slot.prepared;
  }
  const prepared = prepare(scorecards, options);
  preparedCache.set(scorecards, {
    asOf: o.asOf,
    includeZeroValues: o.includeZeroValues,
    claimWeight: o.claimWeight,
    mode: o.mode,
    dataSourceIds: o.dataSourceIds === undefined || o.dataSourceIds === null ? undefined : [...o.dataSourceIds],
    policyParameterIds: o.policyParameterIds === undefined || o.policyParameterIds === null ? undefined : [...o.policyParameterIds],
    cards: cardsSnapshot(scorecards),
    prepared,
  });
  return prepared;
}

/** The supplier ids of entries[0, end). */
function runIdsBefore(entries: ReadonlyArray<ScoringEntry>, end: number): Set<string> {
  const ids = new Set<string>();
  for (let k = 0; k < end; k++) ids.add((entries[k] as ScoringEntry).supplierId);
  return ids;
}

/** Scorecards for every supplier, or a function giving each supplier's scorecards. */
export type ScorecardsInput =
  | ReadonlyArray<ScoringScorecard>
  | ((supplierId: string) => ReadonlyArray<ScoringScorecard>);

/**
 * Scores many suppliers. Results come in the order of `supplierIds` when given
 * (duplicates dropped; a supplier without entries gets an all-null result),
 * otherwise in the order suppliers first appear in `entries`. All results
 * share one asOf and one frozen `options` object. Fastest when each
 * supplier's entries are contiguous in `entries` (one pass, no copying);
 * otherwise they are grouped first. With a scorecards function, suppliers that
 * get the same array (by identity) share one preparation.
 */
export function scoreSuppliers(
  entries: ReadonlyArray<ScoringEntry>,
  scorecards: ScorecardsInput,
  options?: ScoringOptions,
  supplierIds?: ReadonlyArray<string>,
): SupplierScore[] {
  // One asOf for the whole batch, even across midnight.
  const opts: ScoringOptions = { ...options, asOf: resolveOptions(options).asOf };
  let single: Prepared | undefined;
  let cache: Map<ReadonlyArray<ScoringScorecard>, Prepared> | undefined;
  if (typeof scorecards === 'function') cache = new Map();
  else single = cachedPrepare(scorecards, opts);
  const preparedFor = (sid: string): Prepared => {
    if (single !== undefined) return single;
    const cards = (scorecards as (supplierId: string) => ReadonlyArray<ScoringScorecard>)(sid);
    let p = (cache as Map<ReadonlyArray<ScoringScorecard>, Prepared>).get(cards);
    if (p === undefined) {
      p = prepare(cards, opts);
      (cache as Map<ReadonlyArray<ScoringScorecard>, Prepared>).set(cards, p);
    }
    return p;
  };
  const wanted = supplierIds !== undefined ? new Set(supplierIds) : undefined;

  // Fast path: one pass over runs of consecutive entries of the same supplier.
  // While the runs' supplier ids keep increasing they are all distinct and no
  // Set is needed; after the first step down, a Set catches a supplier whose
  // entries are not contiguous, and the grouped path takes over.
  let results: SupplierScore[] = [];
  let seen: Set<string> | undefined;
  let prev: string | undefined;
  let contiguous = true;
  const n = entries.length;
  let i = 0;
  while (i < n) {
    const sid = (entries[i] as ScoringEntry).supplierId;
    if (seen === undefined) {
      if (prev !== undefined && !(sid > prev)) seen = runIdsBefore(entries, i);
      prev = sid;
    }
    if (seen !== undefined) {
      if (seen.has(sid)) {
        contiguous = false;
        break;
      }
      seen.add(sid);
    }
    if (wanted === undefined || wanted.has(sid)) {
      const r = scoreRange(preparedFor(sid), sid, entries, i, n, true);
      results.push(r);
      i = r.end;
    } else {
      i++;
      while (i < n && (entries[i] as ScoringEntry).supplierId === sid) i++;
    }
  }

  if (!contiguous) {
    const groups = new Map<string, ScoringEntry[]>();
    for (let k = 0; k < n; k++) {
      const e = entries[k] as ScoringEntry;
      if (wanted !== undefined && !wanted.has(e.supplierId)) continue;
      const g = groups.get(e.supplierId);
      if (g === undefined) groups.set(e.supplierId, [e]);
      else g.push(e);
    }
    results = [];
    for (const [sid, g] of groups) results.push(scoreRange(preparedFor(sid), sid, g, 0, g.length));
  }
  if (wanted === undefined) return results;

  const bySupplier = new Map<string, SupplierScore>();
  for (const r of results) bySupplier.set(r.supplierId, r);
  const ordered: SupplierScore[] = [];
  for (const sid of wanted) ordered.push(bySupplier.get(sid) ?? scoreRange(preparedFor(sid), sid, NO_INPUT, 0, 0));
  return ordered;
}
