/** How score results look as rows: the summary per supplier and the three breakdowns. */
import type { ScoreResult } from '../../api/contract.js';
import type { Names } from '../../api/names.js';
import type { Column } from '../../output/columns.js';
import { scoreCell, scoreLabel } from '../../scoring/index.js';
import { riskCell, riskRank, supplierRiskLevel, supplierRiskRecognised } from './bundle.js';

export type Breakdown = 'sources' | 'parameters' | 'entries';


export function summaryRow(item: ScoreResult) {
  return {
    supplierId: item.supplierId,
    score: item.score.value,
    label: scoreLabel(item.score.value),
    dataSourcesScore: item.score.dataSourcesScore.value,
    policyParametersScore: item.score.policyParametersScore.value,
    riskLevel: supplierRiskLevel(item),
    riskRecognised: supplierRiskRecognised(item),
    dataSources: item.dataSourceScores.length,
    parameters: item.policyParameterScores.length,
  };
}

export const summaryColumns: Column[] = [
  { path: 'supplierId', header: 'SUPPLIER', kind: 'id' },
  { path: 'score', header: 'OVERALL', align: 'right', format: scoreCell, kind: 'number' },
  { path: 'label', header: 'LABEL', kind: 'state' },
  { path: 'dataSourcesScore', header: 'DATA SOURCES', align: 'right', format: scoreCell, kind: 'number', hide: 2 },
  { path: 'policyParametersScore', header: 'PARAMETERS', align: 'right', format: scoreCell, kind: 'number', hide: 1 },
  { path: 'riskLevel', header: 'RISK', format: (v, row) => riskCell(v, (row as { riskRecognised?: unknown }).riskRecognised), kind: 'state' },
  // CSV and --fields only: scripts compare riskLevel as sent, and read whether srs can rank it here.
  { path: 'riskRecognised', header: 'RISK RECOGNISED', csvOnly: true },
];

/**
 * The rows of a breakdown. With `names` (tables and CSV), each row also
 * carries the name of its data source or policy parameter (null when the
 * service did not name it); without (JSON), rows hold the service's ids only.
 */
export function* breakdownRows(items: ScoreResult[], kind: Breakdown, names?: Names): Generator<Record<string, unknown>> {
  const sourceName = (id: string) => (names ? { dataSourceName: names.dataSources.get(id) ?? null } : {});
  const parameterName = (id: string) => (names ? { policyParameterName: names.parameters.get(id) ?? null } : {});
  const scopeName = (scope: 'dataSource' | 'policyParameter', id: string) =>
    names ? { scopeName: (scope === 'dataSource' ? names.dataSources : names.parameters).get(id) ?? null } : {};
  for (const item of items) {
    if (kind === 'sources') {
      for (const ds of item.dataSourceScores) {
        yield { supplierId: item.supplierId, dataSourceId: ds.dataSourceId, ...sourceName(ds.dataSourceId), score: ds.score.value, label: scoreLabel(ds.score.value), entries: ds.dataPoints.dataEntries.length };
      }
    } else if (kind === 'parameters') {
      for (const p of item.policyParameterScores) {
        yield {
          supplierId: item.supplierId,
          policyParameterId: p.policyParameterId,
          ...parameterName(p.policyParameterId),
          score: p.score.value,
          label: scoreLabel(p.score.value),
          riskLevel: p.dataPoints.risk?.riskLevel ?? null,
          // As in the summary: a level srs cannot rank (an escape-coded "High" showed as High once sanitised) is marked.
          riskRecognised: typeof p.dataPoints.risk?.riskLevel === 'string' ? riskRank(p.dataPoints.risk.riskLevel) !== undefined : null,
          entries: p.dataPoints.dataEntries.length,
          contexts: (p.dataPoints.contexts ?? []).map((c) => `${c.type}:${c.code}`),
        };
      }
    } else {
      for (const ds of item.dataSourceScores) {
        for (const e of ds.dataPoints.dataEntries) {
          yield { supplierId: item.supplierId, scope: 'dataSource', scopeId: ds.dataSourceId, ...scopeName('dataSource', ds.dataSourceId), entryId: e.id, dataSourceId: e.dataSourceId, score: e.score.value, isClaim: e.isClaim, issueDate: e.issueDate ?? null, expiryDate: e.expiryDate ?? null };
        }
      }
      for (const p of item.policyParameterScores) {
        for (const e of p.dataPoints.dataEntries) {
          yield { supplierId: item.supplierId, scope: 'policyParameter', scopeId: p.policyParameterId, ...scopeName('policyParameter', p.policyParameterId), entryId: e.id, dataSourceId: e.dataSourceId, score: e.score.value, isClaim: e.isClaim, issueDate: e.issueDate ?? null, expiryDate: e.expiryDate ?? null };
        }
      }
    }
  }
}

/** Which names a breakdown shows. */
export function namesNeeded(kind: Breakdown): { parameters: boolean; dataSources: boolean } {
  return { parameters: kind !== 'sources', dataSources: kind !== 'parameters' };
}

export const breakdownColumns: Record<Breakdown, Column[]> = {
  sources: [
    { path: 'supplierId', header: 'SUPPLIER', kind: 'id', hideIfConstant: true, group: true },
    { path: 'dataSourceId', header: 'DATA SOURCE', kind: 'id' },
    { path: 'dataSourceName', header: 'NAME', kind: 'text' },
    { path: 'score', header: 'SCORE', align: 'right', format: scoreCell, kind: 'number' },
    { path: 'label', header: 'LABEL', kind: 'state', hide: 1 },
    { path: 'entries', header: 'ENTRIES', align: 'right', kind: 'number' },
  ],
  parameters: [
    { path: 'supplierId', header: 'SUPPLIER', kind: 'id', hideIfConstant: true, group: true },
    { path: 'policyParameterId', header: 'PARAMETER', kind: 'id' },
    { path: 'policyParameterName', header: 'NAME', kind: 'text' },
    { path: 'score', header: 'SCORE', align: 'right', format: scoreCell, kind: 'number' },
    { path: 'label', header: 'LABEL', kind: 'state', hide: 2 },
    { path: 'riskLevel', header: 'RISK', format: (v, row) => riskCell(v, (row as { riskRecognised?: unknown }).riskRecognised), kind: 'state', hide: 4 },
    { path: 'riskRecognised', header: 'RISK RECOGNISED', csvOnly: true },
    { path: 'entries', header: 'ENTRIES', align: 'right', kind: 'number', hide: 3 },
    { path: 'contexts', header: 'CONTEXTS', kind: 'text', hide: 1 },
  ],
  entries: [
    { path: 'supplierId', header: 'SUPPLIER', kind: 'id', hideIfConstant: true, group: true },
    // FOR says what the id beside it is (a data source's or a parameter's): kept, in a word, at any width. At 80
    // columns it was hidden and SOURCE/PARAMETER mixed the two kinds of id, the same entry under each (review).
    { path: 'scope', header: 'FOR', kind: 'state', format: (v) => (v === 'dataSource' ? 'source' : v === 'policyParameter' ? 'parameter' : String(v ?? '—')) },
    { path: 'scopeId', header: 'SOURCE/PARAMETER', kind: 'id' },
    { path: 'scopeName', header: 'NAME', kind: 'text', hide: 4 },
    { path: 'entryId', header: 'ENTRY', kind: 'id' },
    { path: 'score', header: 'SCORE', align: 'right', format: scoreCell, kind: 'number' },
    { path: 'isClaim', header: 'CLAIM', kind: 'state', hide: 2 },
    { path: 'issueDate', header: 'ISSUED', kind: 'date', hide: 1 },
    { path: 'expiryDate', header: 'EXPIRES', kind: 'date', hide: 3 },
  ],
};
