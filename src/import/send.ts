/**
 * Bounded-concurrency sending over the client's shared keep-alive pool.
 * The import loop awaits capacity() before it reads the next row, so the
 * parser never runs further ahead than its small record queue, and at most
 * the limit in force (fixed, or adaptive: src/import/limiter.ts) are in flight. Each row is sent once: the client
 * retries what is provably safe by itself; the import never resends a row.
 * A failure is classified by classifyCreateFailure (src/api/outcome.ts), the
 * single rule for what a failed create means.
 */
import type { SupplierCreateRequest } from '../api/contract.js';
import { classifyCreateFailure, type CreateOutcome } from '../api/outcome.js';
import { ConcurrencyLimiter, type AttemptSample } from './limiter.js';

/** Hears of every HTTP attempt of a create, retries included. */
export type AttemptObserver = (latencyMs: number, kind: AttemptSample['kind']) => void;

/** What the import needs from the API client. */
export interface SupplierCreator {
  createSupplier(body: SupplierCreateRequest, onAttempt?: AttemptObserver): Promise<{ id: string }>;
  /** No more retries, and every wait for one ends now (the import was stopped by a signal). */
  stopRetries?(): void;
}

/** Created, or what classifyCreateFailure makes of the failure. */
export type SendOutcome = { state: 'created'; id: string } | CreateOutcome;

/** Sends one row and classifies the answer. Never throws. */
export async function sendOne(client: SupplierCreator, request: SupplierCreateRequest, onAttempt?: AttemptObserver): Promise<SendOutcome> {
  try {
    const res = await client.createSupplier(request, onAttempt);
    return { state: 'created', id: res.id };
  } catch (e) {
    return classifyCreateFailure(e);
  }
}

/** A request waiting for the end of the turn. */
interface Queued {
  request: SupplierCreateRequest;
  done: (o: SendOutcome) => void;
}

/**
 * Requests started in one turn of the event loop leave together at its end,
 * after `beforeDispatch` (the journal's flush: one write for the whole batch,
 * holding every "sent" line before any of these requests is on the wire).
 * If `beforeDispatch` throws, the batch is not sent: each of its rows ends
 * failed ("not sent"), and the error is kept in `error`.
 */
export class Sender {
  readonly #client: SupplierCreator;
  readonly limiter: ConcurrencyLimiter;
  readonly #observe: AttemptObserver;
  readonly #beforeDispatch: (() => void) | undefined;
  readonly #afterDispatch: (() => void) | undefined;
  #sent = 0;
  #waiters: Array<() => void> = [];

  /** A stop asked for (a signal): rows waiting to retry a create end with their last failure; none is sent again. */
  stopRetries(): void {
    this.#client.stopRetries?.();
  }
  /** Requests taken this turn; they leave together at its end. */
  #queue: Queued[] = [];
  #error: unknown;

  /** `concurrency`: a fixed limit, or an adaptive limiter (src/import/limiter.ts). */
  /**
   * `afterDispatch` runs once a batch's requests are written, so that work done there overlaps
   * with the service answering them. undici writes a request on a busy or new connection within
   * dispatch(), but one on an idle keep-alive socket (the usual case in an import) only in a
   * setImmediate queued by dispatch() (its idle-socket validation, GHSA-35p6-xmwp-9g52): hence
   * a setImmediate queued after the batch's dispatches, which runs after those.
   * test/integration/import-after-send.test.ts checks that the writes came first.
   */
  constructor(client: SupplierCreator, concurrency: number | ConcurrencyLimiter, beforeDispatch?: () => void, afterDispatch?: () => void) {
    this.#client = client;
    this.limiter = typeof concurrency === 'number' ? new ConcurrencyLimiter({ max: concurrency, fixed: concurrency }) : concurrency;
    const limiter = this.limiter;
    this.#observe = (latencyMs, kind) => limiter.observe({ latencyMs, kind });
    this.#beforeDispatch = beforeDispatch;
    this.#afterDispatch = afterDispatch;
  }

  /** Requests taken and not yet finished: the limiter's count (one count, not two kept in step). */
  get inFlight(): number {
    return this.limiter.inFlight;
  }

  /** An exception thrown by a `done` callback or by `beforeDispatch`. */
  get error(): unknown {
    return this.#error;
  }

  /** Requests sent so far. */
  get sent(): number {
    return this.#sent;
  }

  /** No request may start until enough in flight finish (the limit in force may have dropped below the number in flight). */
  get full(): boolean {
    return !this.limiter.hasRoom;
  }

  /** Resolves when another request may start under the limit in force. */
  capacity(): Promise<void> {
    if (!this.full) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.full && this.limiter.inFlight > 0) this.#waiters.push(check);
        else resolve();
      };
      this.#waiters.push(check);
    });
  }

  /** Resolves when the next request in flight finishes (at once when none is). */
  settled(): Promise<void> {
    if (this.limiter.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves when nothing is in flight or waiting to leave. */
  async idle(): Promise<void> {
    while (this.limiter.inFlight > 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Takes a request (the caller awaited capacity()); it leaves at the end of this turn, and `done` runs with its outcome. */
  start(request: SupplierCreateRequest, done: (o: SendOutcome) => void): void {
    this.limiter.started();
    if (this.#queue.push({ request, done }) === 1) setImmediate(this.#dispatch);
  }

  readonly #dispatch = (): void => {
    const batch = this.#queue;
    this.#queue = [];
    try {
      this.#beforeDispatch?.();
    } catch (e) {
      this.#error ??= e;
      const message = `not sent: ${(e as Error).message ?? String(e)}`;
      for (const q of batch) this.#finish(q.done, { state: 'failed', message });
      return;
    }
    for (const q of batch) {
      this.#sent++;
      void sendOne(this.#client, q.request, this.#observe).then((o) => this.#finish(q.done, o));
    }
    if (this.#afterDispatch) setImmediate(this.#afterDispatched);
  };

  readonly #afterDispatched = (): void => {
    try {
      this.#afterDispatch?.();
    } catch (e) {
      this.#error ??= e;
    }
  };

  #finish(done: (o: SendOutcome) => void, o: SendOutcome): void {
    this.limiter.finished();
    try {
      done(o);
    } catch (e) {
      this.#error ??= e;
    } finally {
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const w of waiters) w();
    }
  }
}
