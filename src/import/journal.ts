/**
 * The import journal: an append-only JSON-lines file that makes re-runs safe.
 *
 *   {"srs":"import-journal","v":2,"file":"/abs/in.csv","size":1234,"head":"<sha256>","headBytes":1234,"started":"…",
 *    "target":{"baseUrl":"https://api.example.com","account":"3f9a1c0b2d4e"}}
 *   {"run":"2025-01-01T10:00:00.000Z"}
 *   {"alias":"7c21…","via":"01J…","at":"…"}         a rotated key shown to reach the same account
 *   {"target":{…},"via":"01J…","at":"…"}            a version 1 journal (no target) bound on first use, or a
 *                                                   journal of only failed rows rebound (the last one wins)
 *   {"stopped":{"line":502,"bytes":N,"sha256":"…","ascii":false},"at":"…"}
 *                                                   the run stopped at a malformed line 502: the file's bytes
 *                                                   before it (N, their SHA-256, all ASCII or not)
 *   {"file":{"size":…,"head":"…","headBytes":…},"enc":"utf-8","at":"…"}
 *                                                   the file was fixed from that line on: bound to it now
 *   {"l":12,"h":"3f2a9c81b7de","s":"sent"}            before the request leaves
 *   {"l":12,"s":"created","id":"01J…"}                 when the answer arrives
 *   {"l":13,"s":"failed","m":"HTTP 400: …"}            provably not created
 *   {"l":14,"s":"unknown","m":"timed out …"}           may or may not have been created
 *
 * Lines are gathered in memory and written with one fs.writeSync (on a file
 * opened for appending) per turn of the event loop, and always before a request
 * leaves: the sender calls flush() before it dispatches a batch, so every
 * "sent" line is in the file before its request is on the wire. Outcome lines
 * wait at most until that flush or the end of the turn. So at any instant the
 * rows with a "sent" line and no outcome line are at most the requests in
 * flight plus those answered this turn, whose slots the new "sent" lines in
 * the same write reuse: never more than --concurrency. (One write per turn
 * instead of two per row: the journal cost about a tenth of an import's time.)
 * The OS page cache survives the process being killed at any point (Ctrl-C,
 * kill -9); only a power loss or kernel crash can lose the tail, and
 * --journal-fsync closes that gap (fsync after every write holding a "sent"
 * line) at a cost in throughput. See docs/import.md.
 *
 * Binding: the first line records the input's size, the SHA-256 of its
 * first MiB (the whole file when smaller) and the encoding it was read in. A
 * journal whose binding does not match the input is refused (UsageError,
 * exit 2): it vouches for another file, or for this file before it was edited.
 * One exception makes "fix the file and run the same command again" true: a
 * run that stopped at a malformed line L (an unclosed quote, a byte that is
 * not UTF-8) records the bytes before L ("stopped"); a file whose bytes before
 * L are the same, when the journal records no row at or after L, is the same
 * file fixed from L on: every row the journal vouches for is byte for byte at
 * its line, and no row from L on was sent. It is rebound ("file") with a note.
 * Another encoding than the one recorded is refused (exit 2, naming both): the
 * rows would read differently and every recorded row would turn unknown. Only
 * when the run stopped at a line that is not UTF-8 after plain ASCII (which
 * reads the same in any ASCII-compatible encoding) may the encoding change. Each "sent" line also carries a short
 * hash of the row's cells, so a row that differs from what was sent (an edit
 * the binding cannot see, past the first MiB with the same size) is detected.
 *
 * On a re-run, per line (the last record wins):
 *   created -> skipped ("already created (journal)", with the id);
 *   sent (no outcome: in flight when the run died) or unknown -> unknown, not
 *     resent unless --retry-unknown;
 *   failed -> validated and sent again (it was provably not created);
 *   a different row hash than the one sent -> unknown unless --retry-unknown
 *     (unless the earlier outcome was failed).
 * Invalid and duplicate rows are not journaled: they are re-validated each run.
 *
 * Target (version 2): the header records which service and account the rows
 * were created on (src/api/target.ts); src/import/binding.ts refuses another
 * target and links a rotated key after asking the service. Version 1 journals
 * (no target) are still read; they get a "target" line when first used.
 */
import { closeSync, createReadStream, existsSync, fstatSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import type { Target } from '../api/target.js';
import { UsageError } from '../errors.js';
import type { FileIdentity } from './read.js';

export const JOURNAL_MAGIC = 'import-journal';
export const JOURNAL_VERSION = 2;
/** Versions this srs reads: 1 had no target. */
const READABLE_VERSIONS: readonly number[] = [1, 2];
export const JOURNAL_SUFFIX = '.srs-journal';

export type JournalState = 'sent' | 'created' | 'failed' | 'unknown';

export interface JournalHeader {
  srs: typeof JOURNAL_MAGIC;
  v: number;
  file: string | null;
  size: number | null;
  head: string;
  headBytes: number;
  started: string;
  /** Version 2: where the rows were created. */
  target?: Target | undefined;
  /** The encoding the rows were read in (absent in journals of an older srs). */
  enc?: string | undefined;
}

/** The bytes of the input before the line where a run stopped at malformed input (read.ts filePrefix). */
export interface StoppedPrefix {
  /** The first line not processed (where the malformed record starts). */
  line: number;
  bytes: number;
  sha256: string;
  /** The bytes before `line` are all ASCII. */
  ascii: boolean;
}

/** The input a journal is bound to after a rebinding ("file" line). */
export interface FileBinding {
  size: number | null;
  head: string;
  headBytes: number;
}

/** What the journal says about its target, beyond the header. */
export interface JournalMeta {
  /** The header's target, or (version 1) the one bound by a later "target" line. */
  target: Target | undefined;
  /** Fingerprints of rotated keys shown to reach the same account. */
  aliases: string[];
  /** The last "file" line: the input the journal is bound to now (else the header's). */
  file?: FileBinding | undefined;
  /** The encoding recorded last ("file" line, else the header). */
  enc?: string | undefined;
  /** The last "stopped" line. */
  stopped?: StoppedPrefix | undefined;
}

/** A line the journal records about its target (see the format above). */
export type MetaLine =
  | { alias: string; via: string; at: string }
  | { target: Target; via?: string; at: string }
  | { file: FileBinding; enc?: string; at: string }
  | { stopped: StoppedPrefix; at: string };

export interface PriorRow {
  state: JournalState;
  /** Row hash recorded with the last "sent", when there was one. */
  hash: string | undefined;
  id: string | undefined;
  message: string | undefined;
}


const STATE_CODE: Record<JournalState, number> = { sent: 1, created: 2, failed: 3, unknown: 4 };
const CODE_STATE: readonly (JournalState | undefined)[] = [undefined, 'sent', 'created', 'failed', 'unknown'];

/**
 * What earlier runs recorded, per line, in compact form: a state byte, a
 * 48-bit hash and the offset of the created supplier's id per line number
 * (typed arrays), the ids themselves as UTF-8 in one growing buffer, and the
 * messages of unknown rows in a map. About 40 bytes per created row, so a
 * journal of a million rows resumes in about 40 MB.
 */
export class JournalHistory {
  #states = new Uint8Array(1024);
  #hashes = new Float64Array(1024);
  /** Offset + 1 of the id in #idBytes (0: none). */
  #idAt = new Uint32Array(1024);
  #idLen = new Uint16Array(1024);
  #idBytes = Buffer.alloc(64 * 1024);
  #idUsed = 0;
  readonly #messages = new Map<number, string>();
  #lines = 0;

  #grow(line: number): void {
    if (line < this.#states.length) return;
    let n = this.#states.length;
    while (n <= line) n *= 2;
    const grow = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.#states = grow(this.#states, (k) => new Uint8Array(k));
    this.#hashes = grow(this.#hashes, (k) => new Float64Array(k));
    this.#idAt = grow(this.#idAt, (k) => new Uint32Array(k));
    this.#idLen = grow(this.#idLen, (k) => new Uint16Array(k));
  }

  #storeId(line: number, bytes: Uint8Array): void {
    if (bytes.length > 0xffff || this.#idUsed + bytes.length >= 0xffffffff) return;
    if (this.#idUsed + bytes.length > this.#idBytes.length) {
      const next = Buffer.alloc(Math.max(this.#idBytes.length * 2, this.#idUsed + bytes.length));
      this.#idBytes.copy(next, 0, 0, this.#idUsed);
      this.#idBytes = next;
    }
    this.#idBytes.set(bytes, this.#idUsed);
    this.#idAt[line] = this.#idUsed + 1;
    this.#idLen[line] = bytes.length;
    this.#idUsed += bytes.length;
  }

  record(line: number, state: JournalState, hash?: string, id?: string, message?: string): void {
    this.recordRaw(line, STATE_CODE[state], hash !== undefined ? parseInt(hash, 16) : -1, id !== undefined ? Buffer.from(id, 'utf8') : undefined, message);
  }

  /** `hash`: the 48-bit row hash, or -1 to keep the one recorded; `id`: UTF-8 bytes (copied). */
  recordRaw(line: number, code: number, hash: number, id?: Uint8Array, message?: string): void {
    if (!Number.isSafeInteger(line) || line < 1 || line >= 0xffffffff || !CODE_STATE[code]) return;
    this.#grow(line);
    if (this.#states[line] === 0) this.#lines++;
    this.#states[line] = code;
    if (hash >= 0) this.#hashes[line] = hash + 1;
    this.#idAt[line] = 0;
    if (code === STATE_CODE.created && id !== undefined) this.#storeId(line, id);
    if (message !== undefined && code === STATE_CODE.unknown) this.#messages.set(line, message);
    else this.#messages.delete(line);
  }

  get(line: number): PriorRow | undefined {
    const code = line < this.#states.length ? this.#states[line]! : 0;
    const state = CODE_STATE[code];
    if (!state) return undefined;
    const h = this.#hashes[line]!;
    const at = this.#idAt[line]!;
    return {
      state,
      hash: h ? hashText(h) : undefined,
      id: at ? this.#idBytes.toString('utf8', at - 1, at - 1 + this.#idLen[line]!) : undefined,
      message: this.#messages.get(line),
    };
  }

  /** Lines with a record. */
  get size(): number {
    return this.#lines;
  }

  /** Row hash + 1 -> the first line recording it as sent, created or unknown; built on first use (movedFrom). */
  #byHash: Map<number, number> | undefined;

  /**
   * The line an earlier run sent this row's cells at, when that is not `line` (undefined when no other line holds
   * them, or only failed ones): the row has moved. Rows move when an export gains or loses rows above them, and
   * the journal, which knows rows by line, sent a moved created row again as a new one (review round 4: a resumed
   * stdin import with one row added created a supplier twice).
   */
  movedFrom(line: number, hash: string): number | undefined {
    if (!this.#byHash) {
      this.#byHash = new Map();
      for (let l = 1; l < this.#states.length; l++) {
        const c = this.#states[l]!;
        const h = this.#hashes[l]!;
        if (c !== 0 && c !== STATE_CODE.failed && h !== 0 && !this.#byHash.has(h)) this.#byHash.set(h, l);
      }
    }
    const at = this.#byHash.get(hashSlot(hash));
    return at !== undefined && at !== line ? at : undefined;
  }

  /** True when some line is recorded as created, sent or unknown (anything but failed: what a re-run would not send). */
  holdsSends(): boolean {
    for (let line = 1; line < this.#states.length; line++) {
      const c = this.#states[line]!;
      if (c !== 0 && c !== STATE_CODE.failed) return true;
    }
    return false;
  }

  /** The highest line with a record (0: none). */
  lastLine(): number {
    for (let line = this.#states.length - 1; line > 0; line--) if (this.#states[line] !== 0) return line;
    return 0;
  }

  /** The id of some supplier recorded as created (the first line's), to ask the service about. */
  someCreatedId(): string | undefined {
    for (let line = 1; line < this.#states.length; line++) {
      if (this.#states[line] === STATE_CODE.created && this.#idAt[line]) return this.get(line)!.id;
    }
    return undefined;
  }
}

export type ResumeDecision =
  | { action: 'send' }
  | { action: 'skip'; id: string | undefined; message: string }
  | { action: 'unknown'; message: string };

/** What a re-run does with a valid row, given what earlier runs recorded for its line. */
/** A 48-bit row hash (12 hex digits) as a typed array holds it: + 1, so that 0 is "none". */
export function hashSlot(hash: string): number {
  return parseInt(hash, 16) + 1;
}

/** hashSlot's inverse. */
export function hashText(slot: number): string {
  return (slot - 1).toString(16).padStart(12, '0');
}

/**
 * Whether a line's record stands for the row now at that line: the same cells, or a record without a hash (an
 * older journal) that was not a failure. A row it does not stand for may have moved (JournalHistory.movedFrom).
 */
export function standsFor(prior: PriorRow | undefined, hash: string): boolean {
  return prior !== undefined && (prior.hash === undefined ? prior.state !== 'failed' : prior.hash === hash);
}

export function decideResume(line: number, prior: PriorRow | undefined, hash: string, retryUnknown: boolean, moved?: { line: number; prior: PriorRow }): ResumeDecision {
  // Not what this line held (or nothing was sent from it), but what another line was sent with: the same row, moved.
  if (moved && !standsFor(prior, hash)) {
    const was = moved.prior;
    if (was.state === 'created') return { action: 'skip', id: was.id, message: `already created (journal: as line ${moved.line}, which this row held in an earlier run)` };
    if (!retryUnknown) {
      return {
        action: 'unknown',
        message: `sent by an earlier run as line ${moved.line} (journal; the rows have moved since), whose outcome is not known: not sent again (--retry-unknown sends it again)`,
      };
    }
    return { action: 'send' };
  }
  if (!prior || prior.state === 'failed') return { action: 'send' };
  if (retryUnknown && prior.state !== 'created') return { action: 'send' };
  if (prior.hash !== undefined && prior.hash !== hash) {
    if (retryUnknown) return { action: 'send' };
    const what = prior.state === 'created' ? `was created${prior.id ? ` as ${prior.id}` : ''}` : 'was sent';
    return {
      action: 'unknown',
      message: `line ${line} ${what} by an earlier run (journal) but has changed since: not sent again, it could create a second supplier (--retry-unknown sends it anyway)`,
    };
  }
  switch (prior.state) {
    case 'created':
      return { action: 'skip', id: prior.id, message: 'already created (journal)' };
    case 'sent':
      return {
        action: 'unknown',
        message: 'sent by an earlier run that stopped before the answer arrived: the supplier may or may not have been created (--retry-unknown sends it again)',
      };
    case 'unknown':
    default:
      return {
        action: 'unknown',
        message: `outcome unknown in an earlier run${prior.message ? ` (${prior.message})` : ''}: not sent again (--retry-unknown sends it again)`,
      };
  }
}

function describeIdentity(x: { file: string | null; size: number | null; head: string }): string {
  return `${x.file ?? 'stdin'}, ${x.size === null ? 'size unknown' : `${x.size} bytes`}, first-MiB sha256 ${x.head.slice(0, 12)}…`;
}

function bindingError(journalPath: string, inputName: string, h: JournalHeader, id: FileIdentity): UsageError {
  return new UsageError(
    `journal ${journalPath} belongs to another file, or to ${inputName} before it changed ` +
      `(journal: ${describeIdentity(h)}; now: ${describeIdentity({ file: id.path, size: id.size, head: id.head })}). ` +
      `A journal only vouches for the exact file it was started with. To re-import rows after fixing them, import the --failed file of the last run ` +
      `(it gets its own journal); to start over on purpose, delete the journal or pass --journal NEWFILE (rows already created would be created again).`,
    { code: 'invalid_input' },
  );
}


function sameFile(b: FileBinding, id: FileIdentity): boolean {
  const sameSize = b.size === null || id.size === null ? true : b.size === id.size;
  return sameSize && b.head === id.head && b.headBytes === id.headBytes;
}

/** Reads a journal's first line (undefined when there is none); throws UsageError when it is not a journal this srs reads. */
function readHeader(journalPath: string): JournalHeader | undefined {
  if (!existsSync(journalPath)) return undefined;
  // A FIFO or a device as the journal: opening it for reading waits for a writer (neither Ctrl-C nor SIGTERM ended
  // it), and it could never be read back. A journal is a regular file.
  if (!statSync(journalPath).isFile()) throw new UsageError(`--journal ${journalPath} is not a regular file (a FIFO, a device or a directory): a journal must be a file srs can read back; pass --journal PATH to a file`);
  let fd: number;
  try {
    fd = openSync(journalPath, 'r');
  } catch (e) {
    throw new UsageError(`cannot read journal ${journalPath} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let first: string;
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    // srs writes a journal's header as it creates it: an empty one lost what an earlier run recorded (a power cut
    // before the page cache reached the disk, the file emptied). Read as no journal, every row it sent was sent again.
    // A file system that lost the data but kept the size (XFS, ext4 with delayed allocation) leaves NUL bytes instead.
    if (n === 0 || buf.subarray(0, n).every((b) => b === 0)) {
      throw new UsageError(
        `journal ${journalPath} exists but ${n === 0 ? 'is empty' : 'holds only NUL bytes'}: what an earlier run recorded was lost (a power cut before it reached the disk, or the file was emptied), so rows it sent would be sent again; check which suppliers exist first (srs supplier ls; the service), then delete the file or pass --journal NEW (--journal-fsync makes a journal survive a power cut)`,
        { code: 'invalid_input' },
      );
    }
    const text = buf.subarray(0, n).toString('utf8');
    const nl = text.indexOf('\n');
    first = nl >= 0 ? text.slice(0, nl) : text;
  } finally {
    closeSync(fd);
  }
  let h: JournalHeader;
  try {
    h = JSON.parse(first) as JournalHeader;
  } catch {
    throw new UsageError(`${journalPath} is not an srs import journal (its first line is not JSON); pass another --journal path`, { code: 'invalid_input' });
  }
  if (!h || h.srs !== JOURNAL_MAGIC || typeof h.head !== 'string') {
    throw new UsageError(`${journalPath} is not an srs import journal; pass another --journal path`, { code: 'invalid_input' });
  }
  if (!READABLE_VERSIONS.includes(h.v)) {
    throw new UsageError(`journal ${journalPath} has version ${String(h.v)}, written by a newer srs; this one reads versions ${READABLE_VERSIONS.join(' and ')}: upgrade srs, or pass --journal NEW`);
  }
  return h;
}

export interface JournalOpenOptions {
  fsync: boolean;
  now: () => Date;
  /** Called for recoverable oddities (a torn last line, another path). */
  warn: (msg: string) => void;
  /** Recorded in a new journal's header. */
  target?: Target | undefined;
  /** What readJournal returned, when the caller read it already (null: there was no journal). Read here when undefined. */
  prior?: { header: JournalHeader; history: JournalHistory } | undefined | null;
  /** Lines about the target to record after this run's "run" line. */
  meta?: readonly MetaLine[];
  /** Replaces secrets in what the journal records (the service's messages, ids), as on stdout and stderr. */
  redact?: ((s: string) => string) | undefined;
  /** The encoding the input is read in, recorded in a new journal's header. */
  encoding?: string | undefined;
}

export class Journal {
  readonly path: string;
  readonly #fd: number;
  readonly #fsync: boolean;
  readonly #redact: (s: string) => string;
  #closed = false;
  /** Lines not yet written, and whether one of them is a "sent". */
  #pending = '';
  #pendingSent = false;
  /** The first write that failed; every later flush throws it. */
  #error: Error | undefined;

  private constructor(path: string, fd: number, fsync: boolean, redact: ((s: string) => string) | undefined) {
    this.path = path;
    this.#fd = fd;
    this.#fsync = fsync;
    this.#redact = redact ?? ((s) => s);
  }

  /** Opens (or starts) the journal for an input, loading what earlier runs recorded. */
  static async open(journalPath: string, inputName: string, id: FileIdentity, opts: JournalOpenOptions): Promise<{ journal: Journal; history: JournalHistory; resumed: boolean }> {
    const prior = opts.prior !== undefined ? (opts.prior ?? undefined) : await readJournal(journalPath, inputName, id, opts.warn);
    const header = prior?.header;
    const history = prior?.history ?? new JournalHistory();
    let fd: number;
    try {
      fd = openSync(journalPath, 'a', 0o600);
    } catch (e) {
      throw new UsageError(`cannot write journal ${journalPath} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass --journal PATH somewhere writable`);
    }
    const j = new Journal(journalPath, fd, opts.fsync, opts.redact);
    if (!header) {
      const h: JournalHeader = {
        srs: JOURNAL_MAGIC,
        v: JOURNAL_VERSION,
        file: id.path,
        size: id.size,
        head: id.head,
        headBytes: id.headBytes,
        started: opts.now().toISOString(),
        ...(opts.target ? { target: { baseUrl: opts.target.baseUrl, account: opts.target.account } } : {}),
        ...(opts.encoding ? { enc: opts.encoding } : {}),
      };
      j.#write(JSON.stringify(h) + '\n');
    } else if (!endsWithNewline(journalPath)) {
      j.#write('\n'); // a torn last line (killed mid-write): start clean
    }
    j.#write(JSON.stringify({ run: opts.now().toISOString() }) + '\n');
    for (const m of opts.meta ?? []) j.#write(JSON.stringify(m) + '\n');
    if (opts.fsync) fsyncSync(fd);
    return { journal: j, history, resumed: !!header };
  }

  #write(s: string): void {
    const buf = Buffer.from(s, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(this.#fd, buf, off, buf.length - off);
  }

  #append(line: string, isSent: boolean): void {
    const first = this.#pending === '';
    this.#pending += line;
    if (isSent) this.#pendingSent = true;
    if (this.#pending.length >= 256 * 1024) this.#flushQuietly();
    else if (first) setImmediate(this.#endOfTurn); // what this turn gathers is written at its end
  }

  readonly #endOfTurn = (): void => this.#flushQuietly();

  /** A flush nobody waits on: a failure is kept in `error` (and thrown by the next flush()). */
  #flushQuietly(): void {
    try {
      this.flush();
    } catch {
      /* kept in #error */
    }
  }

  /**
   * Writes every gathered line now (the sender calls this before a batch of
   * requests leaves). Throws the write's error, and keeps throwing it: a
   * journal that could not be written vouches for nothing after that point.
   */
  flush(): void {
    if (this.#error) throw this.#error;
    // After close nothing may leave on this journal's word (the sender calls this before a batch).
    if (this.#closed) throw new Error(`journal ${this.path} is already closed`);
    if (this.#pending === '') return;
    const text = this.#pending;
    const withSent = this.#pendingSent;
    this.#pending = '';
    this.#pendingSent = false;
    try {
      this.#write(text);
      if (this.#fsync && withSent) fsyncSync(this.#fd);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      this.#error = new Error(`cannot write journal ${this.path} (${code})`);
      throw this.#error;
    }
  }

  /** Set once a write failed. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Recorded before the request leaves (written by the flush() the sender makes before dispatching). */
  sent(line: number, hash: string): void {
    this.#append(`{"l":${line},"h":"${hash}","s":"sent"}\n`, true);
  }

  created(line: number, id: string): void {
    // The same bytes as JSON.stringify({ l, s, id }), without an object per row (guarded in test/unit/import-journal.test.ts).
    this.#append(`{"l":${line},"s":"created","id":${JSON.stringify(this.#redact(id))}}\n`, false);
  }

  failed(line: number, message: string): void {
    this.#outcome(line, 'failed', message);
  }

  unknown(line: number, message: string): void {
    this.#outcome(line, 'unknown', message);
  }

  #outcome(line: number, state: 'failed' | 'unknown', message: string): void {
    this.#append(JSON.stringify({ l: line, s: state, m: this.#redact(message).slice(0, 300) }) + '\n', false);
  }

  /** The run stopped at malformed input: what the file held before that line (see "Binding" above). */
  stopped(prefix: StoppedPrefix, at: Date): void {
    this.#append(JSON.stringify({ stopped: prefix, at: at.toISOString() }) + '\n', false);
  }

  close(): void {
    if (this.#closed) return;
    this.#flushQuietly();
    this.#closed = true;
    try {
      fsyncSync(this.#fd);
    } catch {
      /* best effort */
    }
    closeSync(this.#fd);
  }
}

export interface ReadJournalOptions {
  /** The encoding this run reads the input in: another than the journal's is refused (see "Binding" above). */
  encoding?: string | undefined;
  /** For a rebinding to a file fixed after a malformed line. */
  info?: ((msg: string) => void) | undefined;
  now?: (() => Date) | undefined;
  dryRun?: boolean | undefined;
  /** Whether the input's first `bytes` bytes hash to `sha256` (read.ts prefixMatches); without it a changed file is refused. */
  prefixMatches?: ((prefix: StoppedPrefix) => boolean) | undefined;
  /** Encodings in which ASCII bytes read as ASCII (utf-8, windows-1252, ...). */
  asciiCompatible?: ((encoding: string) => boolean) | undefined;
}

/**
 * Checks the binding (file and encoding) and loads what earlier runs recorded,
 * without writing (the dry run uses this). `lines`: what the run records about
 * the binding (a rebinding to a fixed file, or to another encoding after ASCII).
 */
export async function readJournal(
  journalPath: string,
  inputName: string,
  id: FileIdentity,
  warn: (msg: string) => void,
  o: ReadJournalOptions = {},
): Promise<{ header: JournalHeader; history: JournalHistory; meta: JournalMeta; lines: MetaLine[] } | undefined> {
  const header = readHeader(journalPath);
  if (!header) return undefined;
  const history = new JournalHistory();
  const meta: JournalMeta = { target: validTarget(header.target), aliases: [], enc: typeof header.enc === 'string' ? header.enc : undefined };
  await loadHistory(journalPath, history, warn, meta);
  const lines: MetaLine[] = [];
  const bound = meta.file ?? header;
  // A "stopped" line applies while no row at or after its line is recorded: nothing from there on was sent.
  const stop = meta.stopped && history.lastLine() < meta.stopped.line ? meta.stopped : undefined;
  let rebind = false;
  // A journal that records no row sent but failed ones vouches for nothing (every row invalid or refused): the changed
  // file takes it over.
  // The same rule as the target binding (binding.ts): nothing in it can make a row be skipped.
  const empty = !history.holdsSends();
  if (!sameFile(bound, id) && empty) {
    rebind = true;
    o.info?.(`journal ${journalPath}: ${inputName} changed, but the journal records no row sent that a re-run would skip (only invalid or failed ones), so it is used for the file as it is now`);
  } else if (!sameFile(bound, id)) {
    if (!stop || !o.prefixMatches?.(stop)) throw bindingError(journalPath, inputName, { ...header, ...bound }, id);
    rebind = true;
    o.info?.(
      `journal ${journalPath}: ${inputName} changed from line ${stop.line} on, where the last run stopped; lines 1-${stop.line - 1} are unchanged ` +
        `(${stop.bytes} bytes, same SHA-256), so the rows recorded there keep their outcomes: ${o.dryRun ? 'the real run resumes it' : 'resuming'} with the fixed file`,
    );
  }
  if (header.file !== id.path && header.file !== null && id.path !== null) {
    warn(`journal ${journalPath} was started for ${header.file}; the content matches, so it is used for ${id.path}`);
  }
  // An srs before this one read --encoding latin1 as ISO-8859-1 ("latin1" in its journals), now as windows-1252: the same
  // file, read alike but for 0x80-0x9F, whose rows then hash differently and turn unknown (never sent twice).
  const sameEncoding = o.encoding === meta.enc || (meta.enc === 'latin1' && o.encoding === 'windows-1252');
  if (o.encoding !== undefined && meta.enc !== undefined && !sameEncoding) {
    // Rows read in another encoding are other rows: each recorded one would turn unknown (and new ones garbled).
    // Only a run that stopped at the first non-UTF-8 byte after plain ASCII may switch: ASCII reads the same.
    const asciiOk = empty || (!!stop && stop.ascii && meta.enc === 'utf-8' && !!o.asciiCompatible?.(o.encoding));
    if (!asciiOk) {
      throw new UsageError(
        `journal ${journalPath} records ${inputName} read as ${meta.enc}, and this run reads it as ${o.encoding}: the rows it records as sent would read differently, ` +
          `so it could not tell them apart from new ones (every one would be reported unknown, and names would change). ` +
          `Run with --encoding ${meta.enc}; if a line is malformed, fix that line. To import the file in ${o.encoding} on purpose, pass --journal NEW ` +
          `(rows already created would be created again). Nothing was sent.`,
        { code: 'invalid_input' },
      );
    }
    rebind = true;
    if (!empty) o.info?.(`journal ${journalPath}: read as ${o.encoding} from now on (it recorded ${meta.enc}; lines 1-${stop!.line - 1}, the only ones it records, are plain ASCII and read the same)`);
  }
  if (rebind) {
    lines.push({ file: { size: id.size, head: id.head, headBytes: id.headBytes }, ...(o.encoding ? { enc: o.encoding } : {}), at: (o.now ?? (() => new Date()))().toISOString() });
  }
  return { header, history, meta, lines };
}

function endsWithNewline(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

function validTarget(x: unknown): Target | undefined {
  const t = x as Partial<Target> | null | undefined;
  return t && typeof t.baseUrl === 'string' && typeof t.account === 'string' ? { baseUrl: t.baseUrl, account: t.account } : undefined;
}

interface JournalLine {
  alias?: unknown;
  file?: unknown;
  enc?: unknown;
  stopped?: unknown;
  target?: unknown;
  l?: unknown;
  s?: unknown;
  h?: unknown;
  id?: unknown;
  m?: unknown;
}

const SENT_PREFIX = Buffer.from('{"l":');
const HASH_MARK = Buffer.from(',"h":"');
const SENT_TAIL = Buffer.from('","s":"sent"}');
const CREATED_MARK = Buffer.from(',"s":"created","id":"');

/** `what` at buf[at..] within the line ending at `end`. */
function startsAt(buf: Buffer, at: number, end: number, what: Buffer): boolean {
  return at + what.length <= end && buf.compare(what, 0, what.length, at, at + what.length) === 0;
}

/**
 * The two lines that make up nearly all of a journal, parsed from bytes without
 * making strings: {"l":N,"h":"<12 hex>","s":"sent"} and {"l":N,"s":"created","id":"…"}.
 * Returns false for anything else (parsed with JSON.parse by the caller).
 */
function fastLine(buf: Buffer, s: number, e: number, history: JournalHistory): boolean {
  if (!startsAt(buf, s, e, SENT_PREFIX)) return false;
  let i = s + SENT_PREFIX.length;
  let line = 0;
  const digits = i;
  while (i < e && buf[i]! >= 0x30 && buf[i]! <= 0x39) line = line * 10 + (buf[i++]! - 0x30);
  if (i === digits || i - digits > 10) return false;
  if (e - i === HASH_MARK.length + 12 + SENT_TAIL.length && startsAt(buf, i, e, HASH_MARK) && startsAt(buf, i + HASH_MARK.length + 12, e, SENT_TAIL)) {
    const h = parseInt(buf.toString('latin1', i + HASH_MARK.length, i + HASH_MARK.length + 12), 16);
    if (Number.isNaN(h)) return false;
    history.recordRaw(line, STATE_CODE.sent, h);
    return true;
  }
  if (startsAt(buf, i, e, CREATED_MARK) && e - i >= CREATED_MARK.length + 2 && buf[e - 2] === 0x22 && buf[e - 1] === 0x7d) {
    const idStart = i + CREATED_MARK.length;
    const idEnd = e - 2;
    for (let k = idStart; k < idEnd; k++) if (buf[k] === 0x5c || buf[k] === 0x22) return false; // escapes: leave to JSON.parse
    history.recordRaw(line, STATE_CODE.created, -1, buf.subarray(idStart, idEnd));
    return true;
  }
  return false;
}

/** Streams the journal in 1 MiB chunks; memory stays flat however long it is. */
async function loadHistory(path: string, history: JournalHistory, warn: (msg: string) => void, meta: JournalMeta): Promise<void> {
  let n = 0;
  let bad = 0;
  let lastBad = 0;
  const handle = (buf: Buffer, s: number, e: number) => {
    n++;
    if (n === 1 || e === s) return;
    if (buf[e - 1] === 0x0d) e--;
    if (fastLine(buf, s, e, history)) return;
    let rec: JournalLine;
    try {
      rec = JSON.parse(buf.toString('utf8', s, e)) as JournalLine;
    } catch {
      bad++;
      lastBad = n;
      return;
    }
    if (rec.stopped !== undefined) {
      const p = rec.stopped as Partial<StoppedPrefix> | null;
      if (p && Number.isSafeInteger(p.line) && Number.isSafeInteger(p.bytes) && typeof p.sha256 === 'string' && typeof p.ascii === 'boolean') {
        meta.stopped = { line: p.line!, bytes: p.bytes!, sha256: p.sha256, ascii: p.ascii };
      }
      return;
    }
    if (rec.file !== undefined) {
      const f = rec.file as Partial<FileBinding> | null;
      if (f && typeof f.head === 'string' && typeof f.headBytes === 'number' && (f.size === null || typeof f.size === 'number')) {
        meta.file = { size: f.size, head: f.head, headBytes: f.headBytes };
        if (typeof rec.enc === 'string') meta.enc = rec.enc;
      }
      return;
    }
    if (typeof rec.alias === 'string') {
      if (!meta.aliases.includes(rec.alias)) meta.aliases.push(rec.alias);
      return;
    }
    if (rec.target !== undefined) {
      // A (re)binding: the last one wins, and the keys linked to the earlier target no longer apply.
      const t = validTarget(rec.target);
      if (t) {
        meta.target = t;
        meta.aliases = [];
      }
      return;
    }
    if (typeof rec.l !== 'number' || typeof rec.s !== 'string' || !(rec.s in STATE_CODE)) return;
    const code = STATE_CODE[rec.s as JournalState];
    const hash = typeof rec.h === 'string' && /^[0-9a-f]{12}$/.test(rec.h) ? parseInt(rec.h, 16) : -1;
    history.recordRaw(rec.l, code, hash, typeof rec.id === 'string' ? Buffer.from(rec.id, 'utf8') : undefined, typeof rec.m === 'string' ? rec.m : undefined);
  };
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const buf: Buffer = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    let s = 0;
    for (let nl = buf.indexOf(0x0a, s); nl >= 0; nl = buf.indexOf(0x0a, s)) {
      handle(buf, s, nl);
      s = nl + 1;
    }
    carry = Buffer.from(buf.subarray(s));
  }
  if (carry.length) handle(carry, 0, carry.length);
  // A torn line is expected after a kill; the records around it are intact.
  if (bad > 0) warn(`journal ${path}: ${bad} unreadable line${bad > 1 ? 's' : ''} ignored (last at line ${lastBad}; a run was killed mid-write?)`);
}
