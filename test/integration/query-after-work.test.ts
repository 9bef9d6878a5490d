/**
 * A --query that compiles but fails on the data (a function given the wrong type) after the command's work is done
 * (review round 16): it was exit 2, "usage, nothing sent", which invites a retry; an import printed no summary, and
 * score check lost its verdict (JUnit "not evaluated"). Now: exit 1 naming what was done, a check's verdict stands,
 * and a read is still exit 2. Each runs the built srs against the emulator.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { storedIds, withHarness } from './harness.js';

const BAD = 'length(foo)'; // compiles; fails on any object without "foo" (length of null)
const [a, b] = fixtures().suppliers.map((s) => s.id);

describe('a --query that fails after the work is done', () => {
  it('supplier create: exit 1 naming the created supplier; import: the summary without the query, exit 1; nothing twice', async () => {
    await withHarness({}, async (h) => {
      const c = await h.run(['supplier', 'create', '--name', 'Query Err Co', '--customer-id', 'QE-1', '--query', BAD, '-o', 'json']);
      expect(c.code).toBe(1);
      expect(c.stderr).toMatch(/supplier 01[0-9a-z]{24} was created, but --query: /);
      const csv = join(h.home, 'qi.csv');
      writeFileSync(csv, 'name,customerSupplierId\nQuery Row One,QE-2\nQuery Row Two,QE-3\n');
      const i = await h.run(['supplier', 'import', csv, '--query', BAD, '-o', 'json']);
      expect(i.code).toBe(1);
      expect(i.stderr).toMatch(/warning: --query: .*: the summary is printed without it/);
      expect(JSON.parse(i.stdout)).toMatchObject({ created: 2 });
      expect(i.stderr).toMatch(/the import is done \(2 created\), but --query: /);
      expect([...(await storedIds(h, 'QE-')).values()]).toEqual([1, 1, 1]);
      // A read is still a usage error (exit 2): nothing was done.
      const r = await h.run(['ref', 'countries', '--query', BAD, '-o', 'json']);
      expect(r.code).toBe(2);
    });
  });

  it('score calc --save: the bundle is saved, exit 1; score check: the verdict stands (3 or 0→1), with its JUnit', async () => {
    await withHarness({}, async (h) => {
      const bundle = join(h.home, 'q.jsonl');
      const s = await h.run(['score', 'calc', a!, b!, '--save', bundle, '--query', BAD, '-o', 'json']);
      expect(s.code).toBe(1);
      expect(s.stderr).toContain(`the evidence bundle ${bundle} was saved, but --query: `);
      expect(existsSync(bundle)).toBe(true);
      const junit = join(h.home, 'j.xml');
      const fail = await h.run(['score', 'check', a!, b!, '--min', '3', '--junit', junit, '--query', BAD, '-o', 'json']);
      expect(fail.code).toBe(3);
      expect(fail.stderr).toMatch(/warning: --query: .*: the results are printed without it/);
      expect(fail.stderr).toMatch(/^FAIL /m);
      expect(readFileSync(junit, 'utf8')).toMatch(/<failure/);
      const pass = await h.run(['score', 'check', a!, b!, '--min', '-3', '--junit', junit, '--query', BAD, '-o', 'json']);
      expect(pass.code).toBe(1);
      expect(pass.stderr).toMatch(/the score check passed, but --query: /);
      expect(readFileSync(junit, 'utf8')).not.toMatch(/<failure|<error/);
    });
  });
});
