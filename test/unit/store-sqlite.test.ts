import { createHash } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, StoreError, transaction } from '../../src/store/sqlite.js';
import { describeTarget, keyFingerprint, normaliseBaseUrl, sameTarget, targetFor } from '../../src/api/target.js';

const M1 = { version: 1, sql: 'CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT)' };
const M2 = { version: 2, sql: 'ALTER TABLE t ADD COLUMN w INTEGER' };

describe('openDatabase', () => {
  it('refuses a file of another kind at the same schema version (kindTable), naming it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'srs-kind-')), 'x.db');
    openDatabase(path, { name: 'emulator state', migrations: [{ version: 1, sql: 'CREATE TABLE meta (k TEXT)' }], kindTable: 'meta' }).close();
    expect(() => openDatabase(path, { name: 'supplier catalog', migrations: [{ version: 1, sql: 'CREATE TABLE targets (k TEXT)' }], kindTable: 'targets' })).toThrow(
      /x\.db is not a supplier catalog: it is another kind of SQLite file/,
    );
    expect(() => openDatabase(path, { name: 'emulator state', migrations: [{ version: 1, sql: 'CREATE TABLE meta (k TEXT)' }], kindTable: 'meta' }).close()).not.toThrow();
  });

  it('creates the directory 0700 and the file 0600 whatever the umask, in WAL mode, migrated', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'srs-sqlite-')), 'sub');
    const old = process.umask(0o000);
    try {
      const db = openDatabase(join(dir, 'x.db'), { name: 'test store', migrations: [M1, M2] });
      expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
      db.prepare('INSERT INTO t (id, v, w) VALUES (?, ?, ?)').run('a', 'b', 1);
      db.close();
    } finally {
      process.umask(old);
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'x.db')).mode & 0o777).toBe(0o600);
  });

  it('migrates an older file forward and keeps its rows', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'srs-sqlite-')), 'x.db');
    const a = openDatabase(path, { name: 'test store', migrations: [M1] });
    a.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run('a', 'b');
    a.close();
    const b = openDatabase(path, { name: 'test store', migrations: [M1, M2] });
    expect(b.prepare('SELECT id, v, w FROM t').all()).toEqual([{ id: 'a', v: 'b', w: null }]);
    expect((b.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(2);
    b.close();
  });

  it('refuses a file written by a newer srs, naming both versions', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'srs-sqlite-')), 'x.db');
    openDatabase(path, { name: 'test store', migrations: [M1, M2] }).close();
    expect(() => openDatabase(path, { name: 'test store', migrations: [M1] })).toThrow(StoreError);
    expect(() => openDatabase(path, { name: 'test store', migrations: [M1] })).toThrow(/newer srs \(schema version 2; this srs knows up to 1\)/);
  });

  it('rolls a failed transaction back', () => {
    const db = openDatabase(':memory:', { name: 'test store', migrations: [M1] });
    expect(() =>
      transaction(db, () => {
        db.prepare('INSERT INTO t (id) VALUES (?)').run('x');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  });
});

describe('targets', () => {
  it('normalises base URLs: case, default port, trailing slash and /v1', () => {
    expect(normaliseBaseUrl('HTTPS://API.Example.com:443/v1/')).toBe('https://api.example.com');
    expect(normaliseBaseUrl('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
    expect(normaliseBaseUrl('https://example.com/srs/api/V1')).toBe('https://example.com/srs/api');
  });

  it('fingerprints a key into 12 hex digits that do not contain it', () => {
    const fp = keyFingerprint('sk_live_secret_1234');
    expect(fp).toMatch(/^[0-9a-f]{12}$/);
    expect(keyFingerprint('sk_live_secret_1234')).toBe(fp);
    expect(keyFingerprint('sk_live_secret_1235')).not.toBe(fp);
    expect(describeTarget(targetFor('https://a.example/', 'sk_live_secret_1234'))).toBe(`https://a.example (account ${fp})`);
    expect(sameTarget(targetFor('https://a.example/v1', 'k'), targetFor('https://A.example', 'k'))).toBe(true);
  });

  it('fingerprints exactly as SHA-256 of node:crypto did (catalogs and journals written before keep their partition)', () => {
    // Pinned digests: keyFingerprint moved from node:crypto to @noble/hashes (start-up time, issue 18).
    expect(keyFingerprint('sk_live_secret_1234')).toBe(createHash('sha256').update('srs-account-fingerprint-v1\0sk_live_secret_1234', 'utf8').digest('hex').slice(0, 12));
    for (const key of ['', 'k', 'emu_8KOFg_4d5S5Aw1zl7uOvqqqbX2hBpI1Z', 'schlüssel-äöü-€-😀', 'lone \ud800 surrogate', 'x'.repeat(1000)]) {
      expect(keyFingerprint(key)).toBe(createHash('sha256').update(`srs-account-fingerprint-v1\0${key}`, 'utf8').digest('hex').slice(0, 12));
    }
  });
});
