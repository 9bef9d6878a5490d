/**
 * The service's contract as zod schemas: the single source of truth for every
 * request and response shape, shared by the client (src/api/client.ts) and the
 * emulator (src/emulator/). Field names and nesting follow
 * shared/spec/service-interface.md exactly.
 *
 * One definition, two views (contract() below builds both from the same code):
 * - WIRE: what the document promises. A field the document marks required is
 *   required; "string or null" may be null; every other field may be absent
 *   but is never null (the document types it as a string, number, ...). The
 *   emulator sends this, its GET /openapi.json describes it, and it checks
 *   requests as strictly as the document does and no more: unknown keys in a
 *   request body are ignored, the document's bounds are enforced.
 * - READER: what the client tolerates. A field the document does not mark
 *   required may be absent or null; unknown fields are kept and passed
 *   through. Requests are checked strictly before anything is sent (unknown
 *   keys are refused: a typo must not silently drop a field; e-mail addresses
 *   must be well formed, names at most 255 characters).
 * The exports below under the contract's plain names (Scorecard, ScoreResult,
 * ...) are the reader view; `Wire` holds the wire view.
 *
 * One deliberate exception: a score result's supplierId is required by the
 * reader, although the document marks nothing in a score result required. A
 * result that does not say whose it is cannot be attributed, and srs fails
 * closed (exit 1, naming the field) rather than print scores for nobody.
 */
import * as z from 'zod/mini';

/** An address as RFC 5322/6531 allow it, loosely: something, one @, a domain (a name in any script, or [an address literal]), no spaces outside a quoted local part. */
const EMAIL_SHAPE = /^(?:"[^"]+"|[^\s@"]+)@(?:[^\s@\[\]]+|\[[^\s\]]+\])$/u;

/**
 * The characters an RFC 3986 URI is written with (a scheme, then unreserved, reserved and %-escapes):
 * `new URL()`, behind z.url, also takes "https://example.com/a b" (it encodes the space), which a
 * strict service answers with 400. Client and emulator check the website with it alike.
 */
export const URI_TEXT = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

// zod/mini (the same schemas and checks as zod's classic API, without the methods
// that keep all of zod in the bundle) sets no message locale itself. Every module
// that uses zod imports this one, so this is where English is chosen.
z.config(z.locales.en());

/** A list answer's items null, or absent from an answer that holds nothing else (listAnswer), as []. */
function noItemsAsEmpty(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  if (o.items === null || (!('items' in o) && Object.keys(o).every((k) => k === 'pagination'))) return { ...o, items: [] };
  return v;
}

// ---------------------------------------------------------------- primitives

/**
 * A schema built the first time it is used. Building all of the contract's
 * schemas took ~10 ms of every networked command's start-up, and most commands
 * use two or three of them.
 */
const lazyOf = <T extends z.ZodMiniType>(build: () => T) => z.lazy(build);
const lazy = lazyOf;

export type View = 'wire' | 'reader';

/** A field the document does not mark required: wire, may be absent; reader, may also be null. */
type Opt<V extends View, T extends z.ZodMiniType> = V extends 'wire' ? z.ZodMiniOptional<T> : z.ZodMiniOptional<z.ZodMiniNullable<T>>;
/** An object in a response: unknown fields are kept (and passed through). */
const rec = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

/**
 * The whole contract in one view: see the module comment. `eager` builds every schema at once
 * instead of through z.lazy: the form z.compile (see hot() below) can compile.
 */
function contract<V extends View>(view: V, eager = false) {
  const wire = view === 'wire';
  // Eager, a schema is its build's result; typed as the lazy one (the same input and output) so that both forms share one type.
  const lazy = eager ? <T extends z.ZodMiniType>(build: () => T) => build() as unknown as z.ZodMiniLazy<T> : lazyOf;
  const opt = <T extends z.ZodMiniType>(t: T): Opt<V, T> => (wire ? z.optional(t) : z.optional(z.nullable(t))) as Opt<V, T>;
  /** A request body: the wire ignores unknown keys (the document does not forbid them), the client refuses them. */
  const body = <S extends z.core.$ZodLooseShape>(shape: S) => (wire ? z.looseObject(shape) : z.strictObject(shape)) as unknown as z.ZodMiniObject<S, z.core.$strict>;
  /** An id or code in a request: identifiers are opaque strings, and "" identifies nothing (a 400, in both views). */
  const idString = (): z.ZodMiniString => z.string().check(z.minLength(1, 'expected an id (not empty)'));

  const IsoDate = lazy(() => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a calendar date YYYY-MM-DD')));
  const Timestamp = lazy(() => z.string());

  // ------------------------------------------------------------ pagination

  /**
   * page and perPage: the document types them "number" (page >= 1, perPage 1 to
   * 100). A page number is a whole number (nextPage, "a page number", is an
   * integer), so 1.0 is page 1 and 2.5 is refused; the same for perPage, whose
   * value comes back as the integer pageSize.
   */
  // z.int() refuses whole numbers past 2^53 too: page=9007199254740993 was told "page must be a whole number".
  const wholeNumber = (name: string) =>
    z.int({ error: (iss) => (Number.isInteger(iss.input) ? `${name} must be at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1)` : `${name} must be a whole number`) });
  const PageQuery = z.object({
    page: z.optional(z.number().check(wholeNumber('page'), z.gte(1, 'page must be >= 1'))),
    perPage: z.optional(z.number().check(z.int('perPage must be a whole number'), z.gte(1, 'perPage must be between 1 and 100'), z.lte(100, 'perPage must be between 1 and 100'))),
  });

  const Pagination = lazy(() => rec({
    pageSize: opt(z.number().check(z.int())),
    /**
     * The document does not say what the last page carries: absent, null, 0, a negative number, the same page or past
     * the end all occur. It does say a page number is an integer: 2.5 (or 1e300) is no page, and read as "the last
     * page" it ended the list silently with items lost; it is a bad response (exit 1).
     */
    nextPage: wire ? z.optional(z.number().check(z.int())) : z.optional(z.nullable(z.number().check(z.int('nextPage must be a whole page number')))),
  }));

  /**
   * A list answer. The document marks no field of a list required: the emulator always sends items, the client
   * reads items null (Go's encoder writes an empty slice so) or absent from an answer holding nothing else (`{}`,
   * or pagination alone) as no items. An answer with other fields and no items ({"error": "database unavailable"})
   * is no list: a bad response (exit 1), not an empty list with exit 0. A score calculation answered with no items
   * has no result for any supplier asked, each of which is then unknown (exit 1): nothing passes for "no data".
   */
  const listAnswer = <S extends z.ZodMiniType>(s: S): S => (wire ? s : (z.pipe(z.transform(noItemsAsEmpty), s) as unknown as S));
  /** The document marks no field of a list required but lists both: the emulator always sends pagination, the client reads a list without one (or with null) as its last page. */
  const listOf = <T extends z.ZodMiniType>(item: T) => listAnswer(rec({ items: z.array(item), pagination: wire ? Pagination : z.optional(z.nullable(Pagination)) }));
  const itemOf = <T extends z.ZodMiniType>(item: T) => rec({ item });

  // ------------------------------------------------------------ suppliers

  /** "Other contact fields and their constraints: not shown": the document's three strings; the client checks them. */
  const Contact = lazy(() => wire
    ? z.looseObject({ email: z.optional(z.string()), firstName: z.optional(z.string()), lastName: z.optional(z.string()) })
    : z.object({
      // The document types email as a string: only what cannot be an address ("not-an-email", "n/a") is refused.
      // z.email() also refused jürgen@example.de, "john doe"@example.com and jane@localhost, which the service takes.
      email: z.optional(z.string().check(z.regex(EMAIL_SHAPE, 'expected an email address (local-part@domain)'))),
      firstName: z.optional(z.string().check(z.maxLength(255))),
      lastName: z.optional(z.string().check(z.maxLength(255))),
    }));

  const SupplierCreateRequest = body({
    name: z.string().check(z.minLength(1, 'name must not be empty'), z.maxLength(255, 'name must be at most 255 characters')),
    countryIso3Code: z.optional(z.string().check(z.length(3, 'countryIso3Code must be exactly 3 characters'))),
    website: z.optional(z.url('website must be a URI (for example https://example.com)').check(z.regex(URI_TEXT, 'website must be a URI: a space or a character a URI cannot hold must be percent-encoded (%20)'))),
    industryCodes: z.optional(z.array(idString())),
    categoryIds: z.optional(z.array(idString())),
    contacts: z.optional(z.array(Contact)),
    customerSupplierId: z.optional(z.string().check(z.maxLength(255, 'customerSupplierId must be at most 255 characters'))),
  });

  /** Every field is marked required; three are "string or null". */
  const SupplierCreateResponse = lazy(() => rec({
    id: z.string(),
    name: z.string(),
    countryIso3Code: z.nullable(z.string()),
    website: z.nullable(z.string()),
    status: z.string(),
    customerSupplierId: z.nullable(z.string()),
  }));

  const CustomField = lazy(() => rec({ fieldLabel: opt(z.string()), fieldValue: opt(z.string()) }));

  /** "Which of these fields are always present, and whether any may be null: not shown." */
  const SupplierDetail = lazy(() => rec({
    id: opt(z.string()),
    name: opt(z.string()),
    countryIso3Code: opt(z.string()),
    categories: opt(z.array(z.string())),
    customFields: opt(z.array(CustomField)),
    averageScore: opt(z.number()),
    publicSupplierProfileUrl: opt(z.string()),
  }));
  const SupplierDetailResponse = lazy(() => itemOf(SupplierDetail));

  // ------------------------------------------------------------ scorecards
  // "Required or optional marking of the fields of the scorecard, emission report, news event, data source,
  // country and standard industry records: not shown": every field of those records is optional.

  const PolicyParameterRef = lazy(() => rec({
    id: opt(z.string()),
    name: opt(z.string()),
    policyCategoryName: opt(z.string()),
  }));

  const ScorecardItem = lazy(() => rec({
    /** policy_parameter_item is the value that occurs; others are not shown, so any string is accepted. */
    type: opt(z.string()),
    policyParameter: opt(PolicyParameterRef),
    weight: opt(z.number()),
  }));

  const Scorecard = lazy(() => rec({
    id: opt(z.string()),
    name: opt(z.string()),
    groupName: opt(z.string()),
    organizationId: opt(z.string()),
    createdAt: opt(Timestamp),
    createdBy: opt(z.string()),
    score: opt(z.number()),
    weight: opt(z.number()),
    items: opt(z.array(ScorecardItem)),
  }));
  const ScorecardList = lazy(() => listOf(Scorecard));
  const ScorecardResponse = lazy(() => itemOf(Scorecard));
  /** The document hides the names of the two numeric parameters; we use page/perPage like every other list. */
  const ScorecardQuery = lazy(() => z.object({ ...PageQuery.shape, supplierId: z.optional(idString()) }));

  // ------------------------------------------------------------ emissions

  const EmissionReport = lazy(() => rec({
    id: opt(z.string()),
    scope: opt(z.string()),
    fromDate: opt(Timestamp),
    toDate: opt(Timestamp),
    reportedOn: opt(Timestamp),
    verifier: opt(z.string()),
    dataType: opt(z.string()),
    value: opt(z.number()),
    unit: opt(z.string()),
  }));
  /** No pagination object on this list. */
  const EmissionReportList = lazy(() => listAnswer(rec({ items: z.array(EmissionReport) })));

  // ------------------------------------------------------------ score calculation
  // The score result's tables mark nothing required: every field may be absent ("no data" leaves the value out).

  const ScoreValue = lazy(() => rec({ value: opt(z.number()) }));

  const ScoreCalculationRequest = lazy(() => body({
    supplierIds: z.array(idString()).check(z.minLength(1, 'supplierIds needs at least 1 id'), z.maxLength(100, 'supplierIds takes at most 100 ids')),
    policyParameterIds: z.optional(z.array(idString())),
    dataSourceIds: z.optional(z.array(idString())),
    includeZeroValues: z.optional(z.boolean()),
  }));

  const ScoreDataEntry = lazy(() => rec({
    id: opt(z.string()),
    supplierId: opt(z.string()),
    dataSourceId: opt(z.string()),
    score: opt(ScoreValue),
    isClaim: opt(z.boolean()),
    expiryDate: opt(IsoDate),
    issueDate: opt(IsoDate),
  }));

  const RiskIndicator = lazy(() => rec({
    riskLevel: opt(z.string()),
    name: opt(z.string()),
    website: opt(z.string()),
    description: opt(z.string()),
  }));
  const RiskEntry = lazy(() => rec({
    riskDataSourceId: opt(z.string()),
    year: opt(z.number().check(z.int())),
    riskIndicators: opt(z.array(RiskIndicator)),
  }));
  const Risk = lazy(() => rec({
    riskLevel: opt(z.string()),
    riskEntries: opt(z.array(RiskEntry)),
  }));
  const ScoreContext = lazy(() => rec({ type: opt(z.string()), name: opt(z.string()), code: opt(z.string()) }));

  const DataSourceScore = lazy(() => rec({
    dataSourceId: opt(z.string()),
    score: opt(ScoreValue),
    dataPoints: opt(rec({ dataEntries: opt(z.array(ScoreDataEntry)) })),
  }));

  const PolicyParameterScore = lazy(() => rec({
    policyParameterId: opt(z.string()),
    score: opt(ScoreValue),
    dataPoints: opt(rec({
      dataEntries: opt(z.array(ScoreDataEntry)),
      risk: opt(Risk),
      contexts: opt(z.array(ScoreContext)),
    })),
  }));

  const ScoreResult = lazy(() => rec({
    /** Required by the reader (see the module comment); the emulator always sends it. */
    supplierId: (wire ? z.optional(z.string()) : z.string()) as V extends 'wire' ? z.ZodMiniOptional<z.ZodMiniString> : z.ZodMiniString,
    score: opt(rec({
      value: opt(z.number()),
      dataSourcesScore: opt(ScoreValue),
      policyParametersScore: opt(ScoreValue),
    })),
    dataSourceScores: opt(z.array(DataSourceScore)),
    policyParameterScores: opt(z.array(PolicyParameterScore)),
  }));
  const ScoreCalculationResponse = lazy(() => listAnswer(rec({ items: z.array(ScoreResult) })));

  // ------------------------------------------------------------ data entries and news

  const Article = lazy(() => rec({
    id: opt(z.string()),
    url: opt(z.string()),
    title: opt(z.string()),
    summary: opt(z.string()),
    publishedAt: opt(IsoDate),
  }));

  const newsEventFields = () => ({
    name: opt(z.string()),
    summary: opt(z.string()),
    articles: opt(z.array(Article)),
  });
  const NewsEventBody = lazy(() => rec(newsEventFields()));
  const NewsEvent = lazy(() => rec({ id: opt(z.string()), ...newsEventFields() }));
  const NewsEventList = lazy(() => listOf(NewsEvent));
  const NewsEventQuery = lazy(() => z.object({ ...PageQuery.shape, dataEntryId: z.optional(idString()) }));

  /** The document marks every top-level field required; the nested ones are not marked. */
  const DataEntry = lazy(() => rec({
    /** news_event is the only allowed value. */
    type: z.literal('news_event'),
    id: z.string(),
    supplier: rec({ id: opt(z.string()) }),
    score: z.number(),
    policyParameterScores: z.array(rec({ policyParameter: opt(rec({ id: opt(z.string()) })), score: opt(z.number()) })),
    newsEvent: NewsEventBody,
  }));

  // ------------------------------------------------------------ reference data

  const DataSource = lazy(() => rec({
    id: opt(z.string()),
    name: opt(z.string()),
    vendorName: opt(z.string()),
    dataSourceType: opt(z.string()),
    logoUrl: opt(z.string()),
    website: opt(z.string()),
  }));
  const DataSourceList = lazy(() => listOf(DataSource));

  const Country = lazy(() => rec({
    iso3Code: opt(z.string()),
    iso2Code: opt(z.string()),
    commonName: opt(z.string()),
    officialName: opt(z.string()),
    regionName: opt(z.string()),
  }));
  const CountryList = lazy(() => listOf(Country));

  const StandardIndustry = lazy(() => rec({
    code: opt(z.string()),
    name: opt(z.string()),
    hierarchyLevel: opt(z.string()),
    parentIndustryCode: opt(z.string()),
  }));
  const StandardIndustryList = lazy(() => listOf(StandardIndustry));
  const StandardIndustryQuery = lazy(() => z.object({ ...PageQuery.shape, subIndustriesOnly: z.optional(z.enum(['true', 'false'])) }));

  /**
   * GET /v1/categories: the document names the endpoint but shows neither
   * request nor response. Assumption (documented in the README): it is paged
   * like the other reference lists, and each item has at least an id; name and
   * anything else is optional and passed through. A bare array or { items }
   * without pagination is also accepted by the client.
   */
  const Category = lazy(() => rec({ id: z.string(), name: opt(z.string()) }));
  const CategoryList = lazy(() => listAnswer(rec({ items: z.array(Category), pagination: z.optional(z.nullable(Pagination)) })));

  return {
    IsoDate, Timestamp, PageQuery, Pagination, Contact, SupplierCreateRequest, SupplierCreateResponse, CustomField, SupplierDetail, SupplierDetailResponse,
    PolicyParameterRef, ScorecardItem, Scorecard, ScorecardList, ScorecardResponse, ScorecardQuery, EmissionReport, EmissionReportList,
    ScoreValue, ScoreCalculationRequest, ScoreDataEntry, RiskIndicator, RiskEntry, Risk, ScoreContext, DataSourceScore, PolicyParameterScore,
    ScoreResult, ScoreCalculationResponse, Article, NewsEventBody, NewsEvent, NewsEventList, NewsEventQuery, DataEntry, DataSource, DataSourceList,
    Country, CountryList, StandardIndustry, StandardIndustryList, StandardIndustryQuery, Category, CategoryList,
  };
}

type ContractView<V extends View> = ReturnType<typeof contract<V>>;

/**
 * The wire view: what the document promises (the emulator sends it; /openapi.json
 * describes it). Built on first use: the client never needs it, and building a
 * view costs start-up time.
 */
export const Wire: ContractView<'wire'> = (() => {
  let built: ContractView<'wire'> | undefined;
  return new Proxy({} as ContractView<'wire'>, { get: (_target, key) => (built ??= contract('wire'))[key as keyof ContractView<'wire'>] });
})();
/** The reader view: what the client tolerates. Exported below under the contract's plain names. */
export const Reader = contract('reader');

// ---------------------------------------------------------------- the reader view (the client's)

export const IsoDate = Reader.IsoDate;
export const Timestamp = Reader.Timestamp;
export const PageQuery = Reader.PageQuery;
export type PageQuery = z.infer<typeof PageQuery>;
export const Pagination = Reader.Pagination;
export type Pagination = z.infer<typeof Pagination>;

export const Contact = Reader.Contact;
export type Contact = z.infer<typeof Contact>;
export const SupplierCreateRequest = Reader.SupplierCreateRequest;
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

export const SupplierCreateResponse = Reader.SupplierCreateResponse;
export type SupplierCreateResponse = z.infer<typeof SupplierCreateResponse>;
export const CustomField = Reader.CustomField;
export const SupplierDetail = Reader.SupplierDetail;
export type SupplierDetail = z.infer<typeof SupplierDetail>;
export const SupplierDetailResponse = Reader.SupplierDetailResponse;

export const PolicyParameterRef = Reader.PolicyParameterRef;
export const ScorecardItem = Reader.ScorecardItem;
export type ScorecardItem = z.infer<typeof ScorecardItem>;
export const Scorecard = Reader.Scorecard;
export type Scorecard = z.infer<typeof Scorecard>;
export const ScorecardList = Reader.ScorecardList;
export const ScorecardResponse = Reader.ScorecardResponse;
export const ScorecardQuery = Reader.ScorecardQuery;
export type ScorecardQuery = z.infer<typeof ScorecardQuery>;

export const EmissionReport = Reader.EmissionReport;
export type EmissionReport = z.infer<typeof EmissionReport>;
export const EmissionReportList = Reader.EmissionReportList;

export const ScoreValue = Reader.ScoreValue;
export type ScoreValue = z.infer<typeof ScoreValue>;
export const ScoreCalculationRequest = Reader.ScoreCalculationRequest;
export type ScoreCalculationRequest = z.infer<typeof ScoreCalculationRequest>;
export const ScoreDataEntry = Reader.ScoreDataEntry;
export type ScoreDataEntry = z.infer<typeof ScoreDataEntry>;
export const RiskIndicator = Reader.RiskIndicator;
export const RiskEntry = Reader.RiskEntry;
export const Risk = Reader.Risk;
export type Risk = z.infer<typeof Risk>;
export const ScoreContext = Reader.ScoreContext;
export type ScoreContext = z.infer<typeof ScoreContext>;
export const DataSourceScore = Reader.DataSourceScore;
export type DataSourceScore = z.infer<typeof DataSourceScore>;
export const PolicyParameterScore = Reader.PolicyParameterScore;
export type PolicyParameterScore = z.infer<typeof PolicyParameterScore>;
/** The reader's score result, as received (what `srs schema score-result` describes). */
export const ScoreResult = Reader.ScoreResult;
export type ReceivedScoreResult = z.infer<typeof Reader.ScoreResult>;

// ---------------------------------------------------------------- score results, completed

/**
 * The score commands (calc tables, check, recompute, explain, report, saved
 * bundles) compute over COMPLETE score results. The client's
 * ScoreCalculationResponse parses with the reader view and then completes each
 * result in place (zod's output is a fresh copy): an absent or null score
 * object or value becomes { value: null }, an absent list [], an entry's
 * supplierId the result's, an absent isClaim false; a data source, parameter,
 * entry, risk entry, indicator or context without the ids that attribute it
 * cannot be used and is left out. `score calc -o json` still prints the
 * service's own bytes.
 */
const CompleteScoreValue = z.looseObject({ value: z.nullable(z.number()) });
const CompleteScoreDataEntry = z.looseObject({
  id: z.string(),
  supplierId: z.string(),
  dataSourceId: z.string(),
  score: CompleteScoreValue,
  isClaim: z.boolean(),
  expiryDate: z.optional(z.nullable(z.string())),
  issueDate: z.optional(z.nullable(z.string())),
});
const CompleteRisk = z.looseObject({
  riskLevel: z.optional(z.nullable(z.string())),
  riskEntries: z.array(z.looseObject({
    riskDataSourceId: z.string(),
    year: z.number(),
    riskIndicators: z.array(z.looseObject({ riskLevel: z.string(), name: z.string(), website: z.optional(z.nullable(z.string())), description: z.optional(z.nullable(z.string())) })),
  })),
});
const CompleteScoreContext = z.looseObject({ type: z.string(), name: z.string(), code: z.string() });
const CompleteScoreResultShape = z.looseObject({
  supplierId: z.string(),
  score: z.looseObject({ value: z.nullable(z.number()), dataSourcesScore: CompleteScoreValue, policyParametersScore: CompleteScoreValue }),
  dataSourceScores: z.array(z.looseObject({ dataSourceId: z.string(), score: CompleteScoreValue, dataPoints: z.looseObject({ dataEntries: z.array(CompleteScoreDataEntry) }) })),
  policyParameterScores: z.array(z.looseObject({
    policyParameterId: z.string(),
    score: CompleteScoreValue,
    dataPoints: z.looseObject({ dataEntries: z.array(CompleteScoreDataEntry), risk: z.optional(z.nullable(CompleteRisk)), contexts: z.optional(z.nullable(z.array(CompleteScoreContext))) }),
  })),
});
export type ScoreResult = z.infer<typeof CompleteScoreResultShape>;

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';

/**
 * What completing a result left out, by kind ("data entry without an id": 2), so that the commands
 * computing over complete results say so instead of showing 0 entries or no risk for data the
 * service did send (leftOutOf). The document marks nothing in a score result as required.
 */
const leftOutCounts = new WeakMap<object, Map<string, number>>();
let completing: Map<string, number> | undefined;
function leftOut(what: string, n: number): void {
  if (n > 0 && completing) completing.set(what, (completing.get(what) ?? 0) + n);
}
/** What completeScoreResult left out of (or assumed in) this result, as "what: count" phrases; empty when nothing. */
export function leftOutOf(result: object): string[] {
  return [...(leftOutCounts.get(result) ?? [])].map(([what, n]) => `${what}: ${n}`);
}
function value(o: Loose, key: string): void {
  const v = o[key];
  if (!isObj(v)) o[key] = { value: null };
  else if (typeof v.value !== 'number') v.value = null;
}
function list(o: Loose, key: string, keep: (x: Loose) => boolean, what?: string): Loose[] {
  const v = o[key];
  const out = Array.isArray(v) ? (v.filter((x) => isObj(x) && keep(x)) as Loose[]) : [];
  if (what && Array.isArray(v)) leftOut(what, v.length - out.length);
  o[key] = out;
  return out;
}
function entries(holder: Loose, supplierId: string, dataSourceId?: unknown): void {
  if (!isObj(holder.dataPoints)) holder.dataPoints = {};
  const dp = holder.dataPoints as Loose;
  for (const e of list(dp, 'dataEntries', (e) => str(e.id) && (str(e.dataSourceId) || str(dataSourceId)), 'data entries without an id or a data source id, left out')) {
    if (!str(e.dataSourceId)) e.dataSourceId = dataSourceId;
    if (!str(e.supplierId)) e.supplierId = supplierId;
    if (typeof e.isClaim !== 'boolean') {
      // The model needs to know: an entry that does not say is taken as not a claim, and the user hears of it.
      leftOut('data entries without isClaim (taken as not a claim)', 1);
      e.isClaim = false;
    }
    value(e, 'score');
  }
}
/** Completes one parsed (reader) score result in place: see above. */
export function completeScoreResult(r: z.infer<typeof Reader.ScoreResult>): ScoreResult {
  const counts = new Map<string, number>();
  completing = counts;
  try {
    return completeInPlace(r);
  } finally {
    completing = undefined;
    if (counts.size) leftOutCounts.set(r, counts);
  }
}
function completeInPlace(r: z.infer<typeof Reader.ScoreResult>): ScoreResult {
  const o = r as Loose;
  if (!isObj(o.score)) o.score = {};
  const score = o.score as Loose;
  if (typeof score.value !== 'number') score.value = null;
  value(score, 'dataSourcesScore');
  value(score, 'policyParametersScore');
  for (const ds of list(o, 'dataSourceScores', (x) => str(x.dataSourceId), 'data source scores without a dataSourceId, left out')) {
    value(ds, 'score');
    entries(ds, r.supplierId, ds.dataSourceId);
  }
  for (const pp of list(o, 'policyParameterScores', (x) => str(x.policyParameterId), 'policy parameter scores without a policyParameterId, left out')) {
    value(pp, 'score');
    entries(pp, r.supplierId);
    const dp = pp.dataPoints as Loose;
    if (isObj(dp.risk)) {
      for (const re of list(dp.risk, 'riskEntries', (x) => str(x.riskDataSourceId) && typeof x.year === 'number', 'risk entries without a riskDataSourceId or year, left out')) {
        list(re, 'riskIndicators', (x) => str(x.riskLevel) && str(x.name), 'risk indicators without a riskLevel or name, left out');
      }
    }
    if (Array.isArray(dp.contexts)) list(dp, 'contexts', (x) => str(x.type) && str(x.name) && str(x.code), 'contexts without a type, name or code, left out');
  }
  return o as ScoreResult;
}
const completeAll = (body: z.infer<typeof Reader.ScoreCalculationResponse>) => ({ ...body, items: body.items.map(completeScoreResult) });
/** POST /v1/score-calculation as received (the reader view, nothing completed): what -o json prints. */
export const ReceivedScoreCalculationResponse = Reader.ScoreCalculationResponse;
export type ReceivedScoreCalculationResponse = z.infer<typeof ReceivedScoreCalculationResponse>;
/** The client's parse of POST /v1/score-calculation: the reader view, each result completed. */
export const ScoreCalculationResponse = lazy(() => z.pipe(Reader.ScoreCalculationResponse, z.transform(completeAll)));
export type ScoreCalculationResponse = z.infer<typeof ScoreCalculationResponse>;

export const Article = Reader.Article;
export type Article = z.infer<typeof Article>;
export const NewsEventBody = Reader.NewsEventBody;
export const NewsEvent = Reader.NewsEvent;
export type NewsEvent = z.infer<typeof NewsEvent>;
export const NewsEventList = Reader.NewsEventList;
export const NewsEventQuery = Reader.NewsEventQuery;
export type NewsEventQuery = z.infer<typeof NewsEventQuery>;
export const DataEntry = Reader.DataEntry;
export type DataEntry = z.infer<typeof DataEntry>;

export const DataSource = Reader.DataSource;
export type DataSource = z.infer<typeof DataSource>;
export const DataSourceList = Reader.DataSourceList;
export const Country = Reader.Country;
export type Country = z.infer<typeof Country>;
export const CountryList = Reader.CountryList;
export const StandardIndustry = Reader.StandardIndustry;
export type StandardIndustry = z.infer<typeof StandardIndustry>;
export const StandardIndustryList = Reader.StandardIndustryList;
export const StandardIndustryQuery = Reader.StandardIndustryQuery;
export type StandardIndustryQuery = z.infer<typeof StandardIndustryQuery>;
export const Category = Reader.Category;
export type Category = z.infer<typeof Category>;
export const CategoryList = Reader.CategoryList;


// ---------------------------------------------------------------- compiled schemas for bulk work

/**
 * Responses parsed more than this many times in one process are parsed with a compiled schema.
 * A lookup parses one or two responses and never pays for compiling; `score calc`, its --save and
 * an import parse thousands of the same shape.
 */
export const HOT_AFTER = 16;
const uses = new Map<z.ZodMiniType, number>();
const compiledOf = new Map<z.ZodMiniType, z.ZodMiniType>();
let eagerReader: ContractView<'reader'> | undefined;

/**
 * The schema to parse a response with: the one given for its first HOT_AFTER uses, then the same
 * schema compiled by z.compile (zod's own ahead-of-time compiler, a public API: it generates one
 * function for the whole shape instead of walking the schema tree for every value, and hands any
 * value it rejects to the runtime parser, so errors are the runtime's). Same output, same errors:
 * test/unit/contract-compiled.test.ts checks both, and that each bulk response schema still
 * compiles (strict), so a zod upgrade that stops compiling one fails a test instead of slowing srs.
 * z.compile cannot compile z.lazy, so the compiled schemas come from an eager build of the reader
 * view, made on first need (~10 ms, with the compiles).
 * Measured (2026-11-24, node 24, in-process, hot): GET /v1/scorecards?supplierId= (2.9 KB) 15.0 ->
 * 6.0 µs a response; POST /v1/score-calculation of 100 suppliers (585 KB) 3.2 -> 0.9 ms.
 */
export function hot<S extends z.ZodMiniType>(schema: S): S {
  const done = compiledOf.get(schema);
  if (done) return done as S;
  const n = (uses.get(schema) ?? 0) + 1;
  uses.set(schema, n);
  if (n <= HOT_AFTER) return schema;
  const c = compiledForm(schema) ?? schema;
  compiledOf.set(schema, c);
  uses.delete(schema);
  return c as S;
}

/** The compiled form of a reader schema (or of ScoreCalculationResponse), or undefined for any other schema. */
export function compiledForm(schema: z.ZodMiniType, opts?: { strict?: boolean }): z.ZodMiniType | undefined {
  eagerReader ??= contract('reader', true);
  if (schema === ScoreCalculationResponse) return z.pipe(z.compile(eagerReader.ScoreCalculationResponse, opts), z.transform(completeAll));
  for (const [name, s] of Object.entries(Reader)) {
    if (s === schema) return z.compile(eagerReader[name as keyof ContractView<'reader'>] as z.ZodMiniType, opts);
  }
  return undefined;
}

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
  // Two checks of one field that fail with one message (z.url and a regex on a website) are one problem.
  const distinct = new Set(err.issues.map((i) => `${formatPath(i.path, root)}\u0000${i.message}`)).size;
  const extra = distinct > 1 ? ` (and ${distinct - 1} more)` : '';
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
