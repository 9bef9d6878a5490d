/**
 * The emulator's in-memory store: the seeded records plus what was created at
 * run time, with the indexes the handlers need. No HTTP and no file I/O here
 * (persistence lives in state.ts, plugged in through `persistWith`: a created
 * supplier is committed there before createSupplier returns).
 *
 * Ordering (stable, documented for clients):
 * - suppliers, scorecards, data sources, categories, policy parameters, data
 *   entries, news events, emission reports: by id. Ids are ULIDs, so this is
 *   also creation order; suppliers created at run time get real (current-time)
 *   monotonic ULIDs and therefore sort after every seeded supplier.
 * - countries: by iso3Code; standard industries: by code (see reference.ts).
 *
 * Every write is O(1): createSupplier() appends to the id-ordered array (its
 * id is larger than every existing one), adds map entries, and caches the
 * record's JSON text for the state file.
 */
import { MonotonicUlids } from './random.js';
import { PROFILE_BASE_URL } from './seed.js';
import type {
  CategoryRec,
  ContactRec,
  DataEntryRec,
  DataSourceRec,
  EmissionReportRec,
  NewsEventRec,
  RiskRec,
  ScorecardRec,
  SeedData,
  SupplierDetails,
  SupplierRec,
} from './records.js';

export interface NewSupplier {
  name: string;
  countryIso3Code?: string | undefined;
  website?: string | undefined;
  industryCodes?: readonly string[] | undefined;
  categoryIds?: readonly string[] | undefined;
  contacts?: readonly ContactRec[] | undefined;
  customerSupplierId?: string | undefined;
}

/** A durable home for created suppliers (state.ts StateDb), possibly shared with other processes. */
export interface SupplierPersistence {
  /** Commits the record; false when its id is already taken (another process created it). Throws when it cannot write. */
  insert(rec: SupplierRec): boolean;
  /** A supplier stored by another process since this one loaded the state. */
  get(id: string): SupplierRec | undefined;
  /** Every created supplier in the durable home (this process's and those of others sharing it). */
  all(): SupplierRec[];
}

const EMPTY: readonly never[] = Object.freeze([]);

export class Store {
  readonly seed: number;
  readonly supplierCount: number;
  readonly dataSources: readonly DataSourceRec[];
  readonly categories: readonly CategoryRec[];
  readonly scorecards: readonly ScorecardRec[];
  /** Seeded then created, in id order. */
  readonly suppliers: SupplierRec[];
  /** Seeded suppliers only (they are the only ones with data entries). */
  readonly seededSuppliers: readonly SupplierRec[];
  /** Created at run time (or loaded from the state file), in id order. */
  readonly createdSuppliers: SupplierRec[] = [];
  /** Where created suppliers are committed (state.ts), when there is a state file. */
  private persistence: SupplierPersistence | undefined;

  private readonly supplierById = new Map<string, SupplierRec>();
  private readonly scorecardById: Map<string, ScorecardRec>;
  private readonly categoryById: Map<string, CategoryRec>;
  private readonly entryById = new Map<string, DataEntryRec>();
  private readonly entriesBySupplier = new Map<string, DataEntryRec[]>();
  private readonly details: (supplierId: string) => SupplierDetails | undefined;
  private readonly allSupplierScorecards: readonly ScorecardRec[];
  /**
   * Supplier id -> its scorecards. Suppliers with the same set share one
   * frozen array (a few dozen distinct sets for thousands of suppliers), so
   * caches keyed on the array (scoring.ts, the score model) hit across them.
   */
  private readonly scorecardsBySupplier = new Map<string, readonly ScorecardRec[]>();
  private readonly ids = new MonotonicUlids();
  private readonly listeners: Array<() => void> = [];

  constructor(seed: SeedData, now?: () => number) {
    if (now) this.ids = new MonotonicUlids(now);
    this.seed = seed.seed;
    this.supplierCount = seed.supplierCount;
    this.dataSources = seed.dataSources;
    this.categories = seed.categories;
    this.scorecards = seed.scorecards;
    this.suppliers = seed.suppliers.slice();
    this.seededSuppliers = seed.suppliers;
    this.details = seed.details;
    this.scorecardById = new Map(seed.scorecards.map((s) => [s.id, s]));
    this.categoryById = new Map(seed.categories.map((c) => [c.id, c]));
    for (const s of seed.suppliers) {
      this.supplierById.set(s.id, s);
      this.ids.observe(s.id);
    }
    for (const e of seed.dataEntries) {
      this.entryById.set(e.id, e);
      push(this.entriesBySupplier, e.supplierId, e);
    }
    this.allSupplierScorecards = Object.freeze(seed.scorecards.filter((s) => s.appliesToAll));
    const lists = new Map<string, ScorecardRec[]>();
    for (const [scorecardId, members] of seed.scorecardMembers) {
      const sc = this.scorecardById.get(scorecardId);
      if (!sc) continue;
      for (const sid of members) {
        let list = lists.get(sid);
        if (!list) {
          list = [...this.allSupplierScorecards];
          lists.set(sid, list);
        }
        if (!list.includes(sc)) list.push(sc);
      }
    }
    // One shared, frozen array per distinct set of scorecards (keyed by the sorted ids).
    const shared = new Map<string, readonly ScorecardRec[]>([[idsKey(this.allSupplierScorecards), this.allSupplierScorecards]]);
    for (const [sid, list] of lists) {
      list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const key = idsKey(list);
      let same = shared.get(key);
      if (!same) {
        same = Object.freeze(list);
        shared.set(key, same);
      }
      this.scorecardsBySupplier.set(sid, same);
    }
  }

  // ------------------------------------------------------------ change notification

  /** Called after every change. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  // ------------------------------------------------------------ reads

  getSupplier(id: string): SupplierRec | undefined {
    const rec = this.supplierById.get(id);
    if (rec || !this.persistence) return rec;
    // Created by another process sharing the state file (parallel sandbox commands, two emulators on one --state).
    const shared = this.persistence.get(id);
    if (shared && !this.supplierById.has(shared.id)) {
      this.ids.observe(shared.id);
      this.addCreated(shared);
      if (this.suppliers.length > 1 && this.suppliers.at(-2)!.id > shared.id) this.suppliers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
    return shared;
  }
  /**
   * Every stored supplier: seeded, then created, in id order. With a state
   * file shared by several processes (two emulators on one --state, parallel
   * sandbox commands), those the others created are taken in first, so every
   * process lists the same suppliers (the admin route audits what was stored).
   */
  storedSuppliers(): readonly SupplierRec[] {
    if (!this.persistence) return this.suppliers;
    let added = false;
    for (const rec of this.persistence.all()) {
      if (this.supplierById.has(rec.id)) continue;
      this.ids.observe(rec.id);
      this.addCreated(rec);
      added = true;
    }
    if (added) {
      const byId = (a: SupplierRec, b: SupplierRec) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      this.suppliers.sort(byId);
      this.createdSuppliers.sort(byId);
    }
    return this.suppliers;
  }
  getScorecard(id: string): ScorecardRec | undefined {
    return this.scorecardById.get(id);
  }
  getCategory(id: string): CategoryRec | undefined {
    return this.categoryById.get(id);
  }
  getDataEntry(id: string): DataEntryRec | undefined {
    return this.entryById.get(id);
  }
  /** The supplier's data entries in id order (empty for unknown or created suppliers). */
  entriesOf(supplierId: string): readonly DataEntryRec[] {
    return this.entriesBySupplier.get(supplierId) ?? EMPTY;
  }
  /** The supplier's news events in id order (one per data entry). */
  newsEventsOf(supplierId: string): readonly NewsEventRec[] {
    return this.details(supplierId)?.newsEvents ?? EMPTY;
  }
  /** The news event of a data entry. */
  newsEventOf(entry: DataEntryRec): NewsEventRec | undefined {
    return this.details(entry.supplierId)?.newsEvents.find((n) => n.dataEntryId === entry.id);
  }
  emissionReportsOf(supplierId: string): readonly EmissionReportRec[] {
    return this.details(supplierId)?.emissionReports ?? EMPTY;
  }
  riskOf(supplierId: string, policyParameterId: string): RiskRec | undefined {
    return this.details(supplierId)?.risks.get(policyParameterId);
  }
  /**
   * The scorecards that apply to a supplier, in id order: the all-supplier ones
   * plus its memberships. Frozen, and the same array for every supplier with
   * the same set.
   */
  scorecardsOf(supplierId: string): readonly ScorecardRec[] {
    return this.scorecardsBySupplier.get(supplierId) ?? this.allSupplierScorecards;
  }

  // ------------------------------------------------------------ writes

  /** From now on, every created supplier is committed to `p` before createSupplier returns. */
  persistWith(p: SupplierPersistence): void {
    this.persistence = p;
  }

  /**
   * Stores a new supplier with status "current". Input must already be validated. O(1).
   * With persistence, the record is committed first (throws when it cannot be: no 201 without it).
   */
  createSupplier(input: NewSupplier): SupplierRec {
    let rec = this.newRecord(input, this.ids.next());
    if (this.persistence) {
      // A clash means another process sharing the file took this id: take the next one.
      for (let attempt = 0; !this.persistence.insert(rec); attempt++) {
        if (attempt >= 10) throw new Error('cannot find a free supplier id in the state file');
        rec = this.newRecord(input, this.ids.next());
      }
    }
    this.addCreated(rec);
    for (const l of this.listeners) l();
    return rec;
  }

  private newRecord(input: NewSupplier, id: string): SupplierRec {
    return {
      id,
      name: input.name,
      countryIso3Code: input.countryIso3Code ?? null,
      website: input.website ?? null,
      status: 'current',
      customerSupplierId: input.customerSupplierId ?? null,
      industryCodes: input.industryCodes ? [...new Set(input.industryCodes)] : [],
      categoryIds: input.categoryIds ? [...new Set(input.categoryIds)] : [],
      contacts: input.contacts ? input.contacts.map((c) => ({ ...c })) : [],
      customFields: [],
      publicSupplierProfileUrl: PROFILE_BASE_URL + id,
    };
  }

  /** Restores suppliers created in an earlier run (from the state file). No change notification, nothing persisted. */
  restoreCreated(records: readonly SupplierRec[]): void {
    const sorted = records.slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const rec of sorted) {
      if (this.supplierById.has(rec.id)) throw new Error(`duplicate supplier id ${rec.id}`);
      this.ids.observe(rec.id);
      this.addCreated(rec);
    }
    // Restored ids may sort before seeded ones only if the file was hand-edited; keep the list ordered anyway.
    if (sorted.length > 0 && this.seededSuppliers.length > 0 && sorted[0]!.id < this.seededSuppliers.at(-1)!.id) {
      this.suppliers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
  }

  private addCreated(rec: SupplierRec): void {
    this.supplierById.set(rec.id, rec);
    this.suppliers.push(rec);
    this.createdSuppliers.push(rec);
  }
}

/** The ids of a scorecard list, joined: equal for equal lists. */
function idsKey(list: readonly ScorecardRec[]): string {
  return list.map((s) => s.id).join(',');
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
