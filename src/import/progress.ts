/**
 * Progress on stderr, never stdout:
 * - on a TTY, one line redrawn in place (\r, erase line) at most 10 times a second;
 * - otherwise (CI logs) a plain line every 10 seconds, no carriage returns;
 * - nothing with --quiet (errors and the summary still show).
 *
 * What it says, all of it measured:
 *   importing: 1,200 of 3,000 rows (40%), 150 rows/s, ETA 12s, concurrency 16, 3 throttled, 2 problems
 * - rows done (every row with an outcome) of the total: counted by a pre-pass
 *   over a regular file (count.ts) when it can be; otherwise estimated from the
 *   records the parser made per byte read, against the file's size, and marked
 *   `~` (rows done per byte read ran far low: the reader is well ahead of the
 *   answers); for stdin, rows only;
 * - once the import is stopping (Ctrl-C, a file that cannot be written), no
 *   total and no ETA: no more rows will be read;
 * - rows/s over the last 10 seconds (the whole run until then), and the ETA
 *   from it (none when there is no total or nothing done yet);
 * - the concurrency in force (the adaptive limit) and the requests the service
 *   throttled (429/503), when sending.
 * On a terminal the line must fit its width: a line that wraps cannot be redrawn
 * in place (erasing the line clears only its last row), and the copies pile up.
 * So the parts people need least go first (concurrency, then throttled, rows/s,
 * ETA; the problems stay), and what still does not fit is cut with an ellipsis.
 */
export interface ProgressCounts {
  /** Rows done: every row with an outcome. */
  rows: number;
  /** Of those, rows an earlier run did (kept back from the journal on a resume): not in the rate or the ETA. */
  kept?: number | undefined;
  problems: number;
  bytes: number;
  /** Data records the parser has made from those bytes (see Input.recordsParsed); rows done when unknown. */
  parsed?: number | undefined;
  /** The import is stopping: no more rows are read. */
  stopping?: boolean | undefined;
  /** The concurrency in force (undefined in a dry run). */
  concurrency?: number | undefined;
  /** Requests answered 429 or 503 so far. */
  throttled?: number | undefined;
}

export interface ProgressOptions {
  write: (s: string) => void;
  tty: boolean;
  quiet: boolean;
  /** File size when known. */
  totalBytes: number | undefined;
  verb: string;
  counts: () => ProgressCounts;
  now?: () => number;
  ttyIntervalMs?: number;
  plainIntervalMs?: number;
  /** The terminal's width, read at every redraw (it can change); undefined or 0: not known (80 is assumed). */
  columns?: (() => number | undefined) | undefined;
}

const fmt = new Intl.NumberFormat('en-US');
/** rows/s is measured over this much of the recent past. */
const RATE_WINDOW_MS = 10_000;
/** The rank of a part of the progress line that is never dropped to fit (it may be cut with "…"). */
const STAYS = 9;

function mb(n: number): string {
  return (n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0);
}

/** 45s, 12m05s, 3h07m. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export class Progress {
  readonly #o: ProgressOptions;
  readonly #now: () => number;
  readonly #started: number;
  #timer: NodeJS.Timeout | undefined;
  #shown = '';
  #visible = false;
  #totalRows: number | undefined;
  /** (time, rows) about once a second, for the recent rate. */
  readonly #history: Array<{ t: number; rows: number }> = [];

  constructor(o: ProgressOptions) {
    this.#o = o;
    this.#now = o.now ?? (() => performance.now());
    this.#started = this.#now();
  }

  /** The exact number of rows to do (from the pre-pass); undefined keeps the estimate. */
  set totalRows(n: number | undefined) {
    this.#totalRows = n;
  }

  start(): void {
    if (this.#o.quiet || this.#timer) return;
    const every = this.#o.tty ? (this.#o.ttyIntervalMs ?? 100) : (this.#o.plainIntervalMs ?? 10_000);
    this.#timer = setInterval(() => this.tick(), every);
    this.#timer.unref();
  }

  #rate(rows: number, now: number): number {
    const h = this.#history;
    if (h.length === 0 || now - h[h.length - 1]!.t >= 1000) h.push({ t: now, rows });
    // Keep the newest sample at least RATE_WINDOW_MS old: in a CI log, drawn every 10 s, the one sample before this
    // was always just past the window and dropped, and the rate fell back to the whole run's (an ETA 5x off).
    while (h.length > 2 && now - h[1]!.t >= RATE_WINDOW_MS) h.shift();
    const from = h.length > 1 && now - h[0]!.t >= 1000 ? h[0]! : { t: this.#started, rows: 0 };
    return (rows - from.rows) / Math.max(0.001, (now - from.t) / 1000);
  }

  /** The progress text (without control characters); on a terminal, as much of it as fits one row. */
  line(): string {
    const c = this.#o.counts();
    const now = this.#now();
    // The rate is of this run's work: rows kept back from the journal are done at once, and counting them
    // showed 1,524 rows/s and "ETA 0s" after a resume against a service taking 60 rows/s.
    const rate = this.#rate(c.rows - (c.kept ?? 0), now);
    const size = this.#o.totalBytes;
    let total: number | undefined;
    let approx = false;
    if (c.stopping) total = undefined;
    else if (this.#totalRows !== undefined && this.#totalRows >= c.rows) total = this.#totalRows;
    // Estimated only while the file is still being read: once all of it is in the reader, the records parsed are
    // bounded by the parser's queue, not by the file, and the estimate would be the rows done (no total then).
    else if (size && c.bytes > 0 && c.bytes < size && c.rows > 0) {
      const parsed = Math.max(c.rows, c.parsed ?? c.rows);
      total = Math.max(c.rows, Math.round((parsed * size) / Math.min(size, c.bytes)));
      approx = true;
    }
    const t = approx ? '~' : '';
    let done: string;
    /** The rows done in fewer characters, for a narrow terminal. */
    let short: string | undefined;
    if (total !== undefined) {
      const pct = total === 0 ? 100 : Math.min(100, Math.floor((c.rows / total) * 100));
      done = `${fmt.format(c.rows)} of ${t}${fmt.format(total)} rows (${t}${pct}%)`;
      short = `${fmt.format(c.rows)}/${t}${fmt.format(total)} (${t}${pct}%)`;
    } else {
      // No total: the rows done, never a percentage of bytes read (the reader runs ahead of the rows); from stdin,
      // also how much was read.
      done = `${fmt.format(c.rows)} rows${!c.stopping && !size && c.bytes ? ` (${mb(c.bytes)} MB read)` : ''}`;
    }
    // Each part with its rank: the lower, the sooner it goes when the line must be shortened. The rows done and the
    // problems (STAYS) always stay: what does not fit then is cut with "…" (docs/import.md).
    const parts: Array<[text: string, rank: number]> = [[done, 0], [`${fmt.format(Math.round(rate))} rows/s`, 3]];
    if (total !== undefined && rate > 0 && c.rows < total) parts.push([`ETA ${t}${duration((total - c.rows) / rate)}`, 4]);
    if (c.concurrency !== undefined) parts.push([`concurrency ${c.concurrency}`, 1]);
    if (c.throttled) parts.push([`${fmt.format(c.throttled)} throttled`, 2]);
    if (c.problems) parts.push([`${fmt.format(c.problems)} problem${c.problems === 1 ? '' : 's'}`, STAYS]);
    let verb = `${c.stopping ? 'stopping' : this.#o.verb}: `;
    const text = (): string => `${verb}${parts.map(([p]) => p).join(', ')}`;
    if (!this.#o.tty) return text();
    // One column spare: a line that fills the last column wraps on some terminals.
    const width = Math.max(8, (this.#o.columns?.() || 80) - 1);
    // Too long: first the rows done written short (at 80 columns the concurrency and the throttled count then stay),
    // then the parts needed least go, then the verb, before anything is cut.
    if (text().length > width && short !== undefined) parts[0] = [short, STAYS];
    while (text().length > width) {
      let least = -1;
      for (let i = 1; i < parts.length; i++) if (parts[i]![1] < STAYS && (least < 0 || parts[i]![1] < parts[least]![1])) least = i;
      if (least < 0) break;
      parts.splice(least, 1);
    }
    if (text().length > width) verb = '';
    const line = text();
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  }

  tick(): void {
    if (this.#o.quiet) return;
    const text = this.line();
    if (this.#o.tty) {
      if (text === this.#shown && this.#visible) return;
      this.#o.write(`\r\u001b[2K${text}`);
      this.#shown = text;
      this.#visible = true;
    } else {
      this.#o.write(`${text}\n`);
    }
  }

  /** Erases the TTY line before something else is written to stderr. */
  clear(): void {
    if (this.#o.tty && this.#visible) {
      this.#o.write('\r\u001b[2K');
      this.#visible = false;
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.clear();
  }
}
