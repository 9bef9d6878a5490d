/**
 * Builds the Commander program (global options and the command tree) and is
 * the one place that turns errors into exit codes and error lines.
 * Run functions are loaded lazily, so `srs --version` loads almost nothing.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { Context, truthy, type Env, type GlobalOptions, type IO } from './context.js';
import { AuthError, ExitCode, jsonErrors, REJECTED_KEY_ADVICE, SrsError, UsageError, isSrsError, isTooDeep, tooDeep } from './errors.js';
import { maskKey } from './config/resolve.js';
import { OUTPUT_FORMATS } from './output/render.js';
import { sanitizeForTerminal, sanitizeKeepNewlines } from './output/sanitize.js';
import { collect, type Handler, type Invoke } from './commands/kit.js';
import { makeRedactor } from './util/redact.js';
import { authCommand } from './commands/auth/index.js';
import { dataEntryCommand } from './commands/data-entry/index.js';
import { emissionsCommand } from './commands/emissions/index.js';
import { emulatorCommand } from './commands/emulator/index.js';
import { newsCommand } from './commands/news/index.js';
import { refCommand } from './commands/ref/index.js';
import { scoreCommand } from './commands/score/index.js';
import { scorecardsCommand } from './commands/scorecards/index.js';
import { supplierCommand } from './commands/supplier/index.js';
import { completionCommand } from './commands/completion/index.js';
import { helpCommand } from './commands/help/index.js';
import { apiCommand } from './commands/api/index.js';
import { schemaCommand } from './commands/schema/index.js';

declare const SRS_VERSION: string | undefined;
export const VERSION = typeof SRS_VERSION === 'string' ? SRS_VERSION : '0.0.0-dev';

export const HELP_WIDTH = 80;

/** The top-level commands by name, in help order. */
export const TOP_COMMANDS: ReadonlyArray<readonly [string, (invoke: Invoke) => Command]> = [
  ['supplier', supplierCommand],
  ['scorecards', scorecardsCommand],
  ['score', scoreCommand],
  ['emissions', emissionsCommand],
  ['news', newsCommand],
  ['data-entry', dataEntryCommand],
  ['ref', refCommand],
  ['auth', authCommand],
  ['emulator', emulatorCommand],
  ['completion', completionCommand],
  ['help', helpCommand],
  ['api', apiCommand],
  ['schema', schemaCommand],
];

/**
 * The whole command tree, or with `only` (a top-level command name) the root and that command's
 * subtree: what main() builds when argv names a command (see commandToBuild).
 */
export function buildProgram(invoke: Invoke, only?: string): Command {
  const program = new Command('srs')
    .description('Supplier Responsibility Assessment Service from the command line: suppliers, scorecards, scores, emissions, news and reference data')
    .version(VERSION, '-V, --version', 'print the version (before any command: srs --version)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, json otherwise)').choices(OUTPUT_FORMATS))
    .option('--fields <paths>', 'the fields to show (table and csv columns; json and ndjson keep only them): comma-separated, e.g. id,name; a dot reaches a nested field')
    .option('--query <jmespath>', 'filter and reshape the output with a JMESPath expression, e.g. "[?regionName==\'Europe\'].iso3Code"')
    .option('--profile <name>', 'configuration profile to use (env SRS_PROFILE)')
    .option('--base-url <url>', 'service base URL (env SRS_BASE_URL)')
    .option('--sandbox', 'run against an in-process emulator with local state; no account needed (env SRS_SANDBOX=1)')
    .option('--timeout <duration>', 'time allowed for each request attempt as a whole, e.g. 30s or 500ms (env SRS_TIMEOUT; default 30s)')
    .option('--retries <n>', 'retries for safe requests after a transient failure (env SRS_RETRIES; default 3)')
    .option('--max-pages <n>', 'a list with more pages than this is an error, not an endless wait (env SRS_MAX_PAGES; default 10000)')
    .option('--insecure-http', 'allow sending the API key over plain http to a non-loopback host')
    .option('--csv-raw', 'do not guard CSV cells against spreadsheet formula injection')
    .option('--csv-bom', 'start CSV output (and an import\'s --report file) with a UTF-8 byte order mark, so Excel opens non-ASCII names right (env SRS_CSV_BOM=1)')
    .option('--wide', 'tables show every column, even when they are wider than the terminal')
    .option('-q, --quiet', 'no notes or warnings that are not problems on stderr (errors still show)')
    .option('--catalog <path>', 'the local supplier catalog file (env SRS_CATALOG; default DATA_DIR/catalog.db)')
    .option('--no-catalog', 'do not read or write the local supplier catalog (env SRS_CATALOG=off)')
    .option('--no-color', 'no colour (also when NO_COLOR is set, TERM=dumb or FORCE_COLOR=0; each stream is coloured only on a terminal)')
    .option('--debug', 'trace requests and show error detail on stderr (the API key is redacted)')
    .showSuggestionAfterError(true)
    .enablePositionalOptions(false)
    .addHelpText(
      'after',
      `
Examples:
  $ srs --sandbox ref countries --limit 5
  $ srs --sandbox supplier create --name "Embudo Valley Organics" --country USA
  $ srs auth login --base-url https://api.example.com
  $ srs scorecards ls -o json | jq '.[].name'

Exit codes: 0 ok, 1 API/network/runtime failure, 2 usage or invalid input,
3 check failed, 4 authentication, 129 hung up (SIGHUP), 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM).`,
    );

  for (const [name, make] of TOP_COMMANDS) {
    if (only === undefined || only === name) program.addCommand(make(invoke));
  }
  // Every subcommand's help lists the global options it inherits (gh's "INHERITED FLAGS").
  for (const sub of allCommands(program)) sub.configureHelp({ ...sub.configureHelp(), showGlobalOptions: true });
  return program;
}

/**
 * The top-level command argv runs, when that is certain: the first word that is neither a global
 * option nor its value, if it names a command (not help, which walks the tree). Otherwise undefined:
 * the whole tree is built (root help, an unknown command's suggestions, an unknown option's error).
 * Building one subtree instead of thirteen: buildProgram went from 6.4% to 3.8% of the samples of
 * a `srs supplier get` (node --cpu-prof, 5 runs each).
 */
export function commandToBuild(argv: readonly string[], root: Command): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--' || a === '-') return undefined;
    if (!a.startsWith('-')) return TOP_COMMANDS.some(([n]) => n === a) && a !== 'help' ? a : undefined;
    const width = optionWidth(a, root.options);
    if (width === undefined) return undefined;
    i += width - 1;
  }
  return undefined;
}

/**
 * Commander reads the root's options anywhere in argv, also inside a value that starts with a dash: `supplier
 * create --name "-quiet Ltd"` created "-uiet Ltd" (-q read as --quiet and the rest kept as the name), and
 * `--name -Vortex` printed the version and exited 0 having created nothing. So a value that follows an option
 * taking one is joined to it (`--name=-quiet Ltd`, `-o-x`), which Commander reads as that option's value and
 * nothing else; one that is itself an option of srs, or `--`, is then refused by notAnOption. After a command that runs (not a group such as
 * `supplier`, whose mistyped verb Commander names), -V/--version, alone or in a group of short flags (`-qV`), is
 * refused rather than acted on, and an argument that starts with a dash and is no option (`-quiet`, which
 * Commander reported as "unknown option '-uiet'") is told to go after `--`.
 */
export function bindOptionValues(argv: readonly string[], program: Command): string[] {
  const out: string[] = [];
  let cmd: Command = program;
  // A word after a group (`supplier craete`) that names none of its commands: Commander reports it, with the closest
  // name, unless a -V after it prints the version first (exit 0).
  let mistypedVerb = false;
  // An option no command here knows: the run fails on it. Commander then also reads a -h or --help after `--` as a
  // request for help and shows it with exit 0, hiding the typo (`--contry X -- --help`).
  let unknownOption = false;
  const chain = (): Option[] => {
    const opts: Option[] = [];
    for (let c: Command | null = cmd; c; c = c.parent) opts.push(...c.options);
    return opts;
  };
  const optionOf = (a: string): Option | undefined => chain().find((x) => x.long === a || x.short === a);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...(unknownOption ? argv.slice(i).filter((x) => x !== '-h' && x !== '--help') : argv.slice(i)));
      break;
    }
    if (a.length > 1 && a.startsWith('-')) {
      const runs = cmd !== program && cmd.commands.length === 0;
      const path = commandPath(cmd);
      // The root's -V (the command's own -V, if it had one, would be its option).
      const version = a === '--version' || (/^-[A-Za-z]*V/.test(a) && !a.startsWith('--') && !cmd.options.some((o) => o.short === '-V'));
      if (version && mistypedVerb) continue;
      if (version && cmd !== program) {
        throw new UsageError(
          a === '--version' || a === '-V' || /^-[qh]*V$/.test(a)
            ? `${a}: -V/--version goes before any command: srs --version prints the version`
            : `${a} is not an option of "${path}": a value that starts with a dash goes after --, e.g. ${path} -- ${a}`,
        );
      }
      const opt = optionOf(a);
      const next = argv[i + 1];
      if (opt && (opt.required || opt.optional) && !opt.variadic && next !== undefined) {
        if (opt.required && next.length > 1 && next.startsWith('-')) {
          out.push(a.startsWith('--') ? `${a}=${next}` : `${a}${next}`);
          i++;
          continue;
        }
        if (!next.startsWith('-') || next === '-') {
          // The option's value: never taken for a command's name below.
          out.push(a, next);
          i++;
          continue;
        }
      }
      // A single-dash word that is no group of this command's short flags (and no negative number).
      const strayShort = !a.startsWith('--') && !/^-\d/.test(a) && shortGroupWidth(a, chain()) === undefined;
      if (strayShort || (a.startsWith('--') && a !== '--help' && !optionOf(a.split('=')[0]!))) unknownOption = true;
      if (runs && strayShort) {
        throw new UsageError(`${a} is not an option of "${path}": an argument that starts with a dash goes after --, e.g. ${path} -- ${a}`);
      }
      out.push(a);
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (sub) cmd = sub;
    else if (cmd.commands.length > 0 && cmd !== program) mistypedVerb = true;
    out.push(a);
  }
  return out;
}

/**
 * How many words a group of short flags (`-q`, `-qo json`, `-ojson`, `-o-x`) takes among `options`: 1, or 2 when
 * its last flag takes a value that is the next word; undefined when one of its letters is no option.
 */
function shortGroupWidth(a: string, options: readonly Option[]): 1 | 2 | undefined {
  for (let i = 1; i < a.length; i++) {
    // -h is Commander's help option, which is not among a command's options.
    if (a[i] === 'h') continue;
    const o = options.find((x) => x.short === `-${a[i]}`);
    if (!o) return undefined;
    // A flag that takes a value takes the rest of the group, or the next word.
    if (o.required || o.optional) return i === a.length - 1 ? 2 : 1;
  }
  return 1;
}

/**
 * How many words the option word `a` takes among `options` (1, or 2 when its value is the next word);
 * undefined when none of them is `a` (Commander stores --no-x as its long name).
 */
function optionWidth(a: string, options: readonly Option[]): 1 | 2 | undefined {
  const long = a.startsWith('--');
  // A group of short flags: `-qo json` takes the next word (it was read as -q alone, and "json" as the command).
  if (!long) return shortGroupWidth(a, options);
  const flag = a.split('=')[0]!;
  const opt = options.find((o) => o.long === flag || o.short === flag);
  if (!opt) return undefined;
  const inlineValue = long ? a.includes('=') : a.length > 2;
  return (opt.required || opt.optional) && !inlineValue ? 2 : 1;
}

/**
 * Whether argv asks for help (--help, -h) below a word that names no command where a command is expected
 * (a level with subcommands that takes no arguments of its own). Options and their values are skipped.
 */
export function unknownCommandBeforeHelp(argv: readonly string[], program: Command): boolean {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  if (!words.includes('--help') && !words.includes('-h')) return false;
  let cmd = program;
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!;
    if (a.startsWith('-') && a !== '-') {
      i += (optionWidth(a, [...cmd.options, ...program.options]) ?? 1) - 1;
      continue;
    }
    if (!cmd.commands.length || cmd.registeredArguments.length) return false;
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) return a !== 'help';
    cmd = sub;
  }
  return false;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The output format the user chose explicitly, read from argv before Commander
 * parses it (a parse error must know it too): -o/--output (also -oFMT,
 * --output=FMT, -qo FMT), else SRS_OUTPUT. undefined when none was chosen.
 */
export function chosenOutput(argv: readonly string[], env: Env): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--output') found = argv[i + 1];
    else if (a.startsWith('--output=')) found = a.slice('--output='.length);
    else {
      // -o FMT, -oFMT, and -o in a group of short flags: -qo FMT, -qoFMT (Commander reads each the same way).
      const m = /^-[qhV]*o(.*)$/.exec(a);
      if (m) found = m[1] ? m[1] : argv[i + 1];
    }
  }
  return found ?? (env.SRS_OUTPUT || undefined);
}


/**
 * A key the service rejected (401, 403), said with where that key came from: "run srs auth login or set
 * SRS_API_KEY" sent a user whose SRS_API_KEY held a stale key to log in, after which the same key was
 * rejected again (the environment wins over a stored profile).
 */
async function withKeyAdvice(ctx: Context, e: unknown): Promise<unknown> {
  const generic = REJECTED_KEY_ADVICE;
  if (!(e instanceof AuthError) || !e.message.endsWith(generic) || ctx.sandbox) return e;
  let advice: string;
  try {
    const s = await ctx.settings();
    const key = maskKey(s.apiKey);
    advice =
      s.apiKeySource === 'env'
        ? `; the key came from SRS_API_KEY (${key}), which wins over any stored profile: set it to a valid key, or unset it to use profile "${s.profile}"`
        : s.apiKeySource === 'profile'
          ? `; the key is the one stored for profile "${s.profile}" (${key}): run "srs auth login${s.profile === 'default' ? '' : ` --profile ${s.profile}`}" to store another`
          : generic;
  } catch {
    return e;
  }
  return new AuthError(e.message.slice(0, -generic.length) + advice, { ...(e.status !== undefined ? { status: e.status } : {}), ...(e.detail !== undefined ? { detail: e.detail } : {}) });
}

/** Prints an error: one line, or one JSON object when json or ndjson output was chosen (format "json"). */
export function reportError(
  err: unknown,
  io: IO,
  format: string | undefined,
  debug: boolean,
  redact: (s: string) => string = (s) => s,
  paint: (s: string) => string = (s) => s,
): number {
  const e: SrsError = isSrsError(err)
    ? err
    : isTooDeep(err)
      ? tooDeep(err)
      : (err as { code?: unknown } | null)?.code === 'ERR_SQLITE_ERROR'
        ? // A catalog or sandbox state damaged after it opened ("database disk image is malformed" in supplier ls).
          new SrsError('runtime', ExitCode.failure, `a local database of srs (the supplier catalog, or the sandbox's state) cannot be used: ${(err as Error).message}; the service is not affected: move the file away (or use --catalog, --no-catalog) to go on`, { detail: (err as Error).stack })
        : new SrsError('runtime', ExitCode.failure, `unexpected error: ${(err as Error)?.message ?? String(err)}`, { detail: (err as Error)?.stack });
  const status = (e as { status?: number }).status;
  // Messages can carry the service's own text: untrusted, so no escape sequence reaches a terminal.
  const oneLine = redact(sanitizeForTerminal(e.message.replace(/\s*\n\s*/g, ' ')));
  const cause = (e as { cause?: unknown }).cause;
  const causeText = cause ? ((cause as Error)?.stack ?? String(cause)) : undefined;
  if (jsonErrors(format)) {
    // --debug's detail and cause go inside the one JSON object (plain lines after it broke a reader of JSON lines).
    const more = debug ? { ...(e.detail ? { detail: redact(sanitizeKeepNewlines(e.detail)) } : {}), ...(causeText ? { cause: redact(sanitizeKeepNewlines(causeText)) } : {}) } : {};
    io.stderr.write(JSON.stringify({ error: { code: e.code, message: oneLine, ...(status !== undefined ? { status } : {}), exitCode: e.exitCode, ...more } }) + '\n');
    return e.exitCode;
  }
  io.stderr.write(`${paint('srs:')} ${oneLine}\n`);
  if (debug) {
    if (e.detail) io.stderr.write(redact(sanitizeKeepNewlines(`detail: ${e.detail}`)) + '\n');
    if (causeText) io.stderr.write(redact(sanitizeKeepNewlines(`cause: ${causeText}`)) + '\n');
  }
  return e.exitCode;
}

/**
 * A Commander parse error as one line: "error: " dropped, its "(Did you mean
 * x?)" line folded in, and where to find the usage when there is no suggestion.
 */
export function parseErrorLine(text: string, path: string): string {
  const lines = text.replace(/^error:\s*/, '').split('\n').map((l) => l.trim()).filter(Boolean);
  const [first = 'invalid arguments', ...rest] = lines;
  const hint = rest.map((l) => l.replace(/^\(Did you mean (.*)\?\)$/, 'did you mean $1?'));
  // `srs version` (as in `go version`, `kubectl version`): the flag, which no command name suggests.
  if (!hint.length && /^unknown command '(version|ver)'$/.test(first)) hint.push(`did you mean ${path} --version?`);
  return hint.length ? `${first} (${hint.join('; ')})` : `${first} (see "${path} --help")`;
}

/** Runs srs with the given argv (without node and script), streams and environment. Returns the exit code. */
export async function main(argv: string[], io: IO, env: Env): Promise<number> {
  // Errors are JSON only when json or ndjson was chosen explicitly (not because stdout is piped).
  let formatHint: string | undefined = chosenOutput(argv, env);
  const json = jsonErrors(formatHint);
  let debug = truthy(env.SRS_DEBUG);
  // Until a command's context exists (Commander's own errors quote what was typed), the key in the environment is masked.
  const early = makeRedactor();
  early.add(env.SRS_API_KEY);
  let redact: (s: string) => string = (s) => early.redact(s);
  let paintErr: (s: string) => string = (s) => s;

  const invoke: Invoke = (load: () => Promise<Handler>) =>
    async (...actionArgs: unknown[]) => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      const positional = (actionArgs.slice(0, -2) as Array<string | string[] | undefined>).flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? a : [a]));
      const globals = command.optsWithGlobals<GlobalOptions>();
      formatHint = globals.output ?? env.SRS_OUTPUT ?? formatHint;
      debug = debug || !!globals.debug;
      const ctx = new Context(io, env, globals);
      ctx.commandPath = commandPath(command).replace(/^srs /, '');
      ctx.commandTree = () => buildProgram(() => async () => undefined);
      redact = (s) => ctx.redact(s);
      paintErr = (s) => ctx.paintErr.red(s);
      try {
        await ctx.prepare();
        const handler = await load();
        await handler(ctx, positional, command.opts());
      } catch (e) {
        throw await withKeyAdvice(ctx, e);
      } finally {
        await ctx.dispose();
      }
    };

  const program = buildProgram(invoke, commandToBuild(argv, buildProgram(invoke, '')));
  // Commander's own errors (unknown option or command, a bad choice) are kept and reported below, like every other error.
  let parseError: { text: string; path: string } | undefined;
  // Every command: errors come back to main() (one place for exit codes), output goes to our streams, and
  // help is wrapped at 80 columns, so the root help can be generated at build time (dist/help.txt).
  for (const cmd of [program, ...allCommands(program)]) {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (s: string) => void io.stdout.write(s),
      // Help shown for a usage error (a noun without its verb) goes to stderr; under JSON errors only the JSON does.
      writeErr: (s: string) => void (json ? undefined : io.stderr.write(s)),
      outputError: (s: string) => void (parseError = { text: s, path: commandPath(cmd) }),
    });
    cmd.configureHelp({ ...cmd.configureHelp(), helpWidth: HELP_WIDTH });
  }
  // The flags of the subtree built, and only when a value looks like none of them, those of every command (building
  // the whole tree costs start-up, and a value that starts with a dash is rare): `--report --all` wrote a file "--all".
  const flags = optionFlags(program);
  let everyFlag: ReadonlySet<string> | undefined;
  const isSrsFlag = (v: string): boolean => {
    const w = v.split('=')[0]!;
    return v === '--' || (v.startsWith('-') && (flags.has(w) || (everyFlag ??= optionFlags(buildProgram(() => async () => undefined))).has(w)));
  };
  for (const opt of program.options) notAnOption(opt, isSrsFlag);
  for (const sub of allCommands(program)) {
    for (const opt of sub.options) {
      // givenOnce first: it knows a repeatable option by its parser (collect), which notAnOption wraps.
      givenOnce(opt);
      notAnOption(opt, isSrsFlag);
    }
  }
  for (const sub of allCommands(program)) {
    if (sub.commands.length > 0 && !(sub as unknown as { _actionHandler?: unknown })._actionHandler) {
      // A noun without a verb is a usage error naming its verbs (exit 2); a mistyped verb gets a suggestion.
      sub.allowExcessArguments(true);
      // The verb's options reach the noun when the verb is mistyped (`supplier craete --name x`): they are not the
      // error, the verb is. An option before any verb is still an unknown option.
      sub.allowUnknownOption(true);
      sub.action(() => {
        const first = sub.args[0];
        if (first?.startsWith('-')) (sub.allowUnknownOption(false) as unknown as { unknownOption(flag: string): never }).unknownOption(first);
        if (first !== undefined) (sub as unknown as { unknownCommand(): never }).unknownCommand();
        // One line, as every usage error (the whole help on stderr, 93 lines for `srs score`, buried it).
        throw new UsageError(`"${commandPath(sub)}" needs a subcommand: ${sub.commands.map((c) => c.name()).join(', ')} (${commandPath(sub)} --help describes them)`);
      });
    }
  }

  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    // `srs nosuch --help` would show the root's help and exit 0: a mistyped command is the same error with or without it.
    const bound = bindOptionValues(argv, program);
    await program.parseAsync(unknownCommandBeforeHelp(bound, program) ? bound.filter((a) => a !== '--help' && a !== '-h') : bound, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Global options and no command (`srs -o json`, `srs --sandbox`): help on stderr (not under JSON errors) and exit 2,
      // as for a noun without its verb; it was exit 0, and under -o json nothing at all.
      if (err.code === 'commander.help' && err.exitCode !== 0) {
        return reportError(new UsageError(`a command is needed: ${program.commands.map((c) => c.name()).filter((n) => n !== 'help').join(', ')} (see "srs --help")`), io, formatHint, debug, redact, paintErr);
      }
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      const line = parseErrorLine(parseError?.text ?? err.message, parseError?.path ?? 'srs');
      await junitNotEvaluated(argv, line, redact);
      return reportError(new UsageError(line), io, formatHint, debug, redact, paintErr);
    }
    // A reader that went away (srs ... | head) is not a failure.
    if ((err as NodeJS.ErrnoException)?.code === 'EPIPE') return ExitCode.ok;
    if (err instanceof UsageError) await junitNotEvaluated(argv, err.message, redact);
    return reportError(err, io, formatHint, debug, redact, paintErr);
  }
}

/**
 * `score check ... --junit FILE` stopped by a usage error before the check could write its file (an unknown option,
 * a bad --fields): an earlier run's passing report would stay for a CI test reporter to publish. A file that is
 * already a JUnit report is replaced with one <error>; nothing else is ever written here (the path may be a mistake:
 * the command's own checks of it have not run).
 */
async function junitNotEvaluated(argv: string[], message: string, redact: (s: string) => string): Promise<void> {
  const at = argv.indexOf('score');
  if (at < 0 || argv[at + 1] !== 'check') return;
  let file: string | undefined;
  argv.forEach((a, i) => {
    if (a === '--junit' && i + 1 < argv.length) file = argv[i + 1];
    else if (a.startsWith('--junit=')) file = a.slice('--junit='.length);
  });
  if (!file) return;
  const { replaceJunitReport } = await import('./commands/score/junit.js');
  replaceJunitReport(file, redact(`not evaluated: ${message}`));
}

/** Every option flag of srs (long and short, every command's and the global ones, --help and --version too). */
function optionFlags(program: Command): Set<string> {
  const flags = new Set(['--help', '-h', '--version', '-V']);
  for (const cmd of [program, ...allCommands(program)]) {
    for (const o of cmd.options) {
      if (o.long) flags.add(o.long);
      if (o.short) flags.add(o.short);
    }
  }
  return flags;
}

/**
 * An option's value that is another option of srs is an option whose value was left out: Commander took the next
 * word as the value, so `supplier import f.csv --report --dry-run` imported for real and wrote its report to a file
 * named --dry-run, and `supplier create --customer-id --allow-existing` created a supplier with that id. Refused
 * (exit 2), naming the option that lost its value.
 */
function notAnOption(opt: Option, isSrsFlag: (value: string) => boolean): void {
  if (!(opt.required || opt.optional)) return;
  const parse = opt.parseArg;
  opt.argParser((value: string, previous: unknown) => {
    if (isSrsFlag(value)) throw new InvalidArgumentError(`${value} is ${value === '--' ? 'the end of the options' : 'an option'}: ${opt.long ?? opt.flags} needs a value before it`);
    return parse ? parse.call(opt, value, previous) : value;
  });
}

/**
 * A command's option that takes one value refuses a second, different one (Commander keeps the last):
 * `score check --ids-file bad.txt --ids-file good.txt` checked good.txt only and passed, and
 * `--max-risk Low --max-risk High` gated on High. Repeatable options (collect) and the global options
 * (-o, --profile, ...: an alias such as `srs -o json` may be overridden) are left as they are.
 */
function givenOnce(opt: Option): void {
  if (opt.variadic || !(opt.required || opt.optional) || opt.parseArg === collect) return;
  const parse = opt.parseArg;
  let first: string | undefined;
  opt.argParser((value: string, previous: unknown) => {
    // A secret (the emulator's --api-key) is not repeated back: "given twice" is enough to see the mistake.
    const secret = /key/i.test(opt.long ?? '');
    if (first !== undefined && value !== first) throw new InvalidArgumentError(secret ? 'given twice, with different values: give it once' : `given twice ("${first}", then "${value}"): give it once`);
    first = value;
    return parse ? parse.call(opt, value, previous) : value;
  });
}

function* allCommands(cmd: Command): Generator<Command> {
  for (const c of cmd.commands) {
    yield c;
    yield* allCommands(c);
  }
}
