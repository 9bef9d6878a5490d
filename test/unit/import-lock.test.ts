/**
 * The journal lock (src/util/lock.ts): one run per journal, a stale lock of a
 * dead process taken over with a warning, a foreign host's lock never broken,
 * and runImport stopping before it reads or sends when the lock is held.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { runImport, type ImportDeps } from '../../src/import/index.js';
import { JournalLock } from '../../src/util/lock.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const now = () => new Date('2026-01-02T03:04:05Z');

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('JournalLock', () => {
  it('an empty lock (a run killed between creating it and writing its holder) is taken over once it is a few seconds old', () => {
    const j = join(dir, `empty${n++}.srs-journal`);
    writeFileSync(j + '.lock', '');
    expect(() => JournalLock.acquire(j, { now, warn: () => undefined })).toThrow(/is in use by another run \(its lock file is unreadable\).*if no other srs is running/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(j + '.lock', old, old);
    const warnings: string[] = [];
    const lock = JournalLock.acquire(j, { now, warn: (m) => warnings.push(m) });
    expect(warnings.join('\n')).toMatch(/left by another run \(its lock file is unreadable\), which no longer runs: taken over/);
    lock.release();
  });

  it('records pid, host and start time; a second acquire names the holder; release lets the next one in', () => {
    const j = join(dir, `a${n++}.srs-journal`);
    const lock = JournalLock.acquire(j, { now, warn: () => undefined });
    const held = JSON.parse(readFileSync(j + '.lock', 'utf8'));
    expect(held).toEqual({ pid: process.pid, host: hostname(), started: '2026-01-02T03:04:05.000Z' });
    let err: unknown;
    try {
      JournalLock.acquire(j, { now, warn: () => undefined });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as Error).message).toContain(`process ${process.pid} on ${hostname()}`);
    lock.release();
    expect(existsSync(j + '.lock')).toBe(false);
    JournalLock.acquire(j, { now, warn: () => undefined }).release();
  });

  it('takes over a lock left by a process that no longer exists on this host, with a warning', () => {
    const j = join(dir, `b${n++}.srs-journal`);
    const pid = deadPid();
    writeFileSync(j + '.lock', JSON.stringify({ pid, host: hostname(), started: '2020-01-01T00:00:00.000Z' }));
    const warnings: string[] = [];
    const lock = JournalLock.acquire(j, { now, warn: (m) => void warnings.push(m) });
    expect(warnings).toEqual([expect.stringContaining(`process ${pid} on ${hostname()}, started 2020-01-01T00:00:00.000Z, which no longer runs: taken over`)]);
    expect(JSON.parse(readFileSync(j + '.lock', 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('never breaks a lock of another host, or of a live process', () => {
    const j = join(dir, `c${n++}.srs-journal`);
    writeFileSync(j + '.lock', JSON.stringify({ pid: deadPid(), host: 'elsewhere.example', started: '2020-01-01T00:00:00.000Z' }));
    expect(() => JournalLock.acquire(j, { now, warn: () => undefined })).toThrow(/in use by process \d+ on elsewhere\.example.*delete/);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(j + '.lock', JSON.stringify({ pid: child.pid, host: hostname(), started: '2020-01-01T00:00:00.000Z' }));
      expect(() => JournalLock.acquire(j, { now, warn: () => undefined })).toThrow(`in use by process ${child.pid}`);
      expect(JSON.parse(readFileSync(j + '.lock', 'utf8')).pid).toBe(child.pid);
    } finally {
      child.kill();
    }
  });
});

describe('runImport and the lock', () => {
  function deps(clientCalls: { n: number }, stdin?: Readable): ImportDeps {
    return {
      client: async () => {
        clientCalls.n++;
        return { createSupplier: async (b) => ({ id: `id-${b.customerSupplierId}` }) };
      },
      ...(stdin ? { stdin } : {}),
      stderrWrite: () => undefined,
      stderrIsTTY: false,
      warn: () => undefined,
      info: () => undefined,
    };
  }

  it('a second run on a held journal exits 2 before reading the input or creating a client', async () => {
    const journal = join(dir, `d${n++}.srs-journal`);
    const held = JournalLock.acquire(journal, { now, warn: () => undefined });
    let reads = 0;
    const stdin = new Readable({
      read() {
        reads++;
        this.push('name,country,customerSupplierId\nA,DEU,1\n');
        this.push(null);
      },
    });
    const calls = { n: 0 };
    try {
      await expect(runImport({ file: '-', journal, quiet: true }, deps(calls, stdin))).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('is in use by process') });
      expect(reads).toBe(0);
      expect(calls.n).toBe(0);
      expect(existsSync(journal)).toBe(false);
    } finally {
      held.release();
    }
  });

  it('a real run holds the lock while it runs and releases it at the end; a dry run neither takes nor breaks one', async () => {
    const file = join(dir, `e${n++}.csv`);
    writeFileSync(file, 'name,country,customerSupplierId\nA,DEU,1\nB,DEU,2\n');
    const calls = { n: 0 };
    const d = deps(calls);
    let sawLock = false;
    const inner = await d.client(8);
    d.client = async () => ({
      createSupplier: async (b) => {
        sawLock ||= existsSync(file + '.srs-journal.lock');
        return inner.createSupplier(b);
      },
    });
    const r = await runImport({ file, quiet: true }, d);
    expect(r.summary.created).toBe(2);
    expect(sawLock).toBe(true);
    expect(existsSync(file + '.srs-journal.lock')).toBe(false);

    // A stale lock is left alone by a dry run.
    const stale = JSON.stringify({ pid: deadPid(), host: hostname(), started: '2020-01-01T00:00:00.000Z' });
    writeFileSync(file + '.srs-journal.lock', stale);
    const dry = await runImport({ file, quiet: true, dryRun: true }, deps(calls));
    expect(dry.summary).toMatchObject({ dryRun: true, skipped: 2 });
    expect(readFileSync(file + '.srs-journal.lock', 'utf8')).toBe(stale);
  });
});
