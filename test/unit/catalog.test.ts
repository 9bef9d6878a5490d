/**
 * src/store/catalog.ts on a real SQLite file: partitions and the key-rotation link, recording
 * (upserts, unknown entries), lookups, find's folding, and the schema version guard.
 * (End to end, with spawned srs processes and the emulator: test/integration/catalog.test.ts.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TARGET, type Target } from '../../src/api/target.js';
import { CREATE_SOURCE, Catalog, CATALOG_ROWS_BETWEEN, CATALOG_ROWS_SINCE, foldText, READ_SOURCE, type SameAccountCheck } from '../../src/store/catalog.js';
import { DatabaseSync } from 'node:sqlite';

const dir = mkdtempSync(join(tmpdir(), 'srs-catalog-unit-'));
let n = 0;
const fresh = (): Catalog => Catalog.open(join(dir, `c${n++}.db`));
const target = (account: string, baseUrl = 'https://api.example.com'): Target => ({ baseUrl, account });
const never: SameAccountCheck = () => {
  throw new Error('must not ask the service');
};

describe('foldText', () => {
  it('drops case and accents, spells ß, æ, ø and friends out', () => {
    expect(foldText('Rhein GIESSEREI')).toBe(foldText('rhein Gießerei'));
    expect(foldText('Ærø Øresund Łódź')).toBe('aero oresund lodz');
    expect(foldText('Crème Brûlée')).toBe('creme brulee');
    expect(foldText('ＡＢＣ')).toBe('abc'); // NFKD: full-width letters
  });
});

describe('partitions', () => {
  it('a new key meeting only unknown attempts under an earlier key joins them (assumed): they stay unsendable', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('old'), never);
    c.record(p, [{ id: null, name: 'Lost GmbH', customerSupplierId: 'LOST-1', countryIso3Code: null, state: 'unknown', source: CREATE_SOURCE }]);
    // Nothing created under the old key: nothing to GET, nothing the service can be asked about.
    expect(await c.resolvePartition(target('new'), never)).toBe(p);
    expect(c.link(target('new'))).toMatchObject({ partition: p, how: 'assumed' });
    expect(c.lookupCustomerId(p, 'LOST-1')).toMatchObject({ state: 'unknown' });
    // An empty partition (nothing at stake) does not capture another key.
    const e = fresh();
    const q = await e.resolvePartition(target('old'), never);
    expect(await e.resolvePartition(target('new'), never)).not.toBe(q);
  });

  it('the first target makes a partition without asking; the same target finds it again', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('aaa'), never);
    expect(await c.resolvePartition(target('aaa'), never)).toBe(p);
    expect(c.link(target('aaa'))).toMatchObject({ partition: p, how: 'first' });
    // another base URL, or the sandbox, is another partition without a question
    expect(await c.resolvePartition(target('aaa', 'https://staging.example.com'), never)).not.toBe(p);
    expect(await c.resolvePartition(SANDBOX_TARGET, never)).not.toBe(p);
    c.close();
  });

  it('a new key at a known URL: asked once with a recorded id; "same" links, "other" separates', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('old'), never);
    c.record(p, [{ id: 'S1', name: 'One', state: 'created', source: 'supplier create' }]);
    const asked: string[] = [];
    const same: SameAccountCheck = async (id) => (asked.push(id), 'same');
    expect(await c.resolvePartition(target('rotated'), same)).toBe(p);
    expect(asked).toEqual(['S1']);
    expect(c.link(target('rotated'))).toMatchObject({ partition: p, how: 'linked', checkedId: 'S1' });
    const other: SameAccountCheck = async (id) => (asked.push(id), 'other');
    const q = await c.resolvePartition(target('stranger'), other);
    expect(q).not.toBe(p);
    expect(c.link(target('stranger'))).toMatchObject({ partition: q, how: 'new-account' });
    expect(asked).toEqual(['S1', 'S1']);
    // Stored: neither is asked again.
    expect(await c.resolvePartition(target('rotated'), never)).toBe(p);
    expect(await c.resolvePartition(target('stranger'), never)).toBe(q);
    c.close();
  });

  it('a check that cannot tell stores nothing (the next run asks again)', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('old'), never);
    c.record(p, [{ id: 'S1', name: 'One', state: 'created', source: 'x' }]);
    await expect(c.resolvePartition(target('new'), async () => Promise.reject(new Error('network down')))).rejects.toThrow('network down');
    expect(c.knownPartition(target('new'))).toBeUndefined();
    c.close();
  });

  it('only a supplier srs created proves an account: one it merely read (readable by anyone) is never asked with', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('old'), never);
    c.record(p, [{ id: 'MINE', name: 'Mine', customerSupplierId: 'M-1', state: 'created', source: 'a.csv:2' }]);
    c.record(p, [{ id: 'SEEDED', name: 'Public', state: 'created', source: READ_SOURCE }]);
    const asked: string[] = [];
    // The service: the seeded supplier is readable by every key, MINE only by the old one.
    const service: SameAccountCheck = async (id) => (asked.push(id), id === 'SEEDED' ? 'same' : 'other');
    const q = await c.resolvePartition(target('stranger'), service);
    expect(asked).toEqual(['MINE']);
    expect(q).not.toBe(p);
    expect(c.link(target('stranger'))).toMatchObject({ how: 'new-account', checkedId: 'MINE' });
    // A partition srs only read from has nothing to prove an account with: a new key there gets its own.
    const r = await c.resolvePartition(target('reader', 'https://other.example.com'), never);
    c.record(r, [{ id: 'SEEDED', name: 'Public', state: 'created', source: READ_SOURCE }]);
    expect(await c.resolvePartition(target('reader2', 'https://other.example.com'), never)).not.toBe(r);
    c.close();
  });

});

describe('recording and lookups', () => {
  it('a read without a name (the document marks none required) is recorded; a name already known is kept', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('k'), never);
    c.recordRead(p, { id: 'NAMELESS', name: '' });
    c.record(p, [{ id: 'KNOWN', name: 'Known Ltd', state: 'created', source: 'a.csv:2' }]);
    c.recordRead(p, { id: 'KNOWN', name: '' });
    const all = c.list(p);
    expect(all.find((e) => e.id === 'NAMELESS')).toMatchObject({ name: '', state: 'created', source: READ_SOURCE });
    expect(all.find((e) => e.id === 'KNOWN')).toMatchObject({ name: 'Known Ltd', source: 'a.csv:2' });
    expect(c.find(p, 'known').map((e) => e.id)).toEqual(['KNOWN']);
    c.close();
  });

  it('upserts by supplier id; unknown entries have no id and do not pile up; created wins a lookup', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('a'), never);
    c.record(p, [
      { name: 'Maybe Ltd', customerSupplierId: 'X-1', state: 'unknown', source: 'f.csv:2' },
      { name: 'Maybe Ltd', customerSupplierId: 'X-1', state: 'unknown', source: 'f.csv:2' },
    ]);
    expect(c.lookupCustomerId(p, 'X-1')).toMatchObject({ state: 'unknown', id: null });
    c.record(p, [{ id: 'S9', name: 'Maybe Ltd', customerSupplierId: 'X-1', countryIso3Code: 'DEU', state: 'created', source: 'g.csv:5' }]);
    expect(c.lookupCustomerId(p, 'X-1')).toEqual({ state: 'created', id: 'S9', source: 'g.csv:5' });
    expect(c.lookupCustomerId(p, 'x-1')).toBeUndefined(); // case-sensitive, as the service compares
    // a later get refreshes the name and keeps what it does not know (customer id, country)
    c.record(p, [{ id: 'S9', name: 'Maybe Ltd (renamed)', state: 'created', source: 'supplier get' }]);
    const all = c.list(p);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ id: 'S9', name: 'Maybe Ltd (renamed)', customerSupplierId: 'X-1', countryIso3Code: 'DEU', source: 'g.csv:5' });
    expect(c.byCustomerId(p, 'X-1').map((e) => e.state)).toEqual(['created', 'unknown']);
    expect(c.find(p, 'RENAMED').map((e) => e.id)).toEqual(['S9']);
    expect(c.find(p, 'x-1')).toHaveLength(2);
    // partitions do not see each other
    const q = await c.resolvePartition(target('b', 'https://other.example.com'), never);
    expect(c.list(q)).toEqual([]);
    expect(c.lookupCustomerId(q, 'X-1')).toBeUndefined();
    c.close();
  });

  it('an unknown attempt stays listed after a retry created the supplier (it may have made one too); name-only creates match by name', async () => {
    const c = fresh();
    const p = await c.resolvePartition(target('r'), never);
    c.record(p, [
      { name: 'Kappa Ltd', customerSupplierId: 'K-1', state: 'unknown', source: 'k.csv:4135' },
      { name: 'Upsilon Parts', state: 'unknown', source: CREATE_SOURCE },
    ]);
    expect(c.unknownCreateByName(p, 'Upsilon Parts')).toMatchObject({ source: CREATE_SOURCE });
    expect(c.unknownCreateByName(p, 'upsilon parts')).toBeUndefined();
    c.record(p, [
      { id: 'S1', name: 'Kappa Ltd', customerSupplierId: 'K-1', state: 'created', source: 'k.csv:4135' },
      { id: 'S2', name: 'Upsilon Parts', state: 'created', source: CREATE_SOURCE },
    ]);
    expect(c.byCustomerId(p, 'K-1').map((e) => e.state)).toEqual(['created', 'unknown']);
    expect(c.list(p).filter((e) => e.state === 'unknown')).toHaveLength(2);
    // The newest create of that name succeeded: the next one is not held back.
    expect(c.unknownCreateByName(p, 'Upsilon Parts')).toBeUndefined();
    c.close();
  });

  it("the filter's refresh reads by row number, not through the customer-id index (which scanned the whole partition)", async () => {
    const path = join(dir, 'plan.db');
    const c = Catalog.open(path);
    const p = await c.resolvePartition(target('plan'), never);
    c.record(p, Array.from({ length: 300 }, (_, i) => ({ id: `S${i}`, name: `N${i}`, customerSupplierId: `C-${i}`, state: 'created' as const, source: 'x' })));
    c.close();
    const db = new DatabaseSync(path);
    const plan = (sql: string, ...args: number[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join('; ');
    expect(plan(CATALOG_ROWS_SINCE, p, 250)).toMatch(/INTEGER PRIMARY KEY \(rowid>\?\)/);
    expect(plan(CATALOG_ROWS_BETWEEN, p, 10, 20)).toMatch(/INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
    expect((db.prepare(CATALOG_ROWS_SINCE).all(p, 295) as Array<{ cid: string }>).map((r) => r.cid)).toEqual(['C-295', 'C-296', 'C-297', 'C-298', 'C-299']);
    db.close();
  });

  it('the customer id filter: no false "absent", and what another process records is seen after refresh()', async () => {
    const path = join(dir, 'filter.db');
    const mine = Catalog.open(path);
    const other = Catalog.open(path);
    const p = await mine.resolvePartition(target('f'), never);
    mine.record(p, [{ id: 'S0', name: 'Before', customerSupplierId: 'B-0', state: 'created', source: 'x' }]);
    const f = mine.customerIdFilter(p);
    expect(f.mightHave('B-0')).toBe(true);
    expect(f.mightHave('N-1')).toBe(false);
    other.record(p, [{ id: 'S1', name: 'Theirs', customerSupplierId: 'T-1', state: 'created', source: 'y' }]);
    const own = mine.record(p, [{ id: 'S2', name: 'Mine', customerSupplierId: 'M-2', state: 'created', source: 'z' }]);
    expect(own).toBeDefined();
    f.skip(own!);
    other.record(p, [{ name: 'Theirs too', customerSupplierId: 'T-3', state: 'unknown', source: 'y' }]);
    expect(f.mightHave('T-1')).toBe(false); // not yet refreshed
    f.refresh();
    expect(f.mightHave('T-1')).toBe(true);
    expect(f.mightHave('T-3')).toBe(true);
    // A false "maybe" only costs a lookup; with 32-bit hashes they are rare.
    let maybes = 0;
    for (let i = 0; i < 2000; i++) if (f.mightHave(`absent-${i}`)) maybes++;
    expect(maybes).toBeLessThan(3);
    mine.close();
    other.close();
  });

  it('every text recorded goes through the run\'s redaction (no key reaches the file)', async () => {
    const path = join(dir, 'redacted.db');
    const key = 'sk-live-0123456789abcdef';
    const c = Catalog.open(path, { redact: (s) => s.split(key).join('****cdef') });
    const p = await c.resolvePartition(target('r'), never);
    c.record(p, [{ id: 'S1', name: `Echo ${key} Ltd`, customerSupplierId: `C-${key}`, state: 'created', source: 'supplier create' }]);
    c.close();
    const { readFileSync } = await import('node:fs');
    const bytes = Buffer.concat([readFileSync(path), ...['-wal'].map((x) => { try { return readFileSync(path + x); } catch { return Buffer.alloc(0); } })]);
    expect(bytes.includes(key)).toBe(false);
    const again = Catalog.open(path);
    expect(again.list(p)[0]).toMatchObject({ name: 'Echo ****cdef Ltd', customerSupplierId: 'C-****cdef' });
    again.close();
  });

  it('a catalog written by a newer srs is refused, naming the file', async () => {
    const path = join(dir, 'newer.db');
    Catalog.open(path).close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(path);
    db.exec('PRAGMA user_version = 7');
    db.close();
    expect(() => Catalog.open(path)).toThrow(/supplier catalog at .*newer\.db was written by a newer srs \(schema version 7; this srs knows up to 1\)/);
  });
});
