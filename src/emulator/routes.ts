/**
 * The routing table. To add a route (for example an admin route
 * GET /_emulator/suppliers), append an entry: pattern segments starting with
 * ":" capture a path parameter. `body: true` makes the HTTP layer require
 * Content-Type application/json, read at most the body limit and parse it.
 */
import type { Wire } from '../api/contract.js';
import { OPENAPI_PATH } from '../api/openapi.js';
import * as h from './handlers.js';
import type { Handler } from './http-types.js';

export interface Route {
  method: string;
  pattern: string;
  handler: Handler;
  body?: boolean;
  /** false: no x-api-key check (default true). */
  auth?: boolean;
  /**
   * The contract schema of a successful answer (the same name in the wire and
   * the reader view of src/api/contract.ts): the server reshapes answers along
   * it (shape.ts), and the tests validate them against /openapi.json.
   */
  response?: ResponseSchema;
  /** The handler already answers in wire form (and with nulls under --nulls): no reshaping for 'wire'. */
  wireNative?: boolean;
}

export type ResponseSchema = keyof typeof Wire &
  (
    | 'SupplierCreateResponse'
    | 'SupplierDetailResponse'
    | 'EmissionReportList'
    | 'NewsEventList'
    | 'ScorecardList'
    | 'ScorecardResponse'
    | 'ScoreCalculationResponse'
    | 'DataEntry'
    | 'DataSourceList'
    | 'CountryList'
    | 'StandardIndustryList'
    | 'CategoryList'
  );

export const ROUTES: readonly Route[] = [
  { method: 'POST', pattern: '/v1/suppliers', handler: h.createSupplier, body: true, response: 'SupplierCreateResponse' },
  { method: 'GET', pattern: '/v1/suppliers/:id', handler: h.getSupplier, response: 'SupplierDetailResponse' },
  { method: 'GET', pattern: '/v1/suppliers/:id/emission-reports', handler: h.listEmissionReports, response: 'EmissionReportList' },
  { method: 'GET', pattern: '/v1/suppliers/:id/news-events', handler: h.listNewsEvents, response: 'NewsEventList' },
  { method: 'GET', pattern: '/v1/scorecards', handler: h.listScorecards, response: 'ScorecardList' },
  { method: 'GET', pattern: '/v1/scorecards/:id', handler: h.getScorecard, response: 'ScorecardResponse' },
  { method: 'POST', pattern: '/v1/score-calculation', handler: h.calculateScores, body: true, response: 'ScoreCalculationResponse', wireNative: true },
  { method: 'GET', pattern: '/v1/data-entries/:id', handler: h.getDataEntry, response: 'DataEntry' },
  { method: 'GET', pattern: '/v1/data-sources', handler: h.listDataSources, response: 'DataSourceList' },
  { method: 'GET', pattern: '/v1/countries', handler: h.listCountries, response: 'CountryList' },
  { method: 'GET', pattern: '/v1/standard-industries', handler: h.listStandardIndustries, response: 'StandardIndustryList' },
  { method: 'GET', pattern: '/v1/categories', handler: h.listCategories, response: 'CategoryList' },
  // The OpenAPI document of the above (src/api/openapi.ts): no key needed, outside /v1 so faults never touch it.
  { method: 'GET', pattern: OPENAPI_PATH, handler: h.openApi, auth: false },
];

/**
 * Served only with the emulator's `admin` option (`srs emulator start --admin`),
 * outside /v1 (so faults never touch them), with the same x-api-key check.
 */
export const ADMIN_ROUTES: readonly Route[] = [{ method: 'GET', pattern: '/_emulator/suppliers', handler: h.adminListSuppliers }];

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

interface Compiled {
  route: Route;
  segments: string[];
}

export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[] = ROUTES) {
    this.compiled = routes.map((route) => ({ route, segments: route.pattern.split('/').slice(1) }));
  }

  /** `path` is the raw (still percent-encoded) pathname; parameters are decoded. */
  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').slice(1);
    const allow: string[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      if (!allow.includes(c.route.method)) allow.push(c.route.method);
    }
    return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const part = parts[i]!;
    if (p.startsWith(':')) {
      if (part === '') return undefined;
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== part) {
      return undefined;
    }
  }
  return params;
}
