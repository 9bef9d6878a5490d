/**
 * A baseline that differs from today's scores the way a genuine older bundle does: its entries differ, and every
 * value it reports is what srs's model computes from them. Since `score check --baseline` recomputes a baseline
 * (a value edited alone is "recomputation differs"), tests that need an older baseline edit its entries, then set
 * each reported value to srs's own recomputation (`srs score recompute FILE -o json`) and recompute the digest and
 * the count: what a forger who knows the model would do, and what a bundle saved last month looks like.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { runSrs } from '../integration/harness.js';

type Rec = Record<string, unknown>;
interface Scored {
  score: { value: number | null };
}
interface Item {
  supplierId: string;
  score: { value: number | null; dataSourcesScore?: { value: number | null }; policyParametersScore?: { value: number | null } };
  dataSourceScores: Array<Scored & { dataSourceId: string }>;
  policyParameterScores: Array<Scored & { policyParameterId: string }>;
}
interface Row {
  supplierId: string;
  path: string;
  recomputed: number | null;
}

/** Writes records as a format-2 bundle whose digest and supplier count match its content. */
export function writeDigested(path: string, records: readonly Rec[]): void {
  const body = records.slice(0, -1).map((r) => JSON.stringify(r) + '\n').join('');
  const end = structuredClone(records.at(-1)!) as { suppliers: number; digest: { value: string } };
  end.digest.value = createHash('sha256').update(body).digest('hex');
  end.suppliers = records.filter((r) => r.t === 'result' || r.t === 'error').length;
  writeFileSync(path, body + JSON.stringify(end) + '\n');
}

/** Writes `records` to `path` with every reported value set to srs's recomputation of its entries (see above). */
export async function writeConsistent(path: string, records: Rec[], env: Record<string, string | undefined>): Promise<void> {
  writeDigested(path, records);
  const r = await runSrs(['score', 'recompute', path, '-o', 'json'], env);
  if (r.code !== 0) throw new Error(`score recompute ${path} failed (exit ${r.code}): ${r.stderr}`);
  const rows = new Map<string, Row[]>();
  for (const row of JSON.parse(r.stdout) as Row[]) rows.set(row.supplierId, [...(rows.get(row.supplierId) ?? []), row]);
  for (const rec of records) {
    if (rec.t !== 'result') continue;
    const item = rec.item as Item;
    for (const row of rows.get(item.supplierId) ?? []) {
      const v = row.recomputed;
      if (row.path === 'value') item.score.value = v;
      else if (row.path === 'dataSourcesScore' && item.score.dataSourcesScore) item.score.dataSourcesScore.value = v;
      else if (row.path === 'policyParametersScore' && item.score.policyParametersScore) item.score.policyParametersScore.value = v;
      else if (row.path.startsWith('dataSources.')) {
        for (const d of item.dataSourceScores) if (`dataSources.${d.dataSourceId}` === row.path) d.score.value = v;
      } else if (row.path.startsWith('parameters.')) {
        for (const p of item.policyParameterScores) if (`parameters.${p.policyParameterId}` === row.path) p.score.value = v;
      }
    }
  }
  writeDigested(path, records);
}
