/**
 * The srs(1) man page (roff, man macros) generated from the same Commander
 * tree as --help and the completion scripts: NAME, SYNOPSIS, DESCRIPTION
 * (with the global options), COMMANDS (each command's usage, description,
 * arguments, options and examples), ENVIRONMENT, EXIT STATUS, FILES.
 */
import type { Command, Help, Option } from 'commander';

export interface ManOptions {
  version: string;
}

/** The environment variables srs reads (README, "Configuration"). */
export const ENVIRONMENT: ReadonlyArray<readonly [string, string]> = [
  ['SRS_API_KEY', 'API key (beats the stored profile). There is no flag that takes the key.'],
  ['SRS_BASE_URL', 'Service base URL, e.g. https://api.example.com.'],
  ['SRS_PROFILE', 'Profile name (default: the active profile, "default" until srs auth switch chooses another).'],
  ['SRS_OUTPUT', 'Default output format: table, json, ndjson or csv (json or ndjson also make errors JSON).'],
  ['SRS_QUIET', 'Set to 1: same as --quiet.'],
  ['SRS_CSV_BOM', 'Set to 1: same as --csv-bom (CSV output and an import\'s --report file start with a UTF-8 byte order mark, for Excel).'],
  ['COLUMNS', 'Width tables fit (default: the terminal\'s).'],
  ['SRS_SANDBOX', 'Set to 1: same as --sandbox.'],
  ['SRS_TIMEOUT', 'Time each request attempt may take as a whole (connect, headers and body), e.g. 30s or 500ms; default 30s.'],
  ['SRS_RETRIES', 'Retries of safe requests after transient failures; default 3.'],
  ['SRS_MAX_PAGES', 'A list with more pages than this is an error, not an endless wait; default 10000.'],
  ['SRS_DEBUG', 'Set to 1: same as --debug.'],
  ['SRS_CONFIG_DIR', 'Directory of the profile store (default ~/.config/srs).'],
  ['SRS_DATA_DIR', 'Directory of local data: sandbox state, the supplier catalog and the completion value cache (default $XDG_DATA_HOME/srs, else ~/.local/share/srs).'],
  ['SRS_CATALOG', 'The local supplier catalog file (same as --catalog PATH); off turns it off (same as --no-catalog).'],
  ['SRS_EMULATOR_API_KEY', 'Key for srs emulator start.'],
  ['NO_COLOR', 'No colour, no spinners.'],
  ['TERM', 'dumb: no colour, no spinners, no redrawn progress line.'],
];

/** Exit codes (README, "Exit codes"): they never change meaning. */
export const EXIT_STATUS: ReadonlyArray<readonly [string, string]> = [
  ['0', 'Success.'],
  ['1', 'API, network or runtime failure (including 404 and bad responses).'],
  ['2', 'Usage error or invalid input: nothing was changed (mostly found before anything is sent; a --query that fails on the data of a read comes after it was read).'],
  ['3', 'A check failed (srs score check, srs score recompute --verify).'],
  ['4', 'Authentication missing or rejected.'],
  ['129', 'Hung up (SIGHUP: the terminal closed), in every command, handled like SIGTERM.'],
  ['130', 'Interrupted (Ctrl-C, SIGINT), in every command, also at a prompt.'],
  ['143', 'Terminated (SIGTERM), in every command.'],
];

const FILES: ReadonlyArray<readonly [string, string]> = [
  ['~/.config/srs/config.json', 'Profiles: base URL and API key of each (mode 0600). SRS_CONFIG_DIR moves the directory.'],
  ['~/.local/share/srs/sandbox-state.db', 'State of the --sandbox emulator (what you created; SQLite). The data directory is $SRS_DATA_DIR, else $XDG_DATA_HOME/srs, else ~/.local/share/srs.'],
  ['~/.local/share/srs/catalog.db', 'The local supplier catalog (SQLite): every supplier srs created or read, per target; see srs supplier ls. --catalog PATH or SRS_CATALOG moves it.'],
  [
    '~/.local/share/srs/completion/countries.txt, industries.txt',
    'Value cache for shell completion of --country and --industry: one code per line, optionally code<TAB>name; rewritten by srs ref countries and srs ref industries.',
  ],
];

/** Escapes text for roff: backslashes, hyphens (as minus signs, so they copy and search as "-"), quotes, leading dots. */
export function roff(s: string): string {
  return s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/'/g, '\\(aq')
    .replace(/`/g, '\\(ga')
    .replace(/^\./gm, '\\&.');
}

/** The text a command adds after its help (examples and notes), as Commander would print it. */
export function helpAfterText(cmd: Command): string {
  let out = '';
  const write = (s: string) => void (out += s);
  // Commander is an EventEmitter; addHelpText('after', ...) registers an 'afterHelp' listener.
  for (const listener of (cmd as unknown as NodeJS.EventEmitter).listeners('afterHelp')) (listener as (ctx: unknown) => void)({ error: false, command: cmd, write });
  return out;
}

/** Splits after-help text into example command lines and the remaining notes. */
export function splitAfterText(text: string): { examples: string[]; notes: string[] } {
  const examples: string[] = [];
  const notes: string[] = [];
  let inExamples = false;
  let para: string[] = [];
  const flush = () => {
    if (para.length) notes.push(para.join(' '));
    para = [];
  };
  for (const line of text.split('\n')) {
    if (/^Examples:\s*$/.test(line)) {
      flush();
      inExamples = true;
      continue;
    }
    const ex = /^\s+\$ (.*)$/.exec(line);
    if (inExamples && ex) {
      examples.push(ex[1]!);
      continue;
    }
    // A continuation of an example written over several lines (its line ends in a backslash): the example's own line,
    // kept in the block (it ended the examples, and the rest of the command became a paragraph of notes).
    if (inExamples && examples.length && examples.at(-1)!.endsWith('\\') && line.trim() !== '') {
      examples[examples.length - 1] += `\n  ${line.trim()}`;
      continue;
    }
    inExamples = false;
    if (line.trim() === '') flush();
    else para.push(line.trim());
  }
  flush();
  return { examples, notes };
}

function optionTerm(opt: Option): string {
  // "-o, --output <format>": flags in bold, the value placeholder in italics.
  return opt.flags
    .split(/(,\s*|\s+)/)
    .map((part) => (/^-/.test(part) ? `\\fB${roff(part)}\\fR` : /^[<[]/.test(part) ? `\\fI${roff(part)}\\fR` : roff(part)))
    .join('');
}

function optionsBlock(help: Help, options: readonly Option[]): string[] {
  const L: string[] = [];
  for (const o of options) {
    L.push('.TP', optionTerm(o), roff(help.optionDescription(o)));
  }
  return L;
}

function commandSection(cmd: Command, help: Help): string[] {
  const L: string[] = [];
  const path: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) path.unshift(c.name());
  L.push(`.SS ${roff(path.join(' '))}`);
  L.push(`\\fB${roff(help.commandUsage(cmd))}\\fR`);
  if (cmd.aliases().length) L.push('.br', `Alias: ${roff(cmd.aliases().join(', '))}`);
  L.push('.PP', roff(help.commandDescription(cmd)));
  const { examples, notes } = splitAfterText(helpAfterText(cmd));
  for (const n of notes) L.push('.PP', roff(n));
  const subs = help.visibleCommands(cmd).filter((c) => cmd.commands.includes(c));
  if (subs.length) {
    L.push('.PP', 'Commands:');
    for (const s of subs) L.push('.TP', `\\fB${roff(help.subcommandTerm(s))}\\fR`, roff(help.subcommandDescription(s)));
  }
  const args = help.visibleArguments(cmd);
  if (args.length) {
    L.push('.PP', 'Arguments:');
    for (const a of args) L.push('.TP', `\\fI${roff(help.argumentTerm(a))}\\fR`, roff(help.argumentDescription(a)));
  }
  const options = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
  if (options.length) L.push('.PP', 'Options:', ...optionsBlock(help, options));
  if (examples.length) L.push('.PP', 'Examples:', '.PP', '.RS 4', '.nf', ...examples.flatMap((e) => e.split('\n').map((l, i) => (i === 0 ? `$ ${roff(l)}` : roff(l)))), '.fi', '.RE');
  return L;
}

function* walk(cmd: Command): Generator<Command> {
  for (const c of cmd.createHelp().visibleCommands(cmd)) {
    if (!cmd.commands.includes(c)) continue;
    yield c;
    yield* walk(c);
  }
}

export function manPage(program: Command, opts: ManOptions): string {
  const bin = program.name();
  const help = program.createHelp();
  const L: string[] = [];
  L.push(`.\\" Generated from the ${bin} command tree by scripts/completions.mjs; do not edit.`);
  L.push(`.TH ${bin.toUpperCase()} 1 "" "${roff(`${bin} ${opts.version}`)}" "User Commands"`);
  // No hyphenation, left-aligned: option names, codes and paths must not be split or stretched.
  L.push('.nh', '.ad l');
  L.push('.SH NAME', `${roff(bin)} \\- ${roff(help.commandDescription(program))}`);
  L.push('.SH SYNOPSIS', `\\fB${roff(bin)}\\fR [\\fIglobal options\\fR] \\fIcommand\\fR [\\fIsubcommand\\fR] [\\fIoptions\\fR] [\\fIarguments\\fR]`);
  L.push('.br', `\\fB${roff(bin)} help\\fR [\\fIcommand\\fR...]`);
  L.push('.br', `\\fB${roff(bin)}\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR`);
  L.push('.SH DESCRIPTION', roff(help.commandDescription(program)) + '.');
  L.push('.PP', roff('Every command has --help with examples. stdout carries data only; progress, warnings and errors go to stderr.'));
  const { notes, examples } = splitAfterText(helpAfterText(program));
  for (const n of notes.filter((n) => !/^Exit codes:/.test(n))) L.push('.PP', roff(n));
  L.push('.SS Global options', roff('These apply to every command and may appear before or after it, except -V/--version, which goes before any command.'));
  L.push(...optionsBlock(help, help.visibleOptions(program)));
  if (examples.length) L.push('.SS Examples', '.RS 4', '.nf', ...examples.flatMap((e) => e.split('\n').map((l, i) => (i === 0 ? `$ ${roff(l)}` : roff(l)))), '.fi', '.RE');
  L.push('.SH COMMANDS');
  for (const c of walk(program)) L.push(...commandSection(c, c.createHelp()));
  L.push('.SH ENVIRONMENT');
  for (const [k, v] of ENVIRONMENT) L.push('.TP', `\\fB${roff(k)}\\fR`, roff(v));
  L.push('.SH EXIT STATUS');
  for (const [k, v] of EXIT_STATUS) L.push('.TP', `\\fB${k}\\fR`, roff(v));
  L.push('.PP', roff('With -o json or -o ndjson an error is one JSON object on stderr: {"error":{"code","message","status","exitCode"}}.'));
  L.push('.SH FILES');
  for (const [k, v] of FILES) L.push('.TP', `\\fI${roff(k)}\\fR`, roff(v));
  L.push('.SH SEE ALSO', roff(`${bin} completion bash|zsh|fish: shell completion scripts.`));
  return L.join('\n') + '\n';
}
