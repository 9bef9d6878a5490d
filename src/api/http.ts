/**
 * The transport: one keep-alive undici Agent per client, JSON in and out,
 * the x-api-key header, a body-size cap, typed errors, and a debug trace that
 * never shows the key. Knows nothing about endpoints or terminals.
 */
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
// The Agent and the error classes only: see ./undici-parts.d.ts.
import Agent from 'undici/lib/dispatcher/agent.js';
import { RequestAbortedError } from 'undici/lib/core/errors.js';
import type * as z from 'zod/mini';
import { ApiError, AuthError, BadResponseError, BodyTooLargeError, NetworkError, REJECTED_KEY_ADVICE, UsageError } from '../errors.js';
import { describeZodError, hot } from './contract.js';
import { parseRetryAfter, RetryPolicy, type Decision, type RetryBudget, type RetryOptions } from './retry.js';
import type { BufferPool } from '../util/buffer-pool.js';
import { makeRedactor } from '../util/redact.js';
import { showBaseUrl } from '../util/base-url.js';

/**
 * Monotonic milliseconds. Not performance.now(): the global `performance` loads
 * node:perf_hooks on first use, 2.5% of the samples of a `srs supplier get`.
 */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * undici parses HTTP/1 with llhttp compiled to WebAssembly. V8 runs it from its baseline
 * compiler and, once it is hot, recompiles it with its optimizing compiler on a background
 * thread: 50-60 ms of CPU for llhttp's one large parsing function, and a process cannot exit
 * before that compile is done. For a short command it is all cost: a three-page
 * `srs ref countries` waited 45-70 ms at exit for it, and a 10,000-id score calc spent 70 ms
 * more CPU (on two cores, CPU the service then lacks) for no gain in time. A bulk import,
 * which parses tens of thousands of responses, gains from it (6-8% faster over 20,000 rows).
 * The flags are process-wide and must be set before llhttp is compiled (the first request):
 * the first transport created decides, from HttpOptions.optimizeParser. V8 fixes a module's
 * tiering when it compiles it, so the flags go back to their defaults at the first response.
 * Left changed, they would also change V8's flag hash for every module loaded later, whose
 * cached compiled code would then be rejected whenever the user alternates between commands
 * that load that module before and after their first request (cli-table3 in a networked and
 * an offline table, measured).
 */
let parserTieringDecided = false;
let parserFlagsSet = false;
function decideParserTiering(optimize: boolean): void {
  if (parserTieringDecided) return;
  parserTieringDecided = true;
  if (optimize) return;
  setFlagsFromString('--no-wasm-dynamic-tiering');
  setFlagsFromString('--no-wasm-tier-up');
  parserFlagsSet = true;
}
/** Back to V8's defaults once llhttp is compiled (see above). */
function restoreParserFlags(): void {
  if (!parserFlagsSet) return;
  parserFlagsSet = false;
  setFlagsFromString('--wasm-dynamic-tiering');
  setFlagsFromString('--wasm-tier-up');
}

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  /**
   * Timeout in ms. Bounds each attempt as a whole (from sending the request to the
   * last byte of the body), and each phase inside it (connect, response headers,
   * idle time between body chunks). Default 30 s.
   */
  timeoutMs?: number;
  /** Max simultaneous connections to the service. Default 16. */
  connections?: number;
  /** Largest response body accepted, in bytes. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Allow sending the key over plain http to a non-loopback host. */
  insecureHttp?: boolean;
  userAgent?: string;
  /** Debug trace sink (stderr under --debug). Lines never contain the key. */
  trace?: (line: string) => void;
  /** Retry settings; one policy (and one retry budget) per client. */
  retry?: RetryOptions;
  /** Told before each retry (for a spinner): what failed and which attempt comes next. Text is one line, without the key. */
  onRetry?: (note: string) => void;
  /** Told once, just before the first request leaves (a warning about where the key goes: said only if it goes). */
  beforeFirstRequest?: () => void;
  /**
   * Let V8 optimize undici's HTTP parser once it is hot: for long runs such as a bulk
   * import. Off by default, since for short commands it costs more than it saves (see
   * decideParserTiering). Process-wide: the first transport created decides.
   */
  optimizeParser?: boolean;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface SendArgs {
  method: 'GET' | 'POST';
  path: string;
  query?: Query | undefined;
  body?: unknown;
  /** Safe to repeat (GET, and POST /v1/score-calculation). Default: true for GET. */
  idempotent?: boolean;
  /**
   * Gather a body of known length (content-length) into a buffer from this
   * pool; the caller gives RawResponse.body back to it when done with it.
   */
  bodyBuffers?: BufferPool | undefined;
  /** Told of every attempt, retries included (the import's adaptive concurrency). */
  onAttempt?: AttemptObserver | undefined;
  /** Largest body accepted for this request's answer, when smaller than the client's (a create's answer is one supplier). */
  maxBodyBytes?: number | undefined;
  /** Told just before each attempt leaves (with onAttempt: whether one is in flight, for `supplier create` stopped by a signal). */
  onSend?: (() => void) | undefined;
  /** The retry budget this request draws on, instead of the client's (requests that must not starve the others). */
  budget?: RetryBudget | undefined;
}

/**
 * What one attempt says about the service's load: ok (any answer but a
 * throttle), throttled (429 or 503), timeout, or error (another network failure).
 */
export type AttemptKind = 'ok' | 'throttled' | 'timeout' | 'error';
export type AttemptObserver = (latencyMs: number, kind: AttemptKind) => void;

/**
 * Whether an attempt of one request not safe to repeat is in flight, for a command stopped by a signal
 * (`supplier create`, `srs api POST`): pass onSend and onAttempt with the request. A signal while an attempt is
 * in flight leaves the outcome unknown; one before the first attempt, or while waiting to send again after
 * answers that refused the request (429, 503) or connections that failed, is "not done".
 */
export class AttemptWatch {
  inFlight = false;
  sent = 0;
  /** The last attempt's kind, once one has been answered or failed. */
  lastKind: AttemptKind | undefined;
  readonly onSend = (): void => {
    this.inFlight = true;
    this.sent++;
  };
  readonly onAttempt: AttemptObserver = (_ms, kind) => {
    this.inFlight = false;
    this.lastKind = kind;
  };
  /** When a signal came while no attempt was in flight, in words; `effect` completes "none ...": "created it". */
  notInFlightWhen(effect: string): string {
    return this.sent === 0 ? 'before the request was sent' : `while waiting to send the request again (every attempt so far was answered 429 or 503, or could not connect: none ${effect})`;
  }
}

export interface RawResponse {
  status: number;
  /** After retries: "3 attempts over 1.2 s; see --retries" (for the error line when the last answer is an error). */
  attempts?: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes. */
  body: Buffer;
  /** The body decoded as UTF-8 (decoded on first use). */
  readonly text: string;
}

export function answer(status: number, headers: RawResponse['headers'], body: Buffer): RawResponse {
  let text: string | undefined;
  return {
    status,
    headers,
    body,
    get text() {
      return (text ??= body.toString('utf8'));
    },
  };
}

const EMPTY = Buffer.alloc(0);

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1)$/i;

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** Validates a base URL and the plain-http rule; throws UsageError. */
export function checkBaseUrl(baseUrl: string, insecureHttp = false): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`base URL "${showBaseUrl(baseUrl)}" is not a URL (expected for example https://api.example.com)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`base URL "${showBaseUrl(baseUrl)}" must start with https:// or http://`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecureHttp) {
    throw new UsageError(
      `refusing to send the API key over plain http to ${url.host}; use https, or pass --insecure-http if you really mean it`,
    );
  }
  // srs sends scheme, host and path only: a query or fragment was stored, shown and silently never sent (and the
  // login prompt echoed it, an ?api_key=... with it). Not repeated here: it may hold a secret.
  if (url.search || url.hash) {
    throw new UsageError(`base URL ${url.origin}${url.pathname.replace(/\/+$/, '')} holds a ${url.search ? 'query string' : 'fragment'} (${url.search ? '?' : '#'}...), which srs never sends: give scheme, host and path only`);
  }
  return url;
}

/** Whether the API key goes over plain http to a host that is not this machine (allowed only with --insecure-http). */
export function exposesKey(url: URL): boolean {
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}

export class HttpTransport {
  /** scheme://host[:port] of the base URL. */
  readonly #origin: string;
  /** The base URL's path without a trailing slash ("" for most services). */
  readonly #basePath: string;
  readonly #agent: Agent;
  readonly #maxBody: number;
  readonly #timeoutMs: number;
  readonly #onRetry: ((note: string) => void) | undefined;
  readonly #trace: ((line: string) => void) | undefined;
  readonly retry: RetryPolicy;
  /** Request headers as undici's flat [name, value, ...] list, built once. */
  readonly #headers: string[];
  readonly #jsonHeaders: string[];
  #beforeFirstRequest: (() => void) | undefined;

  constructor(opts: HttpOptions) {
    const base = checkBaseUrl(opts.baseUrl, opts.insecureHttp);
    this.#beforeFirstRequest = opts.beforeFirstRequest;
    decideParserTiering(opts.optimizeParser ?? false);
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    const t = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#agent = new Agent({
      keepAliveTimeout: 10_000,
      connections: opts.connections ?? 16,
      connect: { timeout: t },
      headersTimeout: t,
      bodyTimeout: t,
    });
    this.#maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.#timeoutMs = t;
    this.#onRetry = opts.onRetry;
    this.#trace = opts.trace;
    this.retry = new RetryPolicy(opts.retry);
    this.#headers = ['accept', 'application/json', 'x-api-key', opts.apiKey, 'user-agent', opts.userAgent ?? 'srs-cli'];
    sentKeys.add(opts.apiKey);
    this.#jsonHeaders = [...this.#headers, 'content-type', 'application/json'];
  }

  /** The request path (base path + endpoint + query), built without a URL object per request. */
  #pathWithQuery(path: string, query?: Query): string {
    let p = this.#basePath + path;
    if (query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
      const qs = q.toString();
      if (qs) p += '?' + qs;
    }
    return p;
  }

  /**
   * One request, one answer. Throws NetworkError when no answer came. Errors
   * name the endpoint (args.path), not the base URL's own path, like parseResponse.
   * Uses undici's dispatch() with a handler that gathers the body directly:
   * no stream object per response, which matters at thousands of requests a
   * second (supplier import).
   */
  send(args: SendArgs): Promise<RawResponse> {
    const path = this.#pathWithQuery(args.path, args.query);
    const started = monotonicMs();
    const body = args.body !== undefined ? JSON.stringify(args.body) : undefined;
    const headers = body !== undefined ? this.#jsonHeaders : this.#headers;
    const display = `${args.method} ${path}`;
    const trace = this.#trace;
    trace?.(`-> ${display}`);
    const max = args.maxBodyBytes ?? this.#maxBody;
    const deadlineMs = this.#timeoutMs;
    return new Promise<RawResponse>((resolve, reject) => {
      // The attempt's deadline: undici's own timeouts bound each phase (a body that
      // trickles one byte a second never trips its idle timeout); this bounds the whole.
      let controller: Dispatcher.DispatchController | undefined;
      let expired = false;
      // undici calls onRequestStart on a connected socket, just before it writes the request (client-h1.js
      // writeH1): until then nothing has left, whatever fails (a TLS handshake, an unreachable host, a connect
      // that never completes). Such a failure is "not sent" (a create is failed and may be retried), never unknown.
      let requestStarted = false;
      const deadline = setTimeout(() => {
        expired = true;
        if (controller) {
          controller.abort(new Error(`no complete answer within ${duration(deadlineMs)}`));
          return;
        }
        // Still connecting: the attempt ends now (it used to wait for undici's connect timeout, 10 s), and
        // onRequestStart aborts the request if the connection comes after all.
        trace?.(`<- ${display} no connection within ${duration(deadlineMs)} (${ms(started)})`);
        reject(new NetworkError({ method: args.method, path: args.path, reason: `no connection within ${duration(deadlineMs)}`, notSent: true, timeout: true }));
      }, deadlineMs);
      let status = 0;
      let resHeaders: RawResponse['headers'] = {};
      let answered = false;
      let tooLarge = false;
      let chunks: Buffer[] = [];
      let size = 0;
      // With args.bodyBuffers and a content-length: the body goes straight into a pooled buffer.
      let into: Buffer | undefined;
      let expected = 0;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          if (expired) c.abort(new Error(`no complete answer within ${duration(deadlineMs)}`));
          else requestStarted = true;
        },
        onResponseStart(_c, statusCode, h) {
          restoreParserFlags();
          status = statusCode;
          resHeaders = h;
          answered = true;
          const length = args.bodyBuffers && typeof h['content-length'] === 'string' ? Number(h['content-length']) : NaN;
          if (length > 0 && length <= max && Number.isInteger(length)) {
            into = args.bodyBuffers!.take(length);
            expected = length;
          }
        },
        onResponseData(c, chunk) {
          if (into && size + chunk.length <= expected) {
            into.set(chunk, size);
            size += chunk.length;
            return;
          }
          if (into) {
            // More than the content-length said (undici normally refuses it first): gather as usual.
            chunks.push(into.subarray(0, size));
            into = undefined;
          }
          size += chunk.length;
          if (size > max) {
            tooLarge = true;
            chunks = [];
            c.abort(new Error(`response body over ${max} bytes`));
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          clearTimeout(deadline);
          const bytes = size === 0 ? EMPTY : into ? into.subarray(0, size) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
          trace?.(`<- ${display} ${status} ${size}B (${ms(started)})`);
          resolve(answer(status, resHeaders, bytes));
        },
        onResponseError(_c, e) {
          clearTimeout(deadline);
          if (tooLarge) {
            trace?.(`<- ${display} ${status} body over ${max} bytes (${ms(started)})`);
            reject(new BodyTooLargeError({ method: args.method, path: args.path, status, reason: `body larger than ${max >= 1048576 ? `${Math.round(max / 1048576)} MiB` : `${Math.round(max / 1024)} KiB`}` }));
            return;
          }
          const info = expired ? { reason: `no complete answer within ${duration(deadlineMs)}`, notSent: false, timeout: true } : classifyNetworkError(e);
          if (!requestStarted) info.notSent = true;
          if (expired) {
            trace?.(`<- ${display} ${answered ? `${status} body ` : ''}no complete answer within ${duration(deadlineMs)} (${ms(started)})`);
            reject(new NetworkError({ method: args.method, path: args.path, reason: info.reason, notSent: info.notSent, timeout: true, cause: e }));
          } else if (answered) {
            trace?.(`<- ${display} ${status} body failed: ${info.reason} (${ms(started)})`);
            reject(new NetworkError({ method: args.method, path: args.path, reason: `response body: ${info.reason}`, notSent: false, timeout: info.timeout, cause: e }));
          } else {
            trace?.(`<- ${display} ${info.reason} (${ms(started)})`);
            reject(new NetworkError({ method: args.method, path: args.path, reason: info.reason, notSent: info.notSent, timeout: info.timeout, permanent: info.permanent === true, cause: e }));
          }
        },
      };
      try {
        this.#agent.dispatch({ origin: this.#origin, path, method: args.method, headers, body: body ?? null }, handler);
      } catch (e) {
        // undici refused the request before sending it (an invalid header value, a closed agent).
        handler.onResponseError!(undefined as unknown as Dispatcher.DispatchController, e as Error);
      }
    });
  }

  /**
   * Sends with retries (per src/api/retry.ts), checks the status, parses JSON and
   * validates it with a contract schema.
   */
  async json<S extends z.ZodMiniType>(args: SendArgs, schema: S): Promise<z.infer<S>> {
    const res = await this.sendWithRetry(args);
    return parseResponse(args.method, args.path, res, schema);
  }

  /**
   * Sends with retries and checks the status and the content type, leaving the
   * body to the caller (parseBody, or a pass-through of its bytes).
   */
  async sendChecked(args: SendArgs): Promise<RawResponse> {
    const res = await this.sendWithRetry(args);
    checkResponse(args.method, args.path, res);
    return res;
  }

  /**
   * Sends, retrying per the policy. When it gives up, the error (or the error
   * response's `attempts`) says how many attempts over how long, and which option
   * to change: `GET /v1/countries: no complete answer within 5 s (4 attempts over
   * 11 s; see --timeout, --retries)`.
   */
  async sendWithRetry(args: SendArgs): Promise<RawResponse> {
    const idempotent = args.idempotent ?? args.method === 'GET';
    const policy = this.retry;
    const startedAt = policy.now();
    const total = policy.retries + 1;
    // The last failure, which stands when policy.stop() ends the waiting (an import stopped by a signal).
    let last: { res: RawResponse } | { err: NetworkError } | undefined;
    // Failures that count toward --retries, and those exempt from it (RetryPolicy.exempt: come back later).
    let counted = 0;
    let exemptSoFar = 0;
    for (let attempt = 0; ; attempt++) {
      const paused = policy.gate.wait();
      if (paused) await paused;
      // Stopped while waiting (a backoff, another request's 429 pause): nothing more is sent, not even a first try
      // that the pause held. A first try that did not wait is the run's last turn, in flight as the signal came.
      if (policy.stopped && (attempt > 0 || paused)) {
        if (last === undefined) throw new NetworkError({ method: args.method, path: args.path, reason: 'not sent: stopped by a signal', notSent: true });
        if ('err' in last) throw last.err.withNote(attemptsNote(attempt, policy.now() - startedAt, STOPPED, last.err.code === 'timeout'));
        last.res.attempts = attemptsNote(attempt, policy.now() - startedAt, STOPPED, false);
        return last.res;
      }
      let res: RawResponse;
      const sentAt = args.onAttempt ? monotonicMs() : 0;
      if (this.#beforeFirstRequest) {
        const first = this.#beforeFirstRequest;
        this.#beforeFirstRequest = undefined;
        first();
      }
      args.onSend?.();
      try {
        res = await this.send(args);
      } catch (e) {
        if (!(e instanceof NetworkError)) throw e;
        args.onAttempt?.(monotonicMs() - sentAt, e.code === 'timeout' ? 'timeout' : 'error');
        if (e.permanent) throw e; // the same on every attempt: said at once
        const d = policy.decide({ kind: 'network', error: e }, counted++, idempotent, startedAt, args.budget);
        this.#trace?.(`   ${args.method} ${args.path}: ${d.reason}`);
        if (!d.retry) {
          const timedOut = e.code === 'timeout';
          // A timeout always says what to change; another failure only once it was retried.
          if (!timedOut && attempt === 0) throw e;
          throw e.withNote(attemptsNote(attempt + 1, policy.now() - startedAt, d, timedOut));
        }
        this.#onRetry?.(`${e.reason}: retrying (attempt ${attempt + 2} of ${total})`);
        last = { err: e };
        await policy.sleep(d.delayMs);
        continue;
      }
      args.onAttempt?.(monotonicMs() - sentAt, res.status === 429 || res.status === 503 ? 'throttled' : 'ok');
      if (res.status < 400) {
        (args.budget ?? policy.budget).refund();
        return res;
      }
      const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers['retry-after'], Date.now()) : undefined;
      const failure = { kind: 'status', status: res.status, retryAfterMs } as const;
      const askedBack = policy.exempt(failure, exemptSoFar);
      if (askedBack) exemptSoFar++;
      const d = policy.decide(failure, askedBack ? counted : counted++, idempotent, startedAt, args.budget, askedBack);
      if (res.status === 429) {
        // Everybody waits, not just this request.
        policy.gate.pauseFor(policy.pauseAfter429(d, retryAfterMs));
      }
      this.#trace?.(`   ${args.method} ${args.path}: ${d.reason}`);
      if (!d.retry) {
        if (attempt > 0) res.attempts = attemptsNote(attempt + 1, policy.now() - startedAt, d, false);
        // Not retried because the service asked for a longer wait than srs takes: said (it read "HTTP 429: slow down").
        else if (d.limit === 'wait') res.attempts = waitReason(d);
        return res;
      }
      this.#onRetry?.(askedBack ? `HTTP ${res.status}: retrying after its Retry-After (attempt ${attempt + 2})` : `HTTP ${res.status}: retrying (attempt ${attempt + 2} of ${total})`);
      last = { res };
      if (res.status !== 429) await policy.sleep(d.delayMs);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

type ResponseText = Pick<RawResponse, 'status' | 'headers' | 'text'> & { attempts?: string | undefined };

export function parseResponse<S extends z.ZodMiniType>(method: string, path: string, res: ResponseText, schema: S): z.infer<S> {
  checkResponse(method, path, res);
  return parseBody(method, path, res, schema);
}

/** Throws the error a non-2xx status or a non-JSON content type means. */
export function checkResponse(method: string, path: string, res: ResponseText): void {
  if (res.status < 200 || res.status >= 300) throw errorFromResponse(method, path, res);
  const ctype = String(res.headers['content-type'] ?? '');
  if (ctype && !/\bjson\b/i.test(ctype)) {
    const looksHtml = /^\s*</.test(res.text);
    throw new BadResponseError({ method, path, status: res.status, reason: looksHtml ? `HTML instead of JSON (content-type ${ctype})` : `content-type ${ctype} instead of application/json`, detail: res.text.slice(0, 500) });
  }
}

/** Parses a checked response's JSON and validates it with a contract schema. */
export function parseBody<S extends z.ZodMiniType>(method: string, path: string, res: ResponseText, schema: S): z.infer<S> {
  let data: unknown;
  try {
    data = JSON.parse(res.text);
  } catch {
    const ctype = String(res.headers['content-type'] ?? '');
    const encoding = String(res.headers['content-encoding'] ?? '').trim();
    const looksHtml = /^\s*</.test(res.text);
    // srs asks for no compression: a body encoded anyway (gzip) is named, not called "not valid JSON".
    const reason = encoding && encoding.toLowerCase() !== 'identity'
      ? `body sent with Content-Encoding ${encoding}, which srs did not ask for (the service or a proxy compressed it)`
      : looksHtml
      ? `HTML instead of JSON (content-type ${ctype || 'none'})`
      : res.text.trim() === ''
        ? 'empty body'
        : `body is not valid JSON (content-type ${ctype || 'none'})`;
    throw new BadResponseError({ method, path, status: res.status, reason, detail: res.text.slice(0, 500) });
  }
  const parsed = hot(schema).safeParse(data);
  if (!parsed.success) {
    throw new BadResponseError({
      method,
      path,
      status: res.status,
      reason: describeZodError(parsed.error, 'body'),
      detail: JSON.stringify(parsed.error.issues.slice(0, 5)),
    });
  }
  return parsed.data;
}

/**
 * The keys this process sends: a service's message is masked before it is cut to length (cut first, a key
 * quoted near the end came out as "sk-TESTKEYab", which no later redaction matches).
 */
const sentKeys = makeRedactor();

/** The spec does not show the error body: accept message, error, errors[] or plain text. */
export function extractServiceMessage(text: string): string | undefined {
  const trimmed = sentKeys.redact(text).trim();
  if (!trimmed) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch {
    if (/^</.test(trimmed)) {
      const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
      return title ? `HTML page: ${oneLine(title)}` : 'HTML page instead of JSON';
    }
    return oneLine(trimmed).slice(0, 200);
  }
  const pick = (v: unknown): string | undefined => {
    if (typeof v === 'string' && v.trim()) return v;
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of ['message', 'detail', 'title', 'error_description']) {
        if (typeof o[k] === 'string' && (o[k] as string).trim()) return o[k] as string;
      }
    }
    return undefined;
  };
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const o = data as Record<string, unknown>;
    // A list of messages (NestJS's validation errors: {"message": ["perPage must not be greater than 100"], "error":
    // "Bad Request"}) says more than the status name beside it.
    const listed = Array.isArray(o.message) ? o.message.map(pick).filter((m): m is string => !!m) : [];
    if (listed.length) return oneLine(listed.join('; ')).slice(0, 300);
    const direct = pick(o.message) ?? pick(o.error);
    if (direct) return oneLine(direct).slice(0, 300);
    if (Array.isArray(o.errors)) {
      const msgs = o.errors.map(pick).filter((m): m is string => !!m);
      if (msgs.length) return oneLine(msgs.join('; ')).slice(0, 300);
    }
    const other = pick(o.detail) ?? pick(o.title);
    if (other) return oneLine(other).slice(0, 300);
  }
  if (typeof data === 'string') return oneLine(data).slice(0, 300);
  return undefined;
}

export function errorFromResponse(method: string, path: string, res: ResponseText): ApiError | AuthError {
  let serviceMessage = extractServiceMessage(res.text);
  const location = res.headers.location;
  if (res.status >= 300 && res.status < 400 && typeof location === 'string' && location) {
    // srs follows no redirect (the key would go with it): where it points is what the user needs to know.
    serviceMessage = `redirected to ${oneLine(location).slice(0, 200)}; srs does not follow redirects (the API key would go with them): if that is the service, use it as the base URL`;
  }
  if (res.status === 401 || res.status === 403) {
    const why = res.status === 401 ? 'the service rejected the API key (HTTP 401)' : 'the API key is not allowed to do this (HTTP 403)';
    return new AuthError(`${method} ${path}: ${why}${serviceMessage ? `: ${serviceMessage}` : ''}${REJECTED_KEY_ADVICE}`, { status: res.status, ...(serviceMessage ? { serviceMessage } : {}) });
  }
  const retryAfter = parseRetryAfter(res.headers['retry-after'], Date.now()) !== undefined;
  return new ApiError({ status: res.status, method, path, retryAfter, ...(serviceMessage !== undefined ? { serviceMessage } : {}), ...(res.attempts !== undefined ? { note: res.attempts } : {}) });
}

interface NetInfo {
  reason: string;
  /** The request provably never reached the service. */
  notSent: boolean;
  timeout: boolean;
  /** Another attempt cannot mend it (see NetworkError.permanent). */
  permanent?: boolean;
}

function classifyNetworkError(e: unknown): NetInfo {
  const err = e as { code?: string; message?: string; cause?: { code?: string } } | undefined;
  const code = err?.code ?? err?.cause?.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return { reason: 'connection refused (is the service running and the base URL right?)', notSent: true, timeout: false };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { reason: 'host not found (check the base URL)', notSent: true, timeout: false };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { reason: 'timed out connecting', notSent: true, timeout: true };
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { reason: 'timed out waiting for the response', notSent: false, timeout: true };
    case 'UND_ERR_BODY_TIMEOUT':
      return { reason: 'timed out reading the response', notSent: false, timeout: true };
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return { reason: 'connection dropped before an answer came', notSent: false, timeout: false };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return { reason: `host unreachable (${code}; check the base URL and the network)`, notSent: true, timeout: false };
    case 'EPROTO':
      return { reason: 'TLS failure (EPROTO): is the base URL\'s scheme right? (https for a TLS service, http for a plain one)', notSent: true, timeout: false, permanent: true };
    // Certificates: the same answer on every attempt (it retried 4 times), and the reason says what to do.
    case 'CERT_HAS_EXPIRED':
      return { reason: `TLS failure (${code}): the service's certificate has expired; tell its operator`, notSent: true, timeout: false, permanent: true };
    case 'CERT_NOT_YET_VALID':
    case 'CERT_REVOKED':
    case 'CERT_REJECTED':
    case 'CERT_UNTRUSTED':
    case 'CERT_SIGNATURE_FAILURE':
    case 'INVALID_CA':
    case 'INVALID_PURPOSE':
      return { reason: `TLS failure (${code}): the service's certificate is not acceptable; check the base URL, or tell its operator`, notSent: true, timeout: false, permanent: true };
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return { reason: `TLS failure (${code}): the certificate is not for this host name; check the base URL`, notSent: true, timeout: false, permanent: true };
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT':
      return {
        reason: `TLS failure (${code}): the service's certificate is not signed by an authority Node trusts; behind a company proxy or with a private CA, set NODE_EXTRA_CA_CERTS to its certificate file (PEM)`,
        notSent: true,
        timeout: false,
        permanent: true,
      };
    default:
      if (e instanceof RequestAbortedError) return { reason: 'request aborted', notSent: false, timeout: false };
      // OpenSSL's own text ("...:error:0A00010B:SSL routines:...wrong version number") says little to a user.
      if (code.startsWith('ERR_SSL_')) return { reason: `TLS failure (${code}): is the base URL's scheme right? (https for a TLS service, http for a plain one)`, notSent: true, timeout: false, permanent: true };
      // An internal check of the HTTP client that the answer broke (an unrequested "101 Switching Protocols" gave
      // "The expression evaluated to a falsy value: assert(upgrade)"): said as what it is, an answer srs cannot read.
      if (code === 'ERR_ASSERTION') return { reason: 'an HTTP answer srs cannot read (not a plain HTTP/1.1 response: an unrequested protocol switch, HTTP 101?)', notSent: false, timeout: false };
      return { reason: oneLine(err?.message ?? String(e)) || 'network error', notSent: false, timeout: false };
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** "5 s", "1.5 s", "500 ms". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? Math.round(s * 10) / 10 : Math.round(s)} s`;
}

const STOPPED: Decision = { retry: false, delayMs: 0, reason: 'stopped by a signal', limit: 'stopped' };

/** "4 attempts over 11 s; see --timeout, --retries", plus why retrying stopped early. */
/** "the service asks to wait 999999 s, longer than srs waits (30 s)": the decision's reason without its status. */
const waitReason = (d: Decision): string => d.reason.replace(/^HTTP \d+: /, '');

function attemptsNote(attempts: number, elapsedMs: number, d: Decision, timedOut: boolean): string {
  const early = d.limit === 'time' ? ', retry time limit reached' : d.limit === 'budget' ? ', retry budget exhausted' : d.limit === 'stopped' ? ', not retried: stopped by a signal' : d.limit === 'wait' ? `, then ${waitReason(d)}` : '';
  // --retries is worth naming only when it was a retry limit that stopped (a create that timed out is never resent).
  const see = [timedOut ? '--timeout' : '', d.limit !== undefined && d.limit !== 'stopped' && d.limit !== 'wait' ? '--retries' : ''].filter(Boolean).join(', ');
  return `${attempts} attempt${attempts === 1 ? '' : 's'} over ${duration(elapsedMs)}${early}${see ? `; see ${see}` : ''}`;
}

function ms(started: number): string {
  return `${Math.round(monotonicMs() - started)}ms`;
}
