/**
 * Recomputation helpers: rebuild the model's entries from a service
 * score-calculation result item, turn a model result into that shape, and
 * compare two results number by number. Structurally typed: nothing here
 * imports from src/api (the zod types there are assignable to these).
 */
import { EXPIRY_BEFORE_ISSUE, expiresBeforeIssue } from './dates.js';
import type { CountedEntry, ScoringEntry, SupplierScore } from './types.js';

// ---------------------------------------------------------------- the service's shapes, structurally

// The document marks nothing in a score result required: any of these may be absent or null
// (the client's reader view, src/api/contract.ts), and absent counts as null.

export interface ScoreValueLike {
  value?: number | null | undefined;
}

/** A score data entry as the service returns it. */
export interface ScoreDataEntryLike {
  id?: string | null | undefined;
  supplierId?: string | null | undefined;
  dataSourceId?: string | null | undefined;
  score?: ScoreValueLike | null | undefined;
  isClaim?: boolean | null | undefined;
  expiryDate?: string | null | undefined;
  issueDate?: string | null | undefined;
}

export interface DataSourceScoreLike {
  dataSourceId?: string | null | undefined;
  score?: ScoreValueLike | null | undefined;
  dataPoints?: { dataEntries?: ReadonlyArray<ScoreDataEntryLike> | null | undefined } | null | undefined;
}

export interface PolicyParameterScoreLike {
  policyParameterId?: string | null | undefined;
  score?: ScoreValueLike | null | undefined;
  dataPoints?: { dataEntries?: ReadonlyArray<ScoreDataEntryLike> | null | undefined } | null | undefined;
}

/** One element of `items` in a POST /v1/score-calculation response. */
export interface ScoreResultLike {
  supplierId: string;
  score?: {
    value?: number | null | undefined;
    dataSourcesScore?: ScoreValueLike | null | undefined;
    policyParametersScore?: ScoreValueLike | null | undefined;
  } | null | undefined;
  dataSourceScores?: ReadonlyArray<DataSourceScoreLike> | null | undefined;
  policyParameterScores?: ReadonlyArray<PolicyParameterScoreLike> | null | undefined;
}

/** The concrete service-shaped result toScoreResult() builds. */
export type ScoreResultShape = {
  supplierId: string;
  score: { value: number | null; dataSourcesScore: { value: number | null }; policyParametersScore: { value: number | null } };
  dataSourceScores: Array<{ dataSourceId: string; score: { value: number | null }; dataPoints: { dataEntries: ScoreDataEntryShape[] } }>;
  policyParameterScores: Array<{
    policyParameterId: string;
    score: { value: number | null };
    dataPoints: { dataEntries: ScoreDataEntryShape[] };
  }>;
};

export type ScoreDataEntryShape = {
  id: string;
  supplierId: string;
  dataSourceId: string;
  score: { value: number };
  isClaim: boolean;
  expiryDate: string | null;
  issueDate: string | null;
};

// ---------------------------------------------------------------- rebuilding entries

export interface RebuiltEntries {
  entries: ScoringEntry[];
  /** Inconsistencies found while merging (first occurrence wins), and inferred values. */
  warnings: string[];
  /**
   * The warnings that make the item unverifiable: an entry whose occurrences
   * disagree (fields, scores, data source), or that is listed twice in the
   * same place. `score recompute --verify` fails on any of them, naming the entry.
   */
  conflicts: string[];
}

interface Building {
  id: string;
  supplierId: string;
  dataSourceId: string;
  isClaim: boolean;
  issueDate: string | null;
  expiryDate: string | null;
  score: number | null;
  parameterScores: Array<{ policyParameterId: string; score: number }>;
}

/**
 * A data source or parameter listed more than once in one result, each as
 * "parameter ID is listed 2 times (scores 3, -3)". Which copy counts is
 * anyone's guess (a gate reading the first, a comparison the last), so
 * `score check` makes such a supplier unknown and `score recompute --verify`
 * a conflict, whether or not the copies agree.
 */
export function duplicatedScores(item: ScoreResultLike): string[] {
  const out: string[] = [];
  const look = (what: string, list: ReadonlyArray<{ id: string | null | undefined; value: number | null | undefined }>) => {
    const seen = new Map<string, Array<number | null>>();
    for (const { id, value } of list) {
      if (typeof id !== 'string') continue;
      const values = seen.get(id);
      if (values) values.push(value ?? null);
      else seen.set(id, [value ?? null]);
    }
    for (const [id, values] of seen) {
      if (values.length > 1) out.push(`${what} ${id} is listed ${values.length} times (scores ${values.map((v) => (v === null ? 'none' : String(v))).join(', ')})`);
    }
  };
  look('data source', (item.dataSourceScores ?? []).map((ds) => ({ id: ds.dataSourceId, value: ds.score?.value })));
  look('parameter', (item.policyParameterScores ?? []).map((pp) => ({ id: pp.policyParameterId, value: pp.score?.value })));
  return out;
}

/**
 * Rebuilds ScoringEntry[] from a service result item, merging by entry id:
 * an entry's own `score` comes from the data-source lists
 * (dataSourceScores[].dataPoints.dataEntries[].score.value), its score for a
 * parameter from that parameter's list (policyParameterScores[]...). An entry
 * that appears in no data-source list did not count for its data source; its
 * own score is taken as 0 (which reproduces that when zeros are excluded) and a
 * warning says so. A null value is skipped with a warning. When the same entry
 * carries different fields in different places, the first occurrence wins.
 */
export function rebuildFromScoreResult(item: ScoreResultLike): RebuiltEntries {
  const byId = new Map<string, Building>();
  const warnings: string[] = [];
  const conflicts: string[] = [];
  const conflict = (m: string) => {
    warnings.push(m);
    conflicts.push(m);
  };
  for (const m of duplicatedScores(item)) conflict(m);
  /** Entry ids already seen in some data-source list. */
  const inDataSources = new Set<string>();

  const meta = (d: ScoreDataEntryLike & { id: string; dataSourceId: string }, where: string): Building => {
    const supplierId = d.supplierId ?? item.supplierId;
    const isClaim = d.isClaim ?? false;
    const issueDate = d.issueDate ?? null;
    const expiryDate = d.expiryDate ?? null;
    let b = byId.get(d.id);
    if (b === undefined) {
      b = { id: d.id, supplierId, dataSourceId: d.dataSourceId, isClaim, issueDate, expiryDate, score: null, parameterScores: [] };
      byId.set(d.id, b);
      return b;
    }
    const diffs: string[] = [];
    if (b.supplierId !== supplierId) diffs.push('supplierId');
    if (b.dataSourceId !== d.dataSourceId) diffs.push('dataSourceId');
    if (b.isClaim !== isClaim) diffs.push('isClaim');
    if (b.issueDate !== issueDate) diffs.push('issueDate');
    if (b.expiryDate !== expiryDate) diffs.push('expiryDate');
    if (diffs.length > 0) conflict(`entry ${d.id}: ${diffs.join(', ')} differ in ${where}; the first occurrence is kept`);
    return b;
  };

  /** An entry without an id (or a data source) cannot be merged or scored: skipped, with a warning. */
  const usable = (d: ScoreDataEntryLike, where: string, dataSourceId?: string | null): (ScoreDataEntryLike & { id: string; dataSourceId: string }) | undefined => {
    const id = d.id ?? null;
    const ds = d.dataSourceId ?? dataSourceId ?? null;
    if (id === null || ds === null) {
      warnings.push(`an entry in ${where} has no ${id === null ? 'id' : 'dataSourceId'}; skipped`);
      return undefined;
    }
    return { ...d, id, dataSourceId: ds };
  };

  for (const ds of item.dataSourceScores ?? []) {
    for (const raw of ds.dataPoints?.dataEntries ?? []) {
      const where = `data source ${ds.dataSourceId ?? '(no id)'}`;
      const d = usable(raw, where, ds.dataSourceId);
      if (!d) continue;
      const b = meta(d, where);
      if (inDataSources.has(d.id)) conflict(`entry ${d.id}: listed more than once in the data-source lists (again in ${where})`);
      inDataSources.add(d.id);
      if (d.dataSourceId !== ds.dataSourceId) {
        conflict(`entry ${d.id}: listed under ${where} but its dataSourceId is ${d.dataSourceId}`);
      }
      const v = d.score?.value;
      if (v === null || v === undefined) {
        warnings.push(`entry ${d.id}: no score value in ${where}; skipped there`);
      } else if (b.score === null) {
        b.score = v;
      } else if (b.score !== v) {
        conflict(`entry ${d.id}: score ${v} in ${where} differs from ${b.score}; ${b.score} is kept`);
      }
    }
  }
  for (const pp of item.policyParameterScores ?? []) {
    const pid = pp.policyParameterId ?? null;
    for (const raw of pp.dataPoints?.dataEntries ?? []) {
      const where = `parameter ${pid ?? '(no id)'}`;
      const d = usable(raw, where);
      if (!d) continue;
      const b = meta(d, where);
      if (pid === null) {
        warnings.push(`entry ${d.id}: listed under a parameter without an id; its score there is skipped`);
        continue;
      }
      const v = d.score?.value;
      if (v === null || v === undefined) {
        warnings.push(`entry ${d.id}: no score value in ${where}; skipped there`);
        continue;
      }
      const known = b.parameterScores.find((x) => x.policyParameterId === pid);
      if (known === undefined) b.parameterScores.push({ policyParameterId: pid, score: v });
      else if (known.score !== v) {
        conflict(`entry ${d.id}: listed twice under ${where} with scores ${known.score} and ${v}; ${known.score} is kept`);
      } else {
        conflict(`entry ${d.id}: listed twice under ${where}`);
      }
    }
  }

  const entries: ScoringEntry[] = [];
  for (const b of byId.values()) {
    let score = b.score;
    if (score === null) {
      warnings.push(`entry ${b.id}: in no data-source list; its own score is taken as 0`);
      score = 0;
    }
    if (EXPIRY_BEFORE_ISSUE === 'warn-and-exclude' && expiresBeforeIssue(b.issueDate, b.expiryDate)) {
      warnings.push(`entry ${b.id}: expires (${b.expiryDate}) before it is issued (${b.issueDate}); it never counts`);
    }
    entries.push({
      id: b.id,
      supplierId: b.supplierId,
      dataSourceId: b.dataSourceId,
      score,
      isClaim: b.isClaim,
      issueDate: b.issueDate,
      expiryDate: b.expiryDate,
      parameterScores: b.parameterScores,
    });
  }
  return { entries, warnings, conflicts };
}

/** The entries of a service result item, merged by id (see rebuildFromScoreResult for the rules). */
export function entriesFromScoreResult(item: ScoreResultLike): ScoringEntry[] {
  return rebuildFromScoreResult(item).entries;
}

// ---------------------------------------------------------------- model result -> service shape

function dataEntry(c: CountedEntry): ScoreDataEntryShape {
  return {
    id: c.id,
    supplierId: c.supplierId,
    dataSourceId: c.dataSourceId,
    score: { value: c.value },
    isClaim: c.isClaim,
    expiryDate: c.expiryDate,
    issueDate: c.issueDate,
  };
}

/**
 * A model result in the service's score-result shape: each data source and
 * parameter with its value and the entries that counted (each with the value
 * used there). Round-trips through entriesFromScoreResult + scoreSupplier.
 */
export function toScoreResult(score: SupplierScore): ScoreResultShape {
  return {
    supplierId: score.supplierId,
    score: {
      value: score.value,
      dataSourcesScore: { value: score.dataSourcesScore },
      policyParametersScore: { value: score.policyParametersScore },
    },
    dataSourceScores: score.dataSources.map((ds) => ({
      dataSourceId: ds.dataSourceId,
      score: { value: ds.value },
      dataPoints: { dataEntries: ds.entries.map(dataEntry) },
    })),
    policyParameterScores: score.parameters.map((pp) => ({
      policyParameterId: pp.policyParameterId,
      score: { value: pp.value },
      dataPoints: { dataEntries: pp.entries.map(dataEntry) },
    })),
  };
}

// ---------------------------------------------------------------- comparing

/** Default absolute tolerance of compareScores(). */
export const DEFAULT_COMPARE_TOLERANCE = 1e-9;

/** The numbers compareScores() looks at, from either shape. */
export interface ScoreSummary {
  value: number | null;
  dataSourcesScore: number | null;
  policyParametersScore: number | null;
  dataSources: Map<string, number | null>;
  parameters: Map<string, number | null>;
}

export interface ScoreDifference {
  /** "value", "dataSourcesScore", "policyParametersScore", "dataSources.<id>" or "parameters.<id>". */
  path: string;
  reported: number | null;
  recomputed: number | null;
  /** recomputed - reported when both are numbers, else null. */
  delta: number | null;
  /** Both null, or both numbers within the tolerance. */
  ok: boolean;
  /** Set when the data source or parameter is absent on that side (its value is then taken as null). */
  missing?: 'reported' | 'recomputed';
}

function nv(v: number | null | undefined): number | null {
  return v === undefined || v === null ? null : v;
}

/** A model result always has its dataSources and parameters arrays; a service item (whose fields may be absent) has neither. */
function isServiceShape(x: ScoreResultLike | SupplierScore): x is ScoreResultLike {
  return !(Array.isArray((x as SupplierScore).dataSources) && Array.isArray((x as SupplierScore).parameters));
}

/** The comparable numbers of a service result item or a model result. */
export function summarizeScore(x: ScoreResultLike | SupplierScore): ScoreSummary {
  const dataSources = new Map<string, number | null>();
  const parameters = new Map<string, number | null>();
  if (isServiceShape(x)) {
    // A data source or parameter without an id cannot be matched with anything: not compared.
    for (const ds of x.dataSourceScores ?? []) if (typeof ds.dataSourceId === 'string') dataSources.set(ds.dataSourceId, nv(ds.score?.value));
    for (const pp of x.policyParameterScores ?? []) if (typeof pp.policyParameterId === 'string') parameters.set(pp.policyParameterId, nv(pp.score?.value));
    return {
      value: nv(x.score?.value),
      dataSourcesScore: nv(x.score?.dataSourcesScore?.value),
      policyParametersScore: nv(x.score?.policyParametersScore?.value),
      dataSources,
      parameters,
    };
  }
  for (const ds of x.dataSources) dataSources.set(ds.dataSourceId, ds.value);
  for (const pp of x.parameters) parameters.set(pp.policyParameterId, pp.value);
  return {
    value: x.value,
    dataSourcesScore: x.dataSourcesScore,
    policyParametersScore: x.policyParametersScore,
    dataSources,
    parameters,
  };
}

function diff(path: string, reported: number | null, recomputed: number | null, tolerance: number): ScoreDifference {
  if (reported === null || recomputed === null) {
    return { path, reported, recomputed, delta: null, ok: reported === recomputed };
  }
  const delta = recomputed - reported;
  return { path, reported, recomputed, delta, ok: Math.abs(delta) <= tolerance };
}

function compareMaps(
  prefix: string,
  reported: Map<string, number | null>,
  recomputed: Map<string, number | null>,
  tolerance: number,
  out: ScoreDifference[],
): void {
  const ids = [...new Set([...reported.keys(), ...recomputed.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const id of ids) {
    const d = diff(`${prefix}.${id}`, nv(reported.get(id)), nv(recomputed.get(id)), tolerance);
    if (!reported.has(id)) d.missing = 'reported';
    else if (!recomputed.has(id)) d.missing = 'recomputed';
    out.push(d);
  }
}

/**
 * Compares two results number by number: value, dataSourcesScore,
 * policyParametersScore, then every data source and every parameter (sorted
 * by id; one absent on a side counts as null there). Every comparison is
 * listed with `ok`; filter on !ok for the mismatches. null vs a number is a
 * mismatch, null vs null is equal. Either argument may be a service result
 * item or a model result.
 */
export function compareScores(
  reported: ScoreResultLike | SupplierScore,
  recomputed: ScoreResultLike | SupplierScore,
  tolerance: number = DEFAULT_COMPARE_TOLERANCE,
): ScoreDifference[] {
  if (typeof tolerance !== 'number' || !(tolerance >= 0)) {
    throw new RangeError(`tolerance must be a number >= 0, got ${String(tolerance)}`);
  }
  const a = summarizeScore(reported);
  const b = summarizeScore(recomputed);
  const out: ScoreDifference[] = [
    diff('value', a.value, b.value, tolerance),
    diff('dataSourcesScore', a.dataSourcesScore, b.dataSourcesScore, tolerance),
    diff('policyParametersScore', a.policyParametersScore, b.policyParametersScore, tolerance),
  ];
  compareMaps('dataSources', a.dataSources, b.dataSources, tolerance, out);
  compareMaps('parameters', a.parameters, b.parameters, tolerance, out);
  return out;
}
