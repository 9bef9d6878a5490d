/**
 * The HTTP layer: node:http on top of the routing table and the handlers.
 *
 * Per request: layers (outermost first) -> authentication (x-api-key, compared
 * in constant time) -> route lookup (404 / 405 with Allow) -> for body routes:
 * Content-Type check (415), body read with a 1 MB limit (413), JSON parse (400)
 * -> handler -> JSON response. Every error is the contract's ErrorBody.
 *
 * Layers are the extension point for fault injection and rate limiting: a
 * layer gets the raw request/response and a `next()` that runs everything
 * behind it and resolves to the response that is about to be sent (the handler
 * has already run, i.e. the change is committed). A layer can answer instead
 * (e.g. 503 or 429 + Retry-After before processing), delay, alter the
 * response, or take over the socket (drop the connection after committing,
 * stall) and return HANDLED so that nothing more is written.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { errorResponse, HttpError } from './http-types.js';
import type { EmulatorResponse, HandlerContext } from './http-types.js';
import { Router } from './routes.js';
import type { Route } from './routes.js';
import { Reader, Wire } from '../api/contract.js';
import { reshape, type ResponseShape } from './shape.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this many bytes an oversized body is no longer drained: the connection is destroyed. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** Request bodies: UTF-8, strictly (a byte sequence that is not UTF-8 throws). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Returned by a layer that has written the response (or dropped the connection) itself. */
export const HANDLED: unique symbol = Symbol('handled');
export type LayerResult = EmulatorResponse | typeof HANDLED;

export interface LayerContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** Pathname without the query string. */
  path: string;
  /** The matched route, when the path and method match one. */
  route: Route | undefined;
  /**
   * The request body, read from the moment the request arrives (routes that take one): a service that has
   * received a whole request processes it even when the client leaves meanwhile. Read only after --latency,
   * a create whose client timed out or was killed during the wait was dropped, so an `unknown` row was
   * almost never created on the emulator and the do-not-resend path went untested.
   */
  body?: Promise<Awaited<ReturnType<typeof readBody>>> | undefined;
}

export type Layer = (ctx: LayerContext, next: () => Promise<LayerResult>) => Promise<LayerResult>;

export interface ServerOptions {
  context: HandlerContext;
  apiKey: string;
  router?: Router;
  layers?: readonly Layer[];
  log?: ((line: string) => void) | undefined;
}

/** A successful answer in the emulator's response shape (shape.ts): wire by default. */
function shapeAnswer(shape: ResponseShape, route: Route, answer: EmulatorResponse): EmulatorResponse {
  if (shape === 'nulls' || (shape === 'wire' && route.wireNative) || route.response === undefined || answer.status < 200 || answer.status > 299) return answer;
  const schema = shape === 'wire' ? Wire[route.response] : Reader[route.response];
  const body = reshape(schema, answer.body, shape);
  return body === answer.body ? answer : { ...answer, body };
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

export function createEmulatorServer(opts: ServerOptions): Server {
  const router = opts.router ?? new Router();
  const layers = opts.layers ?? [];
  const keyDigest = digest(opts.apiKey);
  const log = opts.log;

  const authorized = (req: IncomingMessage): boolean => {
    const given = req.headers['x-api-key'];
    if (typeof given !== 'string') return false;
    // Equal-length digests: constant time whatever the key lengths.
    return timingSafeEqual(digest(given), keyDigest);
  };

  const core = async (lc: LayerContext, match: ReturnType<Router['match']>, query: URLSearchParams): Promise<LayerResult> => {
    const { req } = lc;
    if (match.kind === 'found' ? match.route.auth !== false : true) {
      if (!authorized(req)) {
        return errorResponse(401, 'unauthorized', 'missing or invalid API key: send it in the x-api-key header');
      }
    }
    if (match.kind === 'not_found') return errorResponse(404, 'not_found', `no such endpoint: ${lc.method} ${lc.path}`);
    if (match.kind === 'method_not_allowed') {
      return errorResponse(405, 'method_not_allowed', `${lc.method} is not allowed on ${lc.path} (allowed: ${match.allow.join(', ')})`, undefined, {
        allow: match.allow.join(', '),
      });
    }
    let body: unknown;
    if (match.route.body) {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        return errorResponse(415, 'unsupported_media_type', `Content-Type must be application/json, got ${type === '' ? 'none' : type}`);
      }
      const read = await (lc.body ?? readBody(req));
      if (read === 'too_large' || read === 'too_large_close') {
        const headers = read === 'too_large_close' ? { connection: 'close' } : undefined;
        return errorResponse(413, 'payload_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`, undefined, headers);
      }
      if (read === 'aborted') return HANDLED;
      // JSON is UTF-8 (RFC 8259), whatever charset the header claims: a body in another encoding (a Latin-1 "Café") was
      // stored with U+FFFD in place of its letters, and a compressed one read as noise. Refused, as a real service would.
      const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
      if (encoding !== '' && encoding !== 'identity') {
        return errorResponse(415, 'unsupported_media_type', `Content-Encoding ${encoding} is not accepted: send the JSON body uncompressed`);
      }
      let text: string;
      try {
        text = UTF8.decode(read);
      } catch {
        return errorResponse(400, 'invalid_json', 'request body is not valid UTF-8 (JSON is UTF-8 whatever charset the Content-Type names)');
      }
      if (text.trim() === '') return errorResponse(400, 'invalid_json', 'request body is empty; expected a JSON object');
      try {
        body = JSON.parse(text);
      } catch (e) {
        return errorResponse(400, 'invalid_json', `request body is not valid JSON: ${(e as Error).message}`);
      }
    }
    try {
      const answer = match.route.handler(opts.context, { method: lc.method, path: lc.path, params: match.params, query, body });
      return shapeAnswer(opts.context.shape, match.route, answer);
    } catch (e) {
      if (e instanceof HttpError) return e.toResponse();
      throw e;
    }
  };

  return createServer((req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let path = '/';
    let query = new URLSearchParams();
    try {
      // The request target is a path: "//host/v1/countries" read through new URL() lost "//host" and was answered as
      // /v1/countries (a path the interface does not define). Parsed against the base as a path, it stays a path.
      const target = req.url ?? '/';
      const url = new URL(target.startsWith('//') ? `/.${target}` : target, 'http://emulator.invalid');
      path = target.startsWith('//') ? target.split('?')[0]! : url.pathname;
      query = url.searchParams;
    } catch {
      path = (req.url ?? '/').split('?')[0] ?? '/';
    }
    if (log) {
      res.once('close', () => {
        const ms = (performance.now() - started).toFixed(1);
        log(`${method} ${path} ${res.writableFinished ? res.statusCode : 'dropped'} ${ms}ms`);
      });
    }
    const match = router.match(method, path);
    const lc: LayerContext = { req, res, method, path, route: match.kind === 'found' ? match.route : undefined };
    if (match.kind === 'found' && match.route.body) lc.body = readBody(req);
    const run = (i: number): Promise<LayerResult> => {
      const layer = layers[i];
      return layer ? layer(lc, () => run(i + 1)) : core(lc, match, query);
    };
    run(0)
      .catch((e: unknown): EmulatorResponse => {
        log?.(`internal error on ${method} ${path}: ${(e as Error)?.stack ?? String(e)}`);
        // A state file that cannot be written (a full disk under --state or the sandbox) is named: the client said
        // "HTTP 500: internal emulator error" for every row, and ENOSPC was never said.
        const code = (e as { code?: unknown; errstr?: unknown } | null)?.code;
        const storage = /disk is full|SQLITE_FULL|readonly database|disk I\/O error/i.test((e as Error)?.message ?? '') || code === 'ENOSPC' || code === 'EROFS';
        return errorResponse(500, 'internal_error', storage ? `internal emulator error: its state file cannot be written (${(e as Error).message})` : 'internal emulator error');
      })
      .then((result) => {
        if (result !== HANDLED) send(req, res, result);
      })
      .catch(() => res.destroy());
  });
}

export function send(req: IncomingMessage, res: ServerResponse, r: EmulatorResponse): void {
  if (res.headersSent || res.destroyed) return;
  // A body nobody read (error before reading, GET with a body): drain it so the connection stays usable.
  if (!req.complete) req.resume();
  const text = r.body === undefined ? '' : JSON.stringify(r.body);
  const headers: Record<string, string | number> = { ...r.headers };
  if (r.body !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = Buffer.byteLength(text);
  }
  res.writeHead(r.status, headers);
  res.end(text);
}

/** Reads the body up to MAX_BODY_BYTES; past that, drains it (so the client gets the 413) and reports too_large. */
function readBody(req: IncomingMessage): Promise<Buffer | 'too_large' | 'too_large_close' | 'aborted'> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_DRAIN_BYTES) {
      // Too big to drain: answer at once and close the connection after the answer.
      resolve('too_large_close');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > MAX_BODY_BYTES;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        return;
      }
      if (tooLarge) return;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too_large' : Buffer.concat(chunks, size)));
    req.on('error', () => resolve('aborted'));
    req.on('close', () => {
      if (!req.complete) resolve('aborted');
    });
  });
}
