/**
 * The rules of `srs score check`, as pure functions over score results. They
 * fail closed: what a rule cannot evaluate (no score, no parameter score, no
 * risk level) fails unless --allow-no-data accepts it. Numbers are compared
 * rounded to COMPARE_DIGITS (9) decimals; messages show as many digits as the
 * verdict needs to be visibly right.
 */
import { leftOutOf, type ScoreResult } from '../../api/contract.js';
import { comparable, digitsToShow, duplicatedScores, isOffScale, normalizeDate, showNumber } from '../../scoring/index.js';
import type { CheckResult, CheckStatus } from '../../scoring/gate.js';
import { RISK_LEVELS_HELP, riskRank, supplierRiskLevel, supplierRiskRecognised, unrecognisedRiskLevels } from './bundle.js';

export type { CheckResult, CheckStatus } from '../../scoring/gate.js';

export interface CheckRules {
  min?: number;
  minParameter: Map<string, number>;
  maxRisk?: string;
  expiringWithinDays?: number;
  /** supplierId -> baseline overall score (null: no data then; unknown: no value srs can compare with). */
  baseline?: Map<string, BaselineValue>;
  maxDrop?: number;
  /** No score (overall, a named parameter's, a risk level) passes as "no data" instead of failing. */
  allowNoData: boolean;
  /** The date of the scores checked: today online, the bundle's with --from. */
  asOf: string;
  /**
   * The check's own date (today): --expiring-within counts from it, or from asOf when that is later (a bundle
   * calculated --as-of a future date). A year-old bundle passed --expiring-within 90 with evidence that had expired.
   */
  expiryFrom?: string;
  /** Where the scores came from, for the reports: a base URL, the sandbox, or a bundle and its service. */
  source?: string;
}

export function addDays(date: string, days: number): string {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** "score 0.49999 is below the minimum 0.5": the value with the digits the verdict needs, the threshold as given. */
function belowMessage(what: string, value: number, min: number): string {
  return `${what} ${showNumber(value, digitsToShow(value, min))} is below the minimum ${showNumber(min, 9)}`;
}

const noValue = (v: number | null | undefined): v is null | undefined => v === null || v === undefined;

/** Where to look when srs cannot tell: what the service sent for the supplier. */
const seeWhat = (id: string) => `srs score calc ${id} -o json shows what the service sent`;

/**
 * What the parts of a result that srs left out (leftOutOf: a parameter score without its policyParameterId, a data
 * entry without an id, ...) keep a rule from seeing: the rule cannot pass on what remains. A parameter with risk
 * High and no id passed --max-risk Medium; entries without an id that expire soon passed --expiring-within.
 */
function lostFor(leftOut: readonly string[]): { entries: string | undefined; parameters: string | undefined; risk: string | undefined } {
  const find = (...parts: string[]) => leftOut.find((l) => parts.some((p) => l.startsWith(p)));
  return {
    entries: find('data entries without an id', 'data source scores without', 'policy parameter scores without'),
    parameters: find('policy parameter scores without'),
    risk: find('policy parameter scores without', 'risk entries without', 'risk indicators without'),
  };
}

export function evaluate(item: ScoreResult, rules: CheckRules, leftOut: readonly string[] = leftOutOf(item)): CheckResult {
  const lost = lostFor(leftOut);
  // leftOutOf says "policy parameter scores without a policyParameterId, left out: 3".
  const cannot = (rule: string, part: string) => {
    const m = /^(.*?)(?:, left out)?: (\d+)$/.exec(part);
    return `the service's result has ${m ? `${m[2]} ${m[1]}` : part}, which srs left out, so ${rule} cannot be checked (${seeWhat(item.supplierId)})`;
  };
  const fails: string[] = [];
  const noData: string[] = [];
  const notes: string[] = [];
  /** What srs cannot evaluate: the supplier is unknown (unless it fails anyway). */
  const unknowns: string[] = [];
  // A data source or parameter listed twice: which copy counts is anyone's guess, so no verdict rests on either.
  const duplicated = duplicatedScores(item);
  if (duplicated.length) unknowns.push(`conflicting result: ${duplicated.join(', and ')}, so srs cannot tell which counts (${seeWhat(item.supplierId)})`);
  // The service may send null or leave the field out for "no data": both mean no score.
  const raw = item.score?.value;
  const score = noValue(raw) ? null : raw;
  // Scores are on -3..+3 (the service's documentation): a value outside it is not a score any gate can read.
  if (isOffScale(score)) unknowns.push(`the service's score ${score} is outside the scale -3..+3, so srs cannot gate on it (${seeWhat(item.supplierId)})`);
  for (const p of item.policyParameterScores ?? []) {
    if (isOffScale(p.score?.value)) unknowns.push(`parameter ${p.policyParameterId}'s score ${p.score?.value} is outside the scale -3..+3`);
  }
  if (score === null) noData.push('no score (no counting data)');
  else if (rules.min !== undefined && comparable(score) < comparable(rules.min)) fails.push(belowMessage('score', score, rules.min));

  for (const [pid, min] of rules.minParameter) {
    if (duplicated.length) break;
    const p = item.policyParameterScores?.find((x) => x.policyParameterId === pid);
    const v = p?.score?.value;
    // Not found, it may be one of the parameter scores left out for having no id.
    if (!p && lost.parameters) unknowns.push(cannot(`--min-parameter ${pid}`, lost.parameters));
    else if (noValue(v)) noData.push(`parameter ${pid} has no score`);
    else if (comparable(v) < comparable(min)) fails.push(belowMessage(`parameter ${pid} score`, v, min));
  }

  const risk = supplierRiskLevel(item);
  if (rules.maxRisk !== undefined) {
    // The document allows any string: a level srs does not know could be above any known one.
    const strange = unrecognisedRiskLevels(item);
    const above = risk !== null && !strange.length && riskRank(risk)! > riskRank(rules.maxRisk)!;
    if (lost.risk && !above) unknowns.push(cannot(`--max-risk ${rules.maxRisk}`, lost.risk));
    else if (strange.length) {
      unknowns.push(`risk level ${strange.map((l) => JSON.stringify(l)).join(', ')} is not one srs knows (${RISK_LEVELS_HELP}), so --max-risk ${rules.maxRisk} cannot be checked (srs score explain ${item.supplierId} shows each parameter's risk)`);
    } else if (risk === null) noData.push('no risk level (--max-risk cannot be checked)');
    // Every level is a known one here (no strange ones): ranked.
    else if (riskRank(risk)! > riskRank(rules.maxRisk)!) fails.push(`risk ${risk} is above the maximum ${rules.maxRisk}`);
  }

  if (rules.expiringWithinDays !== undefined) {
    const from = rules.expiryFrom !== undefined && rules.expiryFrom > rules.asOf ? rules.expiryFrom : rules.asOf;
    const limit = addDays(from, rules.expiringWithinDays);
    let soonest: { id: string; date: string } | undefined;
    const unreadable: string[] = [];
    const consider = (id: string, date: string | null | undefined) => {
      if (!date) return;
      // Compared as calendar dates (the model's reading): "2026-12-04T00:00:00Z" is 2026-12-04, not a string after it.
      let day: string | null;
      try {
        day = normalizeDate(date);
      } catch {
        unreadable.push(`entry ${id} (${JSON.stringify(date)})`);
        return;
      }
      if (day !== null && day <= limit && (!soonest || day < soonest.date)) soonest = { id, date: day };
    };
    for (const ds of item.dataSourceScores ?? []) for (const e of ds.dataPoints.dataEntries) consider(e.id, e.expiryDate);
    for (const p of item.policyParameterScores ?? []) for (const e of p.dataPoints.dataEntries) consider(e.id, e.expiryDate);
    // An entry that has already expired is said as such: "expires within 30 days" for one that expired 692 days ago misled.
    if (soonest) fails.push(soonest.date < from ? `evidence has expired (entry ${soonest.id} on ${soonest.date}, and --expiring-within counts expired evidence too)` : `evidence expires within ${rules.expiringWithinDays} days (entry ${soonest.id} on ${soonest.date})`);
    else if (lost.entries) unknowns.push(cannot(`--expiring-within ${rules.expiringWithinDays}`, lost.entries));
    else if (unreadable.length) unknowns.push(`an expiry date that is not a calendar date: ${unreadable.slice(0, 3).join(', ')}, so --expiring-within cannot be checked (${seeWhat(item.supplierId)})`);
  }

  let isNew = false;
  if (rules.baseline && rules.maxDrop !== undefined) {
    if (!rules.baseline.has(item.supplierId)) {
      isNew = true;
      notes.push('new: not in the baseline');
    } else {
      const was = rules.baseline.get(item.supplierId) ?? null;
      const before = typeof was === 'object' && was !== null ? null : was;
      if (typeof was === 'object' && was !== null) {
        unknowns.push(`--max-drop cannot be checked: ${was.unknown}`);
      } else if (before !== null && score === null) {
        fails.push(`score fell from ${showNumber(before, 9)} to no data since the baseline`);
      } else if (before !== null && score !== null) {
        // Both sides rounded, and the difference too: 1.1 - 0.6 is a drop of 0.5, not 0.5000000000000001.
        const drop = comparable(comparable(before) - comparable(score));
        if (drop > comparable(rules.maxDrop)) {
          const d = Math.max(digitsToShow(drop, rules.maxDrop), 2);
          fails.push(`score fell by ${showNumber(drop, d)} since the baseline (${showNumber(before, d)} -> ${showNumber(score, d)}), more than ${showNumber(rules.maxDrop, 9)}`);
        }
      }
    }
  }

  if (!rules.allowNoData) // No ";" inside a reason: a table or CSV cell lists reasons joined by "; " (a reason holding one was shown as JSON).
  if (!rules.allowNoData) fails.push(...noData.map((r) => `${r}, which --allow-no-data accepts`));
  let status: CheckStatus;
  if (fails.length) status = 'fail';
  else if (unknowns.length) status = 'unknown';
  else if (score === null || noData.length) status = 'no data';
  else status = isNew ? 'new' : 'pass';
  const reasons = fails.length ? [...fails, ...unknowns] : unknowns.length ? unknowns : [...noData, ...notes];
  return { supplierId: item.supplierId, status, score, riskLevel: risk, riskRecognised: supplierRiskRecognised(item), reasons };
}

/** A baseline's overall score: a number, null (no data then), or why there is none to compare with. */
export type BaselineValue = number | null | { unknown: string };

/** A supplier the service does not know, or whose existence srs could not establish: fails. */
export function unknownResult(supplierId: string, reason: string): CheckResult {
  return { supplierId, status: 'unknown', score: null, riskLevel: null, riskRecognised: null, reasons: [reason] };
}

/** A --baseline supplier that is not in this run (a failure only with --baseline-strict). */
export function missingFromRun(supplierId: string, before: BaselineValue): CheckResult {
  const then = before === null ? 'no data' : typeof before === 'number' ? showNumber(before, 9) : 'no comparable value';
  return {
    supplierId,
    status: 'fail',
    score: null,
    riskLevel: null,
    riskRecognised: null,
    reasons: [`in the baseline (${then}) but not in this run (--baseline-strict)`],
  };
}
