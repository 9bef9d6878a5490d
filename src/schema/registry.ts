/**
 * Named JSON Schemas, generated from the zod contract (src/api/contract.ts):
 * the service's resources, and the JSON output of the commands that print
 * them (`srs schema NAME`). src/api/openapi.ts builds the emulator's OpenAPI
 * document from the same entries. Pure: no I/O, imports only the contract
 * (and types, to keep the command-output schemas in step with the code that
 * produces them).
 */
import * as z from 'zod/mini';
import {
  Category,
  Country,
  DataEntry,
  DataSource,
  EmissionReport,
  ErrorBody,
  NewsEvent,
  Pagination,
  ScoreCalculationRequest,
  Scorecard,
  ScoreResult,
  StandardIndustry,
  SupplierCreateRequest,
  SupplierCreateResponse,
  SupplierDetail,
  Wire,
} from '../api/contract.js';
import type { CheckResult } from '../scoring/gate.js';
import type { ImportSummary } from '../import/report.js';
import type { CatalogEntry } from '../store/catalog.js';
import type { ScoreDifference } from '../scoring/recompute.js';
import { ExplanationSchema } from '../output/explanation.js';

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export interface SchemaEntry {
  /** The name `srs schema` takes: kebab-case for a resource, the command words for a command's output. */
  name: string;
  kind: 'resource' | 'command';
  title: string;
  description: string;
  schema: z.ZodMiniType;
  /** 'input' for what the client sends (request bodies), 'output' for what it receives or prints. */
  io: 'input' | 'output';
  /** Resources: the name under components.schemas in the OpenAPI document. */
  component?: string;
  /**
   * Resources: the wire view of the same shape (src/api/contract.ts), which the
   * OpenAPI document describes. `schema` is the client's view: what srs accepts
   * from the service (and prints) or checks before sending.
   */
  wire?: z.ZodMiniType;
}

// ---------------------------------------------------------------- command-output shapes not in the contract

/** One row of `srs score check -o json` (src/scoring/gate.ts CheckResult). */
export const CheckResultSchema = z.object({
  supplierId: z.string(),
  /** pass and new (not in --baseline) pass; no data passes only with --allow-no-data; unknown and fail fail. */
  status: z.enum(['pass', 'new', 'no data', 'unknown', 'fail']),
  /** The overall score, null when the supplier has no counting data. */
  score: z.nullable(z.number()),
  /** The supplier's risk level as sent; several levels srs cannot rank are joined with ", ". */
  riskLevel: z.nullable(z.string()),
  /** Whether srs can rank riskLevel: false for a level it does not know (tables: "Extreme (unrecognised)"), null without one. */
  riskRecognised: z.nullable(z.boolean()),
  /** Why it failed (or why there is no data, or that it is new); empty when it simply passed. */
  reasons: z.array(z.string()),
});

/** One row of `srs score recompute -o json`: a compared value (src/scoring/recompute.ts ScoreDifference) of one supplier. */
export const RecomputeRowSchema = z.object({
  supplierId: z.string(),
  /** "value", "dataSourcesScore", "policyParametersScore", "dataSources.<id>" or "parameters.<id>". */
  path: z.string(),
  reported: z.nullable(z.number()),
  recomputed: z.nullable(z.number()),
  /** recomputed - reported when both are numbers, else null. */
  delta: z.nullable(z.number()),
  ok: z.boolean(),
  /** Set when the data source or parameter is absent on that side. */
  missing: z.optional(z.enum(['reported', 'recomputed'])),
});

/** The summary `srs supplier import -o json` prints (src/import/report.ts ImportSummary). */
export const ImportSummarySchema = z.object({
  file: z.string(),
  dryRun: z.boolean(),
  created: z.number().check(z.int()),
  valid: z.optional(z.number().check(z.int())),
  skipped: z.number().check(z.int()),
  exists: z.number().check(z.int()),
  invalid: z.number().check(z.int()),
  failed: z.number().check(z.int()),
  unknown: z.number().check(z.int()),
  total: z.number().check(z.int()),
  elapsedSeconds: z.number(),
  rowsPerSecond: z.number(),
  complete: z.boolean(),
  stopReason: z.optional(z.string()),
  stoppedAfterLine: z.optional(z.number().check(z.int())),
  journal: z.optional(z.string()),
  report: z.optional(z.string()),
  failedFile: z.optional(z.string()),
});

/** An entry of the local supplier catalog, as `srs supplier ls` / `find` print it (src/store/catalog.ts CatalogEntry). */
export const CatalogEntrySchema = z.object({
  id: z.nullable(z.string()),
  name: z.string(),
  customerSupplierId: z.nullable(z.string()),
  countryIso3Code: z.nullable(z.string()),
  state: z.enum(['created', 'unknown']),
  recordedAt: z.string(),
  seenAt: z.string(),
  source: z.string(),
});

// Compile-time checks: these schemas describe exactly the types the commands print.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type CheckResultSchemaMatches = Assert<Same<z.infer<typeof CheckResultSchema>, CheckResult>>;
export type RecomputeRowSchemaMatches = Assert<Same<z.infer<typeof RecomputeRowSchema>, ScoreDifference & { supplierId: string }>>;
export type ImportSummarySchemaMatches = Assert<Same<z.infer<typeof ImportSummarySchema>, ImportSummary>>;
export type CatalogEntrySchemaMatches = Assert<Same<z.infer<typeof CatalogEntrySchema>, CatalogEntry>>;

// ---------------------------------------------------------------- the registry

const resource = (name: string, component: keyof typeof Wire | 'ErrorBody', title: string, description: string, schema: z.ZodMiniType, io: 'input' | 'output' = 'output'): SchemaEntry => ({
  wire: component === 'ErrorBody' ? schema : Wire[component],
  name,
  kind: 'resource',
  title,
  description,
  schema,
  io,
  component,
});

const command = (name: string, description: string, schema: z.ZodMiniType): SchemaEntry => ({
  name,
  kind: 'command',
  title: `srs ${name} -o json`,
  description,
  schema,
  io: 'output',
});

export const RESOURCES: readonly SchemaEntry[] = [
  resource('supplier-create-request', 'SupplierCreateRequest', 'Supplier creation request', 'Body of POST /v1/suppliers.', SupplierCreateRequest, 'input'),
  resource('supplier-create-response', 'SupplierCreateResponse', 'Supplier creation response', 'Answer of POST /v1/suppliers (not wrapped in item).', SupplierCreateResponse),
  resource('supplier', 'SupplierDetail', 'Supplier', 'A supplier profile: the item of GET /v1/suppliers/{id}.', SupplierDetail),
  resource('scorecard', 'Scorecard', 'Scorecard', 'A scorecard: items of GET /v1/scorecards, the item of GET /v1/scorecards/{id}.', Scorecard),
  resource('emission-report', 'EmissionReport', 'Emission report', 'Items of GET /v1/suppliers/{id}/emission-reports.', EmissionReport),
  resource('score-calculation-request', 'ScoreCalculationRequest', 'Score calculation request', 'Body of POST /v1/score-calculation.', ScoreCalculationRequest, 'input'),
  resource('score-result', 'ScoreResult', 'Score result', 'One supplier\'s scores: items of POST /v1/score-calculation.', ScoreResult),
  resource('data-entry', 'DataEntry', 'Data entry', 'Answer of GET /v1/data-entries/{id} (sent directly).', DataEntry),
  resource('news-event', 'NewsEvent', 'News event', 'Items of GET /v1/suppliers/{id}/news-events.', NewsEvent),
  resource('data-source', 'DataSource', 'Data source', 'Items of GET /v1/data-sources.', DataSource),
  resource('country', 'Country', 'Country', 'Items of GET /v1/countries.', Country),
  resource('standard-industry', 'StandardIndustry', 'Standard industry', 'Items of GET /v1/standard-industries.', StandardIndustry),
  resource('category', 'Category', 'Category', 'Items of GET /v1/categories (the spec shows no shape: an id, a name, anything else passed through).', Category),
  resource('pagination', 'Pagination', 'Pagination', 'The pagination object of paged lists.', Pagination),
  resource('error', 'ErrorBody', 'Error body', 'The error body the emulator sends (the real service\'s is not shown by the spec).', ErrorBody),
];

export const COMMAND_OUTPUTS: readonly SchemaEntry[] = [
  command('supplier create', 'The created supplier (= supplier-create-response).', SupplierCreateResponse),
  command('supplier get', 'The supplier (= supplier).', SupplierDetail),
  command('supplier import', 'The import summary (the per-row results go to --report).', ImportSummarySchema),
  command('supplier ls', 'The local catalog\'s entries for the current target (what srs created or read).', z.array(CatalogEntrySchema)),
  command('supplier find', 'The local catalog\'s entries that match (same shape as supplier ls).', z.array(CatalogEntrySchema)),
  command('scorecards ls', 'Every scorecard, as one array.', z.array(Scorecard)),
  command('scorecards get', 'The scorecard (= scorecard).', Scorecard),
  command('score calc', 'One score result per supplier, in input order (without --breakdown).', z.array(ScoreResult)),
  command('score check', 'One check result per supplier.', z.array(CheckResultSchema)),
  command('score recompute', 'One row per compared value per supplier.', z.array(RecomputeRowSchema)),
  command('score explain', 'One supplier\'s score explained: scorecards and parameters with names and weights, data sources, expiring evidence.', ExplanationSchema),
  command('emissions ls', 'The supplier\'s emission reports.', z.array(EmissionReport)),
  command('news ls', 'The supplier\'s news events.', z.array(NewsEvent)),
  command('data-entry get', 'The data entry (= data-entry).', DataEntry),
  command('ref countries', 'Every country.', z.array(Country)),
  command('ref industries', 'Every industry classification entry (sub-industries unless --all-levels).', z.array(StandardIndustry)),
  command('ref sources', 'Every data source.', z.array(DataSource)),
  command('ref categories', 'Every category.', z.array(Category)),
];

export const SCHEMAS: readonly SchemaEntry[] = [...RESOURCES, ...COMMAND_OUTPUTS];

/** Lower case, words separated by single spaces; "score-calc" and "score_calc" also find "score calc". */
function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The entry for a name: a resource ("score-result"), or a command given as
 * one string ("score calc") or as words (["score", "calc"]). Undefined when unknown.
 */
export function findSchema(name: string | readonly string[]): SchemaEntry | undefined {
  const wanted = normalize(typeof name === 'string' ? name : name.join(' '));
  if (wanted === '') return undefined;
  const exact = SCHEMAS.find((e) => e.name === wanted);
  if (exact) return exact;
  // "srs score calc", "score-calc", "score_calc"
  const words = wanted.replace(/^srs /, '').replace(/[-_]/g, ' ');
  return SCHEMAS.find((e) => e.name.replace(/-/g, ' ') === words);
}

export const schemaNames = (): string[] => SCHEMAS.map((e) => e.name);

/** The JSON Schema (draft 2020-12) of an entry, with $schema, title and description. */
export function jsonSchemaOf(entry: SchemaEntry): Record<string, unknown> {
  const { $schema: _ignored, ...body } = toJsonSchema(entry.schema, entry.io);
  return { $schema: JSON_SCHEMA_DIALECT, title: entry.title, description: entry.description, ...body };
}

/** zod -> JSON Schema (draft 2020-12), tidied. */
export function toJsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Record<string, unknown> {
  return tidy(z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' })) as Record<string, unknown>;
}

/**
 * Drops the safe-integer bounds zod puts on every .int() (noise to a reader;
 * every JSON integer a client sends is within them anyway).
 */
export function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === 'minimum' && v === Number.MIN_SAFE_INTEGER) continue;
    if (k === 'maximum' && v === Number.MAX_SAFE_INTEGER) continue;
    out[k] = tidy(v);
  }
  return out;
}
