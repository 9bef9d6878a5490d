/**
 * Header names -> supplier fields. Headers are compared after normalisation
 * (lower case; spaces, underscores, hyphens and dots dropped), against a table
 * of aliases that covers what ERP and spreadsheet exports call the columns.
 * `--map "Column Header=field"` (repeatable) overrides the table; the field may
 * be a field name or any alias ("Lieferant=supplier name"), or `ignore` to drop
 * a column on purpose. Every column that is not imported is named once in a
 * warning; two columns feeding one field is an error unless --map settles it.
 */
import { UsageError } from '../errors.js';

export const FIELDS = [
  'name',
  'countryIso3Code',
  'website',
  'customerSupplierId',
  'industryCodes',
  'categoryIds',
  'contactEmail',
  'contactFirstName',
  'contactLastName',
] as const;
export type Field = (typeof FIELDS)[number];

/**
 * srs's own words for customerSupplierId (--customer-id, CUSTOMER ID in supplier ls) and account spellings: weak
 * aliases (WEAK_ALIASES), taken only when no other column gives the field.
 */
const WEAK_CUSTOMER_ID_ALIASES = ['customer id', 'customer ref', 'creditor id', 'creditor number', 'creditor no', 'vendor account', 'supplier account'] as const;

/** Human-readable aliases (the docs' table); each is matched after normalisation, as is the field name itself. */
export const ALIASES: Readonly<Record<Field, readonly string[]>> = {
  name: ['name', 'supplier name', 'vendor name', 'company', 'company name', 'supplier', 'vendor', 'name 1', 'legal name'],
  countryIso3Code: ['country', 'country code', 'iso3', 'iso3 code', 'country iso3', 'country iso3 code', 'countryIso3Code'],
  website: ['website', 'url', 'homepage', 'web', 'web site', 'website url', 'www'],
  customerSupplierId: [
    'customer supplier id',
    'customerSupplierId',
    'vendor id',
    'vendor number',
    'vendor no',
    'external id',
    'supplier number',
    'supplier no',
    'supplier id',
    'supplier code',
    'vendor code',
    ...WEAK_CUSTOMER_ID_ALIASES,
  ],
  industryCodes: ['industry codes', 'industry code', 'industry', 'industries', 'gics', 'gics code', 'gics codes', 'sub industry', 'sub industry code'],
  categoryIds: ['category ids', 'category id', 'categories', 'category'],
  contactEmail: ['contact email', 'email', 'e-mail', 'email address', 'contact email address', 'contacts.email'],
  contactFirstName: ['first name', 'contact first name', 'given name', 'contacts.firstName'],
  contactLastName: ['last name', 'contact last name', 'surname', 'family name', 'contacts.lastName'],
};

/**
 * Headers that give a field only when no other column does: a vendor master export can carry the vendor's own
 * customer number ("Customer ID", SAP's KUNNR) beside "Vendor ID", and the two were "all map to customerSupplierId"
 * (exit 2) where the file had imported before.
 */
const WEAK_ALIASES: ReadonlySet<string> = new Set(WEAK_CUSTOMER_ID_ALIASES.map((a) => normalizeHeader(a)));

export function normalizeHeader(h: string): string {
  return h.replace(/^\uFEFF/, '').toLowerCase().replace(/[\s_\-.]+/g, '');
}

const ALIAS_INDEX: ReadonlyMap<string, Field> = (() => {
  const m = new Map<string, Field>();
  for (const f of FIELDS) {
    for (const a of [f, ...ALIASES[f]]) {
      const k = normalizeHeader(a);
      const prev = m.get(k);
      if (prev && prev !== f) throw new Error(`alias "${a}" maps to both ${prev} and ${f}`);
      m.set(k, f);
    }
  }
  return m;
})();

/** The field a header name stands for, or undefined. */
export function fieldForHeader(h: string): Field | undefined {
  return ALIAS_INDEX.get(normalizeHeader(h));
}

export type MapTarget = Field | 'ignore';

export interface MapSpec {
  header: string;
  target: MapTarget;
}

/** Parses --map values: "Column Header=field" (split at the last "="). */
export function parseMapSpecs(values: readonly string[]): MapSpec[] {
  const specs = values.map((v) => {
    const i = v.lastIndexOf('=');
    if (i <= 0) throw new UsageError(`--map takes "Column Header=field" (got "${v}")`);
    const header = v.slice(0, i).trim();
    const rawTarget = v.slice(i + 1).trim();
    if (!header) throw new UsageError(`--map "${v}": the column header is empty`);
    const t = normalizeHeader(rawTarget);
    if (t === 'ignore' || t === 'skip' || t === '' || t === '-') return { header, target: 'ignore' as const };
    const field = ALIAS_INDEX.get(t);
    if (!field) throw new UsageError(`--map "${v}": unknown field "${rawTarget}" (fields: ${FIELDS.join(', ')}, or ignore)`);
    return { header, target: field };
  });
  // One column, two targets: srs does not guess which was meant (the last one won in silence).
  const byHeader = new Map<string, MapSpec>();
  for (const s of specs) {
    const key = normalizeHeader(s.header);
    const before = byHeader.get(key);
    if (before && before.target !== s.target) throw new UsageError(`--map gives column "${s.header}" two targets, ${before.target} and ${s.target}: give one`);
    byHeader.set(key, s);
  }
  return specs;
}

export type ColumnSource = 'alias' | 'map' | 'ignored' | 'unknown' | 'empty' | 'superseded';

export interface ColumnInfo {
  index: number;
  header: string;
  field: Field | undefined;
  source: ColumnSource;
}

export interface ColumnMapping {
  columns: ColumnInfo[];
  /** Column index per mapped field. */
  index: Partial<Record<Field, number>>;
  /** Not imported columns, one line each, for stderr. */
  warnings: string[];
}

const quoteList = (hs: string[]): string => hs.map((h) => `"${h}"`).join(', ');

/** Maps a header row. Throws UsageError (exit 2) when no column gives the name, or the mapping is ambiguous. */
export function mapHeaders(header: readonly string[], specs: readonly MapSpec[] = []): ColumnMapping {
  const columns: ColumnInfo[] = header.map((h, index) => {
    const trimmed = h.trim();
    if (trimmed === '') return { index, header: h, field: undefined, source: 'empty' };
    const field = fieldForHeader(trimmed);
    return { index, header: trimmed, field, source: field ? 'alias' : 'unknown' };
  });
  for (const spec of specs) {
    const key = normalizeHeader(spec.header);
    const hits = columns.filter((c) => c.source !== 'empty' && normalizeHeader(c.header) === key);
    if (hits.length === 0) {
      throw new UsageError(`--map "${spec.header}=…": the file has no column "${spec.header}" (columns: ${quoteList(columns.filter((c) => c.source !== 'empty').map((c) => c.header))})`);
    }
    for (const c of hits) {
      if (spec.target === 'ignore') {
        c.field = undefined;
        c.source = 'ignored';
      } else {
        c.field = spec.target;
        c.source = 'map';
      }
    }
  }
  const warnings: string[] = [];
  const index: Partial<Record<Field, number>> = {};
  for (const f of FIELDS) {
    const cols = columns.filter((c) => c.field === f);
    if (cols.length === 0) continue;
    const mapped = cols.filter((c) => c.source === 'map');
    const strong = cols.filter((c) => !WEAK_ALIASES.has(normalizeHeader(c.header)));
    const winners = mapped.length ? mapped : strong.length ? strong : cols;
    if (winners.length > 1) {
      // --map names a column by its header: it cannot tell columns of one name apart (it would ignore them all).
      const names = new Set(winners.map((c) => normalizeHeader(c.header)));
      const how =
        names.size === winners.length
          ? `keep one with --map, e.g. --map "${winners[1]!.header}=ignore"`
          : `--map cannot tell columns of the same name apart (it would apply to all of them): rename one of them in the file's header line`;
      throw new UsageError(`columns ${quoteList(winners.map((c) => c.header))} all map to ${f}: ${how}`);
    }
    const win = winners[0]!;
    index[f] = win.index;
    for (const c of cols) {
      if (c === win) continue;
      c.field = undefined;
      c.source = 'superseded';
      warnings.push(`column "${c.header}" is not imported: ${f} comes from "${win.header}" (${mapped.length ? '--map' : `"${c.header}" gives it only when no other column does; --map "${c.header}=${f}" takes it instead`})`);
    }
  }
  for (const c of columns) {
    if (c.source === 'unknown') {
      warnings.push(`column "${c.header}" is not a supplier field and is not imported (use --map "${c.header}=FIELD" to import it, or --map "${c.header}=ignore" to silence this)`);
    }
  }
  if (index.customerSupplierId === undefined) {
    warnings.push(
      'no column gives customerSupplierId (a header such as "customer supplier id", "customer id", "vendor id" or "supplier number", or --map "Column=customerSupplierId"): the catalog cannot recognise these suppliers when another file or a later export holds them again, so that import would create them again (re-running this same file is still safe)',
    );
  }
  if (index.name === undefined) {
    const found = columns.filter((c) => c.source !== 'empty').map((c) => c.header);
    throw new UsageError(
      `no column gives the supplier name (expected a header such as "name", "supplier name", "vendor name" or "company", or --map "Column=name"); columns found: ${found.length ? quoteList(found) : 'none'}`,
      { code: 'invalid_input' },
    );
  }
  return { columns, index, warnings };
}

/** Index of the columns that carry no header but may still hold data (warned about once, when data shows up). */
export function unnamedColumns(m: ColumnMapping): number[] {
  return m.columns.filter((c) => c.source === 'empty').map((c) => c.index);
}
