/**
 * The service's contract as zod schemas: the single source of truth for every
 * request and response shape, shared by the client (src/api/client.ts) and the
 * emulator (src/emulator/). Field names and nesting follow
 * shared/spec/service-interface.md exactly.
 *
 * Conventions:
 * - Request schemas are strict about the spec's bounds (they run before anything is sent).
 * - Response schemas are loose objects: unknown extra fields are kept and passed
 *   through, a missing required field is an error naming its path.
 * - Where the spec says required-ness is "not shown", identity fields (id, code,
 *   iso3Code, name) are required and the rest are optional and may be null.
 */
import * as z from 'zod/mini';

// zod/mini (the same schemas and checks as zod's classic API, without the methods
// that keep all of zod in the bundle) sets no message locale itself. Every module
// that uses zod imports this one, so this is where English is chosen.
z.config(z.locales.en());

// ---------------------------------------------------------------- primitives

/**
 * A schema built the first time it is used. Building all of the contract's
 * schemas took ~10 ms of every networked command's start-up, and most commands
 * use two or three of them. (Schemas that others z.extend() stay built at load.)
 */
const lazy = <T extends z.ZodMiniType>(build: () => T) => z.lazy(build);

/** Optional in responses: may be absent or null. */
const opt = <T extends z.ZodMiniType>(t: T) => z.optional(z.nullable(t));

export const IsoDate = lazy(() => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a calendar date YYYY-MM-DD')));
export const Timestamp = lazy(() => z.string());

// ---------------------------------------------------------------- pagination

export const PageQuery = z.object({
  page: z.optional(z.number().check(z.int(), z.gte(1, 'page must be >= 1'))),
  perPage: z.optional(z.number().check(z.int(), z.gte(1, 'perPage must be between 1 and 100'), z.lte(100, 'perPage must be between 1 and 100'))),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const Pagination = lazy(() => z.looseObject({
  pageSize: z.number().check(z.int()),
  /** The spec does not say what the last page carries: absent, null, 0, the same page or past the end all occur. */
  nextPage: opt(z.number()),
}));
export type Pagination = z.infer<typeof Pagination>;

const listOf = <T extends z.ZodMiniType>(item: T) => z.looseObject({ items: z.array(item), pagination: Pagination });
const itemOf = <T extends z.ZodMiniType>(item: T) => z.looseObject({ item });

// ---------------------------------------------------------------- suppliers

export const Contact = lazy(() => z.object({
  email: z.optional(z.email('expected an email address')),
  firstName: z.optional(z.string().check(z.maxLength(255))),
  lastName: z.optional(z.string().check(z.maxLength(255))),
}));
export type Contact = z.infer<typeof Contact>;

export const SupplierCreateRequest = z.strictObject({
  name: z.string().check(z.minLength(1, 'name must not be empty'), z.maxLength(255, 'name must be at most 255 characters')),
  countryIso3Code: z.optional(z.string().check(z.length(3, 'countryIso3Code must be exactly 3 characters'))),
  website: z.optional(z.url('website must be a URI (for example https://example.com)')),
  industryCodes: z.optional(z.array(z.string().check(z.minLength(1)))),
  categoryIds: z.optional(z.array(z.string().check(z.minLength(1)))),
  contacts: z.optional(z.array(Contact)),
  customerSupplierId: z.optional(z.string().check(z.maxLength(255, 'customerSupplierId must be at most 255 characters'))),
});
export type SupplierCreateRequest = z.infer<typeof SupplierCreateRequest>;

/**
 * Supplier bodies already parsed by a schema at least as strict as
 * SupplierCreateRequest (SupplierInput, src/api/supplier-input.ts): `supplier
 * create` and the import's row validator mark what they parsed, and the client
 * does not parse these a second time. (Marked by the callers, not by a zod
 * .transform() on the schema: in a million-row dry run that kept ~130 MB more
 * alive.)
 * Only the parsed output object is marked, so a later edit to some other object
 * cannot slip through; callers must not mutate a marked body.
 */
// The mark is a non-enumerable property under a module-private symbol: JSON.stringify, Object.keys
// and object spread ({ ...body }, structuredClone) all leave it behind, so a copy is never marked.
// (A WeakSet of the bodies cost ~0.9 µs a row more, plus GC work for its ephemeron table: 1.1-1.5
// vs 0.3-0.6 µs per marked body over 200,000 bodies, /tmp microbenchmark under load, 2026-11-23;
// test/unit/contract-checked-body.test.ts guards that a copy or a JSON round trip is not marked.)
const CHECKED: unique symbol = Symbol('srs.checkedSupplierBody');
const MARKED: PropertyDescriptor = { value: true, enumerable: false, writable: false, configurable: false };
export function markCheckedSupplierBody<T extends SupplierCreateRequest>(body: T): T {
  Object.defineProperty(body, CHECKED, MARKED);
  return body;
}
export function isCheckedSupplierBody(body: unknown): body is SupplierCreateRequest {
  return typeof body === 'object' && body !== null && (body as { [CHECKED]?: boolean })[CHECKED] === true;
}

export const SupplierCreateResponse = lazy(() => z.looseObject({
  id: z.string(),
  name: z.string(),
  countryIso3Code: z.nullable(z.string()),
  website: z.nullable(z.string()),
  status: z.string(),
  customerSupplierId: z.nullable(z.string()),
}));
export type SupplierCreateResponse = z.infer<typeof SupplierCreateResponse>;

export const CustomField = lazy(() => z.looseObject({ fieldLabel: z.string(), fieldValue: z.string() }));

export const SupplierDetail = lazy(() => z.looseObject({
  id: z.string(),
  name: z.string(),
  countryIso3Code: opt(z.string()),
  categories: opt(z.array(z.string())),
  customFields: opt(z.array(CustomField)),
  averageScore: opt(z.number()),
  publicSupplierProfileUrl: opt(z.string()),
}));
export type SupplierDetail = z.infer<typeof SupplierDetail>;
export const SupplierDetailResponse = lazy(() => itemOf(SupplierDetail));

// ---------------------------------------------------------------- scorecards

export const PolicyParameterRef = lazy(() => z.looseObject({
  id: z.string(),
  name: opt(z.string()),
  policyCategoryName: opt(z.string()),
}));

export const ScorecardItem = lazy(() => z.looseObject({
  /** policy_parameter_item is the value that occurs; others are not shown, so any string is accepted. */
  type: z.string(),
  policyParameter: opt(PolicyParameterRef),
  weight: opt(z.number()),
}));
export type ScorecardItem = z.infer<typeof ScorecardItem>;

export const Scorecard = lazy(() => z.looseObject({
  id: z.string(),
  name: z.string(),
  groupName: opt(z.string()),
  organizationId: opt(z.string()),
  createdAt: opt(Timestamp),
  createdBy: opt(z.string()),
  score: opt(z.number()),
  weight: opt(z.number()),
  items: opt(z.array(ScorecardItem)),
}));
export type Scorecard = z.infer<typeof Scorecard>;
export const ScorecardList = lazy(() => listOf(Scorecard));
export const ScorecardResponse = lazy(() => itemOf(Scorecard));
/** The spec hides the names of the two numeric parameters; we use page/perPage like every other list. */
export const ScorecardQuery = lazy(() => z.extend(PageQuery, { supplierId: z.optional(z.string().check(z.minLength(1))) }));
export type ScorecardQuery = z.infer<typeof ScorecardQuery>;

// ---------------------------------------------------------------- emissions

export const EmissionReport = lazy(() => z.looseObject({
  id: z.string(),
  scope: opt(z.string()),
  fromDate: opt(Timestamp),
  toDate: opt(Timestamp),
  reportedOn: opt(Timestamp),
  verifier: opt(z.string()),
  dataType: opt(z.string()),
  value: opt(z.number()),
  unit: opt(z.string()),
}));
export type EmissionReport = z.infer<typeof EmissionReport>;
/** No pagination object on this list. */
export const EmissionReportList = lazy(() => z.looseObject({ items: z.array(EmissionReport) }));

// ---------------------------------------------------------------- score calculation

export const ScoreValue = lazy(() => z.looseObject({ value: z.nullable(z.number()) }));
export type ScoreValue = z.infer<typeof ScoreValue>;

export const ScoreCalculationRequest = lazy(() => z.strictObject({
  supplierIds: z.array(z.string().check(z.minLength(1))).check(z.minLength(1, 'supplierIds needs at least 1 id'), z.maxLength(100, 'supplierIds takes at most 100 ids')),
  policyParameterIds: z.optional(z.array(z.string().check(z.minLength(1)))),
  dataSourceIds: z.optional(z.array(z.string().check(z.minLength(1)))),
  includeZeroValues: z.optional(z.boolean()),
}));
export type ScoreCalculationRequest = z.infer<typeof ScoreCalculationRequest>;

export const ScoreDataEntry = lazy(() => z.looseObject({
  id: z.string(),
  supplierId: z.string(),
  dataSourceId: z.string(),
  score: ScoreValue,
  isClaim: z.boolean(),
  expiryDate: opt(IsoDate),
  issueDate: opt(IsoDate),
}));
export type ScoreDataEntry = z.infer<typeof ScoreDataEntry>;

export const RiskIndicator = lazy(() => z.looseObject({
  riskLevel: z.string(),
  name: z.string(),
  website: opt(z.string()),
  description: opt(z.string()),
}));
export const RiskEntry = lazy(() => z.looseObject({
  riskDataSourceId: z.string(),
  year: z.number().check(z.int()),
  riskIndicators: z.array(RiskIndicator),
}));
export const Risk = lazy(() => z.looseObject({
  riskLevel: opt(z.string()),
  riskEntries: z.array(RiskEntry),
}));
export type Risk = z.infer<typeof Risk>;
export const ScoreContext = lazy(() => z.looseObject({ type: z.string(), name: z.string(), code: z.string() }));
export type ScoreContext = z.infer<typeof ScoreContext>;

export const DataSourceScore = lazy(() => z.looseObject({
  dataSourceId: z.string(),
  score: ScoreValue,
  dataPoints: z.looseObject({ dataEntries: z.array(ScoreDataEntry) }),
}));
export type DataSourceScore = z.infer<typeof DataSourceScore>;

export const PolicyParameterScore = lazy(() => z.looseObject({
  policyParameterId: z.string(),
  score: ScoreValue,
  dataPoints: z.looseObject({
    dataEntries: z.array(ScoreDataEntry),
    risk: opt(Risk),
    contexts: opt(z.array(ScoreContext)),
  }),
}));
export type PolicyParameterScore = z.infer<typeof PolicyParameterScore>;

export const ScoreResult = lazy(() => z.looseObject({
  supplierId: z.string(),
  score: z.looseObject({
    value: z.nullable(z.number()),
    dataSourcesScore: ScoreValue,
    policyParametersScore: ScoreValue,
  }),
  dataSourceScores: z.array(DataSourceScore),
  policyParameterScores: z.array(PolicyParameterScore),
}));
export type ScoreResult = z.infer<typeof ScoreResult>;
export const ScoreCalculationResponse = lazy(() => z.looseObject({ items: z.array(ScoreResult) }));
export type ScoreCalculationResponse = z.infer<typeof ScoreCalculationResponse>;

// ---------------------------------------------------------------- data entries and news

export const Article = lazy(() => z.looseObject({
  id: z.string(),
  url: opt(z.string()),
  title: opt(z.string()),
  summary: opt(z.string()),
  publishedAt: opt(z.string()),
}));
export type Article = z.infer<typeof Article>;

export const NewsEventBody = z.looseObject({
  name: z.string(),
  summary: opt(z.string()),
  articles: z.array(Article),
});
export const NewsEvent = lazy(() => z.extend(NewsEventBody, { id: z.string() }));
export type NewsEvent = z.infer<typeof NewsEvent>;
export const NewsEventList = lazy(() => listOf(NewsEvent));
export const NewsEventQuery = lazy(() => z.extend(PageQuery, { dataEntryId: z.optional(z.string().check(z.minLength(1))) }));
export type NewsEventQuery = z.infer<typeof NewsEventQuery>;

export const DataEntry = lazy(() => z.looseObject({
  /** news_event is the only allowed value. */
  type: z.literal('news_event'),
  id: z.string(),
  supplier: z.looseObject({ id: z.string() }),
  score: z.number(),
  policyParameterScores: z.array(
    z.looseObject({ policyParameter: z.looseObject({ id: z.string() }), score: z.number() }),
  ),
  newsEvent: NewsEventBody,
}));
export type DataEntry = z.infer<typeof DataEntry>;

// ---------------------------------------------------------------- reference data

export const DataSource = lazy(() => z.looseObject({
  id: z.string(),
  name: z.string(),
  vendorName: opt(z.string()),
  dataSourceType: opt(z.string()),
  logoUrl: opt(z.string()),
  website: opt(z.string()),
}));
export type DataSource = z.infer<typeof DataSource>;
export const DataSourceList = lazy(() => listOf(DataSource));

export const Country = lazy(() => z.looseObject({
  iso3Code: z.string(),
  iso2Code: opt(z.string()),
  commonName: opt(z.string()),
  officialName: opt(z.string()),
  regionName: opt(z.string()),
}));
export type Country = z.infer<typeof Country>;
export const CountryList = lazy(() => listOf(Country));

export const StandardIndustry = lazy(() => z.looseObject({
  code: z.string(),
  name: z.string(),
  hierarchyLevel: opt(z.string()),
  parentIndustryCode: opt(z.string()),
}));
export type StandardIndustry = z.infer<typeof StandardIndustry>;
export const StandardIndustryList = lazy(() => listOf(StandardIndustry));
export const StandardIndustryQuery = lazy(() => z.extend(PageQuery, { subIndustriesOnly: z.optional(z.enum(['true', 'false'])) }));
export type StandardIndustryQuery = z.infer<typeof StandardIndustryQuery>;

/**
 * GET /v1/categories: the spec names the endpoint but shows neither request nor
 * response. Assumption (documented in the README): it is paged like the other
 * reference lists, and each item has at least an id; name and anything else is
 * optional and passed through. A bare array or { items } without pagination is
 * also accepted by the client.
 */
export const Category = lazy(() => z.looseObject({ id: z.string(), name: opt(z.string()) }));
export type Category = z.infer<typeof Category>;
export const CategoryList = lazy(() => z.looseObject({ items: z.array(Category), pagination: opt(Pagination) }));

// ---------------------------------------------------------------- errors

/** The shape our emulator sends. The client accepts message, error, errors[] or plain text from the real service. */
export const ErrorBody = lazy(() => z.looseObject({
  error: z.looseObject({ code: z.string(), message: z.string(), field: z.optional(z.string()) }),
  message: z.string(),
}));
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Turns a zod error into one line naming the first failing path, e.g. "contacts[0].email: expected an email address". */
export function describeZodError(err: z.core.$ZodError, root?: string): string {
  const issue = err.issues[0];
  if (!issue) return 'invalid';
  const path = formatPath(issue.path, root);
  const extra = err.issues.length > 1 ? ` (and ${err.issues.length - 1} more)` : '';
  return `${path ? path + ': ' : ''}${issue.message}${extra}`;
}

export function formatPath(path: ReadonlyArray<PropertyKey>, root?: string): string {
  let out = root ?? '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}
