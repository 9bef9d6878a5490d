/** The rules of `srs score check`, as a pure function over score results. */
import type { ScoreResult } from '../../api/contract.js';
import { roundScore } from '../../scoring/index.js';
import { riskRank, supplierRiskLevel } from './bundle.js';
// The result types live below the commands (the schema registry describes them too).
import type { CheckResult, CheckStatus } from '../../scoring/check-types.js';
export type { CheckResult, CheckStatus } from '../../scoring/check-types.js';

export interface CheckRules {
  min?: number;
  minParameter: Map<string, number>;
  maxRisk?: string;
  expiringWithinDays?: number;
  /** supplierId -> baseline overall score. */
  baseline?: Map<string, number | null>;
  maxDrop?: number;
  requireScore: boolean;
  asOf: string;
}

const show = (n: number) => String(roundScore(n, 3));

export function addDays(date: string, days: number): string {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

export function evaluate(item: ScoreResult, rules: CheckRules): CheckResult {
  const fails: string[] = [];
  const noData: string[] = [];
  const score = item.score?.value ?? null; // absent and null alike: no score
  if (score === null) noData.push('no score (no counting data)');
  else if (rules.min !== undefined && score < rules.min) fails.push(`score ${show(score)} is below the minimum ${rules.min}`);

  for (const [pid, min] of rules.minParameter) {
    const p = item.policyParameterScores?.find((x) => x.policyParameterId === pid);
    const v = p?.score?.value ?? null;
    if (v === null) noData.push(`parameter ${pid} has no score`);
    else if (v < min) fails.push(`parameter ${pid} score ${show(v)} is below the minimum ${min}`);
  }

  const risk = supplierRiskLevel(item);
  if (rules.maxRisk !== undefined && risk !== null) {
    const have = riskRank(risk);
    const max = riskRank(rules.maxRisk)!;
    if (have === undefined) fails.push(`risk level "${risk}" is not a known level`);
    else if (have > max) fails.push(`risk ${risk} is above the maximum ${rules.maxRisk}`);
  }

  if (rules.expiringWithinDays !== undefined) {
    const limit = addDays(rules.asOf, rules.expiringWithinDays);
    let soonest: { id: string; date: string } | undefined;
    const consider = (id: string | null | undefined, date: string | null | undefined) => {
      if (date && date <= limit && (!soonest || date < soonest.date)) soonest = { id: id ?? '(no id)', date };
    };
    for (const ds of item.dataSourceScores ?? []) for (const e of ds.dataPoints?.dataEntries ?? []) consider(e.id, e.expiryDate);
    for (const p of item.policyParameterScores ?? []) for (const e of p.dataPoints?.dataEntries ?? []) consider(e.id, e.expiryDate);
    if (soonest) fails.push(`evidence expires within ${rules.expiringWithinDays} days (entry ${soonest.id} on ${soonest.date})`);
  }

  if (rules.baseline && rules.maxDrop !== undefined) {
    const before = rules.baseline.get(item.supplierId);
    if (before !== undefined && before !== null && score !== null && before - score > rules.maxDrop) {
      fails.push(`score fell by ${show(before - score)} since the baseline (${show(before)} -> ${show(score)}), more than ${rules.maxDrop}`);
    }
  }

  if (rules.requireScore) fails.push(...noData);
  const status: CheckStatus = fails.length ? 'fail' : score === null ? 'no data' : 'pass';
  return { supplierId: item.supplierId, status, score, riskLevel: risk, reasons: fails.length ? fails : noData };
}
