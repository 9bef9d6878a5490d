/**
 * Request handlers: plain functions (context, request) -> {status, body}.
 * Validation uses the contract's zod schemas; response bodies are typed with
 * the contract's types so that the compiler checks their shape, and the
 * integration tests parse every answer with the matching schema.
 *
 * List ordering: see store.ts (by id; countries by iso3Code; industries by code).
 */
import type * as z from 'zod/mini';
import { describeZodError, formatPath, Wire } from '../api/contract.js';
import type {
  Article,
  Category,
  Country,
  DataEntry,
  DataSource,
  EmissionReport,
  NewsEvent,
  Pagination,
  Scorecard,
  StandardIndustry,
  SupplierCreateResponse,
  SupplierDetail,
} from '../api/contract.js';
import { openApiDocument } from '../api/openapi.js';
import { COUNTRIES, COUNTRY_CODES, INDUSTRIES, SUB_INDUSTRIES, SUB_INDUSTRY_BY_CODE } from './reference.js';
import type { ArticleRec, ScorecardRec, SupplierRec } from './records.js';
import { HttpError } from './http-types.js';
import type { EmulatorRequest, EmulatorResponse, HandlerContext, LastPageNextPage } from './http-types.js';

export const DEFAULT_PAGE = 1;
export const DEFAULT_PER_PAGE = 100;

// ---------------------------------------------------------------- validation helpers

/** The first failing field of a zod error, as a path string ("contacts[0].email"). */
function zodField(err: z.core.$ZodError): string | undefined {
  const issue = err.issues[0];
  if (!issue) return undefined;
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) return formatPath([...issue.path, issue.keys[0]!]);
  const path = formatPath(issue.path);
  return path === '' ? undefined : path;
}

function invalid(err: z.core.$ZodError, where: string): HttpError {
  return new HttpError(400, 'invalid_request', `invalid ${where}: ${describeZodError(err)}`, zodField(err));
}

/**
 * A number written as JSON writes one (a sign allowed, leading zeros tolerated):
 * "2", "2.0", "2e0". The document types page and perPage "number"; the wire
 * contract then wants a whole number in bounds, so "2.0" is page 2 and "2.5"
 * a 400 naming the field (docs/emulator.md).
 */
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Query string -> object for a zod schema: page and perPage become numbers (non-numeric text becomes NaN, a 400). */
function queryObject(query: URLSearchParams, numeric: readonly string[] = ['page', 'perPage']): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of query) {
    if (out.has(key)) continue; // the first occurrence wins
    out.set(key, numeric.includes(key) ? (NUMERIC.test(value.trim()) ? Number(value) : Number.NaN) : value);
  }
  return Object.fromEntries(out);
}

function parseQuery<S extends z.ZodMiniType>(schema: S, req: EmulatorRequest): z.infer<S> {
  const result = schema.safeParse(queryObject(req.query));
  if (!result.success) throw invalid(result.error, 'query parameter');
  return result.data;
}

function parseBody<S extends z.ZodMiniType>(schema: S, req: EmulatorRequest): z.infer<S> {
  const result = schema.safeParse(req.body);
  if (!result.success) throw invalid(result.error, 'request body');
  return result.data;
}

/**
 * Top-level keys of a request body that the document does not define. The
 * document does not forbid them, so they are not an error: they are ignored
 * (never stored), and the answer names them in the header IGNORED_KEYS_HEADER
 * so that a client (or a test) can see what had no effect.
 */
export const IGNORED_KEYS_HEADER = 'x-emulator-ignored-keys';

/** At most this many bytes of key names in IGNORED_KEYS_HEADER: then ", ... (N more)" (a header value is ASCII). */
const IGNORED_KEYS_MAX_BYTES = 1024;

/**
 * The header naming the ignored keys. Total and bounded, and built before anything is stored: a key holding a lone
 * surrogate ("\ud800") made encodeURIComponent throw after the supplier was stored (a 500 for a create that
 * happened, so a retry made a duplicate), and 500 long keys made a header undici refuses to read (the 201 of a
 * stored supplier lost as UND_ERR_HEADERS_OVERFLOW).
 */
function ignoredKeys(body: unknown, known: readonly string[]): Record<string, string> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const extra = Object.keys(body).filter((k) => !known.includes(k));
  if (!extra.length) return undefined;
  const named: string[] = [];
  let bytes = 0;
  for (const k of extra) {
    const name = encodeURIComponent(k.replace(/[\ud800-\udfff]/gu, '\ufffd')); // a lone surrogate as U+FFFD
    if (bytes + name.length > IGNORED_KEYS_MAX_BYTES) break;
    named.push(name);
    bytes += name.length + 2;
  }
  const more = extra.length - named.length;
  return { [IGNORED_KEYS_HEADER]: [...named, ...(more ? [`... (${more} more)`] : [])].join(', ') };
}

const SUPPLIER_KEYS = ['name', 'countryIso3Code', 'website', 'industryCodes', 'categoryIds', 'contacts', 'customerSupplierId'] as const;
const SCORE_CALCULATION_KEYS = ['supplierIds', 'policyParameterIds', 'dataSourceIds', 'includeZeroValues'] as const;

function notFound(resource: string, id: string): HttpError {
  return new HttpError(404, 'not_found', `${resource} ${id} not found`, 'id');
}

// ---------------------------------------------------------------- pagination

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/**
 * One page of an ordered list. nextPage is page+1 while more items exist; on
 * the last page (and past it) it follows `mode`: null, absent, 0, the same page,
 * or page+1 (pointing past the end, where an empty page follows).
 */
export function paginate<T, U = T>(
  all: readonly T[],
  q: { page?: number | undefined; perPage?: number | undefined },
  mode: LastPageNextPage,
  map?: (item: T) => U,
): Page<U> {
  const page = q.page ?? DEFAULT_PAGE;
  const perPage = q.perPage ?? DEFAULT_PER_PAGE;
  const start = (page - 1) * perPage;
  const slice = start < all.length ? all.slice(start, start + perPage) : [];
  const items = (map ? slice.map(map) : slice) as U[];
  const more = start + perPage < all.length;
  const pagination: Pagination = { pageSize: perPage };
  if (more) pagination.nextPage = page + 1;
  else if (mode === 'null') pagination.nextPage = null;
  else if (mode === 'zero') pagination.nextPage = 0;
  else if (mode === 'same') pagination.nextPage = page;
  else if (mode === 'past') pagination.nextPage = page + 1;
  // 'absent': no nextPage key at all
  return { items, pagination };
}

// ---------------------------------------------------------------- shapers

function supplierDetail(ctx: HandlerContext, s: SupplierRec): SupplierDetail {
  return {
    id: s.id,
    name: s.name,
    countryIso3Code: s.countryIso3Code,
    categories: s.categoryIds.flatMap((id) => {
      const c = ctx.store.getCategory(id);
      return c ? [c.name] : [];
    }),
    customFields: s.customFields.map((f) => ({ fieldLabel: f.fieldLabel, fieldValue: f.fieldValue })),
    averageScore: ctx.scoring.averageScore(s.id),
    publicSupplierProfileUrl: s.publicSupplierProfileUrl,
  };
}

function scorecardBody(sc: ScorecardRec, score: number | null): Scorecard {
  return {
    id: sc.id,
    name: sc.name,
    groupName: sc.groupName,
    organizationId: sc.organizationId,
    createdAt: sc.createdAt,
    createdBy: sc.createdBy,
    score,
    weight: sc.weight,
    items: sc.items.map((it) => ({
      type: it.type,
      policyParameter: { id: it.policyParameter.id, name: it.policyParameter.name, policyCategoryName: it.policyParameter.policyCategoryName },
      weight: it.weight,
    })),
  };
}

// ---------------------------------------------------------------- suppliers

export function createSupplier(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const body = parseBody(Wire.SupplierCreateRequest, req);
  if (body.countryIso3Code !== undefined && !COUNTRY_CODES.has(body.countryIso3Code)) {
    throw new HttpError(
      400,
      'invalid_request',
      `invalid request body: countryIso3Code: unknown country code "${body.countryIso3Code}" (expected an upper-case ISO 3166-1 alpha-3 code such as USA)`,
      'countryIso3Code',
    );
  }
  body.industryCodes?.forEach((code, i) => {
    if (!SUB_INDUSTRY_BY_CODE.has(code)) {
      throw new HttpError(
        400,
        'invalid_request',
        `invalid request body: industryCodes[${i}]: unknown industry code "${code}" (expected an 8-digit sub-industry code, see GET /v1/standard-industries)`,
        `industryCodes[${i}]`,
      );
    }
  });
  body.categoryIds?.forEach((id, i) => {
    if (!ctx.store.getCategory(id)) {
      throw new HttpError(
        400,
        'invalid_request',
        `invalid request body: categoryIds[${i}]: unknown category id "${id}" (see GET /v1/categories)`,
        `categoryIds[${i}]`,
      );
    }
  });
  // Before the supplier is stored: nothing may fail after it is (see ignoredKeys).
  const headers = ignoredKeys(req.body, SUPPLIER_KEYS);
  // Only what the document defines is stored (unknown keys, also in contacts, are ignored).
  const rec = ctx.store.createSupplier({
    name: body.name,
    countryIso3Code: body.countryIso3Code,
    website: body.website,
    industryCodes: body.industryCodes,
    categoryIds: body.categoryIds,
    contacts: body.contacts?.map((c) => ({ email: c.email, firstName: c.firstName, lastName: c.lastName })),
    customerSupplierId: body.customerSupplierId,
  });
  const out: SupplierCreateResponse = {
    id: rec.id,
    name: rec.name,
    countryIso3Code: rec.countryIso3Code,
    website: rec.website,
    status: rec.status,
    customerSupplierId: rec.customerSupplierId,
  };
  return headers ? { status: 201, body: out, headers } : { status: 201, body: out };
}

/**
 * Admin route GET /_emulator/suppliers: every stored supplier (seeded, then
 * created, by this emulator or, with a state file, by any process sharing it),
 * in store order, as a plain JSON array of {id, name, customerSupplierId}
 * (null when none), so tests can audit what was stored.
 */
export function adminListSuppliers(ctx: HandlerContext): EmulatorResponse {
  return {
    status: 200,
    body: ctx.store.storedSuppliers().map((s) => ({ id: s.id, name: s.name, customerSupplierId: s.customerSupplierId })),
  };
}

function requireSupplier(ctx: HandlerContext, req: EmulatorRequest): SupplierRec {
  const id = req.params.id ?? '';
  const s = ctx.store.getSupplier(id);
  if (!s) throw notFound('supplier', id);
  return s;
}

export function getSupplier(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const s = requireSupplier(ctx, req);
  return { status: 200, body: { item: supplierDetail(ctx, s) } };
}

export function listEmissionReports(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const s = requireSupplier(ctx, req);
  const items: EmissionReport[] = ctx.store.emissionReportsOf(s.id).map((r) => ({
    id: r.id,
    scope: r.scope,
    fromDate: r.fromDate,
    toDate: r.toDate,
    reportedOn: r.reportedOn,
    verifier: r.verifier,
    dataType: r.dataType,
    value: r.value,
    unit: r.unit,
  }));
  return { status: 200, body: { items } };
}

/** dataEntryId narrows the list to the news event of that data entry (empty when it is not one of this supplier's). */
export function listNewsEvents(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const s = requireSupplier(ctx, req);
  const q = parseQuery(Wire.NewsEventQuery, req);
  let events = ctx.store.newsEventsOf(s.id);
  if (q.dataEntryId !== undefined) events = events.filter((e) => e.dataEntryId === q.dataEntryId);
  const page = paginate(events, q, ctx.lastPageNextPage, (e): NewsEvent => ({
    id: e.id,
    name: e.name,
    summary: e.summary,
    articles: e.articles.map(articleBody),
  }));
  return { status: 200, body: page };
}

/** An article as the contract shows it (news events list and data entry alike). */
function articleBody(a: ArticleRec): Article {
  return { id: a.id, url: a.url, title: a.title, summary: a.summary, publishedAt: a.publishedAt };
}

// ---------------------------------------------------------------- scorecards

/**
 * supplierId narrows the list to the scorecards that apply to that supplier
 * (an unknown id gives an empty list), and each score is then that supplier's
 * score for the scorecard. Without it, a scorecard's score is the mean over the
 * suppliers it applies to (see scoring.ts).
 */
export function listScorecards(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const q = parseQuery(Wire.ScorecardQuery, req);
  const supplierId = q.supplierId;
  if (supplierId !== undefined) {
    const cards = ctx.store.getSupplier(supplierId) ? ctx.store.scorecardsOf(supplierId) : [];
    const scores = ctx.scoring.scorecardScoresFor(supplierId);
    return {
      status: 200,
      body: paginate(cards, q, ctx.lastPageNextPage, (sc) => scorecardBody(sc, scores.get(sc.id) ?? null)),
    };
  }
  return {
    status: 200,
    body: paginate(ctx.store.scorecards, q, ctx.lastPageNextPage, (sc) => scorecardBody(sc, ctx.scoring.scorecardMean(sc))),
  };
}

export function getScorecard(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const id = req.params.id ?? '';
  const sc = ctx.store.getScorecard(id);
  if (!sc) throw notFound('scorecard', id);
  return { status: 200, body: { item: scorecardBody(sc, ctx.scoring.scorecardMean(sc)) } };
}

// ---------------------------------------------------------------- scores and data entries

export function calculateScores(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const body = parseBody(Wire.ScoreCalculationRequest, req);
  const headers = ignoredKeys(req.body, SCORE_CALCULATION_KEYS);
  const answer = ctx.scoring.calculate({
    supplierIds: body.supplierIds,
    ...(body.policyParameterIds ? { policyParameterIds: body.policyParameterIds } : {}),
    ...(body.dataSourceIds ? { dataSourceIds: body.dataSourceIds } : {}),
    ...(body.includeZeroValues !== undefined ? { includeZeroValues: body.includeZeroValues } : {}),
  }, ctx.shape === 'nulls');
  return headers ? { status: 200, body: answer, headers } : { status: 200, body: answer };
}

export function getDataEntry(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const id = req.params.id ?? '';
  const e = ctx.store.getDataEntry(id);
  if (!e) throw notFound('data entry', id);
  const news = ctx.store.newsEventOf(e);
  if (!news) throw new Error(`data entry ${id} has no news event`);
  const out: DataEntry = {
    type: 'news_event',
    id: e.id,
    supplier: { id: e.supplierId },
    score: e.score,
    policyParameterScores: e.parameterScores.map((p) => ({ policyParameter: { id: p.policyParameterId }, score: p.score })),
    newsEvent: {
      name: news.name,
      summary: news.summary,
      articles: news.articles.map(articleBody),
    },
  };
  return { status: 200, body: out };
}

// ---------------------------------------------------------------- reference data

export function listDataSources(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const q = parseQuery(Wire.PageQuery, req);
  return {
    status: 200,
    body: paginate(ctx.store.dataSources, q, ctx.lastPageNextPage, (d): DataSource => ({
      id: d.id,
      name: d.name,
      vendorName: d.vendorName,
      dataSourceType: d.dataSourceType,
      logoUrl: d.logoUrl,
      website: d.website,
    })),
  };
}

export function listCountries(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const q = parseQuery(Wire.PageQuery, req);
  return { status: 200, body: paginate(COUNTRIES, q, ctx.lastPageNextPage, (c): Country => ({ ...c })) };
}

export function listStandardIndustries(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const q = parseQuery(Wire.StandardIndustryQuery, req);
  const rows = q.subIndustriesOnly === 'false' ? INDUSTRIES : SUB_INDUSTRIES;
  return { status: 200, body: paginate(rows, q, ctx.lastPageNextPage, (r): StandardIndustry => ({ ...r })) };
}

export function listCategories(ctx: HandlerContext, req: EmulatorRequest): EmulatorResponse {
  const q = parseQuery(Wire.PageQuery, req);
  return { status: 200, body: paginate(ctx.store.categories, q, ctx.lastPageNextPage, (c): Category => ({ id: c.id, name: c.name })) };
}

// ---------------------------------------------------------------- OpenAPI

let openApiBody: unknown;

/** GET /openapi.json: the OpenAPI 3.1 document generated from the contract (built once, on first request). */
export function openApi(): EmulatorResponse {
  openApiBody ??= openApiDocument();
  return { status: 200, body: openApiBody };
}
