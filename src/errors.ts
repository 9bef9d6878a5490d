/**
 * Typed errors and the exit-code contract. Codes never change meaning:
 *   0 success
 *   1 API, network or runtime failure
 *   2 usage error or invalid input (nothing was sent)
 *   3 a check failed
 *   4 authentication missing or rejected
 * 129 hung up (SIGHUP: the terminal closed)
 * 130 interrupted (SIGINT, Ctrl-C)
 * 143 terminated (SIGTERM)
 * src/cli.ts is the one place that maps these to process exit codes.
 */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  checkFailed: 3,
  auth: 4,
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export type ErrorCode =
  | 'usage'
  | 'invalid_input'
  | 'auth'
  | 'not_found'
  | 'lookup_failed'
  | 'api'
  | 'network'
  | 'timeout'
  | 'bad_response'
  | 'check_failed'
  | 'interrupted'
  | 'outcome_unknown'
  | 'exists'
  | 'runtime';

export class SrsError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCodeValue;
  /** Longer explanation shown only with --debug. */
  readonly detail?: string;
  constructor(code: ErrorCode, exitCode: ExitCodeValue, message: string, opts?: { detail?: string; cause?: unknown }) {
    super(message, opts?.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'SrsError';
    this.code = code;
    this.exitCode = exitCode;
    if (opts?.detail !== undefined) this.detail = opts.detail;
  }
}

/** Bad flags, arguments or input: nothing was sent. Exit 2. */
export class UsageError extends SrsError {
  constructor(message: string, opts?: { detail?: string; code?: 'usage' | 'invalid_input' }) {
    super(opts?.code ?? 'usage', ExitCode.usage, message, opts);
    this.name = 'UsageError';
  }
}

/**
 * A --query that compiled but fails on the data (a function given the wrong type). Exit 2 for a read; a command whose
 * work is done (suppliers created, a bundle saved, a verdict reached) reports it with afterTheWork(), exit 1.
 */
export class QueryError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }

  /** The same problem once the command's work is done: exit 1 (exit 2 says "nothing done" and invites a retry). */
  afterTheWork(done: string): SrsError {
    return new SrsError('runtime', ExitCode.failure, `${done}, but ${this.message}`, { cause: this });
  }
}

/** No key, or the service rejected it. Exit 4. */
/** What a rejected key's message ends in, from the HTTP layer; the CLI replaces it with where the key came from (cli.ts). */
export const REJECTED_KEY_ADVICE = '; run "srs auth login" or set SRS_API_KEY';

/**
 * A --state file that is no state of an emulator (most likely another file of the user's): exit 2, never "delete it".
 * The sandbox, whose state file is its own, says it in its words (context.ts).
 */
export class NotAStateFileError extends UsageError {}

export class AuthError extends SrsError {
  readonly status?: number;
  /** What the service said with its 401 or 403, when it said something. */
  readonly serviceMessage?: string;
  constructor(message: string, opts?: { status?: number; detail?: string; serviceMessage?: string }) {
    super('auth', ExitCode.auth, message, opts);
    this.name = 'AuthError';
    if (opts?.status !== undefined) this.status = opts.status;
    if (opts?.serviceMessage !== undefined) this.serviceMessage = opts.serviceMessage;
  }
}

/** The service answered with an HTTP error status. Exit 1. */
export class ApiError extends SrsError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly serviceMessage?: string;
  /** The answer carried a readable Retry-After: the service asks to be called again later (it did not act). */
  readonly retryAfter: boolean;
  /** `note`: after retries, how many attempts over how long (appended in parentheses). */
  constructor(args: { status: number; method: string; path: string; serviceMessage?: string; detail?: string; note?: string; retryAfter?: boolean }) {
    const what = args.serviceMessage ? `: ${args.serviceMessage}` : '';
    super(
      args.status === 404 ? 'not_found' : 'api',
      ExitCode.failure,
      `${args.method} ${args.path} failed with HTTP ${args.status}${what}${args.note ? ` (${args.note})` : ''}${args.status === 404 ? notFoundHint(args.method, args.path) : ''}`,
      args.detail !== undefined ? { detail: args.detail } : undefined,
    );
    this.name = 'ApiError';
    this.status = args.status;
    this.method = args.method;
    this.path = args.path;
    this.retryAfter = args.retryAfter === true;
    if (args.serviceMessage !== undefined) this.serviceMessage = args.serviceMessage;
  }
}

/** What to do about a 404 for one resource read by id: where the ids come from ("what failed" alone left a newcomer there). */
function notFoundHint(method: string, path: string): string {
  if (method !== 'GET') return '';
  const p = path.split('?')[0]!;
  if (/^\/v1\/suppliers\/[^/]+(\/(emission-reports|news-events))?$/.test(p)) return "; check the supplier id (srs supplier find NAME lists the suppliers srs has recorded; an emulator's seeded ones: srs emulator fixtures, with the emulator's --seed and --suppliers)";
  if (/^\/v1\/scorecards\/[^/]+$/.test(p)) return '; check the scorecard id (srs scorecards ls lists them)';
  if (/^\/v1\/data-entries\/[^/]+$/.test(p)) return "; check the data entry id (srs score calc SUPPLIER_ID --breakdown entries lists a supplier's entries with their ids)";
  return '';
}

/** The request never got an answer (refused, DNS, reset, timeout). Exit 1. */
export class NetworkError extends SrsError {
  readonly method: string;
  readonly path: string;
  /** True when the request provably never reached the service (safe to resend a POST). */
  readonly notSent: boolean;
  /** What went wrong, without the request ("connection refused (...)"). */
  readonly reason: string;
  /** A failure that another attempt cannot mend (a certificate srs does not trust, a TLS handshake with a plain-http port): not retried. */
  readonly permanent: boolean;
  readonly #args: { method: string; path: string; reason: string; notSent: boolean; timeout?: boolean; permanent?: boolean; cause?: unknown; detail?: string };
  constructor(args: { method: string; path: string; reason: string; notSent: boolean; timeout?: boolean; permanent?: boolean; cause?: unknown; detail?: string }) {
    super(args.timeout ? 'timeout' : 'network', ExitCode.failure, `${args.method} ${args.path}: ${args.reason}`, {
      cause: args.cause,
      ...(args.detail !== undefined ? { detail: args.detail } : {}),
    });
    this.name = 'NetworkError';
    this.method = args.method;
    this.path = args.path;
    this.notSent = args.notSent;
    this.reason = args.reason;
    this.permanent = args.permanent === true;
    this.#args = args;
  }

  /** The same error with a note in parentheses after the reason (how many attempts, what to change). */
  withNote(note: string): NetworkError {
    return new NetworkError({ ...this.#args, reason: `${this.reason} (${note})` });
  }
}

/** The service answered, but not with what the contract says. Exit 1. */
export class BadResponseError extends SrsError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** What was wrong with the answer (the message's part in parentheses). */
  readonly reason: string;
  constructor(args: { method: string; path: string; status: number; reason: string; detail?: string }) {
    super('bad_response', ExitCode.failure, `${args.method} ${args.path}: unexpected response (${args.reason})`, args.detail !== undefined ? { detail: args.detail } : undefined);
    this.name = 'BadResponseError';
    this.method = args.method;
    this.path = args.path;
    this.status = args.status;
    this.reason = args.reason;
  }
}

/** An answer over the size srs reads (16 MiB, 1 MiB for a create's): nothing of it was kept. */
export class BodyTooLargeError extends BadResponseError {
  constructor(args: { method: string; path: string; status: number; reason: string }) {
    super(args);
    this.name = 'BodyTooLargeError';
  }
}

/** A gate (score check, score recompute --verify) did not pass. Exit 3. An import with failed rows is exit 1. */
export class CheckFailedError extends SrsError {
  constructor(message: string) {
    super('check_failed', ExitCode.checkFailed, message);
    this.name = 'CheckFailedError';
  }
}

/**
 * A non-idempotent request (supplier create) may have reached the service without an answer: what
 * it did is unknown. Exit 1; never retried blindly.
 */
export class OutcomeUnknownError extends SrsError {
  constructor(message: string, opts?: { detail?: string; cause?: unknown }) {
    super('outcome_unknown', ExitCode.failure, message, opts);
    this.name = 'OutcomeUnknownError';
  }
}

export function isSrsError(e: unknown): e is SrsError {
  return e instanceof SrsError;
}

/**
 * A failed write of the command's output to stdout (a full disk, a closed file): one line naming stdout and the
 * reason, exit 1. EPIPE (a reader such as `head` that stopped reading) is returned as it is: it is not an error.
 */
export function stdoutWriteError(e: unknown): unknown {
  const err = e as NodeJS.ErrnoException | undefined;
  if (err?.code === 'EPIPE' || e instanceof SrsError) return e;
  const reason = (err?.message ?? String(e)).replace(/, write$/, '');
  return new SrsError('runtime', ExitCode.failure, `cannot write the output to stdout: ${reason}`, { cause: e });
}

/**
 * A stack overflow from data nested too deeply: JSON 100,000 levels deep, which JSON.parse takes, overflows what
 * recurses over it (JSON.stringify, a renderer). Said in one line (the cause), never "unexpected error".
 */
export function isTooDeep(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

export function tooDeep(e: unknown): SrsError {
  return new SrsError('runtime', ExitCode.failure, 'the data is nested too deeply for srs to handle (a value inside thousands of levels of JSON arrays or objects: maximum call stack size exceeded)', { cause: e });
}

/** Whether errors are JSON: only when json or ndjson was chosen explicitly, never because stdout is piped. */
export function jsonErrors(chosen: string | undefined): boolean {
  return chosen === 'json' || chosen === 'ndjson';
}
