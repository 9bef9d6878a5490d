/**
 * The local supplier catalog: every supplier srs has created (create, import) or read (get), per
 * target, so that srs can answer what the service cannot (no supplier search, no lookup by
 * customerSupplierId). It knows only what srs has seen.
 *
 * One SQLite file (default DATA_DIR/catalog.db; --catalog PATH / SRS_CATALOG for a team's shared
 * file), opened through store/sqlite.ts (WAL, busy timeout, versioned migrations, refuses a file
 * written by a newer srs). Two processes may write at once: every write is one IMMEDIATE
 * transaction, so writers queue and nothing is lost.
 *
 * Partitions: a target (normalised base URL + key fingerprint, or the sandbox) belongs to one
 * partition. A new key meeting a base URL the catalog already knows (a rotated key, or another
 * account) is checked once against the service (see resolvePartition): if it can read a supplier
 * srs created under a known partition, it joins that partition (the link is stored); if the service
 * says 403/404, it is another account (401, a rejected key, stops the command: exit 4) and gets its own partition.
 *
 * States: `created` (the supplier exists on the service: srs created it, or read it with get) and
 * `unknown` (a create whose answer was lost: it may or may not exist). An unknown entry has no
 * supplier id. Rows are never deleted by srs: a later successful create of the same
 * customerSupplierId adds a `created` entry beside the `unknown` one.
 */
import type { Target } from '../api/target.js';
import { openDatabase, transaction, type Database, type Migration } from './sqlite.js';

export const CATALOG_FILE = 'catalog.db';
/** The source of an entry srs read (`supplier get`) rather than created: never proof of an account (resolvePartition). */
export const READ_SOURCE = 'supplier get';
/** The source of an entry `supplier create` recorded. */
export const CREATE_SOURCE = 'supplier create';
export const CATALOG_STATES = ['created', 'unknown'] as const;
export type CatalogState = (typeof CATALOG_STATES)[number];

/** One supplier as the catalog knows it (the shape of `srs supplier ls` / `find`). */
export interface CatalogEntry {
  /** The supplier id; null for an `unknown` entry (the service never said). */
  id: string | null;
  name: string;
  customerSupplierId: string | null;
  countryIso3Code: string | null;
  state: CatalogState;
  /** When srs recorded it first (ISO 8601, UTC). */
  recordedAt: string;
  /** When srs last saw it (ISO 8601, UTC). */
  seenAt: string;
  /** Where it came from: `supplier create`, `supplier get`, or `FILE:LINE` of an import. */
  source: string;
}

/** What a caller records. */
export interface CatalogRecord {
  id?: string | null | undefined;
  name: string;
  customerSupplierId?: string | null | undefined;
  countryIso3Code?: string | null | undefined;
  state: CatalogState;
  source: string;
}

export const CATALOG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE partitions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        base_url TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE targets (
        base_url TEXT NOT NULL,
        account TEXT NOT NULL,
        partition_id INTEGER NOT NULL REFERENCES partitions(id),
        first_seen TEXT NOT NULL,
        -- how the account joined its partition: 'first' (it made it), 'new-account' (the service
        -- refused a known id: another account), 'linked' (the service served a known id: same account)
        how TEXT NOT NULL,
        checked_id TEXT,
        PRIMARY KEY (base_url, account)
      ) WITHOUT ROWID;
      CREATE TABLE suppliers (
        -- never deleted, so the rowid only grows: the order of recording
        seq INTEGER PRIMARY KEY,
        partition_id INTEGER NOT NULL REFERENCES partitions(id),
        supplier_id TEXT,
        name TEXT NOT NULL,
        customer_supplier_id TEXT,
        country TEXT,
        state TEXT NOT NULL CHECK (state IN ('created', 'unknown')),
        recorded_at TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        source TEXT NOT NULL,
        -- name and customer id as find compares them (foldText)
        folded_name TEXT NOT NULL,
        folded_cid TEXT
      );
      CREATE UNIQUE INDEX suppliers_by_id ON suppliers (partition_id, supplier_id) WHERE supplier_id IS NOT NULL;
      CREATE INDEX suppliers_by_customer_id ON suppliers (partition_id, customer_supplier_id);
    `,
  },
];

const ASCII = /^[\x00-\x7f]*$/;

/** Letters that NFKD does not take apart, spelled as their usual Latin transliteration. */
const FOLD_EXTRA: Record<string, string> = { ß: 'ss', ẞ: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Lowercase, accents removed (NFKD without combining marks, ß -> ss, ø -> o, ...): what `find` compares. */
export function foldText(s: string): string {
  // Plain ASCII (most names and ids) has no accents to remove: 10x cheaper.
  if (ASCII.test(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßẞæœøłđðþı]/g, (c) => FOLD_EXTRA[c] ?? c);
}

/** The answer of the one key-rotation check: can the new key read this id recorded under another key? */
export type SameAccountAnswer = 'same' | 'other';
/** Asks the service (GET /v1/suppliers/ID with the new key): 200 -> same, 403/404 -> other (401 throws); throws when it cannot tell. */
export type SameAccountCheck = (supplierId: string) => Promise<SameAccountAnswer>;

interface SupplierRow {
  supplier_id: string | null;
  name: string;
  customer_supplier_id: string | null;
  country: string | null;
  state: string;
  recorded_at: string;
  seen_at: string;
  source: string;
}

function toEntry(r: SupplierRow): CatalogEntry {
  return {
    id: r.supplier_id,
    name: r.name,
    customerSupplierId: r.customer_supplier_id,
    countryIso3Code: r.country,
    state: r.state === 'unknown' ? 'unknown' : 'created',
    recordedAt: r.recorded_at,
    seenAt: r.seen_at,
    source: r.source,
  };
}

/** Rows per multi-row upsert (11 parameters each, well under SQLite's limit of 32,766). */
const RECORD_CHUNK = 128;

/** See Catalog.customerIdFilter. */
export interface CustomerIdFilter {
  mightHave(customerSupplierId: string): boolean;
  /** Rows this process wrote itself (Catalog.record's answer): refresh() does not read them again. */
  skip(range: { first: number; last: number }): void;
  /** Takes in what other processes recorded since. */
  refresh(): void;
}

/** FNV-1a over UTF-16 code units: a quick 32-bit hash for the customer id filter. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** What CustomerIdFilter.refresh() reads: rows after a row number, and between two (by row number, not by index). */
export const CATALOG_ROWS_SINCE = 'SELECT seq, customer_supplier_id AS cid FROM suppliers WHERE +partition_id = ? AND seq > ? AND customer_supplier_id IS NOT NULL';
export const CATALOG_ROWS_BETWEEN =
  'SELECT seq, customer_supplier_id AS cid FROM suppliers WHERE +partition_id = ? AND seq > ? AND seq < ? AND customer_supplier_id IS NOT NULL';

const SELECT = 'SELECT supplier_id, name, customer_supplier_id, country, state, recorded_at, seen_at, source FROM suppliers';
/**
 * Two base URLs that differ in their host name only: perhaps one service under two names (localhost, 127.0.0.1).
 * Another scheme, port or path is another service (a gateway routes by path).
 */
function sameButHost(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.protocol === y.protocol && x.port === y.port && x.pathname.replace(/\/+$/, '') === y.pathname.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/** resolvePartition's answer to a reader for an address it would have to ask about: no entries (no partition has this id). */
export const UNRESOLVED_PARTITION = -1;
/** How many other addresses of the same key (same scheme, port and path) a new address is checked against, newest first. */
const MAX_OTHER_ADDRESSES = 3;

export class Catalog {
  readonly path: string;
  readonly #db: Database;
  readonly #now: () => Date;
  #lookup: ReturnType<Database['prepare']> | undefined;
  #maxSeq: ReturnType<Database['prepare']> | undefined;
  readonly #upserts = new Map<number, ReturnType<Database['prepare']>>();
  #unknownStmt: { find: ReturnType<Database['prepare']>; touch: ReturnType<Database['prepare']> } | undefined;

  readonly #redact: (s: string) => string;

  private constructor(path: string, db: Database, now: () => Date, redact: (s: string) => string) {
    this.path = path;
    this.#db = db;
    this.#now = now;
    this.#redact = redact;
  }

  /**
   * Opens (creating or migrating) the catalog file; a StoreError (exit 1) names the file when it
   * cannot be used. `redact` (the run's: the API key replaced) is applied to every text recorded,
   * so no secret reaches the file even when the service echoes one.
   */
  static open(path: string, opts: { now?: () => Date; busyTimeoutMs?: number; redact?: (s: string) => string } = {}): Catalog {
    const db = openDatabase(path, {
      name: 'supplier catalog',
      migrations: CATALOG_MIGRATIONS,
      kindTable: 'targets',
      ...(opts.busyTimeoutMs !== undefined ? { busyTimeoutMs: opts.busyTimeoutMs } : {}),
    });
    return new Catalog(path, db, opts.now ?? (() => new Date()), opts.redact ?? ((s) => s));
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /**
   * Copies the write-ahead log into the catalog file, so that the file alone holds what this run wrote: the CLI
   * exits without closing (a close checkpoints with an fsync, 10-30 ms of a lookup), so after an import every
   * entry was in catalog.db-wal, and a copy of catalog.db made a catalog that knew no supplier. PASSIVE: it never
   * waits for another process; what it cannot copy now the next checkpoint does. For commands that write.
   */
  checkpoint(): void {
    if (!this.#db.isOpen) return;
    try {
      this.#db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      /* busy or read-only: the data is safe in the -wal, and the next checkpoint copies it */
    }
  }

  /** The partition a target belongs to, without asking anything: undefined when the catalog has not met it yet. */
  knownPartition(target: Target): number | undefined {
    const row = this.#db.prepare('SELECT partition_id FROM targets WHERE base_url = ? AND account = ?').get(target.baseUrl, target.account) as
      | { partition_id: number }
      | undefined;
    return row?.partition_id;
  }

  /**
   * The partition of a target, creating it when needed. A new account at a base URL the catalog
   * knows is checked against each known partition of that URL (one GET of an id recorded there,
   * newest partition first), stopping at the first that the new key can read: that partition is
   * linked. A key the catalog knows under another base URL is checked the same way against that URL's
   * partition: a supplier srs created there, readable here, makes this URL another spelling of that
   * service ('same-service'). Only a supplier srs created there proves the account: one it merely read (READ_SOURCE)
   * may be readable by every account (public or seeded data), and would link strangers. When none
   * can be read, the account gets a partition of its own. `check` throws when the
   * service's answer proves nothing (network, 5xx): nothing is stored then, and the error goes up.
   */
  async resolvePartition(target: Target, check: SameAccountCheck, opts: { otherAddresses?: boolean } = {}): Promise<number> {
    const known = this.knownPartition(target);
    if (known !== undefined) {
      if (opts.otherAddresses === false || this.#holdsAttempts(known)) return known;
      // A partition in which srs has created or attempted nothing (a `supplier get` made it, or an import whose
      // rows all failed) may be a second spelling met before the first one held anything to ask with: asked
      // again, and moved to the first one's partition when it is the same service (each spelling kept its own
      // partition, and an import through each created every row).
      const same = await this.#sameServiceElsewhere(target, check, known);
      if (!same) return known;
      this.#db.prepare(`UPDATE targets SET partition_id = ?, how = 'same-service', checked_id = ? WHERE base_url = ? AND account = ?`).run(same.partition_id, same.sample, target.baseUrl, target.account);
      return same.partition_id;
    }
    const candidates = this.#db
      .prepare(
        `SELECT p.id AS partition_id,
                (SELECT supplier_id FROM suppliers s WHERE s.partition_id = p.id AND s.supplier_id IS NOT NULL AND s.state = 'created' AND s.source <> ? ORDER BY s.seq DESC LIMIT 1) AS sample,
                EXISTS (SELECT 1 FROM suppliers s WHERE s.partition_id = p.id AND s.state = 'unknown') AS unsure
           FROM partitions p WHERE p.base_url = ? OR p.id IN (SELECT partition_id FROM targets WHERE base_url = ?) ORDER BY p.id DESC`,
      )
      // Every partition this address belongs to: its own, and one it joined as another spelling of a service (a key
      // rotated at the second spelling found nothing there and started an empty partition).
      .all(READ_SOURCE, target.baseUrl, target.baseUrl) as Array<{ partition_id: number; sample: string | null; unsure: number }>;
    let linked: { partition: number; checked: string } | undefined;
    let checkedOther: string | undefined;
    let aliasOf: string | undefined;
    for (const c of candidates) {
      if (!c.sample) continue;
      if ((await check(c.sample)) === 'same') {
        linked = { partition: c.partition_id, checked: c.sample };
        break;
      }
      checkedOther ??= c.sample;
    }
    // The same key under another base URL (localhost and 127.0.0.1, a host name and its address): when
    // the service here knows a supplier srs created there, it is the same service, and one partition (one lock,
    // one memory of customer ids) serves both spellings. Two partitions let an import through each spelling
    // create every row again, exit 0. An id it does not know (404) means another service: a partition of its own.
    if (!linked && opts.otherAddresses !== false) {
      const same = await this.#sameServiceElsewhere(target, check);
      if (same) {
        linked = { partition: same.partition_id, checked: same.sample };
        aliasOf = same.base_url;
      }
    }
    // A partition that holds only unknown attempts (a key rotated after an outage, before anything was created)
    // cannot be checked: its attempts may be this account's, and a new partition would let them be sent again.
    // Failing closed, the new key joins it ("assumed"): the worst that follows is a refusal --retry-unknown lifts.
    let assumed = false;
    if (!linked) {
      const unsure = candidates.find((c) => !c.sample && c.unsure);
      if (unsure) {
        linked = { partition: unsure.partition_id, checked: '' };
        assumed = true;
      }
    }
    // So too another spelling of this key (same scheme, port and path) that holds only unknown attempts: an import whose
    // every answer was lost through 127.0.0.1 was sent again, in full, through localhost.
    if (!linked && opts.otherAddresses !== false) {
      const unsure = this.#unsureOtherAddress(target);
      if (unsure !== undefined) {
        linked = { partition: unsure, checked: '' };
        assumed = true;
      }
    }
    // A command that only reads the catalog (supplier ls, find, get --customer-id) records no new target: a partition
    // made by a reader would stop the next writer from asking whether this address is another spelling of one the
    // catalog knows (it would go straight to the reader's empty partition).
    if (!linked && opts.otherAddresses === false) return UNRESOLVED_PARTITION;
    const now = this.#now().toISOString();
    return transaction(this.#db, () => {
      // Another process may have placed this target while this one asked the service.
      const again = this.knownPartition(target);
      if (again !== undefined) return again;
      let partition: number;
      let how: string;
      if (linked) {
        partition = linked.partition;
        how = assumed ? 'assumed' : aliasOf !== undefined ? 'same-service' : 'linked';
      } else {
        partition = Number(this.#db.prepare('INSERT INTO partitions (base_url, created_at) VALUES (?, ?)').run(target.baseUrl, now).lastInsertRowid);
        how = checkedOther ? 'new-account' : 'first';
      }
      this.#db
        .prepare('INSERT INTO targets (base_url, account, partition_id, first_seen, how, checked_id) VALUES (?, ?, ?, ?, ?, ?)')
        .run(target.baseUrl, target.account, partition, now, how, linked?.checked || checkedOther || null);
      return partition;
    });
  }

  /**
   * Partitions of this key at other addresses with the same scheme, port and path, newest first, each with a supplier
   * srs created there to ask about: the addresses that may be other spellings of this one.
   */
  #otherAddresses(target: Target): Array<{ partition_id: number; base_url: string; sample: string }> {
    const elsewhere = this.#db
      .prepare(
        `SELECT DISTINCT t.partition_id AS partition_id, t.base_url AS base_url,
                (SELECT supplier_id FROM suppliers s WHERE s.partition_id = t.partition_id AND s.supplier_id IS NOT NULL AND s.state = 'created' AND s.source <> ? ORDER BY s.seq DESC LIMIT 1) AS sample
           FROM targets t WHERE t.account = ? AND t.base_url <> ? ORDER BY t.partition_id DESC`,
      )
      .all(READ_SOURCE, target.account, target.baseUrl) as Array<{ partition_id: number; base_url: string; sample: string | null }>;
    // Only addresses with the same scheme, port and path (localhost:5742 and 127.0.0.1:5742; a host name and its
    // address), the newest few: a key used with many local emulators, each on a port of its own, would
    // otherwise cost one request per emulator ever met at every new one.
    return elsewhere
      .filter((c): c is typeof c & { sample: string } => c.sample !== null && sameButHost(c.base_url, target.baseUrl) && elsewhere.findIndex((d) => d.partition_id === c.partition_id) === elsewhere.indexOf(c))
      .slice(0, MAX_OTHER_ADDRESSES);
  }

  /** Whether srs created or attempted anything in a partition (a supplier it only read does not count). */
  #holdsAttempts(partition: number): boolean {
    return !!this.#db
      .prepare(`SELECT 1 FROM suppliers WHERE partition_id = ? AND (state = 'unknown' OR (state = 'created' AND source <> ?)) LIMIT 1`)
      .get(partition, READ_SOURCE);
  }

  /** The newest partition of this key at another address with the same scheme, port and path that holds unknown attempts and nothing created. */
  #unsureOtherAddress(target: Target): number | undefined {
    const rows = this.#db
      .prepare(
        `SELECT DISTINCT t.partition_id AS partition_id, t.base_url AS base_url FROM targets t
          WHERE t.account = ? AND t.base_url <> ?
            AND EXISTS (SELECT 1 FROM suppliers s WHERE s.partition_id = t.partition_id AND s.state = 'unknown')
            AND NOT EXISTS (SELECT 1 FROM suppliers s WHERE s.partition_id = t.partition_id AND s.state = 'created' AND s.source <> ?)
          ORDER BY t.partition_id DESC`,
      )
      .all(target.account, target.baseUrl, READ_SOURCE) as Array<{ partition_id: number; base_url: string }>;
    return rows.find((r) => sameButHost(r.base_url, target.baseUrl))?.partition_id;
  }

  /** The first other address of this key (#otherAddresses; `except` a partition) whose created supplier reads here: the same service. */
  async #sameServiceElsewhere(target: Target, check: SameAccountCheck, except?: number): Promise<{ partition_id: number; base_url: string; sample: string } | undefined> {
    for (const c of this.#otherAddresses(target)) {
      if (c.partition_id !== except && (await check(c.sample)) === 'same') return c;
    }
    return undefined;
  }

  /**
   * Every other address this key is known at with the same scheme, port and path (another spelling of this address,
   * perhaps), in a partition of its own, whether or not it holds anything yet: for the import lock of such spellings.
   */
  otherSpellings(target: Target): Array<{ partition: number; baseUrl: string }> {
    const own = this.knownPartition(target);
    const rows = this.#db.prepare('SELECT partition_id, base_url FROM targets WHERE account = ? AND base_url <> ?').all(target.account, target.baseUrl) as Array<{ partition_id: number; base_url: string }>;
    return rows.filter((r) => r.partition_id !== own && sameButHost(r.base_url, target.baseUrl)).map((r) => ({ partition: r.partition_id, baseUrl: r.base_url }));
  }

  /** The other addresses this key is known at that a create or import here would ask about (for a reader's note). */
  otherAddressesOf(target: Target): string[] {
    return this.#otherAddresses(target).map((c) => c.base_url);
  }

  /** How a target joined its partition (for messages and tests). */
  link(target: Target): { partition: number; how: 'first' | 'new-account' | 'linked' | 'assumed' | 'same-service'; checkedId: string | null; firstBaseUrl: string } | undefined {
    const row = this.#db
      .prepare('SELECT t.partition_id, t.how, t.checked_id, p.base_url AS first_base_url FROM targets t JOIN partitions p ON p.id = t.partition_id WHERE t.base_url = ? AND t.account = ?')
      .get(target.baseUrl, target.account) as { partition_id: number; how: string; checked_id: string | null; first_base_url: string } | undefined;
    if (!row) return undefined;
    return { partition: row.partition_id, how: row.how as 'first' | 'new-account' | 'linked' | 'assumed' | 'same-service', checkedId: row.checked_id, firstBaseUrl: row.first_base_url };
  }

  /**
   * Records suppliers in one transaction (the import batches its outcomes through this). Returns
   * the range of row numbers the transaction wrote (every row in it is this call's: writers hold
   * the write lock for the whole transaction), for CustomerIdFilter.skip.
   */
  record(partition: number, records: readonly CatalogRecord[]): { first: number; last: number } | undefined {
    if (records.length === 0) return undefined;
    const now = this.#now().toISOString();
    const created: CatalogRecord[] = [];
    const unknown: CatalogRecord[] = [];
    for (const r of records) (r.state === 'created' && r.id ? created : unknown).push(r);
    const red = this.#redact;
    // Prepared once (two per batch, each prepare ~70 µs: 0.25 µs a row of a 20,000-row import).
    this.#maxSeq ??= this.#db.prepare('SELECT coalesce(max(seq), 0) AS m FROM suppliers');
    const maxSeqStmt = this.#maxSeq;
    const maxSeq = () => Number((maxSeqStmt.get() as { m: number }).m);
    return transaction(this.#db, () => {
      const before = maxSeq();
      // Created suppliers: multi-row upserts (one statement per RECORD_CHUNK rows: most of the cost of a row is the call).
      for (let i = 0; i < created.length; i += RECORD_CHUNK) {
        const chunk = created.slice(i, i + RECORD_CHUNK);
        const params: Array<string | number | null> = [];
        for (const r of chunk) {
          const cid = r.customerSupplierId ? red(r.customerSupplierId) : null;
          const name = red(r.name);
          params.push(partition, red(r.id!), name, cid, r.countryIso3Code ?? null, 'created', now, now, red(r.source), foldText(name), cid === null ? null : foldText(cid));
        }
        this.#upsert(chunk.length).run(...params);
      }
      // An unknown entry has no id: one per (source, customerSupplierId, name), so that a re-run does not pile them up.
      for (const given of unknown) {
        const r = { ...given, name: red(given.name), source: red(given.source) };
        const cid = given.customerSupplierId ? red(given.customerSupplierId) : null;
        this.#unknownStmt ??= {
          find: this.#db.prepare(
            `SELECT seq FROM suppliers WHERE partition_id = ? AND supplier_id IS NULL AND state = 'unknown' AND source = ? AND customer_supplier_id IS ? AND name = ?`,
          ),
          touch: this.#db.prepare('UPDATE suppliers SET seen_at = ? WHERE seq = ?'),
        };
        const existing = this.#unknownStmt.find.get(partition, r.source, cid, r.name) as { seq: number } | undefined;
        if (existing) this.#unknownStmt.touch.run(now, existing.seq);
        else this.#upsert(1).run(partition, null, r.name, cid, r.countryIso3Code ?? null, 'unknown', now, now, r.source, foldText(r.name), cid === null ? null : foldText(cid));
      }
      return { first: before + 1, last: maxSeq() };
    });
  }

  /**
   * Removes unknown attempts this process wrote ahead of a request (rows `range` of record()) once the
   * request's outcome is known: `supplier create` records its attempt before sending, so that a process
   * killed in flight leaves it `unknown` (kill -9 left nothing, and the next create sent it again).
   */
  forgetAttempt(partition: number, range: { first: number; last: number }): void {
    if (range.first > range.last) return;
    this.#db
      .prepare(`DELETE FROM suppliers WHERE partition_id = ? AND seq BETWEEN ? AND ? AND state = 'unknown' AND supplier_id IS NULL`)
      .run(partition, range.first, range.last);
  }

  /** Records a supplier srs read (supplier get): it exists, but proves no account (READ_SOURCE). */
  recordRead(partition: number, r: Omit<CatalogRecord, 'state' | 'source'>): void {
    this.record(partition, [{ ...r, state: 'created', source: READ_SOURCE }]);
  }

  /** The upsert of `rows` suppliers at once, prepared once per size. */
  #upsert(rows: number): ReturnType<Database['prepare']> {
    let stmt = this.#upserts.get(rows);
    if (!stmt) {
      stmt = this.#db.prepare(
        `INSERT INTO suppliers (partition_id, supplier_id, name, customer_supplier_id, country, state, recorded_at, seen_at, source, folded_name, folded_cid)
         VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT (partition_id, supplier_id) WHERE supplier_id IS NOT NULL DO UPDATE SET
           name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE name END,
           customer_supplier_id = COALESCE(excluded.customer_supplier_id, customer_supplier_id),
           country = COALESCE(excluded.country, country),
           state = 'created',
           seen_at = excluded.seen_at,
           folded_name = CASE WHEN excluded.name <> '' THEN excluded.folded_name ELSE folded_name END,
           folded_cid = COALESCE(excluded.folded_cid, folded_cid)`,
      );
      this.#upserts.set(rows, stmt);
    }
    return stmt;
  }

  /**
   * A quick, conservative membership test for the import's pre-send check: false means the
   * partition has no entry with this customerSupplierId (as of the last refresh); true means
   * "look it up" (lookupCustomerId). Built from 32-bit hashes (4 bytes per entry), refreshed
   * incrementally with what other processes added since (refresh()).
   */
  customerIdFilter(partition: number): CustomerIdFilter {
    const stmt = this.#db.prepare('SELECT seq, customer_supplier_id AS cid FROM suppliers WHERE partition_id = ? AND seq > ? AND customer_supplier_id IS NOT NULL');
    const hashes: number[] = [];
    let last = 0;
    for (const r of stmt.iterate(partition, 0) as Iterable<{ seq: number; cid: string }>) {
      hashes.push(hash32(r.cid));
      if (r.seq > last) last = r.seq;
    }
    const base = Uint32Array.from(hashes).sort();
    const added = new Set<number>();
    // The refreshes read rows by row number (`+partition_id` keeps SQLite from choosing the
    // customer-id index, whose plan scanned the whole partition each time: 494 µs vs 14 µs per
    // refresh of a 20,000-row catalog, and growing with it; node:sqlite, 2026-11-23, under load).
    // test/unit/catalog-filter-plan.test.ts checks the plan.
    const since = this.#db.prepare(CATALOG_ROWS_SINCE);
    const between = this.#db.prepare(CATALOG_ROWS_BETWEEN);
    /** Ranges of rows this process wrote since the last refresh: nothing to learn there. */
    let own: Array<{ first: number; last: number }> = [];
    const take = (rows: Iterable<{ seq: number; cid: string }>) => {
      for (const r of rows) added.add(hash32(r.cid));
    };
    return {
      mightHave(cid: string): boolean {
        const h = hash32(cid);
        if (added.has(h)) return true;
        let lo = 0;
        let hi = base.length - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >>> 1;
          const v = base[mid]!;
          if (v === h) return true;
          if (v < h) lo = mid + 1;
          else hi = mid - 1;
        }
        return false;
      },
      skip(range: { first: number; last: number }): void {
        own.push(range);
      },
      refresh(): void {
        // Only the gaps between this process's own writes are read (rows are never deleted, so row numbers only grow).
        for (const r of own.sort((a, b) => a.first - b.first)) {
          if (r.last <= last) continue;
          if (r.first > last + 1) take(between.iterate(partition, last, r.first) as Iterable<{ seq: number; cid: string }>);
          last = Math.max(last, r.last);
        }
        own = [];
        for (const r of since.iterate(partition, last) as Iterable<{ seq: number; cid: string }>) {
          added.add(hash32(r.cid));
          if (r.seq > last) last = r.seq;
        }
      },
    };
  }

  /**
   * Every entry of a partition, oldest first. An `unknown` attempt stays listed after a retry created the
   * supplier: the attempt may have created one too (a duplicate to check for), which only a person can tell.
   */
  list(partition: number): CatalogEntry[] {
    return (this.#db.prepare(`${SELECT} WHERE partition_id = ? ORDER BY seq`).all(partition) as unknown as SupplierRow[]).map(toEntry);
  }

  /** Entries whose name or customerSupplierId contains `text` (case- and accent-insensitive), oldest first. */
  find(partition: number, text: string): CatalogEntry[] {
    const q = foldText(text);
    return (
      this.#db
        .prepare(`${SELECT} WHERE partition_id = ? AND (instr(folded_name, ?) > 0 OR instr(folded_cid, ?) > 0) ORDER BY seq`)
        .all(partition, q, q) as unknown as SupplierRow[]
    ).map(toEntry);
  }

  /** Entries with exactly this customerSupplierId (case-sensitive, as the service compares), `created` first, then newest first. */
  byCustomerId(partition: number, customerSupplierId: string): CatalogEntry[] {
    return (
      this.#db
        .prepare(`${SELECT} WHERE partition_id = ? AND customer_supplier_id = ? ORDER BY (state = 'created') DESC, seq DESC`)
        .all(partition, customerSupplierId) as unknown as SupplierRow[]
    ).map(toEntry);
  }

  /** What the catalog knows of one customerSupplierId (a created supplier wins over unknown attempts; newest first). */
  lookupCustomerId(partition: number, customerSupplierId: string): { state: CatalogState; id: string | null; source: string } | undefined {
    this.#lookup ??= this.#db.prepare(
      `SELECT supplier_id, state, source FROM suppliers WHERE partition_id = ? AND customer_supplier_id = ? ORDER BY (state = 'created') DESC, seq DESC LIMIT 1`,
    );
    const r = this.#lookup.get(partition, customerSupplierId) as { supplier_id: string | null; state: string; source: string } | undefined;
    return r ? { state: r.state === 'created' ? 'created' : 'unknown', id: r.supplier_id, source: r.source } : undefined;
  }

  /**
   * The newest `supplier create` of a supplier without customer id named exactly `name`, when it is an unknown
   * attempt (a create without customer id can be matched by its name only): undefined otherwise.
   */
  unknownCreateByName(partition: number, name: string): { source: string; recordedAt: string } | undefined {
    const r = this.#db
      .prepare(`SELECT state, source, recorded_at FROM suppliers WHERE partition_id = ? AND customer_supplier_id IS NULL AND name = ? AND source = ? ORDER BY seq DESC LIMIT 1`)
      .get(partition, this.#redact(name), CREATE_SOURCE) as { state: string; source: string; recorded_at: string } | undefined;
    return r?.state === 'unknown' ? { source: r.source, recordedAt: r.recorded_at } : undefined;
  }

  /** How many entries a partition holds. */
  count(partition: number): number {
    return Number((this.#db.prepare('SELECT count(*) AS n FROM suppliers WHERE partition_id = ?').get(partition) as { n: number }).n);
  }
}
