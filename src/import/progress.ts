/**
 * Progress on stderr, never stdout:
 * - on a TTY, one line redrawn in place (\r, erase line) at most 10 times a second;
 * - otherwise (CI logs) a plain line every 10 seconds, no carriage returns;
 * - nothing with --quiet (errors and the summary still show).
 * The total row count is unknown while streaming; for a file the bytes read
 * against its size give the percentage.
 */
export interface ProgressCounts {
  rows: number;
  problems: number;
  bytes: number;
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
}

const fmt = new Intl.NumberFormat('en-US');

function mb(n: number): string {
  return (n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0);
}

export class Progress {
  readonly #o: ProgressOptions;
  readonly #now: () => number;
  readonly #started: number;
  #timer: NodeJS.Timeout | undefined;
  #shown = '';
  #visible = false;

  constructor(o: ProgressOptions) {
    this.#o = o;
    this.#now = o.now ?? (() => performance.now());
    this.#started = this.#now();
  }

  start(): void {
    if (this.#o.quiet || this.#timer) return;
    const every = this.#o.tty ? (this.#o.ttyIntervalMs ?? 100) : (this.#o.plainIntervalMs ?? 10_000);
    this.#timer = setInterval(() => this.tick(), every);
    this.#timer.unref();
  }

  /** The progress text (without control characters). */
  line(): string {
    const c = this.#o.counts();
    const secs = Math.max(0.001, (this.#now() - this.#started) / 1000);
    const rate = Math.round(c.rows / secs);
    const total = this.#o.totalBytes;
    const pct = total ? ` (${Math.min(100, Math.floor((c.bytes / total) * 100))}% of ${mb(total)} MB)` : c.bytes ? ` (${mb(c.bytes)} MB read)` : '';
    const probs = c.problems ? `, ${fmt.format(c.problems)} problem${c.problems === 1 ? '' : 's'}` : '';
    return `${this.#o.verb}: ${fmt.format(c.rows)} rows${pct}, ${fmt.format(rate)} rows/s${probs}`;
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
