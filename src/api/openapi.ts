/**
 * The service's interface as an OpenAPI 3.1 document, generated from the WIRE
 * view of the zod contract (src/api/contract.ts: what the interface document
 * promises, not what the client tolerates) through the named schemas of
 * src/schema/registry.ts: every endpoint of shared/spec/service-interface.md
 * plus GET /v1/categories. The emulator serves it at GET /openapi.json (no key
 * needed), and its answers validate against it (test/integration/openapi.test.ts).
 * Pure: builds the same document on every call.
 */
import * as z from 'zod/mini';
import { Wire } from './contract.js';
import { RESOURCES, tidy, toJsonSchema } from '../schema/registry.js';

const OPENAPI_VERSION = '3.1.0';
export const OPENAPI_PATH = '/openapi.json';

type Json = Record<string, unknown>;

/** Response envelopes of the endpoints, as components beside the resources they wrap. */
const ENVELOPES: ReadonlyArray<[string, z.ZodMiniType, string]> = [
  ['SupplierDetailResponse', Wire.SupplierDetailResponse, 'GET /v1/suppliers/{id}: the supplier wrapped in item.'],
  ['ScorecardList', Wire.ScorecardList, 'A page of scorecards.'],
  ['ScorecardResponse', Wire.ScorecardResponse, 'GET /v1/scorecards/{id}: the scorecard wrapped in item.'],
  ['EmissionReportList', Wire.EmissionReportList, 'A supplier\'s emission reports (no pagination object).'],
  ['NewsEventList', Wire.NewsEventList, 'A page of a supplier\'s news events.'],
  ['ScoreCalculationResponse', Wire.ScoreCalculationResponse, 'One score result per requested supplier.'],
  ['DataSourceList', Wire.DataSourceList, 'A page of data sources.'],
  ['CountryList', Wire.CountryList, 'A page of countries.'],
  ['StandardIndustryList', Wire.StandardIndustryList, 'A page of industry classification entries.'],
  ['CategoryList', Wire.CategoryList, 'A page of categories (the spec shows no shape: pagination may be absent).'],
];

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * components.schemas: every resource of the registry and every envelope, each
 * a JSON Schema (2020-12, the OpenAPI 3.1 dialect); a schema that contains
 * another named one refers to it with $ref. Requests are converted as input,
 * responses as output.
 */
function componentSchemas(): Record<string, Json> {
  const out: Record<string, Json> = {};
  const descriptions = new Map<string, string>();
  for (const io of ['input', 'output'] as const) {
    const registry = z.registry<{ id: string }>();
    const add = (id: string, schema: z.ZodMiniType, description: string) => {
      registry.add(schema, { id });
      descriptions.set(id, description);
    };
    for (const e of RESOURCES) if (e.io === io && e.component) add(e.component, e.wire ?? e.schema, e.description);
    if (io === 'output') for (const [id, schema, description] of ENVELOPES) add(id, schema, description);
    const converted = z.toJSONSchema(registry, { io, target: 'draft-2020-12', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
    for (const [id, schema] of Object.entries(converted.schemas)) {
      // $schema and $id are the document's business, not each component's.
      const { $schema: _s, $id: _i, ...rest } = tidy(schema) as Json;
      out[id] = { description: descriptions.get(id), ...rest };
    }
  }
  return out;
}

/** Defaults and descriptions the contract does not carry (it only bounds the values). */
const PARAM_DOCS: Record<string, { description: string; default?: unknown }> = {
  page: { description: 'Page number.', default: 1 },
  perPage: { description: 'Page size.', default: 100 },
  supplierId: { description: 'Only the scorecards that apply to this supplier (the name the service uses is not shown by the spec).' },
  dataEntryId: { description: 'Only the news event of this data entry.' },
  subIndustriesOnly: { description: 'true: only the most granular level (sub-industries).', default: 'true' },
};

/** Query parameters from a contract query schema: one optional parameter per property, schema bounds included. */
function queryParameters(schema: z.ZodMiniType): Json[] {
  const js = toJsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => {
    const docs = PARAM_DOCS[name];
    return {
      name,
      in: 'query',
      required: js.required?.includes(name) ?? false,
      ...(docs ? { description: docs.description } : {}),
      schema: docs?.default !== undefined ? { ...s, default: docs.default } : s,
    };
  });
}

const idParam = (what: string): Json => ({ name: 'id', in: 'path', required: true, description: `The ${what} id.`, schema: { type: 'string', minLength: 1 } });

const errorResponse = (description: string): Json => ({ description, content: { 'application/json': { schema: ref('ErrorBody') } } });

const ERROR_RESPONSES: Record<string, Json> = {
  BadRequest: errorResponse('Invalid query parameters or body; error.field names the first failing field.'),
  Unauthorized: errorResponse('The x-api-key header is missing or the key is not valid.'),
  NotFound: errorResponse('No such resource (or no such endpoint).'),
  UnsupportedMediaType: errorResponse('The body is not Content-Type application/json.'),
  PayloadTooLarge: errorResponse('The body exceeds the size limit.'),
};
const errRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

interface Op {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  params?: Json[];
  body?: string;
  status: '200' | '201';
  response: string;
  responseDescription: string;
  notFound?: boolean;
  /** Endpoints with no query parameters and no body cannot answer 400. */
  badRequest?: boolean;
  /** Safe to retry: marked with x-idempotent for client generators. */
  idempotent?: boolean;
}

function operation(o: Op): Json {
  const responses: Json = {
    [o.status]: {
      description: o.responseDescription,
      // Request bodies may carry keys the specification does not define: the srs emulator ignores them and names them here.
      ...(o.body ? { headers: { 'x-emulator-ignored-keys': { description: 'srs emulator only: the top-level body keys it ignored (not defined by the specification), percent-encoded, comma-separated.', schema: { type: 'string' } } } } : {}),
      content: { 'application/json': { schema: ref(o.response) } },
    },
  };
  if (o.badRequest !== false) responses['400'] = errRef('BadRequest');
  responses['401'] = errRef('Unauthorized');
  if (o.notFound) responses['404'] = errRef('NotFound');
  if (o.body) {
    responses['413'] = errRef('PayloadTooLarge');
    responses['415'] = errRef('UnsupportedMediaType');
  }
  return {
    operationId: o.operationId,
    summary: o.summary,
    tags: [o.tag],
    ...(o.params?.length ? { parameters: o.params } : {}),
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(o.body) } } } } : {}),
    responses,
    ...(o.idempotent !== undefined ? { 'x-idempotent': o.idempotent } : {}),
  };
}

function operations(): Op[] {
  const page = () => queryParameters(Wire.PageQuery);
  return [
    { method: 'post', path: '/v1/suppliers', operationId: 'createSupplier', summary: 'Create a supplier', tag: 'suppliers', body: 'SupplierCreateRequest', status: '201', response: 'SupplierCreateResponse', responseDescription: 'The created supplier (not wrapped in item).', idempotent: false },
    { method: 'get', path: '/v1/suppliers/{id}', operationId: 'getSupplier', summary: 'Read one supplier', tag: 'suppliers', params: [idParam('supplier')], status: '200', response: 'SupplierDetailResponse', responseDescription: 'The supplier.', notFound: true, badRequest: false },
    { method: 'get', path: '/v1/suppliers/{id}/emission-reports', operationId: 'listEmissionReports', summary: 'List emission reports of a supplier', tag: 'emissions', params: [idParam('supplier')], status: '200', response: 'EmissionReportList', responseDescription: 'Every emission report of the supplier.', notFound: true, badRequest: false },
    { method: 'get', path: '/v1/suppliers/{id}/news-events', operationId: 'listNewsEvents', summary: 'List news events of a supplier', tag: 'news', params: [idParam('supplier'), ...queryParameters(Wire.NewsEventQuery)], status: '200', response: 'NewsEventList', responseDescription: 'A page of news events.', notFound: true },
    { method: 'get', path: '/v1/scorecards', operationId: 'listScorecards', summary: 'List scorecards', tag: 'scorecards', params: queryParameters(Wire.ScorecardQuery), status: '200', response: 'ScorecardList', responseDescription: 'A page of scorecards.' },
    { method: 'get', path: '/v1/scorecards/{id}', operationId: 'getScorecard', summary: 'Read one scorecard', tag: 'scorecards', params: [idParam('scorecard')], status: '200', response: 'ScorecardResponse', responseDescription: 'The scorecard.', notFound: true, badRequest: false },
    { method: 'post', path: '/v1/score-calculation', operationId: 'calculateScores', summary: 'Calculate scores for suppliers', tag: 'scores', body: 'ScoreCalculationRequest', status: '200', response: 'ScoreCalculationResponse', responseDescription: 'One score result per supplier.', idempotent: true },
    { method: 'get', path: '/v1/data-entries/{id}', operationId: 'getDataEntry', summary: 'Read one data entry', tag: 'news', params: [idParam('data entry')], status: '200', response: 'DataEntry', responseDescription: 'The data entry (sent directly).', notFound: true, badRequest: false },
    { method: 'get', path: '/v1/data-sources', operationId: 'listDataSources', summary: 'List data sources', tag: 'reference', params: page(), status: '200', response: 'DataSourceList', responseDescription: 'A page of data sources.' },
    { method: 'get', path: '/v1/countries', operationId: 'listCountries', summary: 'List countries', tag: 'reference', params: page(), status: '200', response: 'CountryList', responseDescription: 'A page of countries.' },
    { method: 'get', path: '/v1/standard-industries', operationId: 'listStandardIndustries', summary: 'List industry classification entries', tag: 'reference', params: queryParameters(Wire.StandardIndustryQuery), status: '200', response: 'StandardIndustryList', responseDescription: 'A page of industry classification entries.' },
    { method: 'get', path: '/v1/categories', operationId: 'listCategories', summary: 'List supplier categories (request and response not shown by the spec)', tag: 'reference', params: page(), status: '200', response: 'CategoryList', responseDescription: 'A page of categories.' },
  ];
}

/** The OpenAPI 3.1 document of the service (and of the emulator, which also serves this document at /openapi.json). */
export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const o of operations()) {
    const item = (paths[o.path] ??= {});
    item[o.method] = operation(o);
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document (served by the srs emulator; no API key needed)',
      tags: ['meta'],
      security: [],
      responses: { '200': { description: 'The OpenAPI document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Supplier Responsibility Assessment Service',
      version: 'v1',
      description:
        'The wire view of the srs contract (src/api/contract.ts): what the service interface specification promises. ' +
        'A field the specification marks required is required; every other field may be absent but is never null, except where the specification says "or null". ' +
        'Objects may carry fields not listed here; request bodies may too (the srs emulator ignores them). ' +
        'Every /v1 endpoint needs the x-api-key header; GET /openapi.json (served by the srs emulator) needs none.',
    },
    tags: [
      { name: 'suppliers' },
      { name: 'scorecards' },
      { name: 'scores' },
      { name: 'emissions' },
      { name: 'news' },
      { name: 'reference' },
      { name: 'meta' },
    ],
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas: componentSchemas(),
      responses: ERROR_RESPONSES,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The client\'s API key.' },
      },
    },
  };
}
