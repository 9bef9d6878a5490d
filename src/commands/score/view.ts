/** How score results look as rows: the summary per supplier and the three breakdowns. */
import type { ScoreDataEntry, ScoreResult } from '../../api/contract.js';
import type { Column } from '../../output/columns.js';
import { roundScore, scoreLabel } from '../../scoring/index.js';
import { supplierRiskLevel } from './bundle.js';

export type Breakdown = 'sources' | 'parameters' | 'entries';

const num = (v: unknown): string => (typeof v === 'number' ? roundScore(v).toFixed(2) : v === null || v === undefined ? '—' : String(v));

export function summaryRow(item: ScoreResult) {
  return {
    supplierId: item.supplierId,
    score: item.score?.value ?? null,
    label: scoreLabel(item.score?.value ?? null),
    dataSourcesScore: item.score?.dataSourcesScore?.value ?? null,
    policyParametersScore: item.score?.policyParametersScore?.value ?? null,
    riskLevel: supplierRiskLevel(item),
    dataSources: item.dataSourceScores?.length ?? 0,
    parameters: item.policyParameterScores?.length ?? 0,
  };
}

export const summaryColumns: Column[] = [
  { path: 'supplierId', header: 'SUPPLIER' },
  { path: 'score', header: 'OVERALL', align: 'right', format: num },
  { path: 'label', header: 'LABEL' },
  { path: 'dataSourcesScore', header: 'DATA SOURCES', align: 'right', format: num },
  { path: 'policyParametersScore', header: 'PARAMETERS', align: 'right', format: num },
  { path: 'riskLevel', header: 'RISK', format: (v) => (typeof v === 'string' ? v : '—') },
];

export function* breakdownRows(items: ScoreResult[], kind: Breakdown): Generator<Record<string, unknown>> {
  for (const item of items) {
    if (kind === 'sources') {
      for (const ds of item.dataSourceScores ?? []) {
        const value = ds.score?.value ?? null;
        yield { supplierId: item.supplierId, dataSourceId: ds.dataSourceId ?? null, score: value, label: scoreLabel(value), entries: ds.dataPoints?.dataEntries?.length ?? 0 };
      }
    } else if (kind === 'parameters') {
      for (const p of item.policyParameterScores ?? []) {
        const value = p.score?.value ?? null;
        yield {
          supplierId: item.supplierId,
          policyParameterId: p.policyParameterId ?? null,
          score: value,
          label: scoreLabel(value),
          riskLevel: p.dataPoints?.risk?.riskLevel ?? null,
          entries: p.dataPoints?.dataEntries?.length ?? 0,
          contexts: (p.dataPoints?.contexts ?? []).map((c) => `${c.type ?? '—'}:${c.code ?? '—'}`),
        };
      }
    } else {
      for (const ds of item.dataSourceScores ?? []) {
        for (const e of ds.dataPoints?.dataEntries ?? []) {
          yield { supplierId: item.supplierId, scope: 'dataSource', scopeId: ds.dataSourceId ?? null, ...entryRow(e) };
        }
      }
      for (const p of item.policyParameterScores ?? []) {
        for (const e of p.dataPoints?.dataEntries ?? []) {
          yield { supplierId: item.supplierId, scope: 'policyParameter', scopeId: p.policyParameterId ?? null, ...entryRow(e) };
        }
      }
    }
  }
}

/** An entry's row fields; what the service left out is null (shown as —). */
function entryRow(e: ScoreDataEntry) {
  return { entryId: e.id ?? null, dataSourceId: e.dataSourceId ?? null, score: e.score?.value ?? null, isClaim: e.isClaim ?? null, issueDate: e.issueDate ?? null, expiryDate: e.expiryDate ?? null };
}

export const breakdownColumns: Record<Breakdown, Column[]> = {
  sources: [
    { path: 'supplierId', header: 'SUPPLIER' },
    { path: 'dataSourceId', header: 'DATA SOURCE' },
    { path: 'score', header: 'SCORE', align: 'right', format: num },
    { path: 'label', header: 'LABEL' },
    { path: 'entries', header: 'ENTRIES', align: 'right' },
  ],
  parameters: [
    { path: 'supplierId', header: 'SUPPLIER' },
    { path: 'policyParameterId', header: 'PARAMETER' },
    { path: 'score', header: 'SCORE', align: 'right', format: num },
    { path: 'label', header: 'LABEL' },
    { path: 'riskLevel', header: 'RISK' },
    { path: 'entries', header: 'ENTRIES', align: 'right' },
    { path: 'contexts', header: 'CONTEXTS' },
  ],
  entries: [
    { path: 'supplierId', header: 'SUPPLIER' },
    { path: 'scope', header: 'FOR' },
    { path: 'scopeId', header: 'SOURCE/PARAMETER' },
    { path: 'entryId', header: 'ENTRY' },
    { path: 'score', header: 'SCORE', align: 'right', format: num },
    { path: 'isClaim', header: 'CLAIM' },
    { path: 'issueDate', header: 'ISSUED' },
    { path: 'expiryDate', header: 'EXPIRES' },
  ],
};
