/**
 * Curated default columns per resource for tables and CSV. `--fields` replaces them.
 * A column is a dot path, a header, and optionally right alignment and a
 * table-only formatter (CSV and JSON always carry the raw value).
 *
 * Tables fit the terminal by priority (src/output/fit.ts): each column has a
 * kind (ids, codes, dates, numbers, states and URLs are never cut; text is),
 * and low-value columns have a hide rank (hidden first when a row is too
 * wide, rank 1 first; `--wide` shows them all).
 */
import type { ImportSummary } from '../import/report.js';
import { scoreCell } from '../scoring/labels.js';

/** What a column holds, which decides whether a table may cut it. Only `text` is ever cut. */
export type ColumnKind = 'id' | 'code' | 'date' | 'number' | 'state' | 'url' | 'text';

export interface Column {
  path: string;
  header: string;
  align?: 'left' | 'right';
  /** Table-only display formatting of the raw value. */
  format?: (value: unknown, row: unknown) => string;
  /** Inferred from the path and the values when absent (inferKind in src/output/render.ts). */
  kind?: ColumnKind;
  /** Hide rank: the column may be hidden when a table is too wide, rank 1 first, then 2, ... */
  hide?: number;
  /** Hidden before any ranked column when every row has the same value (and the note says which). */
  hideIfConstant?: boolean;
  /**
   * When the table is too wide for the terminal, rows are grouped under a
   * heading line per value of this column (HEADER value) instead of repeating
   * it in every row: the value stays whole and the rows lose its width.
   */
  group?: boolean;
  /** A field CSV carries and tables leave out (CSV keeps every scalar field of the resource; a table fits a terminal). */
  csvOnly?: boolean;
  /** A list a table draws as text, left out of CSV, which gives its count (`path.length`, a csvOnly column) instead. */
  tableOnly?: boolean;
}

/** A timestamp with an offset other than Z (+00:00, -05:00): shown in UTC like the others, not whole (82 columns at 80). */
const OFFSET_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?[+-]\d\d:?\d\d$/;
const inUtc = (v: string): string => {
  if (!OFFSET_TIMESTAMP.test(v)) return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(t).toISOString();
};
const date = (v: unknown): string => (typeof v === 'string' ? inUtc(v).replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : v == null ? '' : String(v));
/** A period bound (emission reports): the day alone when the time is the start or the end of a day in UTC. */
const day = (v: unknown): string => {
  if (typeof v !== 'string') return date(v);
  const u = inUtc(v);
  return /^\d{4}-\d\d-\d\dT(00:00:00(\.0+)?|23:59:59(\.\d+)?)Z$/.test(u) ? u.slice(0, 10) : date(u);
};

/** The earliest publishedAt among a news event's articles ("" without one): ISO dates and timestamps sort as text. */
const firstPublished = (v: unknown): string => {
  if (!Array.isArray(v)) return '';
  let first = '';
  for (const a of v as Array<{ publishedAt?: unknown } | null>) {
    const at = a?.publishedAt;
    if (typeof at === 'string' && at !== '' && (first === '' || at < first)) first = at;
  }
  return date(first);
};

/**
 * A number as sent, its whole part grouped by thousands as the emissions chart prints totals (104044.7 beside the
 * chart's 118,329.6): every digit kept (no rounding), and JavaScript's own exponent form for very large or small ones.
 */
const grouped = (v: unknown): string => {
  if (typeof v !== 'number') return v == null ? '' : String(v);
  const s = String(v);
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(s);
  return m ? `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+$)/g, ',')}${m[3] ?? ''}` : s;
};

const col = (path: string, header: string, extra: Partial<Column> = {}): Column => ({ path, header, ...extra });
const id = (path: string, header: string, extra: Partial<Column> = {}): Column => col(path, header, { kind: 'id', ...extra });
const text = (path: string, header: string, extra: Partial<Column> = {}): Column => col(path, header, { kind: 'text', ...extra });

const supplierColumns: Column[] = [
  id('id', 'ID'),
  text('name', 'NAME'),
  col('countryIso3Code', 'COUNTRY', { kind: 'code' }),
  text('categories', 'CATEGORIES', { hide: 2 }),
  col('averageScore', 'AVG SCORE', { align: 'right', format: scoreCell, kind: 'number' }),
  col('publicSupplierProfileUrl', 'PROFILE', { kind: 'url', hide: 1 }),
];

const dataEntryColumns: Column[] = [
  id('id', 'ID'),
  col('type', 'TYPE', { kind: 'state' }),
  id('supplier.id', 'SUPPLIER', { hideIfConstant: true }),
  // Two decimals on a table, as its per-parameter rows and every score table show them; CSV keeps the number as sent.
  col('score', 'SCORE', { align: 'right', kind: 'number', tableOnly: true, format: scoreCell }),
  col('score', 'SCORE', { align: 'right', kind: 'number', csvOnly: true }),
  text('newsEvent.name', 'NEWS EVENT'),
  col('policyParameterScores.length', 'PARAMETERS', { align: 'right', kind: 'number', hide: 1 }),
];

export const columns = {
  supplierCreated: [
    id('id', 'ID'),
    text('name', 'NAME'),
    col('countryIso3Code', 'COUNTRY', { kind: 'code' }),
    col('website', 'WEBSITE', { kind: 'url', hide: 1 }),
    col('status', 'STATUS', { kind: 'state' }),
    col('customerSupplierId', 'CUSTOMER ID', { kind: 'code' }),
  ],
  supplier: supplierColumns,
  scorecard: [
    id('id', 'ID'),
    text('name', 'NAME'),
    text('groupName', 'GROUP', { hide: 2 }),
    col('score', 'SCORE', { align: 'right', format: scoreCell, kind: 'number' }),
    col('weight', 'WEIGHT', { align: 'right', kind: 'number' }),
    col('items.length', 'ITEMS', { align: 'right', kind: 'number' }),
    col('createdAt', 'CREATED', { format: date, kind: 'date', hide: 1 }),
    col('organizationId', 'ORGANIZATION', { kind: 'id', csvOnly: true }),
    col('createdBy', 'CREATED BY', { kind: 'id', csvOnly: true }),
  ],
  scorecardItem: [
    id('policyParameter.id', 'PARAMETER ID'),
    text('policyParameter.name', 'PARAMETER'),
    text('policyParameter.policyCategoryName', 'CATEGORY', { hide: 1 }),
    col('weight', 'WEIGHT', { align: 'right', kind: 'number' }),
    // One value in practice (policy_parameter_item): hidden first when it is the same in every row.
    col('type', 'TYPE', { kind: 'state', hideIfConstant: true }),
  ],
  emissionReport: [
    id('id', 'ID'),
    col('scope', 'SCOPE', { kind: 'state' }),
    col('fromDate', 'FROM', { format: day, kind: 'date' }),
    col('toDate', 'TO', { format: day, kind: 'date' }),
    col('dataType', 'TYPE', { kind: 'state', hide: 2 }),
    col('value', 'VALUE', { align: 'right', kind: 'number', format: grouped }),
    col('unit', 'UNIT', { kind: 'code' }),
    text('verifier', 'VERIFIER', { hide: 1 }),
    col('reportedOn', 'REPORTED', { kind: 'date', csvOnly: true }),
  ],
  newsEvent: [
    id('id', 'ID'),
    // When the news broke: its first article's day (the event itself carries no date).
    col('articles', 'FIRST REPORTED', { kind: 'date', tableOnly: true, format: firstPublished }),
    text('name', 'NAME'),
    col('articles.length', 'ARTICLES', { align: 'right', kind: 'number' }),
    text('summary', 'SUMMARY', { hide: 1 }),
  ],
  /** A news event's articles (data-entry get, table view), oldest first as listed. */
  article: [col('publishedAt', 'PUBLISHED', { kind: 'date' }), text('title', 'TITLE'), col('url', 'URL', { kind: 'url', hide: 1 })],
  dataEntry: dataEntryColumns,
  /** One supplier (supplier get): the list columns plus its custom fields. */
  supplierDetail: [
    ...supplierColumns,
    // Either part may be absent or null (the document marks neither required): shown as "—", never "undefined".
    text('customFields', 'CUSTOM FIELDS', {
      tableOnly: true,
      format: (v) =>
        Array.isArray(v)
          ? v
              .map((f: { fieldLabel?: string | null; fieldValue?: string | null } | null) => `${f?.fieldLabel ?? '—'}=${f?.fieldValue ?? '—'}`)
              .join('; ')
          : '',
    }),
    col('customFields.length', 'CUSTOM FIELDS', { align: 'right', kind: 'number', csvOnly: true }),
  ],
  /** One data entry (data-entry get): the list columns plus its news event. */
  dataEntryDetail: [
    ...dataEntryColumns,
    text('newsEvent.summary', 'SUMMARY'),
    text('newsEvent.articles', 'ARTICLES', { tableOnly: true, format: (v) => (Array.isArray(v) ? v.map((a: { title?: string; url?: string }) => a.title ?? a.url ?? '').join('; ') : '') }),
    col('newsEvent.articles.length', 'ARTICLES', { align: 'right', kind: 'number', csvOnly: true }),
  ],
  dataSource: [
    id('id', 'ID'),
    text('name', 'NAME'),
    text('vendorName', 'VENDOR', { hide: 2 }),
    col('dataSourceType', 'TYPE', { kind: 'state' }),
    col('website', 'WEBSITE', { kind: 'url', hide: 1 }),
    col('logoUrl', 'LOGO', { kind: 'url', csvOnly: true }),
  ],
  country: [
    col('iso3Code', 'ISO3', { kind: 'code' }),
    col('iso2Code', 'ISO2', { kind: 'code' }),
    text('commonName', 'NAME'),
    text('officialName', 'OFFICIAL NAME', { hide: 1 }),
    text('regionName', 'REGION'),
  ],
  industry: [
    col('code', 'CODE', { kind: 'code' }),
    text('name', 'NAME'),
    // The same level in every row (ref industries lists sub-industries only, by default): hidden before names are cut.
    col('hierarchyLevel', 'LEVEL', { kind: 'state', hideIfConstant: true }),
    col('parentIndustryCode', 'PARENT', { kind: 'code' }),
  ],
  category: [id('id', 'ID'), text('name', 'NAME')],
} satisfies Record<string, Column[]>;

/** An entry of the local supplier catalog (supplier ls, supplier find; src/store/catalog.ts CatalogEntry, not a service resource). */
export const catalogEntryColumns: Column[] = [
  id('id', 'ID'),
  text('name', 'NAME'),
  // The same in every row (no customer ids; every one created) says nothing a note cannot: hidden before names are cut.
  col('customerSupplierId', 'CUSTOMER ID', { kind: 'code', hideIfConstant: true }),
  col('countryIso3Code', 'COUNTRY', { kind: 'code' }),
  col('state', 'STATE', { kind: 'state', hideIfConstant: true }),
  col('source', 'FROM', { kind: 'state', hide: 2 }),
  col('recordedAt', 'RECORDED', { format: date, kind: 'date', hide: 1 }),
  col('seenAt', 'SEEN', { kind: 'date', csvOnly: true }),
];

/** Columns for --fields: each path becomes a column headed by the path itself. */
export function columnsFromFields(fields: string[]): Column[] {
  return fields.map((f) => ({ path: f, header: f }));
}

const right: Partial<Column> = { align: 'right' };

/**
 * The summary of `srs supplier import`: on a table, the columns that apply to this run; in CSV every field, always in
 * this order, so that summaries appended run after run line up (a dry run dropped failed and unknown, a stopped run
 * added stopReason, and complete and dryRun were never there).
 */
export function importSummaryColumns(s: ImportSummary, format?: string): Column[] {
  if (format === 'csv') {
    const keys: ReadonlyArray<keyof ImportSummary> = ['file', 'dryRun', 'created', 'valid', 'skipped', 'exists', 'invalid', 'failed', 'unknown', 'total', 'elapsedSeconds', 'rowsPerSecond', 'complete', 'stopReason', 'stoppedAfterLine', 'journal', 'report', 'failedFile'];
    // throttled last: a column added after the others, so that summaries appended by earlier versions still line up.
    return [...keys, 'throttled' as const].map((k) => col(k, k));
  }
  return [
    col('file', 'FILE'),
    ...(s.dryRun ? [col('valid', 'VALID (WOULD SEND)', right)] : [col('created', 'CREATED', right)]),
    col('skipped', 'SKIPPED', right),
    col('exists', 'EXISTS', right),
    col('invalid', 'INVALID', right),
    ...(s.dryRun ? [] : [col('failed', 'FAILED', right), col('unknown', 'UNKNOWN', right)]),
    col('total', 'TOTAL ROWS', right),
    col('elapsedSeconds', 'ELAPSED S', right),
    col('rowsPerSecond', 'ROWS/S', right),
    // The requests the service answered 429 or 503 (each retried): shown when there were any, as the progress line does.
    ...(s.throttled ? [col('throttled', 'THROTTLED', right)] : []),
    ...(s.complete ? [] : [col('stopReason', 'STOPPED'), col('stoppedAfterLine', 'STOPPED AFTER LINE', right)]),
    ...(s.journal ? [col('journal', 'JOURNAL')] : []),
    ...(s.report ? [col('report', 'REPORT')] : []),
    ...(s.failedFile ? [col('failedFile', 'FAILED ROWS FILE')] : []),
  ];
}
