/**
 * Curated default columns per resource for tables and CSV. `--fields` replaces them.
 * A column is a dot path, a header, and optionally right alignment and a
 * table-only formatter (CSV and JSON always carry the raw value).
 */
import type { ImportSummary } from '../import/report.js';

export interface Column {
  path: string;
  header: string;
  align?: 'left' | 'right';
  /** Table-only display formatting of the raw value. */
  format?: (value: unknown, row: unknown) => string;
}

const num = (digits: number) => (v: unknown): string => (typeof v === 'number' ? v.toFixed(digits) : v === null || v === undefined ? '' : String(v));
const date = (v: unknown): string => (typeof v === 'string' ? v.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : v == null ? '' : String(v));

const col = (path: string, header: string, extra: Partial<Column> = {}): Column => ({ path, header, ...extra });

const supplierColumns: Column[] = [
  col('id', 'ID'),
  col('name', 'NAME'),
  col('countryIso3Code', 'COUNTRY'),
  col('categories', 'CATEGORIES'),
  col('averageScore', 'AVG SCORE', { align: 'right', format: num(2) }),
  col('publicSupplierProfileUrl', 'PROFILE'),
];

const dataEntryColumns: Column[] = [
  col('id', 'ID'),
  col('type', 'TYPE'),
  col('supplier.id', 'SUPPLIER'),
  col('score', 'SCORE', { align: 'right' }),
  col('newsEvent.name', 'NEWS EVENT'),
  col('policyParameterScores.length', 'PARAMETERS', { align: 'right' }),
];

export const columns = {
  supplierCreated: [col('id', 'ID'), col('name', 'NAME'), col('countryIso3Code', 'COUNTRY'), col('website', 'WEBSITE'), col('status', 'STATUS'), col('customerSupplierId', 'CUSTOMER ID')],
  supplier: supplierColumns,
  scorecard: [
    col('id', 'ID'),
    col('name', 'NAME'),
    col('groupName', 'GROUP'),
    col('score', 'SCORE', { align: 'right', format: num(2) }),
    col('weight', 'WEIGHT', { align: 'right' }),
    col('items.length', 'ITEMS', { align: 'right' }),
    col('createdAt', 'CREATED', { format: date }),
  ],
  scorecardItem: [
    col('policyParameter.id', 'PARAMETER ID'),
    col('policyParameter.name', 'PARAMETER'),
    col('policyParameter.policyCategoryName', 'CATEGORY'),
    col('weight', 'WEIGHT', { align: 'right' }),
    col('type', 'TYPE'),
  ],
  emissionReport: [
    col('id', 'ID'),
    col('scope', 'SCOPE'),
    col('fromDate', 'FROM', { format: date }),
    col('toDate', 'TO', { format: date }),
    col('dataType', 'TYPE'),
    col('value', 'VALUE', { align: 'right' }),
    col('unit', 'UNIT'),
    col('verifier', 'VERIFIER'),
  ],
  newsEvent: [col('id', 'ID'), col('name', 'NAME'), col('articles.length', 'ARTICLES', { align: 'right' }), col('summary', 'SUMMARY')],
  dataEntry: dataEntryColumns,
  /** One supplier (supplier get): the list columns plus its custom fields. */
  supplierDetail: [
    ...supplierColumns,
    col('customFields', 'CUSTOM FIELDS', { format: (v) => (Array.isArray(v) ? v.map((f: { fieldLabel?: string; fieldValue?: string }) => `${f.fieldLabel}=${f.fieldValue}`).join('; ') : '') }),
  ],
  /** One data entry (data-entry get): the list columns plus its news event. */
  dataEntryDetail: [
    ...dataEntryColumns,
    col('newsEvent.summary', 'SUMMARY'),
    col('newsEvent.articles', 'ARTICLES', { format: (v) => (Array.isArray(v) ? v.map((a: { title?: string; url?: string }) => a.title ?? a.url ?? '').join('; ') : '') }),
  ],
  dataSource: [col('id', 'ID'), col('name', 'NAME'), col('vendorName', 'VENDOR'), col('dataSourceType', 'TYPE'), col('website', 'WEBSITE')],
  country: [col('iso3Code', 'ISO3'), col('iso2Code', 'ISO2'), col('commonName', 'NAME'), col('officialName', 'OFFICIAL NAME'), col('regionName', 'REGION')],
  industry: [col('code', 'CODE'), col('name', 'NAME'), col('hierarchyLevel', 'LEVEL'), col('parentIndustryCode', 'PARENT')],
  category: [col('id', 'ID'), col('name', 'NAME')],
} satisfies Record<string, Column[]>;

/** An entry of the local supplier catalog (supplier ls, supplier find; src/store/catalog.ts CatalogEntry, not a service resource). */
export const catalogEntryColumns: Column[] = [
  col('id', 'ID'),
  col('name', 'NAME'),
  col('customerSupplierId', 'CUSTOMER ID'),
  col('countryIso3Code', 'COUNTRY'),
  col('state', 'STATE'),
  col('source', 'FROM'),
  col('recordedAt', 'RECORDED', { format: date }),
];

/** Columns for --fields: each path becomes a column headed by the path itself. */
export function columnsFromFields(fields: string[]): Column[] {
  return fields.map((f) => ({ path: f, header: f }));
}

const right: Partial<Column> = { align: 'right' };

/** The summary of `srs supplier import`: the columns that apply to this run. */
export function importSummaryColumns(s: ImportSummary): Column[] {
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
    ...(s.complete ? [] : [col('stopReason', 'STOPPED'), col('stoppedAfterLine', 'STOPPED AFTER LINE', right)]),
    ...(s.journal ? [col('journal', 'JOURNAL')] : []),
    ...(s.report ? [col('report', 'REPORT')] : []),
    ...(s.failedFile ? [col('failedFile', 'FAILED ROWS FILE')] : []),
  ];
}
