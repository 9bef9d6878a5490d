/**
 * The embedded database srs keeps its local state in (the supplier catalog, the sandbox's and the
 * emulator's suppliers): SQLite through node:sqlite, built into Node (22.13+, 24), so nothing native
 * is installed.
 *
 * One opener for every store: the parent directory is created 0700 and the file chmod-ed 0600
 * whatever the umask; WAL mode and a busy timeout let several srs processes read and write at once
 * (a writer waits for another instead of failing); the schema is versioned by PRAGMA user_version and
 * migrated forward in one IMMEDIATE transaction; a file written by a newer srs (a higher version than
 * this build knows) is refused with a clear message rather than guessed at.
 */
import { chmodSync, existsSync } from 'node:fs';
import { privateDir } from '../util/fs.js';
import { dirname } from 'node:path';
import type { DatabaseSync as DatabaseSyncType } from 'node:sqlite';
import { createRequire } from 'node:module';
import { SrsError, ExitCode } from '../errors.js';
import { sleepSync } from '../util/sleep.js';

export type Database = DatabaseSyncType;

export interface Migration {
  /** The user_version this migration brings the schema to: 1, 2, 3, ... in order. */
  version: number;
  sql: string;
}

export interface OpenOptions {
  /** What the file is, for messages: "supplier catalog", "sandbox state". */
  name: string;
  migrations: readonly Migration[];
  /** ms a writer waits for another process's lock before SQLITE_BUSY; default 10 s. */
  busyTimeoutMs?: number;
  /**
   * A table only this kind of file has: the catalog and the emulator state are both at schema version 1, so
   * the version alone took one for the other ("unexpected error: no such table: targets").
   */
  kindTable?: string;
  /** PRAGMA synchronous: NORMAL (default; durable across a process crash in WAL mode) or FULL (also across power loss). */
  synchronous?: 'NORMAL' | 'FULL';
}

/** A store file srs cannot use: written by a newer srs, corrupt, or not a database. Exit 1. */
export class StoreError extends SrsError {
  constructor(message: string, opts?: { detail?: string; cause?: unknown }) {
    super('runtime', ExitCode.failure, message, opts);
    this.name = 'StoreError';
  }
}

// node:sqlite is loaded on first use only: most commands never open a store.
let sqlite: typeof import('node:sqlite') | undefined;
function loadSqlite(): typeof import('node:sqlite') {
  if (!sqlite) {
    // Node 22 prints an ExperimentalWarning the first time node:sqlite loads; it is no news to a user of srs.
    const emit = process.emitWarning;
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      const text = typeof warning === 'string' ? warning : warning.message;
      if (/SQLite/i.test(text)) return;
      (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
    try {
      sqlite = createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite');
    } finally {
      process.emitWarning = emit;
    }
  }
  return sqlite;
}

export function openDatabase(path: string, opts: OpenOptions): Database {
  const { DatabaseSync } = loadSqlite();
  // A directory that cannot be made is one line naming it (privateDir), never "unexpected error: ENOTDIR".
  if (path !== ':memory:') privateDir(dirname(path), false, `directory for the ${opts.name} ${path}`);
  // Only a file srs creates is made 0600 (and SQLite gives its -wal and -shm the file's mode). One that exists keeps
  // the mode its owner gave it: a team's shared catalog (--catalog, made 0666 by `touch` and chmod) was made 0600 at
  // every open, and every other user of it was locked out ("unable to open database file").
  const fresh = path !== ':memory:' && !existsSync(path);
  const busyTimeoutMs = opts.busyTimeoutMs ?? 10_000;
  let db: Database;
  try {
    db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  } catch (e) {
    throw new StoreError(`cannot open the ${opts.name} at ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    if (fresh) {
      for (const p of [path, `${path}-wal`, `${path}-shm`]) {
        try {
          chmodSync(p, 0o600);
        } catch {
          /* -wal and -shm exist only once WAL mode is on */
        }
      }
    }
    walMode(db, busyTimeoutMs);
    db.exec(`PRAGMA synchronous = ${opts.synchronous ?? 'NORMAL'}`);
    db.exec('PRAGMA foreign_keys = ON');
    migrate(db, path, opts);
    if (opts.kindTable && !db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(opts.kindTable)) {
      throw new StoreError(`${path} is not ${/^[aeiou]/i.test(opts.name) ? 'an' : 'a'} ${opts.name}: it is another kind of SQLite file (another srs store?); point srs at the right file`);
    }
    if (fresh) {
      for (const p of [`${path}-wal`, `${path}-shm`]) {
        try {
          chmodSync(p, 0o600);
        } catch {
          /* not there */
        }
      }
    }
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    throw new StoreError(`cannot use the ${opts.name} at ${path}: ${(e as Error).message}`, { cause: e });
  }
  return db;
}

/**
 * Turns WAL on, waiting for other processes as a write would. The switch reads the file (a shared lock) and
 * then needs it exclusively; SQLite answers SQLITE_BUSY at once, without the busy handler, when waiting could
 * deadlock with another connection doing the same. Processes that opened one new catalog (or sandbox state)
 * together then failed with "database is locked" in well under the 10 s busy timeout (two tests of
 * test/integration/catalog.test.ts under the loaded full suite, 2026-11-24; not reproduced idle, 60 runs).
 */
function walMode(db: Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (e) {
      if (!/database is locked|SQLITE_BUSY/i.test((e as Error).message) || Date.now() >= deadline) throw e;
      sleepSync(wait);
    }
  }
}

function userVersion(db: Database): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version?: number } | undefined;
  return Number(row?.user_version ?? 0);
}

function migrate(db: Database, path: string, opts: OpenOptions): void {
  const latest = opts.migrations.reduce((m, x) => Math.max(m, x.version), 0);
  const current = userVersion(db);
  if (current > latest) {
    throw new StoreError(
      `the ${opts.name} at ${path} was written by a newer srs (schema version ${current}; this srs knows up to ${latest}): upgrade srs, or point it at another file`,
    );
  }
  if (current === latest) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have migrated while this one waited for the lock.
    const now = userVersion(db);
    for (const m of [...opts.migrations].sort((a, b) => a.version - b.version)) {
      if (m.version <= now) continue;
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
    }
    db.exec('COMMIT');
  } catch (e) {
    try {
      db.exec('ROLLBACK');
    } catch {
      /* SQLite rolled back itself (a full disk): the first error is the one to tell */
    }
    throw e;
  }
}

/** Runs fn in one IMMEDIATE transaction (a write lock from the start, so two writers queue instead of deadlocking). */
export function transaction<T>(db: Database, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (e) {
    try {
      db.exec('ROLLBACK');
    } catch {
      /* already rolled back */
    }
    throw e;
  }
}
