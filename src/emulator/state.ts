/**
 * The optional state (EmulatorOptions.statePath; the sandbox's DATA_DIR/sandbox-state.db): what
 * changed at run time, so that a restarted emulator, or the next `srs --sandbox` command, serves the
 * same data. Seeded data is not stored: it is regenerated from the seed and the supplier count.
 *
 * A SQLite file (store/sqlite.ts: mode 0600, WAL, busy timeout, versioned schema):
 *   meta(key, value)        seed, suppliers (the seeded count)
 *   suppliers(id, json)     every supplier created with POST /v1/suppliers, as its record's JSON
 * A create is committed (one autocommit INSERT) before its 201 is sent: a kill -9 of the emulator
 * loses no acknowledged supplier (WAL with synchronous=NORMAL survives a process crash; power loss
 * may lose the last commits). Several processes may share one file (parallel `srs --sandbox`
 * commands): each insert is its own transaction, ids are random ULIDs (a clash is retried with a
 * new id), and a read of an id this process has not loaded looks in the file.
 *
 * A JSON state file written by an older srs (format "srs-emulator-state", version 1) is migrated:
 * its suppliers are copied into a new SQLite file at the same path, and the JSON is kept beside it
 * as PATH.json-backup. Any other file is refused with a message naming it.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { NotAStateFileError } from '../errors.js';
import { describeZodError } from '../api/contract.js';
import type { SupplierRec } from './records.js';
import { openDatabase, transaction, type Database, type Migration } from '../store/sqlite.js';

export const STATE_FORMAT = 'srs-emulator-state';
export const STATE_VERSION = 1;

const StoredSupplier = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  countryIso3Code: z.nullable(z.string()),
  website: z.nullable(z.string()),
  status: z.string(),
  customerSupplierId: z.nullable(z.string()),
  industryCodes: z.array(z.string()),
  categoryIds: z.array(z.string()),
  contacts: z.array(
    z.object({ email: z.optional(z.string()), firstName: z.optional(z.string()), lastName: z.optional(z.string()) }),
  ),
  customFields: z.array(z.object({ fieldLabel: z.string(), fieldValue: z.string() })),
  publicSupplierProfileUrl: z.string(),
});

const StateFile = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  seed: z.number().check(z.int()),
  suppliers: z.number().check(z.int(), z.gte(1)),
  createdSuppliers: z.array(StoredSupplier),
});

export interface LoadedState {
  seed: number;
  suppliers: number;
  createdSuppliers: SupplierRec[];
}

function readFileSyncUtf8(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read emulator state file ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** Parses an older srs's JSON state file; an Error naming the file when it is corrupt. */
export function parseStateJson(path: string, text: string): LoadedState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`emulator state file ${path} is corrupt (not valid JSON: ${(e as Error).message}); delete it or point --state elsewhere`, {
      cause: e,
    });
  }
  // JSON that is not an srs state at all (another file of the user's, {"a":1}): the usage error a CSV gets, never
  // "corrupt ... delete it" (exit 1) for a file the emulator never wrote.
  if (json === null || typeof json !== 'object' || (json as { format?: unknown }).format !== STATE_FORMAT) {
    throw new NotAStateFileError(`--state ${path} is not an emulator state file (JSON, but not an older srs's state: no "format": "${STATE_FORMAT}"): point --state at a new file name, or at a state file an emulator wrote`);
  }
  const parsed = StateFile.safeParse(json);
  if (!parsed.success) {
    throw new Error(`emulator state file ${path} is corrupt (${describeZodError(parsed.error)}); delete it or point --state elsewhere`);
  }
  return {
    seed: parsed.data.seed,
    suppliers: parsed.data.suppliers,
    createdSuppliers: parsed.data.createdSuppliers as SupplierRec[],
  };
}


/** The sandbox's state file in the data directory. */
export const SANDBOX_STATE_FILE = 'sandbox-state.db';
/** What older srs versions kept there. */
export const LEGACY_SANDBOX_STATE_FILE = 'sandbox-state.json';

const STATE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE suppliers (id TEXT PRIMARY KEY, json TEXT NOT NULL) WITHOUT ROWID;
    `,
  },
];

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** What is at a state path: nothing (or an empty file), a SQLite database, JSON, or something else. */
function kindOf(path: string): 'none' | 'sqlite' | 'json' | 'other' {
  if (!existsSync(path)) return 'none';
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    if (n === 0) return 'none';
    if (n === 16 && buf.toString('latin1') === SQLITE_MAGIC) return 'sqlite';
    return /^\s*\{/.test(buf.subarray(0, n).toString('utf8')) ? 'json' : 'other';
  } finally {
    closeSync(fd);
  }
}

export class StateDb {
  readonly path: string;
  readonly seed: number;
  readonly suppliers: number;
  /** This state's identity (made when the file was created). */
  readonly instance: string;
  readonly #db: Database;
  readonly #insert: ReturnType<Database['prepare']>;
  readonly #get: ReturnType<Database['prepare']>;

  private constructor(path: string, db: Database, seed: number, suppliers: number, instance: string) {
    this.path = path;
    this.#db = db;
    this.seed = seed;
    this.suppliers = suppliers;
    this.instance = instance;
    this.#insert = db.prepare('INSERT INTO suppliers (id, json) VALUES (?, ?) ON CONFLICT (id) DO NOTHING');
    this.#get = db.prepare('SELECT json FROM suppliers WHERE id = ?');
  }

  /**
   * Opens (or creates) the state at `path`. A new file records `seed` and `suppliers`; an existing
   * one keeps what it was made with (the caller is told through the returned seed and suppliers).
   * A JSON file from an older srs is migrated first (`log` says so).
   */
  static open(path: string, defaults: { seed: number; suppliers: number }, log?: (line: string) => void): StateDb {
    const kind = kindOf(path);
    if (kind === 'other') {
      // Most likely another file of the user's given by mistake (a CSV): never "delete it", and a usage error (exit 2).
      throw new NotAStateFileError(`--state ${path} is not an emulator state file (neither an srs state database nor an older srs's JSON state): point --state at a new file name, or at a state file an emulator wrote`);
    }
    if (kind === 'json') {
      const message = migrateJsonState(path, path);
      log?.(message);
    }
    let db: Database;
    try {
      db = openDatabase(path, { name: 'emulator state', migrations: STATE_MIGRATIONS, kindTable: 'meta' });
    } catch (e) {
      throw new Error(`${(e as Error).message}`, { cause: e });
    }
    const meta = transaction(db, () => {
      const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
      put.run('seed', String(defaults.seed));
      put.run('suppliers', String(defaults.suppliers));
      // This state's own identity, made once: the sandbox's target (its catalog partition, its journals) is this
      // state and no other (a deleted or another user's state was "the sandbox" too, and its catalog answered for it).
      put.run('instance', randomUUID());
      const rows = db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>;
      return Object.fromEntries(rows.map((r) => [r.key, r.value]));
    });
    const seed = Number(meta.seed);
    const suppliers = Number(meta.suppliers);
    if (!Number.isInteger(seed) || !Number.isInteger(suppliers) || suppliers < 1) {
      db.close();
      throw new Error(`emulator state file ${path} is corrupt (seed "${meta.seed}", suppliers "${meta.suppliers}"); delete it or point --state elsewhere`);
    }
    // Made in the transaction above when the file had none: always there.
    return new StateDb(path, db, seed, suppliers, meta.instance!);
  }

  /** Every created supplier, in id order. */
  all(): SupplierRec[] {
    return (this.#db.prepare('SELECT id, json FROM suppliers ORDER BY id').all() as Array<{ id: string; json: string }>).map((r) => parseRec(this.path, r.json));
  }

  /** Commits one created supplier; false when its id is already taken (by another process sharing the file). */
  insert(rec: SupplierRec): boolean {
    return Number(this.#insert.run(rec.id, JSON.stringify(rec)).changes) === 1;
  }

  /** A supplier another process sharing the file created after this one loaded it. */
  get(id: string): SupplierRec | undefined {
    const row = this.#get.get(id) as { json: string } | undefined;
    return row ? parseRec(this.path, row.json) : undefined;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}

function parseRec(path: string, json: string): SupplierRec {
  const parsed = StoredSupplier.safeParse(JSON.parse(json));
  if (!parsed.success) throw new Error(`emulator state file ${path} is corrupt (${describeZodError(parsed.error)}); delete it or point --state elsewhere`);
  return parsed.data as SupplierRec;
}

/**
 * Copies a JSON state file of an older srs into a SQLite state file at `to` (which may be the same
 * path); the JSON is kept as `from`.json-backup. Returns a line saying so.
 */
export function migrateJsonState(from: string, to: string): string {
  const text = readFileSyncUtf8(from);
  const loaded = parseStateJson(from, text);
  const tmp = `${to}.migrating-${process.pid}`;
  rmSync(tmp, { force: true });
  const db = openDatabase(tmp, { name: 'emulator state', migrations: STATE_MIGRATIONS });
  try {
    transaction(db, () => {
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('seed', String(loaded.seed));
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('suppliers', String(loaded.suppliers));
      const put = db.prepare('INSERT INTO suppliers (id, json) VALUES (?, ?)');
      for (const rec of loaded.createdSuppliers) put.run(rec.id, JSON.stringify(rec));
    });
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  const backup = `${from}.json-backup`;
  renameSync(from, backup);
  renameSync(tmp, to);
  for (const suffix of ['-wal', '-shm']) rmSync(tmp + suffix, { force: true });
  return `migrated the JSON emulator state ${from} (${loaded.createdSuppliers.length} created suppliers) to SQLite at ${to}; the JSON is kept as ${backup}`;
}

/** Migrates `path` in place when it holds an older srs's JSON state. Returns a line to show, or undefined. */
export function migrateJsonStateInPlace(path: string): string | undefined {
  return kindOf(path) === 'json' ? migrateJsonState(path, path) : undefined;
}

/** The sandbox kept JSON in DATA_DIR/sandbox-state.json before: migrates it once. Returns a line to show, or undefined. */
export function migrateLegacySandboxState(dir: string): string | undefined {
  const legacy = join(dir, LEGACY_SANDBOX_STATE_FILE);
  const current = join(dir, SANDBOX_STATE_FILE);
  if (!existsSync(legacy) || existsSync(current)) return undefined;
  return migrateJsonState(legacy, current);
}
