/**
 * The request/response model between the HTTP layer (server.ts) and the
 * handlers (handlers.ts). Handlers are plain functions from an
 * EmulatorRequest to an EmulatorResponse (or a thrown HttpError); they never
 * see node:http objects, so they can be called directly and wrapped by layers
 * (fault injection, rate limiting) without knowing about them.
 */
import type { ErrorBody } from '../api/contract.js';
import type { EmulatorScoring } from './scoring.js';
import type { ResponseShape } from './shape.js';
import type { Store } from './store.js';

export type LastPageNextPage = 'null' | 'absent' | 'zero' | 'same' | 'past';

export interface EmulatorRequest {
  method: string;
  /** The decoded path, without the query string. */
  path: string;
  /** Path parameters from the route pattern (":id" -> params.id). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (routes with `body: true`), otherwise undefined. */
  body: unknown;
}

export interface EmulatorResponse {
  status: number;
  /** Serialised as JSON; undefined sends no body. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  store: Store;
  scoring: EmulatorScoring;
  lastPageNextPage: LastPageNextPage;
  /** The form of successful answers (shape.ts): 'wire' unless the emulator was started otherwise. */
  shape: ResponseShape;
}

export type Handler = (ctx: HandlerContext, req: EmulatorRequest) => EmulatorResponse;

/** Thrown by handlers and the HTTP layer; turned into an ErrorBody response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toResponse(): EmulatorResponse {
    return errorResponse(this.status, this.code, this.message, this.field, this.headers);
  }
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  field?: string,
  headers?: Record<string, string>,
): EmulatorResponse {
  const body: ErrorBody = { error: field ? { code, message, field } : { code, message }, message };
  return headers ? { status, body, headers } : { status, body };
}
