/**
 * What a command's run function may touch: the streams (and whether each is a
 * TTY), the environment, the resolved output settings, the config store, the
 * clock, and a lazy API client. Commands never read process.* directly, so
 * they can run in-process in tests with captured streams.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import type { ApiClient } from './api/client.js';
import type { Target } from './api/target.js';
import type { ConfigStore } from './config/store.js';
import { badProfileField, describeSource, keyProblem, profileNameProblem, resolveSettings, type Settings } from './config/resolve.js';
import { isUtf8Locale } from './util/locale.js';
import { noSuchProfile } from './config/no-such-profile.js';
import { DEFAULT_PAGE_LIMIT } from './api/paginate.js';
import { AuthError, ExitCode, jsonErrors, NotAStateFileError, QueryError, SrsError, stdoutWriteError, UsageError } from './errors.js';
import { columnsFromFields } from './output/columns.js';
import { parseFieldList } from './output/fields.js';
import { OUTPUT_FORMATS, type OutputFormat, type RenderOptions, type Sink } from './output/render.js';
import { escapeJsonForTerminal, sanitizeForTerminal, oneLine, sanitizeKeepNewlines } from './output/sanitize.js';
import { makeRedactor, type Redactor } from './util/redact.js';
import { showBaseUrl } from './util/base-url.js';

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width of stdout when it is a TTY. */
  columns?: number | undefined;
  /**
   * The process exits as soon as main() returns (src/index.ts): its sockets
   * close with it, so the API client is not closed in order first. That took
   * 2-3 ms at the end of every networked command, and after a failure it
   * waited for the requests still in flight.
   */
  exitsAfter?: boolean;
  /**
   * What a reader that stops early (`srs ... | head`) does to the run, shared with the process entry
   * (src/index.ts), which sees stdout's EPIPE first: see KEEPS_GOING_WHEN_STDOUT_CLOSES.
   */
  stdoutClosed?: StdoutClosedPolicy;
}

/** Set by the command (Context.prepare); `closed` once the reader has gone. */
export interface StdoutClosedPolicy {
  keepGoing: boolean;
  closed: boolean;
}

/**
 * Commands whose exit code is a verdict (a gate, a verification, suppliers srs could not score) or whose
 * work has effects beyond what they print (a bundle, suppliers created, a journal, a server): when the
 * reader of their output stops early, they finish with the rest of the output discarded and exit with
 * their real code. `srs score check ... | head -3` used to exit 0 with three suppliers failing, and
 * `score calc --save ... | head -1` exited 0 without its bundle. Every other command is a reader:
 * it stops at once, exit 0 (README, "Output").
 */
/**
 * Words a user writes for "off": the switches (truthy) and --catalog / SRS_CATALOG (SRS_CATALOG=false made a file
 * named "false", SRS_SANDBOX=off turned the sandbox on).
 */
const OFF_WORDS: ReadonlySet<string> = new Set(['off', 'false', '0', 'no', 'none']);
const isOffWord = (v: string): boolean => OFF_WORDS.has(v.trim().toLowerCase());
/** Words for "on" that SRS_SANDBOX takes (any other word is neither, and a mistake). */
const ON_WORDS: ReadonlySet<string> = new Set(['1', 'true', 'yes', 'on']);

/** The commands that rewrite the config file (conf writes it 0600): its "readable by others" warning says so. */
const CONFIG_WRITERS: ReadonlySet<string> = new Set(['auth login', 'auth logout', 'auth switch']);

export const KEEPS_GOING_WHEN_STDOUT_CLOSES: ReadonlySet<string> = new Set([
  'score check',
  'score calc',
  'score recompute',
  'score explain',
  'score report',
  'supplier import',
  'supplier create',
  'emulator start',
  'api',
  'auth login',
  'auth logout',
  // A verdict too: not logged in is exit 4 after the status is printed (`| head -1` made it exit 0, the error unsaid).
  'auth status',
  'auth switch',
]);

/** Global options, as Commander parsed them. */
export interface GlobalOptions {
  output?: string;
  fields?: string;
  profile?: string;
  baseUrl?: string;
  sandbox?: boolean;
  debug?: boolean;
  /** false with --no-color */
  color?: boolean;
  insecureHttp?: boolean;
  timeout?: string;
  retries?: string;
  maxPages?: string;
  query?: string;
  csvRaw?: boolean;
  csvBom?: boolean;
  wide?: boolean;
  quiet?: boolean;
  /** --catalog PATH (a string), --no-catalog (false), or neither (undefined). */
  catalog?: string | boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** A sandbox state that cannot be opened: one line naming the file and the way out (there is no --state to point elsewhere). */
function sandboxStateError(e: unknown, path: string): SrsError {
  // The sandbox's own file, not something the user named: exit 1 and "move it away", never words about --state.
  const notState = e instanceof NotAStateFileError;
  if (e instanceof SrsError && !notState) return e;
  const message = notState ? 'it is neither an srs state database nor an older srs\'s JSON state file' : ((e as Error).message ?? String(e)).replace(/;\s*delete it or point --state elsewhere$/, '');
  return new SrsError('runtime', ExitCode.failure, `the sandbox cannot use its state ${path}: ${message}; move it away (or delete it) to start a new, empty sandbox`, { cause: e });
}

/** A boolean environment variable: unset, empty, 0, false, off, no and none are off (SRS_SANDBOX=off turned the sandbox on). */
export const truthy = (v: string | undefined): boolean => v !== undefined && v.trim() !== '' && !isOffWord(v);

export function dataDir(env: Env): string {
  if (env.SRS_DATA_DIR) return env.SRS_DATA_DIR;
  // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored (srs used it relative to the current directory).
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'srs');
}

/** The styles srs uses (a chalk instance has them all). */
export interface Paint {
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  dim(text: string): string;
}

const PLAIN: Paint = { bold: (t) => t, red: (t) => t, yellow: (t) => t, green: (t) => t, dim: (t) => t };

/** The longest --timeout: the largest delay a Node timer holds (2^31-1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

export class Context {
  readonly io: IO;
  readonly env: Env;
  readonly globals: GlobalOptions;
  readonly now: () => Date;
  readonly format: OutputFormat;
  /** Colour on stdout: a TTY, no --no-color, no NO_COLOR. */
  readonly color: boolean;
  /** Colour and spinners on stderr. */
  readonly stderrColor: boolean;
  readonly debugEnabled: boolean;
  readonly sandbox: boolean;
  readonly sink: Sink;
  /**
   * A fresh copy of srs's command tree (the one --help describes), for the
   * commands that describe srs itself (completion scripts, the man page).
   * Set by src/cli.ts, which builds the tree: the commands receive it rather
   * than import cli.ts (nothing imports upwards).
   */
  commandTree: (() => Command) | undefined;
  /**
   * The styles for stdout and stderr: chalk's where colour is allowed (loaded by
   * prepare(), so runs without colour, such as scripts, never load it), plain
   * text elsewhere. chalk does not look at NO_COLOR itself, so that is decided
   * here, not by chalk.
   */
  get paint(): Paint {
    return this.#paint;
  }
  get paintErr(): Paint {
    return this.#paintErr;
  }
  #paint: Paint = PLAIN;
  #paintErr: Paint = PLAIN;
  #cleanups: Array<() => Promise<void> | void> = [];
  #client: Promise<ApiClient> | undefined;
  #store: ConfigStore | undefined;
  #settings: Promise<Settings> | undefined;
  readonly #redactor: Redactor = makeRedactor();
  #query: ((data: unknown) => unknown) | undefined;
  /** The command being run, without "srs" (e.g. "scorecards ls"): what --fields is checked against. */
  commandPath: string | undefined;
  /** The spinner showing now, and its own text (a retry note goes after it). */
  #spinner: { text: string; base: string } | undefined;

  constructor(io: IO, env: Env, globals: GlobalOptions, now: () => Date = () => new Date()) {
    this.io = io;
    this.env = env;
    this.globals = globals;
    this.now = now;
    // The key in the environment is masked from the start: a check of the arguments or of an --ids-file can fail
    // (and quote what it was given) before the settings are read.
    this.addSecret(env.SRS_API_KEY);
    // A password in a base URL (user:password@host) is a secret too: error lines quote the URL.
    for (const url of [globals.baseUrl, env.SRS_BASE_URL]) this.#addUrlPassword(url);
    // TERM=dumb shows escape codes as text (chalk and ora switch off for it on their own; srs sets both itself).
    // FORCE_COLOR=0 (or false) turns colour off as chalk reads it: the spinner obeyed it and explain's bars did not.
    const forcedOff = env.FORCE_COLOR === '0' || env.FORCE_COLOR?.toLowerCase() === 'false';
    const noColor = (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.TERM === 'dumb' || forcedOff;
    this.color = io.stdoutIsTTY && globals.color !== false && !noColor;
    this.stderrColor = io.stderrIsTTY && globals.color !== false && !noColor;
    this.debugEnabled = !!globals.debug || truthy(env.SRS_DEBUG);
    this.sandbox = !!globals.sandbox || truthy(env.SRS_SANDBOX);
    // A switch set to a word that is neither on nor off (SRS_SANDBOX=disabled, SRS_QUIET=maybe) is a mistake, not "on".
    for (const name of ['SRS_SANDBOX', 'SRS_DEBUG', 'SRS_QUIET', 'SRS_CSV_BOM'] as const) {
      const v = env[name];
      if (v !== undefined && v.trim() !== '' && !isOffWord(v) && !ON_WORDS.has(v.trim().toLowerCase())) {
        throw new UsageError(`${name} must be 1, true, yes or on (or 0, false, no, off, none to turn it off), not "${v}"`);
      }
    }
    const fmt = globals.output ?? env.SRS_OUTPUT;
    if (fmt !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(fmt)) {
      // Named where it came from: a user who gave no --output looks for SRS_OUTPUT.
      throw new UsageError(`${globals.output !== undefined ? '--output' : 'SRS_OUTPUT'} must be one of ${OUTPUT_FORMATS.join(', ')} (got "${fmt}")`);
    }
    // The sandbox is its own service: a base URL given with it (--base-url, or SRS_BASE_URL: a create went to the
    // sandbox with exit 0 while the variable named the real service) would be silently ignored.
    // So would a profile named for this run, which names a service too (a create meant for profile b went to the
    // sandbox, exit 0). A key alone names no service: SRS_API_KEY is left unused.
    const ignored =
      // Named, not quoted: a base URL may hold a password, and this refusal comes before srs knows its secrets.
      globals.baseUrl !== undefined ? '--base-url'
      : env.SRS_BASE_URL ? 'SRS_BASE_URL'
      : globals.profile !== undefined ? `--profile ${globals.profile}`
      : env.SRS_PROFILE ? `SRS_PROFILE=${env.SRS_PROFILE}`
      : undefined;
    if (this.sandbox && ignored) {
      const flag = globals.baseUrl !== undefined || globals.profile !== undefined;
      throw new UsageError(`${globals.sandbox ? '--sandbox' : 'SRS_SANDBOX'} talks to the local sandbox, so ${ignored} would be ignored: ${flag ? 'drop' : 'unset'} one of them`);
    }
    this.format = (fmt as OutputFormat | undefined) ?? (io.stdoutIsTTY ? 'table' : 'json');
    // The client settings are checked whether or not this command sends anything (auth status, completion): a
    // mistyped --timeout or SRS_TIMEOUT passed in silence until the first command that did.
    this.timeoutMs();
    this.retries();
    this.maxPages();
    const out = io.stdout;
    // On a terminal, data formats are made safe to display: tables are sanitised cell by cell when they are
    // drawn; JSON and CSV are not, so their text is here (JSON with equivalent \u escapes: the same document).
    const onScreen =
      io.stdoutIsTTY && (this.format === 'json' || this.format === 'ndjson') ? escapeJsonForTerminal : io.stdoutIsTTY && this.format === 'csv' ? sanitizeKeepNewlines : undefined;
    // --csv-bom: Excel on Windows reads a CSV file without a byte order mark as the ANSI code page ("CafÃ©"); with
    // one, as UTF-8. Written before the first bytes of CSV output (not on a terminal, where it would be shown).
    let bom = this.format === 'csv' && !io.stdoutIsTTY && this.csvBom;
    this.sink = {
      write: (written: string | Uint8Array) =>
        new Promise<void>((resolve, reject) => {
          // The key never reaches stdout either (a service that echoes it in a 200 body, a URL that holds it).
          const given = this.#redactChunk(written);
          let chunk = onScreen ? onScreen(typeof given === 'string' ? given : Buffer.from(given).toString('utf8')) : given;
          if (bom && chunk.length > 0) {
            bom = false;
            chunk = typeof chunk === 'string' ? '\uFEFF' + chunk : Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), chunk]);
          }
          const policy = io.stdoutClosed;
          // The reader has gone and this command finishes all the same: the rest of its output is discarded.
          if (policy?.closed) return resolve();
          const fail = (e: unknown) => {
            if (policy?.keepGoing && (e as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') {
              policy.closed = true;
              resolve();
            } else reject(stdoutWriteError(e));
          };
          try {
            out.write(chunk, (err) => (err ? fail(err) : resolve()));
          } catch (e) {
            // A file as stdout is written synchronously: its error is thrown here.
            fail(e);
          }
        }),
    };
  }

  /** Async set-up before a command runs: loads chalk when there is colour, compiles --query (a usage error before anything is sent). */
  async prepare(): Promise<void> {
    if (this.io.stdoutClosed && this.commandPath !== undefined) this.io.stdoutClosed.keepGoing = KEEPS_GOING_WHEN_STDOUT_CLOSES.has(this.commandPath);
    if (this.color || this.stderrColor) {
      const { Chalk } = await import('chalk');
      if (this.color) this.#paint = new Chalk({ level: 1 });
      if (this.stderrColor) this.#paintErr = new Chalk({ level: 1 });
    }
    const fields = this.globals.fields !== undefined ? parseFieldList(this.globals.fields) : undefined;
    if (fields !== undefined) {
      if (fields.length === 0) throw new UsageError('--fields: give at least one field, e.g. --fields id,name');
      if (this.commandPath) {
        const { checkFields } = await import('./output/shapes.js');
        const problem = checkFields(this.commandPath, fields, this.format);
        if (problem) throw new UsageError(problem);
      }
    }
    const expr = this.globals.query;
    if (expr === undefined) return;
    const { compile, TreeInterpreter } = await import('@jmespath-community/jmespath');
    let ast: ReturnType<typeof compile>;
    try {
      ast = compile(expr);
    } catch (e) {
      throw new UsageError(`--query: ${(e as Error).message} in "${expr}" (JMESPath, see https://jmespath.org)`);
    }
    const search = (data: unknown) => TreeInterpreter.search(ast, data as Parameters<typeof TreeInterpreter.search>[1]);
    // A function JMESPath does not have fails whatever the data: found here, before anything is sent.
    try {
      search(null);
    } catch (e) {
      if (/unknown function/i.test((e as Error).message)) throw new UsageError(`--query: ${(e as Error).message} in "${expr}" (JMESPath, see https://jmespath.org)`);
    }
    // Other errors depend on the data (a function given the wrong type): one line, exit 2, never "unexpected error".
    this.#query = (data) => {
      try {
        return search(data);
      } catch (e) {
        throw new QueryError(`--query: ${(e as Error).message} in "${expr}" (JMESPath, see https://jmespath.org)`);
      }
    };
  }

  /** Output settings for src/output/render.ts. */
  renderOptions(): RenderOptions {
    const fields = this.globals.fields ? parseFieldList(this.globals.fields) : [];
    return {
      format: this.format,
      pretty: this.io.stdoutIsTTY,
      fields: fields.length ? columnsFromFields(fields) : undefined,
      color: this.color,
      width: this.tableWidth(),
      wide: !!this.globals.wide,
      note: (m: string) => this.info(m),
      csvRaw: !!this.globals.csvRaw,
      paintHeader: (h: string) => this.paint.bold(h),
      redact: (s: string) => this.redact(s),
      query: this.#query,
      // Only on a terminal: a file or a pipe gets the data's own UTF-8 (the blank and the cut are the table's marks).
      ascii: this.io.stdoutIsTTY && !isUtf8Locale(this.env),
    };
  }

  /**
   * The width tables fit: COLUMNS when it is set (as shells and Python's
   * shutil do; also how tests ask for a width), else the terminal's when stdout
   * is one, else none (piped tables are never cut).
   */
  tableWidth(): number | undefined {
    const env = this.env.COLUMNS;
    if (env !== undefined && /^\d+$/.test(env.trim()) && Number(env) > 0) return Number(env);
    return this.io.stdoutIsTTY && this.io.columns ? this.io.columns : undefined;
  }

  /** Whether --quiet (or SRS_QUIET) silences notes and warnings that are not problems. */
  get quiet(): boolean {
    return !!this.globals.quiet || truthy(this.env.SRS_QUIET);
  }

  /** Whether --csv-bom (or SRS_CSV_BOM) asks CSV written for people (stdout, an import's --report) to start with a BOM. */
  get csvBom(): boolean {
    return !!this.globals.csvBom || truthy(this.env.SRS_CSV_BOM);
  }


  /** Registers a secret so it is redacted from everything this context writes: stdout, stderr and files. */
  addSecret(s: string | undefined): void {
    this.#redactor.add(s);
  }

  redact(s: string): string {
    return this.#redactor.redact(s);
  }

  /**
   * An error line written outside the CLI's own error report (a signal's handler, which exits at once): JSON when
   * json or ndjson was chosen, as every error is (jsonErrors), else one line of text, whatever stderr is.
   */
  errorLine(code: string, message: string, exitCode: number): string {
    const text = this.redact(message);
    return jsonErrors(this.globals.output ?? this.env.SRS_OUTPUT) ? JSON.stringify({ error: { code, message: text, exitCode } }) + '\n' : `srs: ${text}\n`;
  }

  /** The redactor itself, for writers of files (bundles, reports) and the HTTP layer's messages. */
  get redactor(): Redactor {
    return this.#redactor;
  }

  /** redact() for a chunk of output: bytes are searched as they are, and decoded only when they may hold a secret. */
  #redactChunk(chunk: string | Uint8Array): string | Uint8Array {
    if (!this.#redactor.active) return chunk;
    if (typeof chunk === 'string') return this.redact(chunk);
    if (!this.#redactor.mayHold(chunk)) return chunk;
    return this.redact(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8'));
  }

  /** One line on stderr (sanitised and redacted). */
  stderr(line: string): void {
    this.io.stderr.write(this.redact(sanitizeKeepNewlines(line)) + '\n');
  }

  /**
   * One warning on one line of stderr: line breaks in it (a warning often
   * quotes a bundle's or the service's strings) are shown escaped, so nothing
   * it holds can start a line of its own (a workflow command under
   * GITHUB_ACTIONS, or a fake "error:").
   */
  warn(msg: string): void {
    const tag = this.paintErr.yellow('warning:');
    this.io.stderr.write(`${tag} ${this.redact(oneLine(msg))}\n`);
  }

  /** A note for people on stderr about something that is not a problem (what was saved, hidden columns, the next page): silenced by --quiet. */
  info(msg: string): void {
    if (!this.quiet) this.stderr(msg);
  }

  debug(msg: string): void {
    if (this.debugEnabled) this.stderr(`debug: ${msg}`);
  }

  /** A spinner on stderr while `work` runs: only on a TTY with colour allowed. */
  async withSpinner<T>(text: string, work: () => Promise<T>): Promise<T> {
    if (!this.stderrColor || this.debugEnabled) return work();
    // A pseudo-terminal that reports 0 columns (script, some CI runners) sends ora
    // into an endless clear loop (it divides by the width): no spinner there.
    const width = (this.io.stderr as { columns?: number }).columns;
    if (!(typeof width === 'number' && width > 0)) return work();
    const [{ default: ora }, { isUtf8Locale }] = await Promise.all([import('ora'), import('./output/bars.js')]);
    // In a locale that is not UTF-8 (LANG=C) the pictures draw in ASCII: so does the spinner (its braille frames and
    // "…" arrived as UTF-8 bytes).
    const ascii = !isUtf8Locale(this.env);
    const base = ascii ? sanitizeForTerminal(text).replace(/…/g, '...') : sanitizeForTerminal(text);
    const spinner = ora({ text: base, stream: this.io.stderr as NodeJS.WritableStream & Writable, isEnabled: true, discardStdin: false, ...(ascii ? { spinner: 'line' as const } : {}) }).start();
    const outer = this.#spinner;
    this.#spinner = { base, set text(t: string) { spinner.text = t; }, get text() { return spinner.text; } };
    try {
      return await work();
    } finally {
      spinner.stop();
      this.#spinner = outer;
    }
  }

  /** A retry is coming: the spinner (if one shows) says so. */
  #retrying(note: string): void {
    const sp = this.#spinner;
    if (sp) sp.text = `${sp.base} ${this.redact(sanitizeForTerminal(note))}`;
  }

  onCleanup(fn: () => Promise<void> | void): void {
    this.#cleanups.push(fn);
  }

  async dispose(): Promise<void> {
    const fns = this.#cleanups.reverse();
    this.#cleanups = [];
    for (const fn of fns) {
      try {
        await fn();
      } catch {
        /* best effort */
      }
    }
  }

  /** The profile store, loaded on first use (conf is heavy; most runs never need it twice). */
  async configStore(): Promise<ConfigStore> {
    if (!this.#store) {
      const { ConfigStore } = await import('./config/store.js');
      this.#store = new ConfigStore(this.env.SRS_CONFIG_DIR || undefined);
    }
    return this.#store;
  }

  /** Profile, base URL and key after precedence (flags > env > stored profile); resolved once per run. */
  settings(): Promise<Settings> {
    this.#settings ??= this.#resolveSettings();
    return this.#settings;
  }

  async #resolveSettings(): Promise<Settings> {
    const flags = { ...(this.globals.profile !== undefined ? { profile: this.globals.profile } : {}), ...(this.globals.baseUrl !== undefined ? { baseUrl: this.globals.baseUrl } : {}) };
    // Scripts and CI usually pass everything in the environment: then the store
    // (conf, with a JSON-schema validator) is not worth loading at all.
    const fromEnv = resolveSettings({ flags, env: this.env, lookup: () => undefined });
    if (fromEnv.profileSource === 'flag' || fromEnv.profileSource === 'env') {
      const problem = profileNameProblem(fromEnv.profile);
      if (problem) throw new UsageError(`${fromEnv.profileSource === 'flag' ? '--profile' : 'SRS_PROFILE'} "${fromEnv.profile}" is not a usable profile name: ${problem}`);
    }
    if (fromEnv.apiKey && fromEnv.baseUrl && !flags.profile && !this.env.SRS_PROFILE) {
      this.addSecret(fromEnv.apiKey);
      if (fromEnv.baseUrlNote) this.info(fromEnv.baseUrlNote);
      return fromEnv;
    }
    const store = await this.configStore();
    const warning = store.permissionWarning();
    // A command that rewrites the file makes it private once it stores something (not when it fails before): said so,
    // beside the advice that holds either way.
    if (warning) this.warn(CONFIG_WRITERS.has(this.commandPath ?? '') ? `${warning} (or let this command rewrite it: it does so, 0600, once it stores anything)` : warning);
    // A hand-edited active profile ("../x") is checked like --profile and SRS_PROFILE, naming the file.
    const current = fromEnv.profileSource === 'flag' || fromEnv.profileSource === 'env' ? undefined : store.currentProfile;
    const currentProblem = typeof current === 'string' && current.trim() !== '' ? profileNameProblem(current.trim()) : undefined;
    if (currentProblem) throw new SrsError('runtime', ExitCode.failure, `config file ${store.path}: the active profile "${current}" is not a usable profile name (${currentProblem}); run "srs auth switch NAME" to choose a stored one`);
    const s = resolveSettings({
      flags,
      env: this.env,
      lookup: (name) => {
        const p = store.getProfile(name);
        const bad = badProfileField(p);
        if (bad !== undefined) {
          throw new SrsError('runtime', ExitCode.failure, `config file ${store.path}: profile "${name}"${bad ? ` has a ${bad} that is not text` : ' is not an object'}; fix the file by hand, or remove the profile "${name}" from it and run "srs auth login --profile ${name}"`);
        }
        return p;
      },
      ...(store.currentProfile !== undefined ? { currentProfile: store.currentProfile } : {}),
    });
    this.addSecret(s.apiKey);
    this.#addUrlPassword(s.baseUrl ?? undefined);
    if (s.baseUrlNote) this.info(s.baseUrlNote);
    if (s.keyStoredFor) this.#addUrlPassword(s.keyStoredFor);
    return s;
  }

  #warnedKeyElsewhere = false;

  /**
   * Said once, as the first request leaves (HttpOptions.beforeFirstRequest): a stored key going to a base URL it was
   * not stored for. Not by commands that send nothing (auth status, a dry run, an import refused by its journal, an
   * id refused after the client was made): "sending the API key ..." was false there. Not of a base URL the key will
   * never be sent to (plain http to another host, not http at all): that is refused before anything leaves.
   */
  async #keyElsewhereWarning(s: Settings): Promise<(() => void) | undefined> {
    if (!s.keyStoredFor) return undefined;
    if (!(await sendableBaseUrl(s.baseUrl, !!this.globals.insecureHttp))) return undefined;
    const message = `sending the API key of profile "${s.profile}", stored for ${showBaseUrl(s.keyStoredFor)}, to ${showBaseUrl(s.baseUrl!)} (${describeSource(s.baseUrlSource, 'baseUrl')}): if that is another service, set SRS_API_KEY to its key or use a profile stored for it (srs auth login --profile NAME --base-url URL)`;
    return () => {
      if (this.#warnedKeyElsewhere) return;
      this.#warnedKeyElsewhere = true;
      this.warn(message);
    };
  }

  /**
   * A profile named by --profile or SRS_PROFILE that is not stored, when it was to supply the base URL or the key:
   * a typo, said as auth switch says it (with the nearest names), not "run srs auth login" for a profile that never was.
   */
  async #noSuchProfile(s: Settings): Promise<void> {
    if (s.profileSource !== 'flag' && s.profileSource !== 'env') return;
    let names: string[];
    try {
      const store = await this.configStore();
      if (store.getProfile(s.profile) !== undefined) return;
      names = store.profileNames();
    } catch {
      return;
    }
    throw noSuchProfile(s.profile, names);
  }

  /** The password of a URL written user:password@host, masked like the key wherever srs prints the URL. */
  #addUrlPassword(url: string | undefined): void {
    const m = url === undefined ? null : /^[a-z][a-z0-9+.-]*:\/\/[^/@]*?:([^/@]+)@/i.exec(url.trim());
    if (!m) return;
    this.addSecret(m[1]);
    try {
      this.addSecret(decodeURIComponent(m[1]!));
    } catch {
      /* not percent-encoding: the raw spelling is masked */
    }
  }

  /**
   * A client setting from its flag, else its environment variable, and the name to blame when it is wrong (SRS_TIMEOUT=abc
   * was blamed on a --timeout nobody typed). An empty flag (a script's unset variable) is a mistake, not "no flag": it
   * hid the variable and the default ran. `raw` is undefined when neither gives a value.
   */
  #setting(flag: string | undefined, option: string, envName: string, needs: string): { raw: string | undefined; label: string } {
    if (flag !== undefined && flag.trim() === '') throw new UsageError(`${option} needs ${needs} (it was empty)`);
    const raw = flag ?? this.env[envName];
    return { raw: raw === '' ? undefined : raw, label: flag !== undefined ? option : envName };
  }

  timeoutMs(): number | undefined {
    const { raw, label } = this.#setting(this.globals.timeout, '--timeout', 'SRS_TIMEOUT', 'a duration such as 30s');
    if (raw === undefined) return undefined;
    const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(raw.trim());
    if (!m) throw new UsageError(`${label} must be a duration such as 30s or 500ms (got "${raw}")`);
    const ms = m[2] === 'ms' ? Number(m[1]) : Number(m[1]) * 1000;
    // Node's timers hold at most 2^31-1 ms (~24.8 days); 0 would fail every request at once.
    if (ms < 1 || ms > MAX_TIMEOUT_MS) throw new UsageError(`${label} must be from 1ms to 2147483s (the longest a timer holds, about 24.8 days; got "${raw}")`);
    return ms;
  }

  retries(): number | undefined {
    const { raw, label } = this.#setting(this.globals.retries, '--retries', 'SRS_RETRIES', 'a whole number from 0 to 20');
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) > 20) throw new UsageError(`${label} must be a whole number from 0 to 20 (got "${raw}")`);
    return Number(raw);
  }

  /** --max-pages (env SRS_MAX_PAGES): more pages than this in one list is an error. Default 10,000. */
  maxPages(): number {
    const { raw, label } = this.#setting(this.globals.maxPages, '--max-pages', 'SRS_MAX_PAGES', 'a whole number >= 1');
    if (raw === undefined) return DEFAULT_PAGE_LIMIT;
    const n = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${label} must be a whole number >= 1 (got "${raw}")`);
    return n;
  }

  /**
   * The supplier catalog's file and where that choice came from: --catalog PATH, else SRS_CATALOG, else
   * DATA_DIR/catalog.db; undefined when it is off (--no-catalog, or SRS_CATALOG=off). Checked (a path the user
   * named must have its directory) by catalogPathOf in src/commands/supplier/catalog-access.ts.
   */
  catalogSetting(): { path: string; from: '--catalog' | 'SRS_CATALOG' | 'default' } | undefined {
    const flag = this.globals.catalog;
    if (flag === false) return undefined;
    if (typeof flag === 'string') {
      if (flag.trim() === '') throw new UsageError('--catalog needs a file path (or --no-catalog to turn the catalog off)');
      if (isOffWord(flag)) return undefined;
      return { path: flag, from: '--catalog' };
    }
    const env = this.env.SRS_CATALOG;
    if (env !== undefined && env !== '') return isOffWord(env) ? undefined : { path: env, from: 'SRS_CATALOG' };
    return { path: join(dataDir(this.env), 'catalog.db'), from: 'default' };
  }

  /** The service and account this run talks to (the sandbox is its own target). Reads the settings; sends nothing. */
  async target(): Promise<Target> {
    const { SANDBOX_TARGET, targetFor } = await import('./api/target.js');
    if (this.sandbox) {
      // The sandbox's state, by the identity it was made with: the catalog and journals of one sandbox state never
      // answer for another (a deleted state, another user's data directory with a shared --catalog). Read once a run.
      return (this.#sandboxTarget ??= (async () => {
        const path = await this.#sandboxStatePath();
        const [{ StateDb }, { DEFAULT_SEED, DEFAULT_SUPPLIERS }] = await Promise.all([import('./emulator/state.js'), import('./emulator/index.js')]);
        let state: ReturnType<typeof StateDb.open>;
        try {
          state = StateDb.open(path, { seed: DEFAULT_SEED, suppliers: DEFAULT_SUPPLIERS });
        } catch (e) {
          throw sandboxStateError(e, path);
        }
        const instance = state.instance;
        state.close();
        return { baseUrl: SANDBOX_TARGET.baseUrl, account: `sandbox-${instance.replace(/-/g, '').slice(0, 12)}` };
      })());
    }
    const s = await this.settings();
    if (!s.baseUrl || !s.apiKey) await this.#noSuchProfile(s);
    if (!s.baseUrl) throw new UsageError(`no base URL for profile "${s.profile}": run "srs auth login --base-url URL", set SRS_BASE_URL, or try --sandbox`);
    if (!s.apiKey) throw new AuthError(`no API key for profile "${s.profile}": run "srs auth login" or set SRS_API_KEY (or try --sandbox)`);
    this.#checkKey(s);
    return targetFor(s.baseUrl, s.apiKey);
  }

  /**
   * The API client, created once: from settings, or against an in-process
   * emulator under --sandbox. `connections` sizes its keep-alive pool (at least
   * 16) for commands that keep many requests in flight; `longRun` is for commands
   * that send thousands of requests (HttpOptions.optimizeParser).
   */
  client(opts: { connections?: number; longRun?: boolean } = {}): Promise<ApiClient> {
    this.#client ??= this.#makeClient(Math.max(16, opts.connections ?? 0), opts.longRun ?? false);
    return this.#client;
  }

  /**
   * A new API client for a base URL and key with this run's settings (timeout,
   * retries, --debug trace, --insecure-http). The caller closes it; client()
   * is the run's shared one.
   */
  async newClient(baseUrl: string, apiKey: string, connections = 16, longRun = false, beforeFirstRequest?: () => void): Promise<ApiClient> {
    const { ApiClient } = await import('./api/client.js');
    let first = beforeFirstRequest;
    if (this.globals.insecureHttp) {
      const { checkBaseUrl, exposesKey } = await import('./api/http.js');
      const url = checkBaseUrl(baseUrl, true);
      // Allowed, never silent: the key crosses the network readable by anyone on its path. Said as the first request
      // leaves, as the warning about a stored key sent elsewhere is (an import refused by its journal sent nothing).
      if (exposesKey(url)) {
        const before = first;
        first = () => {
          before?.();
          this.warn(`sending the API key over plain http to ${url.host} (--insecure-http): anyone on the network path can read it`);
        };
      }
    }
    const timeoutMs = this.timeoutMs();
    const retries = this.retries();
    return new ApiClient({
      baseUrl,
      apiKey,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(retries !== undefined ? { retry: { retries } } : {}),
      ...(this.debugEnabled ? { trace: (line: string) => this.debug(line) } : {}),
      onRetry: (note: string) => this.#retrying(note),
      insecureHttp: !!this.globals.insecureHttp,
      userAgent: 'srs-cli',
      connections,
      optimizeParser: longRun,
      ...(first ? { beforeFirstRequest: first } : {}),
    });
  }

  /** A key that cannot be sent (see keyProblem) ends the run at once, exit 4, naming where it came from (never the key). */
  #checkKey(s: Settings): void {
    const problem = s.apiKey === undefined ? undefined : keyProblem(s.apiKey);
    if (problem) throw new AuthError(`the API key from ${describeSource(s.apiKeySource, 'apiKey')} ${problem}; set it again (srs auth login, or SRS_API_KEY)`);
  }

  #sandboxState: Promise<string> | undefined;
  #sandboxTarget: Promise<Target> | undefined;

  /** The sandbox's state file (DATA_DIR/sandbox-state.db), its directory made and an older JSON state migrated, once a run. */
  #sandboxStatePath(): Promise<string> {
    return (this.#sandboxState ??= (async () => {
      const [{ privateDir }, { SANDBOX_STATE_FILE, migrateLegacySandboxState }] = await Promise.all([import('./util/fs.js'), import('./emulator/state.js')]);
      const dir = dataDir(this.env);
      privateDir(dir, !this.env.SRS_DATA_DIR, 'data directory (set by SRS_DATA_DIR, else XDG_DATA_HOME)');
      const migrated = migrateLegacySandboxState(dir);
      if (migrated) this.info(migrated);
      return join(dir, SANDBOX_STATE_FILE);
    })());
  }

  async #makeClient(connections: number, longRun: boolean): Promise<ApiClient> {
    let baseUrl: string;
    let apiKey: string;
    // The warning about where a stored key goes, said as the first request leaves (none for the sandbox).
    let firstRequest: (() => void) | undefined;
    if (this.sandbox) {
      // Never reads the config store: a stored profile's real key is never touched.
      const { startEmulator } = await import('./emulator/index.js');
      // node:crypto costs ~9 ms to load: only the sandbox needs it here.
      const { randomBytes } = await import('node:crypto');
      apiKey = randomBytes(24).toString('hex');
      this.addSecret(apiKey);
      const statePath = await this.#sandboxStatePath();
      const emu = await startEmulator({ port: 0, apiKey, statePath }).catch((e: unknown) => {
        throw sandboxStateError(e, statePath);
      });
      this.onCleanup(() => emu.close());
      this.debug(`sandbox emulator on ${emu.url}, state in ${statePath}`);
      baseUrl = emu.url;
    } else {
      const s = await this.settings();
      if (!s.baseUrl || !s.apiKey) await this.#noSuchProfile(s);
      if (!s.baseUrl) {
        throw new UsageError(`no base URL for profile "${s.profile}": run "srs auth login --base-url URL", set SRS_BASE_URL, or try --sandbox`);
      }
      if (!s.apiKey) {
        const store = await this.configStore();
        const others = store.profileNames().filter((n) => n !== s.profile && store.getProfile(n)?.apiKey);
        const hint = others.length ? `, or switch to a profile that has one ("srs auth switch ${others[0]}"; stored: ${others.join(', ')})` : ' (or try --sandbox)';
        throw new AuthError(`no API key for profile "${s.profile}": run "srs auth login" or set SRS_API_KEY${hint}`);
      }
      this.#checkKey(s);
      firstRequest = await this.#keyElsewhereWarning(s);
      baseUrl = s.baseUrl;
      apiKey = s.apiKey;
    }
    const client = await this.newClient(baseUrl, apiKey, connections, longRun, firstRequest);
    if (!this.io.exitsAfter) this.onCleanup(() => client.close());
    return client;
  }
}

/** Whether srs would send the key to this base URL (checkBaseUrl accepts it). */
async function sendableBaseUrl(baseUrl: string | null | undefined, insecureHttp: boolean): Promise<boolean> {
  if (!baseUrl) return false;
  try {
    (await import('./api/http.js')).checkBaseUrl(baseUrl, insecureHttp);
    return true;
  } catch {
    return false;
  }
}
