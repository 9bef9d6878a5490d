/**
 * The typed client: one method per endpoint of the spec (plus GET /v1/categories),
 * each validating its request with the contract before sending and its response
 * after. Lists come as single pages (list*Page) and as async iterators over every
 * page (list*), built on src/api/paginate.ts.
 */
import { isUsableServiceId } from '../util/ulid.js';
import * as z from 'zod/mini';
import { BadResponseError, BodyTooLargeError, UsageError } from '../errors.js';
import {
  CategoryList,
  CountryList,
  DataEntry,
  DataSourceList,
  EmissionReportList,
  NewsEventList,
  NewsEventQuery,
  PageQuery,
  ScoreCalculationRequest,
  ScoreCalculationResponse,
  ReceivedScoreCalculationResponse,
  ScorecardList,
  ScorecardQuery,
  ScorecardResponse,
  StandardIndustryList,
  StandardIndustryQuery,
  SupplierCreateRequest,
  SupplierCreateResponse,
  SupplierDetailResponse,
  describeZodError,
  isCheckedSupplierBody,
} from './contract.js';
import { answer, HttpTransport, parseBody, type AttemptObserver, type HttpOptions, type Query, type RawResponse } from './http.js';
import { paginate, type PaginateOptions } from './paginate.js';
import type { BufferPool } from '../util/buffer-pool.js';
import type { RetryBudget } from './retry.js';

const SCORE_CALCULATION = '/v1/score-calculation';
/** The largest answer to a create srs reads (see createSupplier). */
export const CREATE_MAX_BODY = 1 << 20;

/**
 * A read of one resource answered about another (its id is not the one asked for): printed as the one asked for, and
 * `supplier get` recorded it in the catalog under its id. A bad response (exit 1). An answer without an id (the
 * document marks no field required) is taken as the one asked for.
 */
function aboutId<T>(item: T, asked: string, path: string): T {
  const got = (item as { id?: unknown } | null | undefined)?.id;
  if (typeof got === 'string' && got.toLowerCase() !== asked.toLowerCase()) {
    throw new BadResponseError({ method: 'GET', path, status: 200, reason: `the answer is about ${JSON.stringify(got.slice(0, 40))}, not ${asked}` });
  }
  return item;
}

/** Validates input with a request schema; a failure is a usage error (exit 2) naming the field. */
export function validateRequest<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new UsageError(`invalid ${what}: ${describeZodError(r.error)}`, { code: 'invalid_input' });
  return r.data;
}

const seg = (id: string, what: string): string => {
  if (typeof id !== 'string' || id.trim() === '') throw new UsageError(`${what} must not be empty`, { code: 'invalid_input' });
  return encodeURIComponent(id);
};

/**
 * GET /v1/categories is not shown by the spec: accept { items, pagination? } or a bare array (taken as its items).
 * The array is wrapped first and one schema checks the result, so an error names the field (a union of the two
 * shapes reported only "Invalid input").
 */
const LenientCategoryList = z.pipe(
  z.transform((body: unknown) => (Array.isArray(body) ? { items: body, pagination: null } : body)),
  CategoryList,
);

export class ApiClient {
  readonly http: HttpTransport;

  constructor(opts: HttpOptions) {
    this.http = new HttpTransport(opts);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  // ------------------------------------------------------------ suppliers

  /** No more retries on this client, and every wait for one ends now (an import stopped by a signal). */
  stopRetries(): void {
    this.http.retry.stop();
  }

  /** `onAttempt` hears of every attempt (the import's adaptive concurrency, src/import/limiter.ts). */
  async createSupplier(body: SupplierCreateRequest, onAttempt?: AttemptObserver, onSend?: () => void) {
    const valid = isCheckedSupplierBody(body) ? body : validateRequest(SupplierCreateRequest, body, 'supplier');
    // One supplier's profile: 1 MiB is far more than one holds, and keeps an import's memory bounded by it times the
    // requests in flight (16 MiB each, 64 in flight: a service padding its answers took an import to 767 MB).
    const res = await this.http.sendChecked({ method: 'POST', path: '/v1/suppliers', body: valid, idempotent: false, onAttempt, onSend, maxBodyBytes: CREATE_MAX_BODY });
    let created: SupplierCreateResponse;
    try {
      created = parseBody('POST', '/v1/suppliers', res, SupplierCreateResponse);
    } catch (e) {
      // A yes (2xx) whose answer is not a creation response (a field missing) leaves the outcome unknown, but an id in
      // it is the best lead there is: the service has no lookup by name or customer id, and the id was lost (review).
      const id = answeredId(res.text);
      if (e instanceof BadResponseError && id !== undefined) {
        throw new BadResponseError({ method: 'POST', path: '/v1/suppliers', status: res.status, reason: `${e.reason}; the answer names the id ${JSON.stringify(id)}: the supplier was probably created (srs supplier get ${id})`, ...(e.detail !== undefined ? { detail: e.detail } : {}) });
      }
      throw e;
    }
    // A yes without a usable id ("", "../x") cannot be recorded or looked up: the supplier may exist, so the outcome
    // is unknown (BadResponseError on a 2xx), never "created" with an id srs's own catalog then took for an unknown
    // attempt. Any other text is taken: ids are opaque strings, and the interface's own example is not a ULID.
    if (!isUsableServiceId(created.id)) {
      throw new BadResponseError({ method: 'POST', path: '/v1/suppliers', status: 201, reason: `the new supplier's id ${JSON.stringify(created.id.slice(0, 40))} is not an id srs can use (empty, blank, a path or control characters)` });
    }
    // A yes about another supplier (its customerSupplierId not the one sent, beyond the case and blanks a service may
    // normalise: V-1001 for v-1001): which row, if any, it stands for is not known. Counted created, the row was
    // recorded under a supplier that is not its own.
    const sentId = valid.customerSupplierId;
    // Folded as a service may fold them: case in full (ß is SS), and composed accents.
    const fold = (s: string) => s.trim().normalize('NFKC').toUpperCase().toLowerCase();
    const same = (a: string, b: string) => fold(a) === fold(b);
    // The same spelling (nearly every answer) needs no folding: this runs for every row of an import.
    if (typeof sentId === 'string' && sentId !== '' && typeof created.customerSupplierId === 'string' && created.customerSupplierId !== sentId && !same(created.customerSupplierId, sentId)) {
      throw new BadResponseError({
        method: 'POST',
        path: '/v1/suppliers',
        status: 201,
        reason: `the answer is about supplier ${created.id} with customerSupplierId ${JSON.stringify(created.customerSupplierId.slice(0, 80))}, not the ${JSON.stringify(sentId.slice(0, 80))} sent, so what this create made is not known (srs supplier get ${created.id} shows which one it is)`,
      });
    }
    return created;
  }

  /** `budget`: a retry budget of its own (lookups made beside other work must not spend that work's retries). */
  async getSupplier(id: string, budget?: RetryBudget) {
    const path = `/v1/suppliers/${seg(id, 'supplier id')}`;
    const r = await this.http.json({ method: 'GET', path, budget }, SupplierDetailResponse);
    return aboutId(r.item, id, path);
  }

  async listEmissionReports(supplierId: string) {
    const r = await this.http.json({ method: 'GET', path: `/v1/suppliers/${seg(supplierId, 'supplier id')}/emission-reports` }, EmissionReportList);
    return r.items;
  }

  listNewsEventsPage(supplierId: string, q: NewsEventQuery = {}) {
    const query = validateRequest(NewsEventQuery, q, 'query');
    return this.http.json({ method: 'GET', path: `/v1/suppliers/${seg(supplierId, 'supplier id')}/news-events`, query: query as Query }, NewsEventList);
  }

  listNewsEvents(supplierId: string, q: Omit<NewsEventQuery, 'page' | 'perPage'> = {}, opts?: PaginateOptions) {
    return paginate((page, perPage) => this.listNewsEventsPage(supplierId, { ...q, page, perPage }), { label: `GET /v1/suppliers/${supplierId}/news-events`, ...opts });
  }

  // ------------------------------------------------------------ scorecards

  listScorecardsPage(q: ScorecardQuery = {}) {
    const query = validateRequest(ScorecardQuery, q, 'query');
    return this.http.json({ method: 'GET', path: '/v1/scorecards', query: query as Query }, ScorecardList);
  }

  listScorecards(q: Omit<ScorecardQuery, 'page' | 'perPage'> = {}, opts?: PaginateOptions) {
    return paginate((page, perPage) => this.listScorecardsPage({ ...q, page, perPage }), { label: 'GET /v1/scorecards', ...opts });
  }

  async getScorecard(id: string) {
    const path = `/v1/scorecards/${seg(id, 'scorecard id')}`;
    const r = await this.http.json({ method: 'GET', path }, ScorecardResponse);
    return aboutId(r.item, id, path);
  }

  // ------------------------------------------------------------ scores

  async calculateScores(body: ScoreCalculationRequest): Promise<ScoreCalculationResponse> {
    return this.parseScoreCalculation(await this.calculateScoresRaw(body));
  }

  /**
   * calculateScores, with the body left unparsed (checked for status and
   * content type only): `score calc -o json|ndjson` passes its bytes through,
   * or parses it with parseScoreCalculation.
   */
  async calculateScoresRaw(body: ScoreCalculationRequest, bodyBuffers?: BufferPool): Promise<RawResponse> {
    const valid = validateRequest(ScoreCalculationRequest, body, 'score calculation request');
    try {
      return await this.http.sendChecked({ method: 'POST', path: SCORE_CALCULATION, body: valid, idempotent: true, bodyBuffers });
    } catch (e) {
      // The results of 100 suppliers with many data entries each can pass the 16 MiB srs reads (the document allows
      // them): asked again in halves, down to one supplier, and the halves' items joined in one answer.
      if (!(e instanceof BodyTooLargeError) || valid.supplierIds.length < 2) throw e;
      const mid = Math.ceil(valid.supplierIds.length / 2);
      const halves = await Promise.all([valid.supplierIds.slice(0, mid), valid.supplierIds.slice(mid)].map((supplierIds) => this.calculateScoresRaw({ ...valid, supplierIds })));
      return joinedItems(halves);
    }
  }

  /** Parses and validates a body from calculateScoresRaw. */
  parseScoreCalculation(res: RawResponse): ScoreCalculationResponse {
    return parseBody('POST', SCORE_CALCULATION, res, ScoreCalculationResponse);
  }

  /** Parses and validates a body from calculateScoresRaw, leaving each result as received (nothing completed: -o json). */
  parseScoreCalculationReceived(res: RawResponse): ReceivedScoreCalculationResponse {
    return parseBody('POST', SCORE_CALCULATION, res, ReceivedScoreCalculationResponse);
  }

  // ------------------------------------------------------------ data entries

  async getDataEntry(id: string) {
    const path = `/v1/data-entries/${seg(id, 'data entry id')}`;
    return aboutId(await this.http.json({ method: 'GET', path }, DataEntry), id, path);
  }

  // ------------------------------------------------------------ reference data

  listDataSourcesPage(q: PageQuery = {}) {
    const query = validateRequest(PageQuery, q, 'query');
    return this.http.json({ method: 'GET', path: '/v1/data-sources', query: query as Query }, DataSourceList);
  }

  listDataSources(opts?: PaginateOptions) {
    return paginate((page, perPage) => this.listDataSourcesPage({ page, perPage }), { label: 'GET /v1/data-sources', ...opts });
  }

  listCountriesPage(q: PageQuery = {}) {
    const query = validateRequest(PageQuery, q, 'query');
    return this.http.json({ method: 'GET', path: '/v1/countries', query: query as Query }, CountryList);
  }

  listCountries(opts?: PaginateOptions) {
    return paginate((page, perPage) => this.listCountriesPage({ page, perPage }), { label: 'GET /v1/countries', ...opts });
  }

  listStandardIndustriesPage(q: StandardIndustryQuery = {}) {
    const query = validateRequest(StandardIndustryQuery, q, 'query');
    return this.http.json({ method: 'GET', path: '/v1/standard-industries', query: query as Query }, StandardIndustryList);
  }

  listStandardIndustries(q: Omit<StandardIndustryQuery, 'page' | 'perPage'> = {}, opts?: PaginateOptions) {
    return paginate((page, perPage) => this.listStandardIndustriesPage({ ...q, page, perPage }), { label: 'GET /v1/standard-industries', ...opts });
  }

  listCategoriesPage(q: PageQuery = {}) {
    const query = validateRequest(PageQuery, q, 'query');
    return this.http.json({ method: 'GET', path: '/v1/categories', query: query as Query }, LenientCategoryList);
  }

  listCategories(opts?: PaginateOptions) {
    return paginate((page, perPage) => this.listCategoriesPage({ page, perPage }), { label: 'GET /v1/categories', ...opts });
  }
}

/** The id a creation answer names, when it is one srs can use (the answer being otherwise unreadable). */
function answeredId(text: string): string | undefined {
  try {
    const v: unknown = JSON.parse(text);
    const id = v !== null && typeof v === 'object' ? (v as { id?: unknown }).id : undefined;
    return typeof id === 'string' && isUsableServiceId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Two answers' items in one answer (the first's status and headers). An answer that is not an object with an items
 * array is returned as it is, for the parser to name what is wrong with it.
 */
function joinedItems(parts: RawResponse[]): RawResponse {
  const items: unknown[] = [];
  for (const part of parts) {
    let v: unknown;
    try {
      v = JSON.parse(part.text);
    } catch {
      return part;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return part;
    const list = (v as { items?: unknown }).items;
    if (list === undefined || list === null) continue; // no items (the reader's rule)
    if (!Array.isArray(list)) return part;
    for (const it of list) items.push(it);
  }
  return answer(parts[0]!.status, parts[0]!.headers, Buffer.from(JSON.stringify({ items })));
}
