/**
 * The local supplier catalog and the SQLite-backed emulator state, end to end: the BUILT srs
 * spawned against real emulators on loopback (in this process, or `srs emulator start` spawned and
 * killed with SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type StartedEmulator } from '../../src/emulator/index.js';
import { StateDb } from '../../src/emulator/state.js';
import { CatalogEntrySchema } from '../../src/schema/registry.js';
import * as z from 'zod/mini';
import { assertBuilt, baseEnv, BIN, runSrs, startHarness, storedIds, withHarness, type Harness, type RunResult } from './harness.js';

interface Entry {
  id: string | null;
  name: string;
  customerSupplierId: string | null;
  countryIso3Code: string | null;
  state: 'created' | 'unknown';
  source: string;
}
interface ReportRow {
  line: string;
  state: string;
  supplierId: string;
  customerSupplierId: string;
}

const json = <T>(r: RunResult): T => JSON.parse(r.stdout) as T;
const errorOf = (r: RunResult): { code: string; message: string; exitCode: number } => JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;

function csvFile(dir: string, name: string, rows: Array<[string, string, string]>): string {
  const path = join(dir, name);
  writeFileSync(path, ['name,country,customerSupplierId', ...rows.map((r) => r.join(','))].join('\n') + '\n');
  return path;
}

const rowsFor = (from: number, to: number): Array<[string, string, string]> =>
  Array.from({ length: to - from + 1 }, (_, i) => [`Supplier ${from + i}`, 'DEU', `C-${from + i}`]);

async function adminSuppliers(emu: { url: string; apiKey: string }): Promise<Array<{ id: string; customerSupplierId: string | null }>> {
  const res = await fetch(`${emu.url}/_emulator/suppliers`, { headers: { 'x-api-key': emu.apiKey } });
  return (await res.json()) as Array<{ id: string; customerSupplierId: string | null }>;
}

beforeAll(() => assertBuilt());

describe('import and the catalog', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ admin: true });
  });
  afterAll(() => h.close());

  it('two overlapping files store each shared customerSupplierId once; the second run counts them as exists (exit 0)', async () => {
    const f1 = csvFile(h.home, 'march.csv', rowsFor(1, 30));
    const f2 = csvFile(h.home, 'april.csv', rowsFor(21, 50));
    const first = await h.run(['supplier', 'import', f1, '-o', 'json', '--report', join(h.home, 'r1.csv')]);
    expect(first.code, first.stderr).toBe(0);
    expect(json<{ created: number; exists: number }>(first)).toMatchObject({ created: 30, exists: 0 });
    const second = await h.run(['supplier', 'import', f2, '-o', 'json', '--report', join(h.home, 'r2.csv')]);
    expect(second.code, second.stderr).toBe(0);
    expect(json<{ created: number; exists: number }>(second)).toMatchObject({ created: 20, exists: 10, failed: 0, unknown: 0 });
    expect(second.stderr).toContain('10 rows not sent');
    expect(second.stderr).toContain('--allow-existing');

    // The service holds each customerSupplierId once.
    const stored = (await adminSuppliers(h.emu)).filter((s) => s.customerSupplierId?.startsWith('C-'));
    expect(stored).toHaveLength(50);
    expect(new Set(stored.map((s) => s.customerSupplierId)).size).toBe(50);

    // The report names the supplier the first file created.
    const r1 = parseCsv(readFileSync(join(h.home, 'r1.csv')), { columns: true }) as ReportRow[];
    const r2 = parseCsv(readFileSync(join(h.home, 'r2.csv')), { columns: true }) as ReportRow[];
    const firstIds = new Map(r1.map((r) => [r.customerSupplierId, r.supplierId]));
    const exists = r2.filter((r) => r.state === 'exists');
    expect(exists.map((r) => r.customerSupplierId)).toEqual(rowsFor(21, 30).map((r) => r[2]));
    for (const r of exists) expect(r.supplierId).toBe(firstIds.get(r.customerSupplierId));

    // A dry run says the same without sending.
    const dry = await h.run(['supplier', 'import', f2, '--dry-run', '--journal', join(h.home, 'dry.journal'), '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(json<{ exists: number; skipped: number }>(dry).exists + json<{ skipped: number }>(dry).skipped).toBe(30);

    // --allow-existing sends them anyway (a new journal, so the journal does not skip them either).
    const again = await h.run(['supplier', 'import', f1, '--journal', join(h.home, 'again.journal'), '--allow-existing', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(json<{ created: number; exists: number }>(again)).toMatchObject({ created: 30, exists: 0 });
  });

  it('the same service as localhost and as 127.0.0.1: one catalog partition, so the second spelling creates nothing again (it created every row, exit 0)', async () => {
    const k = await startHarness({ admin: true });
    try {
      const rows = Array.from({ length: 10 }, (_, i): [string, string, string] => [`Alias Co ${i}`, 'DEU', `AL-${i}`]);
      const f1 = csvFile(k.home, 'alias-a.csv', rows);
      const f2 = csvFile(k.home, 'alias-b.csv', rows);
      const first = await k.run(['supplier', 'import', f1, '-o', 'json']);
      expect(first.code, first.stderr).toBe(0);
      expect(json<{ created: number }>(first).created).toBe(10);
      const viaLocalhost = k.emu.url.replace('127.0.0.1', 'localhost');
      expect(viaLocalhost).not.toBe(k.emu.url);
      // A reader of the catalog asks nothing (offline) and records nothing: the import after it still asks.
      const sent = k.requests.length;
      const ls = await k.run(['supplier', 'ls', '-o', 'json'], { env: { SRS_BASE_URL: viaLocalhost } });
      expect(ls.code, ls.stderr).toBe(0);
      expect(JSON.parse(ls.stdout)).toEqual([]);
      expect(k.requests.length).toBe(sent);
      const second = await k.run(['supplier', 'import', f2, '-o', 'json'], { env: { SRS_BASE_URL: viaLocalhost } });
      expect(second.code, second.stderr).toBe(0);
      expect(json<{ created: number; exists: number }>(second)).toMatchObject({ created: 0, exists: 10 });
      expect(second.stderr).toMatch(/http:\/\/localhost:\d+ holds supplier \w+ that srs created through http:\/\/127\.0\.0\.1:\d+ with this key: the same service/);
      expect([...(await storedIds(k, 'AL-')).values()].every((n) => n === 1)).toBe(true);
      // Another service (a fresh emulator) under a new address with the same key keeps a partition of its own.
      const other = await startHarness({ admin: true, apiKey: k.env.SRS_API_KEY! });
      try {
        const third = await k.run(['supplier', 'import', csvFile(k.home, 'alias-c.csv', rows), '-o', 'json'], { env: { SRS_BASE_URL: other.emu.url.replace('127.0.0.1', 'localhost') } });
        expect(third.code, third.stderr).toBe(0);
        expect(json<{ created: number }>(third).created).toBe(10);
      } finally {
        await other.close();
      }
    } finally {
      await k.close();
    }
  });

  it('two first imports through two spellings of one address (127.0.0.1, localhost) at once: the second is refused, nothing is created twice', async () => {
    const slow = await startHarness({ admin: true, faults: { latency: { min: 100, max: 110 } } });
    try {
      const port = new URL(slow.emu.url).port;
      const rows = Array.from({ length: 120 }, (_, i) => [`Spelled ${i}`, 'DEU', `SP-${i}`] as [string, string, string]);
      const a = csvFile(slow.home, 'sp1.csv', rows);
      const b = csvFile(slow.home, 'sp2.csv', rows);
      const first = slow.run(['supplier', 'import', a, '--concurrency', '2', '-o', 'json'], { env: { SRS_BASE_URL: `http://127.0.0.1:${port}` } });
      while (!slow.requests.some((l) => l.startsWith('POST /v1/suppliers'))) await new Promise((r) => setTimeout(r, 10));
      const second = await slow.run(['supplier', 'import', b, '-o', 'json'], { env: { SRS_BASE_URL: `http://localhost:${port}` } });
      expect(second.code, second.stderr).toBe(2);
      expect(errorOf(second).message).toMatch(new RegExp(`srs supplier import .*sp1\\.csv \\(process \\d+\\) is running through http://127\\.0\\.0\\.1:${port}, which may be this same service under another name`));
      const r1 = await first;
      expect(r1.code, r1.stderr).toBe(0);
      expect((await adminSuppliers(slow.emu)).filter((x) => x.customerSupplierId?.startsWith('SP-'))).toHaveLength(120);
    } finally {
      await slow.close();
    }
  });

  it('two imports of overlapping files started together: the second stops at once (exit 2, naming the first), nothing is created twice', async () => {
    // A service slow enough that the first run is still sending when the second starts.
    const slow = await startHarness({ admin: true, faults: { latency: { min: 100, max: 110 } } });
    try {
      const a = csvFile(slow.home, 'ov1.csv', Array.from({ length: 150 }, (_, i) => [`Overlap ${i}`, 'DEU', `OV-${i}`] as [string, string, string]));
      const b = csvFile(slow.home, 'ov2.csv', Array.from({ length: 151 }, (_, i) => [`Overlap ${i}`, 'DEU', `OV-${i}`] as [string, string, string]));
      const first = slow.run(['supplier', 'import', a, '--concurrency', '2', '-o', 'json']);
      // Once the first run is sending.
      while (!slow.requests.some((l) => l.startsWith('POST /v1/suppliers'))) await new Promise((r) => setTimeout(r, 10));
      // Its --report file already holds something: a refused run must leave it alone.
      const report = join(slow.home, 'b-report.csv');
      writeFileSync(report, 'earlier report\n');
      const second = await slow.run(['supplier', 'import', b, '-o', 'json', '--report', report]);
      expect(second.code).toBe(2);
      expect(errorOf(second).message).toMatch(/another srs run is creating suppliers in .* with the supplier catalog .* held by srs supplier import .*ov1\.csv \(process \d+ on .*Nothing was sent/);
      expect(readFileSync(report, 'utf8')).toBe('earlier report\n');
      expect(existsSync(b + '.srs-journal')).toBe(false);
      // A create of one of its customer ids waits for the import (or gives up naming it): never a second supplier.
      const create = await slow.run(['supplier', 'create', '--name', 'Overlap 149', '--customer-id', 'OV-149', '-o', 'json']);
      expect(create.code).not.toBe(0);
      expect(['exists', 'usage']).toContain(errorOf(create).code);
      const r1 = await first;
      expect(r1.code, r1.stderr).toBe(0);
      expect(json<{ created: number }>(r1).created).toBe(150);
      // Run again once the first is done: the shared ids are exists, the new one created.
      const again = await slow.run(['supplier', 'import', b, '-o', 'json']);
      expect(again.code, again.stderr).toBe(0);
      expect(json<{ created: number; exists: number }>(again)).toMatchObject({ created: 1, exists: 150 });
      const stored = (await adminSuppliers(slow.emu)).filter((x) => x.customerSupplierId?.startsWith('OV-'));
      expect(stored).toHaveLength(151);
      // A dry run takes no lock, and the lock is gone after the runs.
      expect(readdirSync(join(slow.home, 'data')).filter((f) => f.endsWith('.lock'))).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('a create whose created record cannot be written (the catalog locked meanwhile) keeps its attempt: the same create is refused, not sent twice', async () => {
    const slow = await startHarness({ admin: true, faults: { latency: { min: 1500, max: 1500 } } });
    const { DatabaseSync } = await import('node:sqlite');
    try {
      const catalogFile = join(slow.home, 'locked-meanwhile.db');
      writeFileSync(catalogFile, '');
      const run = slow.run(['--catalog', catalogFile, 'supplier', 'create', '--name', 'Busy Ltd', '--customer-id', 'BUSY-1', '-o', 'json']);
      // Once the attempt is written ahead and the request is in flight (1.5 s of latency), another program locks the
      // catalog past srs's 10 s busy timeout.
      await new Promise((resolve) => setTimeout(resolve, 900));
      const other = new DatabaseSync(catalogFile);
      other.exec('BEGIN IMMEDIATE');
      const r = await run;
      other.exec('ROLLBACK');
      other.close();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('could not be recorded in the supplier catalog');
      expect(r.stderr).toContain('the attempt stays recorded as unknown');
      const again = await slow.run(['--catalog', catalogFile, 'supplier', 'create', '--name', 'Busy Ltd', '--customer-id', 'BUSY-1', '-o', 'json']);
      expect(again.code).toBe(1);
      expect(errorOf(again).code).toBe('outcome_unknown');
      expect((await adminSuppliers(slow.emu)).filter((x) => x.customerSupplierId === 'BUSY-1')).toHaveLength(1);
    } finally {
      await slow.close();
    }
  }, 40_000);

  it('a lock left by a killed import: another run is refused until that import runs again (its journal repairs the catalog)', async () => {
    const k = await startHarness({ admin: true });
    try {
      const data = join(k.home, 'data');
      const a = csvFile(k.home, 'killed.csv', rowsFor(7001, 7010));
      const b = csvFile(k.home, 'next.csv', rowsFor(7001, 7012));
      // The killed run created its rows (its journal has them) but never told the catalog (here: it did not use it).
      expect((await k.run(['--no-catalog', 'supplier', 'import', a, '-o', 'json'])).code).toBe(0);
      expect((await k.run(['supplier', 'ls', '-o', 'json'])).code).toBe(0);
      const lock = readdirSync(data).find((f) => /^catalog\.db\.import-\d+\.lock$/.test(f)) ?? 'catalog.db.import-1.lock';
      const dead = { pid: 2147483646, host: hostname(), started: '2026-11-24T00:00:00.000Z', what: `srs supplier import ${a}`, journal: `${a}.srs-journal` };
      writeFileSync(join(data, lock), JSON.stringify(dead) + '\n');
      const other = await k.run(['supplier', 'import', b, '-o', 'json']);
      expect(other.code).toBe(2);
      expect(errorOf(other).message).toContain('ended without writing its last outcomes');
      expect(errorOf(other).message).toContain(`--journal ${a}.srs-journal`);
      // A symlink to the catalog is the same catalog: the same lock.
      symlinkSync(join(data, 'catalog.db'), join(k.home, 'team.db'));
      expect((await k.run(['--catalog', join(k.home, 'team.db'), 'supplier', 'import', b, '-o', 'json'])).code).toBe(2);
      // The killed import run again but refused (its file changed, so its journal refuses it): the lock goes back to
      // the killed run, and the other import is still refused.
      const original = readFileSync(a);
      writeFileSync(a, Buffer.concat([original, Buffer.from('Supplier 7099,DEU,C-7099\n')]));
      const refused = await k.run(['supplier', 'import', a, '-o', 'json']);
      expect(refused.code, refused.stderr).toBe(2);
      expect(JSON.parse(readFileSync(join(data, lock), 'utf8'))).toMatchObject({ pid: dead.pid, journal: dead.journal });
      expect((await k.run(['supplier', 'import', b, '-o', 'json'])).code).toBe(2);
      writeFileSync(a, original);
      // Its journal deleted (or emptied), the killed import cannot repair the catalog: refused too, saying so (it took the
      // lock over and created the killed run's last batch again, exit 0). The lock stays the killed run's.
      const journal = readFileSync(`${a}.srs-journal`);
      for (const gone of ['deleted', 'emptied']) {
        if (gone === 'deleted') rmSync(`${a}.srs-journal`);
        else writeFileSync(`${a}.srs-journal`, '');
        const noJournal = await k.run(['supplier', 'import', a, '-o', 'json']);
        expect(noJournal.code, noJournal.stderr).toBe(2);
        expect(errorOf(noJournal).message).toContain(`its journal ${a}.srs-journal is gone (deleted or emptied), so nothing can repair the catalog`);
        expect(JSON.parse(readFileSync(join(data, lock), 'utf8'))).toMatchObject({ pid: dead.pid, journal: dead.journal });
      }
      writeFileSync(`${a}.srs-journal`, journal);
      // The killed import itself takes it over (with a warning), and then the other run goes ahead.
      const again = await k.run(['supplier', 'import', a, '-o', 'json']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('no longer runs: taken over');
      const next = await k.run(['supplier', 'import', b, '-o', 'json']);
      expect(next.code, next.stderr).toBe(0);
      expect(json<{ created: number; exists: number }>(next)).toMatchObject({ created: 2, exists: 10 });
      // A lock left by a killed create is taken over with a warning naming it.
      writeFileSync(join(data, lock), JSON.stringify({ ...dead, what: 'srs supplier create of customerSupplierId "Z-1"', journal: undefined }) + '\n');
      const c = await k.run(['supplier', 'create', '--name', 'Zed', '--customer-id', 'Z-2', '-o', 'json']);
      expect(c.code, c.stderr).toBe(0);
      expect(c.stderr).toContain('srs supplier create of customerSupplierId "Z-1"');
    } finally {
      await k.close();
    }
  });

  it('a catalog that missed an import (a crash between journal and catalog) is repaired from the journal by the re-run', async () => {
    const f = csvFile(h.home, 'repair.csv', rowsFor(501, 520));
    // Stands in for a crash after the journal, before the catalog: the first run records nothing in the catalog.
    const first = await h.run(['--no-catalog', 'supplier', 'import', f, '-o', 'json']);
    expect(json<{ created: number }>(first).created).toBe(20);
    const before = json<Entry[]>(await h.run(['supplier', 'find', 'C-50', '-o', 'json']));
    expect(before.filter((e) => /^C-5(0[1-9]|1\d|20)$/.test(e.customerSupplierId ?? ''))).toEqual([]);
    const again = await h.run(['supplier', 'import', f, '-o', 'json']);
    expect(json<{ created: number; skipped: number }>(again)).toMatchObject({ created: 0, skipped: 20 });
    const after = json<Entry[]>(await h.run(['supplier', 'ls', '-o', 'json'])).filter((e) => /^C-5(0[1-9]|1\d|20)$/.test(e.customerSupplierId ?? ''));
    expect(after).toHaveLength(20);
    expect(after.every((e) => e.state === 'created' && e.id && e.source.startsWith('repair.csv:'))).toBe(true);
  });

  it('supplier ls, find and get --customer-id in every output format, --fields and --query', async () => {
    const created = await h.run(['supplier', 'create', '--name', 'Rhein Gießerei GmbH', '--country', 'DEU', '--customer-id', 'V-ÄÖ-1', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const id = json<{ id: string }>(created).id;

    const ls = await h.run(['supplier', 'ls', '-o', 'json']);
    expect(ls.code, ls.stderr).toBe(0);
    const all = json<Entry[]>(ls);
    // The shape `srs schema supplier ls` documents.
    expect(z.array(CatalogEntrySchema).safeParse(all).success).toBe(true);
    const schema = await h.run(['schema', 'supplier ls']);
    expect(schema.code, schema.stderr).toBe(0);
    expect(JSON.parse(schema.stdout).items.required).toEqual(expect.arrayContaining(['id', 'name', 'customerSupplierId', 'state', 'source']));
    expect(all.find((e) => e.id === id)).toMatchObject({ name: 'Rhein Gießerei GmbH', customerSupplierId: 'V-ÄÖ-1', state: 'created', source: 'supplier create' });
    expect(all.filter((e) => e.customerSupplierId?.startsWith('C-') && e.state === 'created').length).toBeGreaterThanOrEqual(50);
    expect(all.find((e) => e.customerSupplierId === 'C-1')?.source).toBe('march.csv:2');

    const nd = await h.run(['supplier', 'ls', '-o', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as Entry)).toEqual(all);
    const csv = await h.run(['supplier', 'ls', '-o', 'csv', '--fields', 'id,customerSupplierId,state']);
    const rows = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual(['id', 'customerSupplierId', 'state']);
    expect(rows).toHaveLength(all.length);
    const table = await h.run(['supplier', 'ls', '-o', 'table']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+CUSTOMER ID\s+COUNTRY\s+STATE\s+FROM\s+RECORDED/);
    expect(table.stdout).toContain('Rhein Gießerei GmbH');
    const q = await h.run(['supplier', 'ls', '-o', 'json', '--query', "[?customerSupplierId=='C-35'].source"]);
    expect(json<string[]>(q)).toEqual(['april.csv:16']);

    // find: substring of name or customer id, case- and accent-insensitive.
    for (const text of ['giesserei', 'RHEIN GIE', 'v-ao', 'gießerei']) {
      const f = await h.run(['supplier', 'find', text, '-o', 'json']);
      expect(f.code, f.stderr).toBe(0);
      expect(json<Entry[]>(f).map((e) => e.id), text).toEqual([id]);
    }
    const fcsv = await h.run(['supplier', 'find', 'supplier 4', '-o', 'csv', '--fields', 'customerSupplierId']);
    // C-4 twice: march.csv was imported a second time with --allow-existing above.
    expect(fcsv.stdout.trim().split('\n').slice(1).sort()).toEqual(['C-4', 'C-4', 'C-40', 'C-41', 'C-42', 'C-43', 'C-44', 'C-45', 'C-46', 'C-47', 'C-48', 'C-49'].sort());
    const fnd = await h.run(['supplier', 'find', 'giesserei', '-o', 'ndjson']);
    expect(JSON.parse(fnd.stdout.trim())).toMatchObject({ id });
    const ftable = await h.run(['supplier', 'find', 'nothing-like-this', '-o', 'table']);
    expect(ftable.code).toBe(0);
    expect(ftable.stderr).toContain('knows only what srs created or read');

    // get --customer-id: through the catalog, then GET.
    for (const fmt of ['json', 'ndjson', 'csv', 'table']) {
      const g = await h.run(['supplier', 'get', '--customer-id', 'V-ÄÖ-1', '-o', fmt]);
      expect(g.code, g.stderr).toBe(0);
      expect(g.stdout).toContain(id);
      expect(g.stdout).toContain('Rhein Gießerei GmbH');
    }
    const gq = await h.run(['supplier', 'get', '--customer-id', 'C-40', '-o', 'json', '--query', 'name']);
    expect(json<string>(gq)).toBe('Supplier 40');
    // C-12 was created twice (the --allow-existing run above): ambiguous, both ids named.
    const two = await h.run(['supplier', 'get', '--customer-id', 'C-12', '-o', 'json']);
    expect(two.code).toBe(1);
    expect(errorOf(two).message).toMatch(/knows 2 suppliers with customerSupplierId "C-12": \w{26}, \w{26}/);
    const missing = await h.run(['supplier', 'get', '--customer-id', 'c-40', '-o', 'json']); // case-sensitive, like the service
    expect(missing.code).toBe(1);
    expect(errorOf(missing)).toMatchObject({ code: 'not_found' });
    expect(errorOf(missing).message).toContain('knows only what srs created or read');
    const both = await h.run(['supplier', 'get', id, '--customer-id', 'C-1']);
    expect(both.code).toBe(2);

    // --no-catalog: ls refuses (exit 2), get by id still works and records nothing.
    const off = await h.run(['supplier', 'ls', '--no-catalog']);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('catalog');

    // A mistyped shared catalog is refused, never made into a new empty one (which would know nothing, silently).
    const before = h.requests.length;
    const typo = await h.run(['--catalog', join(h.home, 'no-such-dir', 'team.db'), 'supplier', 'import', csvFile(h.home, 'typo.csv', rowsFor(3001, 3002))]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^srs: --catalog .*team\.db: its directory .*no-such-dir does not exist/);
    expect(existsSync(join(h.home, 'no-such-dir'))).toBe(false);
    const dry = await h.run(['--catalog', join(h.home, 'no-such-dir', 'team.db'), 'supplier', 'import', join(h.home, 'typo.csv'), '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toMatch(/^srs: --catalog .*team\.db: its directory .*no-such-dir does not exist/);
    const dir = await h.run(['supplier', 'ls'], { env: { SRS_CATALOG: h.home } });
    expect(dir.code).toBe(2);
    expect(dir.stderr).toMatch(/SRS_CATALOG .* is a directory/);
    // A mistyped file name in an existing directory: refused too (it made a new, empty catalog and a duplicate).
    const name = await h.run(['--catalog', join(h.home, 'catalgo.db'), 'supplier', 'create', '--name', 'Typo GmbH', '--customer-id', 'TY-1']);
    expect(name.code).toBe(2);
    expect(name.stderr).toMatch(/--catalog .*catalgo\.db: no such file; to start a new shared catalog there, create it empty first \(touch /);
    expect(existsSync(join(h.home, 'catalgo.db'))).toBe(false);
    expect(h.requests.length).toBe(before);
    // Words that mean "off" turn it off rather than name a file.
    for (const off of ['false', '0', 'off']) {
      const r = await h.run(['supplier', 'ls'], { env: { SRS_CATALOG: off } });
      expect(r.code, off).toBe(2);
      expect(r.stderr).toMatch(/catalog, which is off/);
      expect(existsSync(join(h.home, off))).toBe(false);
    }
  });

  it('processes writing the catalog at once lose nothing (two imports into two targets, creates beside them)', async () => {
    const a = csvFile(h.home, 'east.csv', rowsFor(1001, 1150));
    const b = csvFile(h.home, 'west.csv', rowsFor(2001, 2150));
    const catalog = join(h.home, 'team-catalog.db');
    writeFileSync(catalog, ''); // a new shared catalog: created empty, then srs makes it a catalog
    // Another service (another target): one import at a time per target, any number of targets at once.
    const other = await startEmulator({ port: 0, apiKey: h.env.SRS_API_KEY });
    try {
      const [ra, rb, ...creates] = await Promise.all([
        h.run(['--catalog', catalog, 'supplier', 'import', a, '-o', 'json', '--concurrency', '4']),
        h.run(['supplier', 'import', b, '-o', 'json', '--concurrency', '4'], { env: { SRS_CATALOG: catalog, SRS_BASE_URL: other.url } }),
        ...Array.from({ length: 4 }, (_, i) => h.run(['--catalog', catalog, 'supplier', 'create', '--name', `Parallel ${i}`, '--customer-id', `P-${i}`, '-o', 'json'])),
      ]);
      for (const r of [ra!, rb!, ...creates]) expect(r.code, r.stderr).toBe(0);
      const entries = json<Entry[]>(await h.run(['--catalog', catalog, 'supplier', 'ls', '-o', 'json']));
      expect(entries).toHaveLength(154);
      expect(new Set(entries.map((e) => e.id)).size).toBe(154);
      expect(entries.every((e) => e.state === 'created')).toBe(true);
      const west = json<Entry[]>(await h.run(['--catalog', catalog, 'supplier', 'ls', '-o', 'json'], { env: { SRS_BASE_URL: other.url } }));
      expect(west.map((e) => e.customerSupplierId).sort()).toEqual(rowsFor(2001, 2150).map((r) => r[2]).sort());
    } finally {
      await other.close();
    }
  });
});

describe('a service reset since the catalog recorded its suppliers', () => {
  it('rows the catalog knows as created, which the service no longer knows (404), fail the run instead of "exists", exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-reset-'));
    const file = join(dir, 'rows.csv');
    writeFileSync(file, 'name,country,customerSupplierId\n' + Array.from({ length: 5 }, (_, i) => `Reset ${i},DEU,RS-${i}`).join('\n') + '\n');
    let env: Record<string, string> = {};
    let port = 0;
    await withHarness({}, async (h) => {
      env = h.env;
      port = Number(new URL(h.emu.url).port);
      const first = await h.run(['supplier', 'import', file, '-o', 'json']);
      expect(first.code, first.stderr).toBe(0);
    });
    // The same address and key, a fresh service: nothing it had is there.
    await withHarness({ port, apiKey: env.SRS_API_KEY! }, async () => {
      // The same file again: its journal keeps every row back as created (it said "skipped", exit 0).
      const same = await runSrs(['supplier', 'import', file, '-o', 'json'], env);
      expect(same.code).toBe(1);
      expect(JSON.parse(same.stdout)).toMatchObject({ skipped: 5, created: 0 });
      expect(same.stderr).toMatch(/5 rows were not sent because the journal records them as created by an earlier run, but the service does not know supplier \w{26} \(line 2: GET \/v1\/suppliers\/\w{26} answered 404\)/);
      rmSync(`${file}.srs-journal`);
      const again = await runSrs(['supplier', 'import', file, '-o', 'json'], env);
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stdout)).toMatchObject({ exists: 5, created: 0 });
      expect(again.stderr).toMatch(/5 rows were not sent because the catalog knows their customerSupplierId as created on this target, but the service does not know supplier \w{26} \(line 2: GET \/v1\/suppliers\/\w{26} answered 404\): the service was reset .*--allow-existing to send them/);
      const sent = await runSrs(['supplier', 'import', file, '-o', 'json', '--allow-existing', '--journal', join(dir, 'second.journal')], env);
      expect(sent.code, sent.stderr).toBe(0);
      expect(JSON.parse(sent.stdout)).toMatchObject({ created: 5 });
    });
  });
});

describe('supplier ls --state', () => {
  it('a state no supplier is in is said so, not "holds no supplier" beside the ones the catalog holds', async () => {
    await withHarness({}, async (h) => {
      const empty = await h.run(['supplier', 'ls', '--state', 'unknown', '-o', 'table']);
      expect(empty.stderr).toContain('holds no supplier for this target yet');
      for (const n of [1, 2]) expect((await h.run(['supplier', 'create', '--name', `State ${n}`, '--customer-id', `st-${n}`])).code).toBe(0);
      const none = await h.run(['supplier', 'ls', '--state', 'unknown', '-o', 'table']);
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toBe('');
      expect(none.stderr).toContain('no supplier of this target is in state unknown in the catalog (2 are in another state)');
      expect(none.stderr).not.toContain('holds no supplier');
    });
  });
});

describe('supplier create with a lost answer', () => {
  it('exits 1 with outcome_unknown, says how to check, records it as unknown; an import does not resend it', async () => {
    const h = await startHarness({ admin: true, faults: { failAfterCommitRate: 1 } });
    try {
      const r = await h.run(['supplier', 'create', '--name', 'Lost Answer Ltd', '--customer-id', 'U-1', '-o', 'json']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const err = errorOf(r);
      expect(err.code).toBe('outcome_unknown');
      expect(err.message).toContain('may exist');
      expect(err.message).toContain('srs supplier find');
      // It was stored: exactly why it must not be retried blindly.
      expect((await adminSuppliers(h.emu)).filter((s) => s.customerSupplierId === 'U-1')).toHaveLength(1);
      // Without the catalog srs recorded nothing: it does not send the user to a find that answers "[]".
      const off = await h.run(['supplier', 'create', '--name', 'Lost Offline Ltd', '--customer-id', 'U-2', '--no-catalog', '-o', 'json']);
      expect(off.code).toBe(1);
      expect(errorOf(off).code).toBe('outcome_unknown');
      expect(errorOf(off).message).toContain('srs recorded nothing: the catalog is off, so srs supplier find cannot tell');
      expect(errorOf(off).message).not.toContain('lists what srs recorded');
      const ls = json<Entry[]>(await h.run(['supplier', 'ls', '--state', 'unknown', '-o', 'json']));
      expect(ls).toEqual([expect.objectContaining({ id: null, name: 'Lost Answer Ltd', customerSupplierId: 'U-1', state: 'unknown', source: 'supplier create' })]);
      const find = json<Entry[]>(await h.run(['supplier', 'find', 'lost', '-o', 'json']));
      expect(find.map((e) => e.state)).toEqual(['unknown']);
      const get = await h.run(['supplier', 'get', '--customer-id', 'U-1', '-o', 'json']);
      expect(get.code).toBe(1);
      expect(errorOf(get).code).toBe('outcome_unknown');

      // An import row with that customerSupplierId is unknown again, not sent.
      const f = csvFile(h.home, 'u.csv', [['Lost Answer Ltd', 'GBR', 'U-1']]);
      const posts = () => h.requests.filter((l) => l.startsWith('POST /v1/suppliers')).length;
      const before = posts();
      const imp = await h.run(['supplier', 'import', f, '-o', 'json', '--report', join(h.home, 'u-report.csv')]);
      expect(imp.code).toBe(1);
      expect(json<{ unknown: number; created: number }>(imp)).toMatchObject({ unknown: 1, created: 0 });
      expect(posts()).toBe(before);
      const rep = parseCsv(readFileSync(join(h.home, 'u-report.csv')), { columns: true }) as Array<ReportRow & { message: string }>;
      expect(rep[0]!.message).toContain('--retry-unknown');
    } finally {
      await h.close();
    }
  });

  it('a create of a customer id the catalog knows is not sent: exists (created) or outcome_unknown (unknown); the flags send it', async () => {
    const h = await startHarness({ admin: true });
    try {
      const posts = () => h.requests.filter((l) => l.startsWith('POST /v1/suppliers')).length;
      const first = await h.run(['supplier', 'create', '--name', 'Dup One Ltd', '--customer-id', 'DUP-1', '-o', 'json']);
      expect(first.code).toBe(0);
      const id = json<{ id: string }>(first).id;
      const before = posts();
      const again = await h.run(['supplier', 'create', '--name', 'Dup One Ltd', '--customer-id', 'DUP-1', '-o', 'json']);
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
      expect(errorOf(again)).toMatchObject({ code: 'exists', exitCode: 1 });
      expect(errorOf(again).message).toContain(id);
      expect(errorOf(again).message).toContain('--allow-existing');
      // Compared as the import does: the id trimmed.
      expect((await h.run(['supplier', 'create', '--name', 'Dup One Ltd', '--customer-id', ' DUP-1 ', '-o', 'json'])).code).toBe(1);
      expect(posts()).toBe(before);
      // An id given with spaces is sent and recorded trimmed, so the next create of it is refused too.
      const spaced = await h.run(['supplier', 'create', '--name', 'T Eight', '--customer-id', ' T8 ', '-o', 'json']);
      expect(json<{ customerSupplierId: string }>(spaced).customerSupplierId).toBe('T8');
      // Said on stderr (--json promises the body as given), not done silently; so is a blank id left out.
      expect(spaced.stderr).toContain('customerSupplierId " T8 " is sent as "T8" (trimmed, as an import takes it');
      const blank = await h.run(['supplier', 'create', '--json', '-', '--no-catalog', '-o', 'json'], { input: JSON.stringify({ name: 'No Id Ltd', customerSupplierId: '' }) });
      expect(blank.code).toBe(0);
      expect(json<{ customerSupplierId: string | null }>(blank).customerSupplierId).toBeNull();
      expect(blank.stderr).toContain('customerSupplierId "" is blank: it is left out, and the supplier is created without one');
      // Not said of a request that is refused (exit 2, nothing sent): "is sent as" beside "invalid supplier" misled.
      const invalid = await h.run(['supplier', 'create', '--json', '-', '-o', 'json'], { input: JSON.stringify({ name: 'Bad Country Ltd', customerSupplierId: ' BC-1 ', countryIso3Code: 'XX' }) });
      expect(invalid.code).toBe(2);
      expect(invalid.stderr).not.toContain('is sent as');
      expect(errorOf(await h.run(['supplier', 'create', '--name', 'T Eight', '--customer-id', ' T8 ', '-o', 'json'])).code).toBe('exists');
      expect(errorOf(await h.run(['supplier', 'create', '--json', '-', '-o', 'json'], { input: JSON.stringify({ name: 'T Eight', customerSupplierId: 'T8  ' }) })).code).toBe('exists');
      const forced = await h.run(['supplier', 'create', '--name', 'Dup One Ltd', '--customer-id', 'DUP-1', '--allow-existing', '-o', 'json']);
      expect(forced.code).toBe(0);
      expect(posts()).toBe(before + 3);
      // --no-catalog knows nothing and checks nothing.
      expect((await h.run(['--no-catalog', 'supplier', 'create', '--name', 'Dup One Ltd', '--customer-id', 'DUP-1', '-o', 'json'])).code).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('after a lost answer the same create is refused (outcome_unknown), with or without a customer id; --retry-unknown sends it', async () => {
    const lossy = await startHarness({ admin: true, faults: { failAfterCommitRate: 1 } });
    try {
      const lost = await lossy.run(['supplier', 'create', '--name', 'Lost Three Ltd', '--customer-id', 'LOST-3', '-o', 'json']);
      expect(errorOf(lost).code).toBe('outcome_unknown');
      const posts = () => lossy.requests.filter((l) => l.startsWith('POST /v1/suppliers')).length;
      const before = posts();
      const retry = await lossy.run(['supplier', 'create', '--name', 'Lost Three Ltd', '--customer-id', 'LOST-3', '-o', 'json']);
      expect(retry.code).toBe(1);
      expect(errorOf(retry).code).toBe('outcome_unknown');
      expect(errorOf(retry).message).toContain('--retry-unknown');
      expect(posts()).toBe(before);
      // Without a customer id the name is what matches: the same name is held back too, another name is not.
      expect(errorOf(await lossy.run(['supplier', 'create', '--name', 'Upsilon Parts', '-o', 'json'])).code).toBe('outcome_unknown');
      const n = posts();
      const named = await lossy.run(['supplier', 'create', '--name', 'Upsilon Parts', '-o', 'json']);
      expect(errorOf(named).code).toBe('outcome_unknown');
      expect(errorOf(named).message).toContain('--retry-unknown');
      expect(posts()).toBe(n);
    } finally {
      await lossy.close();
    }
    // The same catalog, the same base URL and key (the same target), a service that now answers.
    const emu = await startEmulator({ port: lossy.emu.port, apiKey: lossy.env.SRS_API_KEY });
    try {
      const sent = await runSrs(['supplier', 'create', '--name', 'Lost Three Ltd', '--customer-id', 'LOST-3', '--retry-unknown', '-o', 'json'], lossy.env);
      expect(sent.code).toBe(0);
      // The unknown attempt stays listed: it may have created a supplier too (a duplicate only a person can rule out).
      expect(json<Entry[]>(await runSrs(['supplier', 'find', 'LOST-3', '-o', 'json'], lossy.env)).map((e) => e.state)).toEqual(['unknown', 'created']);
      const get = await runSrs(['supplier', 'get', '--customer-id', 'LOST-3', '-o', 'json'], lossy.env);
      expect(get.code).toBe(0);
      // The profile is the created one's, and the possible second supplier is said (it was hidden, exit 0, no note).
      expect(get.stderr).toContain('the catalog also records a create of customerSupplierId "LOST-3" whose outcome is unknown');
      expect(get.stderr).toContain('a second supplier with this id may exist; srs supplier find "LOST-3" lists what the catalog knows');
    } finally {
      await emu.close();
    }
  });

  it('Ctrl-C or SIGTERM while the create is in flight: exit 130/143, outcome_unknown, recorded as unknown', async () => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      // A service that takes the request and never answers.
      const h = await startHarness({ faults: { stallRate: 1 } });
      try {
        const r = await h.run(['--timeout', '60s', 'supplier', 'create', '--name', `Reached ${sig} Ltd`, '--customer-id', `RCH-${sig}`, '-o', 'json'], {
          onSpawn: (kill) => {
            const wait = setInterval(() => {
              if (h.requests.some((l) => l.startsWith('POST /v1/suppliers'))) {
                clearInterval(wait);
                kill(sig);
              }
            }, 20);
          },
        });
        expect(r.code).toBe(sig === 'SIGINT' ? 130 : 143);
        expect(r.stdout).toBe('');
        const err = errorOf(r);
        expect(err.code).toBe('outcome_unknown');
        expect(err.message).toContain('may exist');
        const ls = json<Entry[]>(await h.run(['supplier', 'ls', '--state', 'unknown', '-o', 'json']));
        expect(ls).toEqual([expect.objectContaining({ customerSupplierId: `RCH-${sig}`, state: 'unknown', source: 'supplier create' })]);
      } finally {
        await h.close();
      }
    }
  });

  it('a create that times out after sending is outcome_unknown too', async () => {
    const h = await startHarness({ faults: { stallRate: 1 } });
    try {
      const r = await h.run(['--timeout', '300ms', '--retries', '0', 'supplier', 'create', '--name', 'Slow Answer Ltd', '-o', 'json']);
      expect(r.code).toBe(1);
      expect(errorOf(r).code).toBe('outcome_unknown');
      const ls = json<Entry[]>(await h.run(['supplier', 'find', 'slow answer', '-o', 'json']));
      expect(ls.map((e) => e.state)).toEqual(['unknown']);
    } finally {
      await h.close();
    }
  });

  it('a refused create (400) is a plain failure, recorded nowhere', async () => {
    const h = await startHarness();
    try {
      const r = await h.run(['supplier', 'create', '--json', '-', '-o', 'json'], { input: JSON.stringify({ name: 'Bad Industry', industryCodes: ['99999999'] }) });
      expect(r.code).toBe(1);
      expect(errorOf(r).code).not.toBe('outcome_unknown');
      expect(json<Entry[]>(await h.run(['supplier', 'ls', '-o', 'json']))).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

describe('a catalog that cannot be written', () => {
  it('stops a create before it is sent (its attempt is recorded ahead), exit 1 naming the file; --no-catalog sends it', async () => {
    const h = await startHarness({ admin: true });
    try {
      // The catalog and this target exist (a read recorded; `supplier ls` alone records no target).
      const seeded = (JSON.parse((await h.run(['emulator', 'fixtures', '-o', 'json'])).stdout) as { suppliers: Array<{ id: string }> }).suppliers[0]!.id;
      expect((await h.run(['supplier', 'get', seeded, '-o', 'json'])).code).toBe(0);
      const { statSync } = await import('node:fs');
      expect(statSync(join(h.home, 'data', 'catalog.db-wal')).size).toBeGreaterThan(36 * 1024);
      // Under `ulimit -f 36` the catalog's WAL (already past 36 KiB: nothing checkpoints it) cannot grow: its next write fails (EFBIG), as on a full disk.
      const refused = await h.run(['supplier', 'create', '--name', 'Created Anyway', '--customer-id', 'W-1', '-o', 'json'], { fileSizeLimitKb: 36 });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toMatch(/cannot record this attempt in the supplier catalog .*catalog\.db before sending it: .*nothing was sent \(--no-catalog sends without the catalog\)/);
      expect((await adminSuppliers(h.emu)).filter((s) => s.customerSupplierId === 'W-1')).toHaveLength(0);
      const r = await h.run(['--no-catalog', 'supplier', 'create', '--name', 'Created Anyway', '--customer-id', 'W-1', '-o', 'json'], { fileSizeLimitKb: 36 });
      expect(r.code, r.stderr).toBe(0);
      const id = json<{ id: string }>(r).id;
      expect((await adminSuppliers(h.emu)).filter((s) => s.customerSupplierId === 'W-1')).toHaveLength(1);
      // Reading it records it.
      expect(json<Entry[]>(await h.run(['supplier', 'ls', '-o', 'json'])).map((e) => e.id)).toEqual([seeded]);
      expect((await h.run(['supplier', 'get', id, '-o', 'json'])).code).toBe(0);
      expect(json<Entry[]>(await h.run(['supplier', 'ls', '-o', 'json'])).map((e) => e.id).sort()).toEqual([seeded, id].sort());
    } finally {
      await h.close();
    }
  });
});

/** A new, empty catalog file a team would start with `touch`, in a directory of its own. */
function newCatalogFile(prefix: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 'team.db');
  writeFileSync(path, '');
  return { dir, path };
}

describe('the catalog file alone', () => {
  it('holds what an import and a create wrote (it was all in the -wal): a copy of it knows every supplier, and a re-run with the copy creates none again', async () => {
    await withHarness({}, async (h) => {
      const { dir, path: original } = newCatalogFile('srs-catalog-copy-');
      const csv = join(dir, 'vendors.csv');
      writeFileSync(csv, 'name,country,customerSupplierId\n' + Array.from({ length: 30 }, (_, i) => `Copy Co ${i},DEU,CPY-${i}`).join('\n') + '\n');
      const first = await h.run(['--catalog', original, 'supplier', 'import', csv, '-o', 'json', '--quiet', '--journal', join(dir, 'j1')]);
      expect(first.code, first.stderr).toBe(0);
      const created = await h.run(['--catalog', original, 'supplier', 'create', '--name', 'Copy Co extra', '--customer-id', 'CPY-extra', '-o', 'json']);
      expect(created.code, created.stderr).toBe(0);
      // A backup or a move of the file the user named, without its -wal.
      const copy = join(dir, 'copy.db');
      writeFileSync(copy, readFileSync(original));
      const again = await h.run(['--catalog', copy, 'supplier', 'import', csv, '-o', 'json', '--quiet', '--journal', join(dir, 'j2')]);
      expect(again.code, again.stderr).toBe(0);
      expect(json<{ created: number; exists: number }>(again)).toMatchObject({ created: 0, exists: 30 });
      const extra = await h.run(['--catalog', copy, 'supplier', 'create', '--name', 'Copy Co extra', '--customer-id', 'CPY-extra', '-o', 'json']);
      expect(extra.code).toBe(1);
      expect(extra.stderr).toMatch(/already created on this target/);
    });
  });
});

describe('a shared catalog', () => {
  it('keeps the mode its owner gave it (every open made it 0600, and every other user of it was locked out)', async () => {
    await withHarness({}, async (h) => {
      const { path: shared } = newCatalogFile('srs-catalog-shared-');
      chmodSync(shared, 0o666);
      const r = await h.run(['--catalog', shared, 'supplier', 'create', '--name', 'Shared Co', '--customer-id', 'SHR-1', '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect((statSync(shared).mode & 0o777).toString(8)).toBe('666');
      // A catalog srs creates itself (the default one) is still private.
      expect((await h.run(['supplier', 'create', '--name', 'Own Co', '--customer-id', 'OWN-1', '-o', 'json'])).code).toBe(0);
      expect((statSync(join(h.env.SRS_DATA_DIR!, 'catalog.db')).mode & 0o777).toString(8)).toBe('600');
    });
  });
});

describe('key rotation', () => {
  it('a new key that can read a recorded supplier joins its partition; one that cannot is another account; one GET each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-rotation-'));
    const state = join(dir, 'state.db');
    const env = { ...baseEnv(dir), NO_COLOR: '1' };
    const requests: string[] = [];
    const log = (l: string) => requests.push(l);
    let emu: StartedEmulator = await startEmulator({ port: 0, apiKey: 'old-key-0123456789', statePath: state, log });
    const port = emu.port;
    const run = (key: string, args: string[]) => runSrs(args, { ...env, SRS_BASE_URL: emu.url, SRS_API_KEY: key });
    try {
      const c = await run('old-key-0123456789', ['supplier', 'create', '--name', 'Kept Across Keys', '--customer-id', 'K-1', '-o', 'json']);
      expect(c.code, c.stderr).toBe(0);
      const id = json<{ id: string }>(c).id;
      await emu.close();

      // Same account, rotated key: the same service (same state), another key.
      emu = await startEmulator({ port, apiKey: 'new-key-0123456789', statePath: state, log });
      requests.length = 0;
      const linked = await run('new-key-0123456789', ['supplier', 'ls', '-o', 'json']);
      expect(linked.code, linked.stderr).toBe(0);
      expect(json<Entry[]>(linked).map((e) => e.id)).toEqual([id]);
      expect(requests.filter((l) => l.startsWith('GET /v1/suppliers/'))).toHaveLength(1);
      requests.length = 0;
      expect(json<Entry[]>(await run('new-key-0123456789', ['supplier', 'ls', '-o', 'json']))).toHaveLength(1);
      expect(requests).toHaveLength(0); // the link is stored: asked once
      await emu.close();

      // Another account at the same URL: the recorded id is not there (404).
      emu = await startEmulator({ port, apiKey: 'other-account-key-99', statePath: join(dir, 'other.db'), log });
      requests.length = 0;
      const other = await run('other-account-key-99', ['supplier', 'ls', '-o', 'json']);
      expect(other.code, other.stderr).toBe(0);
      expect(json<Entry[]>(other)).toEqual([]);
      expect(requests.filter((l) => l.startsWith('GET /v1/suppliers/'))).toHaveLength(1);
      // ... so its import sends K-1 (it is not "exists" for this account).
      const f = csvFile(dir, 'k.csv', [['Kept Across Keys', 'DEU', 'K-1']]);
      const imp = await run('other-account-key-99', ['supplier', 'import', f, '-o', 'json']);
      expect(json<{ created: number; exists: number }>(imp)).toMatchObject({ created: 1, exists: 0 });
    } finally {
      await emu.close();
    }
  });
});

describe('one service under two spellings (localhost and 127.0.0.1), and what readers and rotated keys do there', () => {
  it('a reader first records nothing there; a key rotated at the second spelling finds what was created through it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-spellings-'));
    const state = join(dir, 'state.db');
    const env = { ...baseEnv(dir), NO_COLOR: '1' };
    let emu: StartedEmulator = await startEmulator({ port: 0, apiKey: 'first-key-0123456789', statePath: state });
    const port = emu.port;
    const a = `http://127.0.0.1:${port}`;
    const b = `http://localhost:${port}`;
    const run = (url: string, key: string, args: string[]) => runSrs(args, { ...env, SRS_BASE_URL: url, SRS_API_KEY: key });
    try {
      // A reader at B before anything exists: nothing recorded for B (a partition made now would stop the import's question).
      expect(json<Entry[]>(await run(b, 'first-key-0123456789', ['supplier', 'ls', '-o', 'json']))).toEqual([]);
      const viaA = await run(a, 'first-key-0123456789', ['supplier', 'import', csvFile(dir, 'a.csv', [['Spelled Once', 'DEU', 'SP-1']]), '-o', 'json']);
      expect(json<{ created: number }>(viaA).created).toBe(1);
      // A reader at B now: still nothing shown there, and a note saying where this key's records are.
      const reader = await run(b, 'first-key-0123456789', ['supplier', 'ls', '-o', 'json']);
      expect(json<Entry[]>(reader)).toEqual([]);
      expect(reader.stderr).toContain(`the supplier catalog knows this key at ${a}, not yet at ${b}`);
      const viaB = await run(b, 'first-key-0123456789', ['supplier', 'import', csvFile(dir, 'b.csv', [['Spelled Once', 'DEU', 'SP-1'], ['Spelled Twice', 'DEU', 'SP-2']]), '-o', 'json']);
      expect(json<{ created: number; exists: number }>(viaB)).toMatchObject({ created: 1, exists: 1 });
      await emu.close();
      // The key rotated, used at B: B's records (in A's partition) are found, nothing is created again.
      emu = await startEmulator({ port, apiKey: 'second-key-0123456789', statePath: state });
      const rotated = await run(b, 'second-key-0123456789', ['supplier', 'import', csvFile(dir, 'c.csv', [['Spelled Once', 'DEU', 'SP-1'], ['Spelled Twice', 'DEU', 'SP-2']]), '-o', 'json']);
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(json<{ created: number; exists: number }>(rotated)).toMatchObject({ created: 0, exists: 2 });
    } finally {
      await emu.close();
    }
  });
});

describe('one service under two spellings, the second met before the first held anything', () => {
  it('a supplier get through B first, then imports through A and B: B joins A (it created every row again)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-spellings-get-'));
    const emu = await startEmulator({ port: 0, apiKey: 'get-first-key-0123456789' });
    const a = `http://127.0.0.1:${emu.port}`;
    const b = `http://localhost:${emu.port}`;
    const run = (url: string, args: string[]) => runSrs(args, { ...baseEnv(dir), SRS_BASE_URL: url, SRS_API_KEY: 'get-first-key-0123456789' });
    try {
      const seeded = (JSON.parse((await run(a, ['emulator', 'fixtures', '-o', 'json'])).stdout) as { suppliers: Array<{ id: string }> }).suppliers[0]!.id;
      expect((await run(b, ['supplier', 'get', seeded, '-o', 'json'])).code).toBe(0);
      const rows: Array<[string, string, string]> = [['Got First A', 'DEU', 'GF-1'], ['Got First B', 'DEU', 'GF-2']];
      expect(json<{ created: number }>(await run(a, ['supplier', 'import', csvFile(dir, 'a.csv', rows), '-o', 'json'])).created).toBe(2);
      const viaB = await run(b, ['supplier', 'import', csvFile(dir, 'b.csv', rows), '-o', 'json']);
      expect(viaB.code, viaB.stderr).toBe(0);
      expect(json<{ created: number; exists: number }>(viaB)).toMatchObject({ created: 0, exists: 2 });
    } finally {
      await emu.close();
    }
  });

  it('an import whose every answer was lost through A: the same rows through B are unknown, not sent again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-spellings-lost-'));
    const state = join(dir, 'state.db');
    let emu: StartedEmulator = await startEmulator({ port: 0, apiKey: 'lost-key-0123456789', statePath: state, faults: { failAfterCommitRate: 1 } });
    const port = emu.port;
    const run = (url: string, args: string[]) => runSrs(args, { ...baseEnv(dir), SRS_BASE_URL: url, SRS_API_KEY: 'lost-key-0123456789' });
    try {
      const rows: Array<[string, string, string]> = [['Lost A', 'DEU', 'LO-1'], ['Lost B', 'DEU', 'LO-2']];
      const viaA = await run(`http://127.0.0.1:${port}`, ['supplier', 'import', csvFile(dir, 'a.csv', rows), '--retries', '0', '-o', 'json']);
      expect(json<{ unknown: number }>(viaA).unknown).toBe(2);
      await emu.close();
      emu = await startEmulator({ port, apiKey: 'lost-key-0123456789', statePath: state });
      const viaB = await run(`http://localhost:${port}`, ['supplier', 'import', csvFile(dir, 'b.csv', rows), '-o', 'json']);
      expect(json<{ created: number; unknown: number }>(viaB)).toMatchObject({ created: 0, unknown: 2 });
      expect(viaB.stderr).toContain('it may be the same service under another name');
    } finally {
      await emu.close();
    }
  });
});

describe('a catalog written by a newer srs', () => {
  it('is refused with a clear message before anything is sent', async () => {
    const h = await startHarness();
    try {
      const first = await h.run(['supplier', 'ls', '-o', 'json']);
      expect(first.code, first.stderr).toBe(0);
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(join(h.home, 'data', 'catalog.db'));
      db.exec('PRAGMA user_version = 42');
      db.close();
      const ls = await h.run(['supplier', 'ls', '-o', 'json']);
      expect(ls.code).toBe(1);
      expect(errorOf(ls).message).toMatch(/supplier catalog at .*catalog\.db was written by a newer srs/);
      const before = h.requests.length;
      const c = await h.run(['supplier', 'create', '--name', 'Never Sent', '-o', 'json']);
      expect(c.code).toBe(1);
      expect(h.requests.length).toBe(before);
      // --no-catalog is the way out.
      const off = await h.run(['--no-catalog', 'supplier', 'create', '--name', 'Sent Without Catalog', '-o', 'json']);
      expect(off.code, off.stderr).toBe(0);
    } finally {
      await h.close();
    }
  });
});

describe('emulator and sandbox state on SQLite', () => {
  it('six parallel sandbox creates are all readable afterwards', async () => {
    const home = mkdtempSync(join(tmpdir(), 'srs-sandbox-par-'));
    const env = { ...baseEnv(home), NO_COLOR: '1' };
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => runSrs(['--sandbox', 'supplier', 'create', '--name', `Parallel Sandbox ${i}`, '--customer-id', `PS-${i}`, '-o', 'json'], env, { timeoutMs: 60_000 })),
    );
    const ids = created.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      return json<{ id: string }>(r).id;
    });
    expect(new Set(ids).size).toBe(6);
    for (const id of ids) {
      const g = await runSrs(['--sandbox', 'supplier', 'get', id, '-o', 'json'], env);
      expect(g.code, g.stderr).toBe(0);
      expect(json<{ id: string }>(g).id).toBe(id);
    }
    const ls = json<Entry[]>(await runSrs(['--sandbox', 'supplier', 'ls', '-o', 'json'], env));
    expect(ls.map((e) => e.id).sort()).toEqual([...ids].sort());
  });

  it('an old JSON sandbox state is migrated once, its suppliers kept', async () => {
    const home = mkdtempSync(join(tmpdir(), 'srs-sandbox-old-'));
    const env = { ...baseEnv(home), NO_COLOR: '1' };
    const id = '01m84vzde9c36gjbasj4gnj65f';
    const rec = { id, name: 'From JSON', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null, industryCodes: [], categoryIds: [], contacts: [], customFields: [], publicSupplierProfileUrl: `https://profiles.srs.example/suppliers/${id}` };
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(home, 'data'), { recursive: true });
    writeFileSync(join(home, 'data', 'sandbox-state.json'), JSON.stringify({ format: 'srs-emulator-state', version: 1, seed: 1, suppliers: 150, createdSuppliers: [rec] }));
    const g = await runSrs(['--sandbox', 'supplier', 'get', id, '-o', 'json'], env);
    expect(g.code, g.stderr).toBe(0);
    expect(g.stderr).toContain('migrated the JSON emulator state');
    const again = await runSrs(['--sandbox', 'supplier', 'get', id, '-o', 'json'], env);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('migrated');
  });

  it('one sandbox\'s catalog never answers for another: two users sharing a --catalog, and a state deleted since', async () => {
    const { dir: home, path: catalog } = newCatalogFile('srs-sandbox-two-');
    const u1 = { ...baseEnv(join(home, 'u1')), NO_COLOR: '1' };
    const u2 = { ...baseEnv(join(home, 'u2')), NO_COLOR: '1' };
    const create = (env: Record<string, string>) => runSrs(['--sandbox', '--catalog', catalog, 'supplier', 'create', '--name', 'Team One', '--customer-id', 'T-1', '-o', 'json'], env, { timeoutMs: 60_000 });
    expect((await create(u1)).code).toBe(0);
    // u2's sandbox is another sandbox: T-1 is not "already created" there.
    const second = await create(u2);
    expect(second.code, second.stderr).toBe(0);
    expect((await create(u1)).code).toBe(1); // u1's own sandbox: it is (exists)
    // A deleted sandbox state is a new sandbox: its catalog starts empty, and the create goes through.
    for (const f of readdirSync(join(home, 'u1', 'data')).filter((f) => f.startsWith('sandbox-state.db'))) rmSync(join(home, 'u1', 'data', f));
    const fresh = await create(u1);
    expect(fresh.code, fresh.stderr).toBe(0);
    const got = await runSrs(['--sandbox', '--catalog', catalog, 'supplier', 'get', '--customer-id', 'T-1', '-o', 'json'], u1);
    expect(got.code, got.stderr).toBe(0);
    expect(json<{ id: string }>(got).id).toBe(json<{ id: string }>(fresh).id);
  });

  it('a data or config directory blocked by a file, or a sandbox state that is not one, is one line naming it (it was "unexpected error")', async () => {
    const home = mkdtempSync(join(tmpdir(), 'srs-blocked-'));
    const file = join(home, 'a-file');
    writeFileSync(file, 'not a directory');
    const env = { ...baseEnv(home), NO_COLOR: '1' };
    for (const [args, extra, what] of [
      [['--sandbox', 'supplier', 'ls'], { SRS_DATA_DIR: undefined, XDG_DATA_HOME: file }, "data directory"],
      [['auth', 'status'], { SRS_CONFIG_DIR: undefined, XDG_CONFIG_HOME: file }, 'config directory'],
      [['supplier', 'ls'], { SRS_DATA_DIR: undefined, XDG_DATA_HOME: file, SRS_BASE_URL: 'http://127.0.0.1:9', SRS_API_KEY: 'blocked-key-0123' }, 'supplier catalog'],
    ] as const) {
      const r = await runSrs([...args], { ...env, ...extra });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain(what);
      expect(r.stderr).toContain('a file is in the way');
      expect(r.stderr).not.toMatch(/unexpected error/);
    }
    const data = join(home, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'sandbox-state.db'), 'junk');
    const broken = await runSrs(['--sandbox', 'ref', 'countries'], { ...env, SRS_DATA_DIR: data });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^srs: the sandbox cannot use its state .*sandbox-state\.db: .*; move it away \(or delete it\) to start a new, empty sandbox\n$/);
    expect(broken.stderr).not.toContain('--state');
  });

  it('kill -9 of `srs emulator start --state` mid-import loses no supplier it acknowledged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-kill9-'));
    const state = join(dir, 'state.db');
    const key = 'kill-nine-key-0123456789';
    const child: ChildProcess = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '-o', 'json', '--state', state, '--latency', '2'], {
      env: { ...baseEnv(dir), SRS_EMULATOR_API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout!.setEncoding('utf8').on('data', (d: string) => {
          buf += d;
          const nl = buf.indexOf('\n');
          if (nl >= 0) resolve((JSON.parse(buf.slice(0, nl)) as { url: string }).url);
        });
        child.on('close', () => reject(new Error('the emulator exited before printing its URL')));
      });
      const file = csvFile(dir, 'big.csv', rowsFor(1, 3000));
      const report = join(dir, 'report.csv');
      const journal = `${file}.srs-journal`;
      const imp = runSrs(['supplier', 'import', file, '--report', report, '-o', 'json', '--retries', '0', '--concurrency', '16'], {
        ...baseEnv(dir),
        SRS_BASE_URL: url,
        SRS_API_KEY: key,
      }, { timeoutMs: 120_000 });
      // Kill it once a few hundred creates were acknowledged (the journal's "created" lines say so).
      for (let i = 0; i < 600; i++) {
        await new Promise((r) => setTimeout(r, 50));
        let n = 0;
        try {
          n = (readFileSync(journal, 'utf8').match(/created/g) ?? []).length;
        } catch {
          /* not yet */
        }
        if (n >= 300) break;
      }
      child.kill('SIGKILL');
      const r = await imp;
      expect(r.code).toBe(1); // rows after the kill failed or are unknown
      const rows = parseCsv(readFileSync(report), { columns: true }) as ReportRow[];
      const acknowledged = rows.filter((x) => x.state === 'created');
      expect(acknowledged.length).toBeGreaterThanOrEqual(300);
      expect(acknowledged.length).toBeLessThan(3000);
      const st = StateDb.open(state, { seed: 1, suppliers: 150 });
      const kept = new Set(st.all().map((s) => s.id));
      st.close();
      const lost = acknowledged.filter((x) => !kept.has(x.supplierId));
      expect(lost).toEqual([]);
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

describe('the catalog is never an output, and what is not a catalog is named', () => {
  it('--report or --failed on the catalog (or its -wal) is exit 2 with nothing sent or written; a blank --customer-id is exit 2; a --catalog that is not one is exit 2', async () => {
    const h = await startHarness({ admin: true });
    try {
      const catalog = join(h.home, 'shared.db');
      writeFileSync(catalog, '');
      const file = csvFile(h.home, 'rp.csv', rowsFor(7001, 7002));
      expect((await h.run(['--catalog', catalog, 'supplier', 'import', file, '-o', 'json', '--quiet'])).code).toBe(0);
      const before = h.requests.length;
      for (const [flag, path] of [['--report', catalog], ['--failed', `${catalog}-wal`]] as const) {
        const r = await h.run(['--catalog', catalog, 'supplier', 'import', file, flag, path]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/is the supplier catalog/);
      }
      expect(h.requests.length).toBe(before);
      expect(json<Entry[]>(await h.run(['--catalog', catalog, 'supplier', 'ls', '-o', 'json']))).toHaveLength(2);
      const blank = await h.run(['supplier', 'create', '--name', 'Blank Id', '--customer-id', '  ']);
      expect(blank.code).toBe(2);
      expect(blank.stderr).toMatch(/--customer-id needs a value/);
      const notOne = await h.run(['--catalog', file, 'supplier', 'create', '--name', 'Z', '--customer-id', 'Z-1']);
      expect(notOne.code).toBe(2);
      expect(notOne.stderr).toMatch(/--catalog .*rp\.csv is not a supplier catalog/);
      expect(h.requests.length).toBe(before);
    } finally {
      await h.close();
    }
  });
});
