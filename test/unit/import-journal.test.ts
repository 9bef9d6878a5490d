import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { rowHash } from '../../src/import/hash.js';
import { decideResume, Journal, JournalHistory, readJournal } from '../../src/import/journal.js';
import type { FileIdentity } from '../../src/import/read.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const jpath = () => join(dir, `j${n++}.srs-journal`);
const id = (over: Partial<FileIdentity> = {}): FileIdentity => ({ path: '/data/in.csv', size: 100, head: 'a'.repeat(64), headBytes: 100, ...over });
const opts = { fsync: false, now: () => new Date('2025-01-01T00:00:00Z'), warn: () => undefined };

describe('rowHash', () => {
  it('is short, stable and sensitive to every cell and to cell boundaries', () => {
    expect(rowHash(['a', 'b'])).toMatch(/^[0-9a-f]{12}$/);
    expect(rowHash(['a', 'b'])).toBe(rowHash(['a', 'b']));
    expect(rowHash(['a', 'b'])).not.toBe(rowHash(['ab']));
    expect(rowHash(['a', 'b'])).not.toBe(rowHash(['a', 'c']));
  });
});

describe('binding', () => {
  it('starts a journal with the identity, then accepts the same file', async () => {
    const p = jpath();
    const { journal, resumed } = await Journal.open(p, 'in.csv', id(), opts);
    expect(resumed).toBe(false);
    journal.close();
    const first = JSON.parse(readFileSync(p, 'utf8').split('\n')[0]!);
    expect(first).toMatchObject({ srs: 'import-journal', v: 2, file: '/data/in.csv', size: 100, headBytes: 100 });
    expect((await readJournal(p, 'in.csv', id(), () => undefined))?.header).toMatchObject({ size: 100 });
    const again = await Journal.open(p, 'in.csv', id(), opts);
    expect(again.resumed).toBe(true);
    again.journal.close();
  });

  it.each([
    ['another size', { size: 101 }],
    ['other content', { head: 'b'.repeat(64) }],
    ['a different head length', { headBytes: 99 }],
  ])('refuses %s (exit 2) once it records a row sent', async (_label, over) => {
    const p = jpath();
    const { journal } = await Journal.open(p, 'in.csv', id(), opts);
    journal.sent(2, 'aaaaaaaaaaaa');
    journal.created(2, 'S-2');
    journal.close();
    let err: unknown;
    try {
      await Journal.open(p, 'in.csv', id(over), opts);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as Error).message).toContain('belongs to another file');
  });

  it('a journal that records no row sent vouches for nothing: a changed file takes it over (readJournal rebinds it)', async () => {
    const p = jpath();
    (await Journal.open(p, 'in.csv', id(), opts)).journal.close();
    const notes: string[] = [];
    const r = await readJournal(p, 'in.csv', id({ size: 101, head: 'b'.repeat(64) }), () => undefined, { info: (m) => notes.push(m) });
    expect(r?.lines).toEqual([expect.objectContaining({ file: expect.objectContaining({ size: 101 }) })]);
    expect(notes.join(' ')).toContain('records no row sent');
    // Once it records a row, another file is refused.
    const p2 = jpath();
    const j = (await Journal.open(p2, 'in.csv', id(), opts)).journal;
    j.sent(2, 'aaaaaaaaaaaa');
    j.close();
    await expect(readJournal(p2, 'in.csv', id({ size: 101 }), () => undefined)).rejects.toThrow(/belongs to another file/);
  });

  it('a moved file with the same content is accepted, with a warning', async () => {
    const p = jpath();
    (await Journal.open(p, 'in.csv', id(), opts)).journal.close();
    const warnings: string[] = [];
    const r = await Journal.open(p, 'moved.csv', id({ path: '/elsewhere/moved.csv' }), { ...opts, warn: (m) => warnings.push(m) });
    r.journal.close();
    expect(warnings[0]).toContain('was started for /data/in.csv');
  });

  it('refuses an empty journal (a power cut or an emptied file lost its record): it is not "no journal"', async () => {
    const p = jpath();
    writeFileSync(p, '');
    await expect(readJournal(p, 'in.csv', id(), () => undefined)).rejects.toThrow(/exists but is empty: what an earlier run recorded was lost .* delete the file or pass --journal NEW/);
    // What XFS or ext4 leave after a power cut that kept the size: NUL bytes, not "not a journal" (whose advice sent every row again).
    writeFileSync(p, Buffer.alloc(300));
    await expect(readJournal(p, 'in.csv', id(), () => undefined)).rejects.toThrow(/exists but holds only NUL bytes: what an earlier run recorded was lost/);
  });

  it('refuses a file that is not a journal', async () => {
    const p = jpath();
    writeFileSync(p, 'name,country\n');
    await expect(readJournal(p, 'in.csv', id(), () => undefined)).rejects.toThrow(/not an srs import journal/);
  });
});

describe('history', () => {
  it('records the last state per line, keeps the hash of the "sent" and the id of "created"', async () => {
    const p = jpath();
    const { journal } = await Journal.open(p, 'in.csv', id(), opts);
    journal.sent(2, 'aaaaaaaaaaaa');
    journal.created(2, 'S-2');
    journal.sent(3, 'bbbbbbbbbbbb');
    journal.failed(3, 'HTTP 400: nope');
    journal.sent(4, 'cccccccccccc');
    journal.unknown(4, 'timed out');
    journal.sent(5, 'dddddddddddd'); // in flight when the run died
    journal.sent(3, 'eeeeeeeeeeee');
    journal.created(3, 'S-3');
    journal.close();
    const r = await readJournal(p, 'in.csv', id(), () => undefined);
    const h = r!.history;
    expect(h.size).toBe(4);
    expect(h.get(2)).toEqual({ state: 'created', hash: 'aaaaaaaaaaaa', id: 'S-2', message: undefined });
    expect(h.get(3)).toEqual({ state: 'created', hash: 'eeeeeeeeeeee', id: 'S-3', message: undefined });
    expect(h.get(4)).toEqual({ state: 'unknown', hash: 'cccccccccccc', id: undefined, message: 'timed out' });
    expect(h.get(5)).toEqual({ state: 'sent', hash: 'dddddddddddd', id: undefined, message: undefined });
    expect(h.get(6)).toBeUndefined();
  });

  it('survives a torn last line (a kill mid-write) and starts the next run on a fresh line', async () => {
    const p = jpath();
    const { journal } = await Journal.open(p, 'in.csv', id(), opts);
    journal.sent(2, 'aaaaaaaaaaaa');
    journal.close();
    appendFileSync(p, '{"l":2,"s":"crea');
    const warnings: string[] = [];
    const again = await Journal.open(p, 'in.csv', id(), { ...opts, warn: (m) => warnings.push(m) });
    again.journal.created(9, 'S-9');
    again.journal.close();
    expect(warnings[0]).toContain('1 unreadable line');
    const h = (await readJournal(p, 'in.csv', id(), () => undefined))!.history;
    expect(h.get(2)!.state).toBe('sent');
    expect(h.get(9)).toMatchObject({ state: 'created', id: 'S-9' });
  });

  it('ids that need JSON escapes, and non-ASCII ids, read back exactly', async () => {
    const p = jpath();
    const { journal } = await Journal.open(p, 'in.csv', id(), opts);
    journal.sent(2, 'aaaaaaaaaaaa');
    journal.created(2, 'odd "id" \\ with escapes');
    journal.sent(3, 'bbbbbbbbbbbb');
    journal.created(3, 'Zürich-€-1');
    journal.close();
    const h = (await readJournal(p, 'in.csv', id(), () => undefined))!.history;
    expect(h.get(2)).toMatchObject({ state: 'created', id: 'odd "id" \\ with escapes', hash: 'aaaaaaaaaaaa' });
    expect(h.get(3)).toMatchObject({ state: 'created', id: 'Zürich-€-1', hash: 'bbbbbbbbbbbb' });
  });

  it('writes a "created" line byte for byte as JSON.stringify({ l, s, id }) (built from a template, not an object per row)', async () => {
    const p = jpath();
    const ids = ['S-2', 'odd "id" \\ with escapes', 'Zürich-€-1', 'tab\tnew\nline\u2028', 'key-SECRET-in-id'];
    const { journal } = await Journal.open(p, 'in.csv', id(), { ...opts, redact: (s: string) => s.replaceAll('SECRET', '***') });
    ids.forEach((x, i) => journal.created(i + 2, x));
    journal.close();
    const lines = readFileSync(p, 'utf8').split('\n').filter((l) => l.includes('"created"'));
    expect(lines).toEqual(ids.map((x, i) => JSON.stringify({ l: i + 2, s: 'created', id: x.replaceAll('SECRET', '***') })));
  });

  it('grows to large line numbers compactly', () => {
    const h = new JournalHistory();
    h.record(1_500_000, 'created', '0123456789ab', 'X');
    expect(h.get(1_500_000)).toEqual({ state: 'created', hash: '0123456789ab', id: 'X', message: undefined });
    expect(h.get(1_499_999)).toBeUndefined();
  });
});

describe('decideResume', () => {
  const H = 'abcdefabcdef';
  const prior = (state: 'sent' | 'created' | 'failed' | 'unknown', hash = H, extra: { id?: string; message?: string } = {}) => ({ state, hash, id: extra.id, message: extra.message });

  it('sends rows never recorded or recorded as failed', () => {
    expect(decideResume(2, undefined, H, false)).toEqual({ action: 'send' });
    expect(decideResume(2, prior('failed'), H, false)).toEqual({ action: 'send' });
    expect(decideResume(2, prior('failed', 'ffffffffffff'), H, false)).toEqual({ action: 'send' });
  });

  it('skips created rows, keeping the id, even with --retry-unknown', () => {
    expect(decideResume(2, prior('created', H, { id: 'S1' }), H, false)).toEqual({ action: 'skip', id: 'S1', message: 'already created (journal)' });
    expect(decideResume(2, prior('created', H, { id: 'S1' }), H, true)).toMatchObject({ action: 'skip' });
  });

  it('sent-without-answer and unknown stay unknown unless --retry-unknown', () => {
    expect(decideResume(2, prior('sent'), H, false)).toMatchObject({ action: 'unknown', message: expect.stringContaining('stopped before the answer arrived') });
    expect(decideResume(2, prior('unknown', H, { message: 'HTTP 502' }), H, false)).toMatchObject({ action: 'unknown', message: expect.stringContaining('HTTP 502') });
    expect(decideResume(2, prior('sent'), H, true)).toEqual({ action: 'send' });
    expect(decideResume(2, prior('unknown'), H, true)).toEqual({ action: 'send' });
  });

  it('a row that changed since it was sent or created is not resent (unknown) unless --retry-unknown', () => {
    const d = decideResume(7, prior('created', 'ffffffffffff', { id: 'S7' }), H, false);
    expect(d).toMatchObject({ action: 'unknown' });
    expect((d as { message: string }).message).toContain('line 7 was created as S7 by an earlier run (journal) but has changed since');
    expect(decideResume(7, prior('sent', 'ffffffffffff'), H, false)).toMatchObject({ action: 'unknown' });
    expect(decideResume(7, prior('sent', 'ffffffffffff'), H, true)).toEqual({ action: 'send' });
  });
});

describe('batched writes and the sender', () => {
  const lines = (p: string) => readFileSync(p, 'utf8').trim().split('\n');

  it('holds lines until flush() (or the end of the turn), then writes them in one go; after close, flush() refuses', async () => {
    const p = jpath();
    const { journal } = await Journal.open(p, 'in.csv', id(), opts);
    const before = lines(p).length; // header + run line
    journal.sent(2, 'aaaaaaaaaaaa');
    journal.sent(3, 'bbbbbbbbbbbb');
    expect(lines(p)).toHaveLength(before);
    journal.flush();
    expect(lines(p).slice(before)).toEqual(['{"l":2,"h":"aaaaaaaaaaaa","s":"sent"}', '{"l":3,"h":"bbbbbbbbbbbb","s":"sent"}']);
    journal.created(2, 'S-2');
    await new Promise((r) => setImmediate(r)); // the end of the turn writes what is pending
    expect(lines(p).at(-1)).toBe('{"l":2,"s":"created","id":"S-2"}');
    journal.failed(3, 'HTTP 400: no');
    journal.close(); // writes what is pending
    expect(lines(p).at(-1)).toBe('{"l":3,"s":"failed","m":"HTTP 400: no"}');
    expect(() => journal.flush()).toThrow(/already closed/);
  });

  it('a batch leaves only after beforeDispatch; when it throws, no request is sent and each row fails "not sent"', async () => {
    const { Sender } = await import('../../src/import/send.js');
    const sentBodies: string[] = [];
    const client = { createSupplier: async (b: { name: string }) => (sentBodies.push(b.name), { id: `id-${b.name}` }) };
    const order: string[] = [];
    const ok = new Sender(client, 4, () => order.push(`flush with ${sentBodies.length} sent`));
    const outcomes: string[] = [];
    ok.start({ name: 'a' }, (o) => outcomes.push(o.state));
    ok.start({ name: 'b' }, (o) => outcomes.push(o.state));
    expect(sentBodies).toEqual([]); // nothing leaves before the end of the turn
    await ok.idle();
    expect(order).toEqual(['flush with 0 sent']); // one flush for the batch, before any request
    expect(sentBodies).toEqual(['a', 'b']);
    expect(outcomes).toEqual(['created', 'created']);

    const failing = new Sender(client, 4, () => {
      throw new Error('cannot write journal j (ENOSPC)');
    });
    const got: Array<{ state: string; message?: string }> = [];
    failing.start({ name: 'c' }, (o) => got.push(o as { state: string; message?: string }));
    await failing.idle();
    expect(sentBodies).toEqual(['a', 'b']);
    expect(got).toEqual([{ state: 'failed', message: 'not sent: cannot write journal j (ENOSPC)' }]);
    expect(failing.sent).toBe(0);
    expect((failing.error as Error).message).toContain('ENOSPC');
  });
});
