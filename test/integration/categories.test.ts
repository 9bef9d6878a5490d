/**
 * GET /v1/categories, which the document names but does not show: the client takes { items, pagination? } or a
 * bare array, and an answer of neither shape is one line naming the field (exit 1).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, baseEnv, runSrs } from './harness.js';

let server: Server;
let base: string;
const bodies: Record<string, unknown> = {
  '/bare/v1/categories': [{ id: 'c1', name: 'Packaging' }, { id: 'c2' }],
  '/numbers/v1/categories': [1, 2, 3],
  '/noitems/v1/categories': { pageSize: 100 },
  '/textitems/v1/categories': { items: 'Packaging' },
};

beforeAll(async () => {
  assertBuilt();
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(bodies[path] ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('ref categories', () => {
  const env = (prefix: string) => ({ ...baseEnv(mkdtempSync(join(tmpdir(), 'srs-cat-'))), SRS_BASE_URL: `${base}/${prefix}`, SRS_API_KEY: 'test-key-categories' });
  it('a bare array is the list', async () => {
    const r = await runSrs(['ref', 'categories', '-o', 'json'], env('bare'));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'c1', name: 'Packaging' }, { id: 'c2' }]);
  });
  it.each([
    ['numbers', /body\.items\[0\]: .*expected object/],
    ['textitems', /body\.items: .*expected array/],
    // Other fields and no items: no list (items absent reads as none only in an answer that holds nothing else).
    ['noitems', /body\.items: .*expected array/],
  ])('an answer of neither shape (%s) names the field, exit 1', async (prefix, pattern) => {
    const r = await runSrs(['ref', 'categories', '--retries', '0'], env(prefix));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
