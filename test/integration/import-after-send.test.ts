/**
 * The import writes its catalog batches just after a batch of requests left (Sender's
 * afterDispatch -> each sink's afterSend), so that the service works on those requests while
 * SQLite writes. That only helps if the requests really are on the wire by then: undici writes
 * a request with a buffered body within dispatch() on a connected socket. These tests watch
 * undici's own diagnostics channel against the real emulator over loopback, so an undici
 * upgrade that defers the write fails here instead of silently losing the gain; and they check
 * that the catalog sink defers a due batch to afterSend (and writes it itself when no send comes).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { SupplierCreateRequest } from '../../src/api/contract.js';
import { CatalogSink } from '../../src/commands/supplier/catalog-sink.js';
import { startEmulator, type StartedEmulator } from '../../src/emulator/index.js';
import { Sender, type SendOutcome } from '../../src/import/send.js';
import { Candidate } from '../../src/import/sinks.js';
import { Catalog } from '../../src/store/catalog.js';

const API_KEY = 'after-send-test-key-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'srs-after-send-'));
let emu: StartedEmulator;
let client: ApiClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKey: API_KEY });
  client = new ApiClient({ baseUrl: emu.url, apiKey: API_KEY });
});
afterAll(async () => {
  await client.close();
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const body = (i: number): SupplierCreateRequest => ({ name: `After Send ${i}`, countryIso3Code: 'DEU', customerSupplierId: `AS-${i}` });

describe('Sender afterDispatch', () => {
  it("runs once a batch's requests are written to their sockets (undici writes within dispatch)", async () => {
    let written = 0;
    const onHeaders = (): void => void written++;
    subscribe('undici:client:sendHeaders', onHeaders);
    try {
      const seen: number[] = [];
      const sender = new Sender(client, 4, undefined, () => seen.push(written));
      const round = async (from: number): Promise<SendOutcome[]> => {
        const outcomes: Array<Promise<SendOutcome>> = [];
        for (let i = from; i < from + 4; i++) outcomes.push(new Promise((resolve) => sender.start(body(i), resolve)));
        return Promise.all(outcomes);
      };
      // The first round opens the connections (a connect is asynchronous: those writes come later).
      expect((await round(0)).every((o) => o.state === 'created')).toBe(true);
      const before = written;
      expect((await round(4)).every((o) => o.state === 'created')).toBe(true);
      // On connected sockets, all four were written before afterDispatch ran.
      expect(seen.at(-1)! - before).toBe(4);
    } finally {
      unsubscribe('undici:client:sendHeaders', onHeaders);
    }
  });
});

describe('CatalogSink batches', () => {
  async function sink(name: string): Promise<{ sink: CatalogSink; catalog: Catalog; partition: number }> {
    const catalog = Catalog.open(join(dir, `${name}.db`));
    const partition = await catalog.resolvePartition({ baseUrl: 'http://catalog.test', account: name }, () => Promise.reject(new Error('not asked')));
    return { sink: new CatalogSink({ catalog, partition, file: 'f.csv', dryRun: false, allowExisting: false, retryUnknown: false }), catalog, partition };
  }
  const created = (i: number) => {
    const row = new Candidate(i + 2, `C-${i}`, { name: `Supplier ${i}`, countryIso3Code: 'DEU', customerSupplierId: `C-${i}` }, []);
    return { outcome: { line: i + 2, state: 'created' as const, supplierId: `sup_${i}` }, sent: row };
  };

  it('holds a full batch until the next batch of requests has left, then writes it', async () => {
    const { sink: s, catalog, partition } = await sink('deferred');
    for (let i = 0; i < 600; i++) s.record(created(i));
    expect(catalog.count(partition)).toBe(0);
    s.afterSend();
    expect(catalog.count(partition)).toBe(600);
    await s.close();
    catalog.close();
  });

  it('a batch that cannot be written in afterSend stops the next batch of requests (beforeSend throws)', async () => {
    const { sink: s, catalog } = await sink('failing');
    for (let i = 0; i < 600; i++) s.record(created(i));
    expect(() => s.beforeSend()).not.toThrow();
    catalog.close(); // the write fails: the database is gone
    s.afterSend();
    expect(() => s.beforeSend()).toThrow(/cannot write the supplier catalog .*the import stopped sending/);
    await expect(s.close()).rejects.toThrow(/cannot write the supplier catalog/);
  });

  it('a batch that cannot be written keeps the import lock (as after a kill): an overlapping import must not go ahead', async () => {
    const { JournalLock } = await import('../../src/util/lock.js');
    const { existsSync } = await import('node:fs');
    const lockPath = join(dir, 'failing-lock.db.import-1.lock');
    const lock = await JournalLock.takeWaiting(lockPath, {
      now: () => new Date(),
      warn: () => undefined,
      inUse: 'held',
      stale: 'catalog lock',
      cannotCreate: 'writable',
      nothing: 'Nothing was sent.',
      holder: { what: 'srs supplier import f.csv', journal: join(dir, 'f.csv.srs-journal') },
      releaseOnExit: false,
      waitMs: 0,
    });
    const catalog = Catalog.open(join(dir, 'failing-lock.db'));
    const partition = await catalog.resolvePartition({ baseUrl: 'http://catalog.test', account: 'lock' }, () => Promise.reject(new Error('not asked')));
    const s = new CatalogSink({ catalog, partition, file: 'f.csv', dryRun: false, allowExisting: false, retryUnknown: false, lock });
    for (let i = 0; i < 600; i++) s.record(created(i));
    catalog.close();
    s.afterSend();
    await expect(s.close()).rejects.toThrow(/cannot write the supplier catalog/);
    expect(existsSync(lockPath)).toBe(true);
  });

  it('writes by itself when no request leaves for a long while (rows kept back)', async () => {
    const { sink: s, catalog, partition } = await sink('inline');
    for (let i = 0; i < 2048; i++) s.record(created(i));
    expect(catalog.count(partition)).toBe(2048);
    for (let i = 2048; i < 2050; i++) s.record(created(i));
    await s.close();
    expect(catalog.count(partition)).toBe(2050);
    catalog.close();
  });
});

describe('runImport', () => {
  it("calls each sink's afterSend once a batch of requests left, before the answers to it are recorded", async () => {
    const { writeFileSync } = await import('node:fs');
    const { runImport } = await import('../../src/import/index.js');
    const file = join(dir, 'rows.csv');
    writeFileSync(file, 'name,country,customerSupplierId\n' + Array.from({ length: 50 }, (_, i) => `Row ${i},DEU,R-${i}`).join('\n') + '\n');
    const events: string[] = [];
    const sink = {
      name: 'events',
      ordered: false,
      sending: () => void events.push('sending'),
      afterSend: () => void events.push('afterSend'),
      record: () => void events.push('record'),
      close: () => Promise.resolve(),
    };
    const r = await runImport(
      { file, journal: join(dir, 'rows.journal'), quiet: true, concurrency: 4 },
      { client: async () => client, stderrWrite: () => undefined, stderrIsTTY: false, warn: () => undefined, info: () => undefined, sinks: () => [sink] },
    );
    expect(r.summary.created).toBe(50);
    const sends = events.filter((e) => e === 'afterSend').length;
    expect(sends).toBeGreaterThan(0);
    // The first batch's afterSend comes after its requests were taken and before any answer is recorded.
    expect(events.indexOf('sending')).toBeLessThan(events.indexOf('afterSend'));
    expect(events.indexOf('afterSend')).toBeLessThan(events.indexOf('record'));
  });
});
