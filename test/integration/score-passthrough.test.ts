/**
 * score calc -o json|ndjson passes the service's own bytes through; whether each result has an overall
 * score is read from those bytes (scanItems' `scored`), whatever the result's size. A result of several KB
 * without one (the document marks nothing in a score result as required) used to be taken for a supplier
 * that exists: exit 0 for an id the service does not know.
 */
import { describe, expect, it } from 'vitest';
import { runSrs } from './harness.js';
import { json, useHostileServer } from '../support/hostile-server.js';

const KEY = 'passthrough-key-SECRET';
const hostile = useHostileServer(KEY);
const UNKNOWN = '01h57nhc4sapk2v8c7tq0bbbbb';
const KNOWN = '01h57nhc4sapk2v8c7tq0abcde';

/** A ~4 KB result: twenty parameter scores, no overall value unless `value` is given. */
function result(supplierId: string, value?: number) {
  return {
    supplierId,
    score: value === undefined ? { dataSourcesScore: {}, policyParametersScore: {} } : { value, dataSourcesScore: { value }, policyParametersScore: { value } },
    dataSourceScores: [],
    policyParameterScores: Array.from({ length: 20 }, (_, i) => ({
      policyParameterId: `01h57nhc4sapk2v8c7tq0pp${String(i).padStart(3, '0')}`,
      score: {},
      dataPoints: { dataEntries: [], contexts: [{ type: 'industry', name: 'Manufacture of basic iron and steel products', code: '24101000' }] },
    })),
  };
}

describe('score calc -o json|ndjson: a large result without an overall score', () => {
  for (const format of ['json', 'ndjson']) {
    it(`-o ${format}: its supplier is looked up, and one the service does not know is UNKNOWN, exit 1`, async () => {
      const base = hostile.server.scenario(`big-${format}`, (req, res) => {
        if (req.method === 'POST') return json(res, 200, { items: [result(UNKNOWN), result(KNOWN, 1.25)] });
        if (req.url?.endsWith(`/v1/suppliers/${KNOWN}`)) return json(res, 200, { item: { id: KNOWN, name: 'Known' } });
        return json(res, 404, { message: 'not found' });
      });
      const r = await runSrs(['score', 'calc', UNKNOWN, KNOWN, '-o', format], { ...hostile.env, SRS_BASE_URL: base });
      expect(JSON.stringify(result(UNKNOWN)).length).toBeGreaterThan(2048);
      expect(r.stderr).toMatch(new RegExp(`UNKNOWN ${UNKNOWN}: the service does not know supplier`));
      expect(r.code).toBe(1);
      // Passed through as sent, both results; only the one without a score was looked up.
      expect(r.stdout).toContain(JSON.stringify(result(KNOWN, 1.25)));
      const lookups = hostile.server.seen.filter((s) => s.url.startsWith(`/s/big-${format}/v1/suppliers/`)).map((s) => s.url.split('/').at(-1));
      expect(lookups).toEqual([UNKNOWN]);
    });
  }
});
