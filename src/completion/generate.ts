/**
 * Shell completion scripts generated from the Commander command tree: the
 * commands and subcommands with their aliases, every option (long and short),
 * the values of enum options (Option.argChoices) and of enum arguments, files
 * where a file is expected, and codes from the local value cache (see
 * cache.ts) for --country and --industry. Global options (the root's)
 * complete after any subcommand too.
 *
 * Pure: a Command tree in, script text out. The scripts never run srs while
 * completing; they read the cache files with shell builtins.
 */
import type { Argument, Command, Option } from 'commander';
import type { CacheName } from './cache.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where the values of an option or argument come from. */
export type Values = { kind: 'none' } | { kind: 'words'; words: string[] } | { kind: 'cache'; cache: CacheName } | { kind: 'files' };

export interface OptionSpec {
  short?: string | undefined;
  long?: string | undefined;
  /** The short and long flag, in that order (one of them may be missing). */
  flags: string[];
  takesValue: boolean;
  description: string;
  values: Values;
}

export interface ArgumentSpec {
  name: string;
  variadic: boolean;
  values: Values;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  /** Command names from the root, joined with spaces ('' for the root). */
  path: string;
  description: string;
  options: OptionSpec[];
  args: ArgumentSpec[];
  children: CommandSpec[];
}

export interface TreeSpec {
  bin: string;
  root: CommandSpec;
  /** The root's options: they complete after any subcommand too. */
  globals: OptionSpec[];
  /** Description of the root's `help [command...]`, when it has one. */
  help?: string | undefined;
}

export interface GenerateOptions {
  /** Options whose values come from the local cache, by long flag. */
  cacheOptions?: Readonly<Record<string, CacheName>>;
}

export const CACHE_OPTIONS: Readonly<Record<string, CacheName>> = { '--country': 'countries', '--industry': 'industries' };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const FLAG = /^--?[A-Za-z0-9][A-Za-z0-9-]*$/;

function firstLine(s: string): string {
  return (s.split('\n')[0] ?? '').trim();
}

function placeholder(flags: string): string | undefined {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1];
}

/**
 * A value that names a file: FILE, FILES..., a bundle (score report's bundle-or-ids...), and an option's <path>
 * (--catalog; an argument named path is srs api's URL path, not a file).
 */
function looksLikeFile(name: string | undefined, option = false): boolean {
  return name !== undefined && (/(^|[-_. ])(files?|bundles?)(\.\.\.)?$/i.test(name) || /^bundle/i.test(name) || (option && /^path$/i.test(name)));
}

function optionValues(opt: Option, cacheOptions: Readonly<Record<string, CacheName>>): Values {
  if (opt.argChoices?.length) return { kind: 'words', words: [...opt.argChoices] };
  const cache = opt.long ? cacheOptions[opt.long] : undefined;
  if (cache) return { kind: 'cache', cache };
  if (looksLikeFile(placeholder(opt.flags), true)) return { kind: 'files' };
  return { kind: 'none' };
}

function argumentValues(arg: Argument): Values {
  if (arg.argChoices?.length) return { kind: 'words', words: [...arg.argChoices] };
  if (looksLikeFile(arg.name())) return { kind: 'files' };
  return { kind: 'none' };
}

function optionSpec(opt: Option, cacheOptions: Readonly<Record<string, CacheName>>): OptionSpec {
  const flags = [opt.short, opt.long].filter((f): f is string => typeof f === 'string');
  for (const f of flags) if (!FLAG.test(f)) throw new Error(`completion: unsupported option flag ${JSON.stringify(f)}`);
  return {
    short: opt.short,
    long: opt.long,
    flags,
    // An optional value ([value]) is never taken from the next word here: it may be a subcommand or an argument.
    takesValue: opt.required,
    description: firstLine(opt.description),
    values: opt.required || opt.optional ? optionValues(opt, cacheOptions) : { kind: 'none' },
  };
}

/** The command tree as plain data: visible commands, options and arguments. */
export function describeTree(program: Command, opts: GenerateOptions = {}): TreeSpec {
  const cacheOptions = opts.cacheOptions ?? CACHE_OPTIONS;
  const walk = (cmd: Command, path: string[]): CommandSpec => {
    const help = cmd.createHelp();
    // Only real subcommands: the implicit `help` of nested commands is not reachable once srs runs (they get an action).
    const subs = help.visibleCommands(cmd).filter((c) => cmd.commands.includes(c) && !(path.length === 0 && c.name() === 'help'));
    for (const c of subs) {
      for (const n of [c.name(), ...c.aliases()]) if (!NAME.test(n)) throw new Error(`completion: unsupported command name ${JSON.stringify(n)}`);
    }
    return {
      name: cmd.name(),
      aliases: [...cmd.aliases()],
      path: path.join(' '),
      description: firstLine(cmd.summary() || cmd.description()),
      options: help.visibleOptions(cmd).map((o) => optionSpec(o, cacheOptions)),
      args: subs.length ? [] : cmd.registeredArguments.map((a) => ({ name: a.name(), variadic: a.variadic, values: argumentValues(a) })),
      children: subs.map((c) => walk(c, [...path, c.name()])),
    };
  };
  const root = walk(program, []);
  const helpCmd = program.createHelp().visibleCommands(program).find((c) => c.name() === 'help');
  // -V/--version is the root's alone ("srs auth status -V" is refused, exit 2): not offered after a command.
  return { bin: program.name(), root, globals: root.options.filter((o) => !isVersion(o)), help: helpCmd ? firstLine(helpCmd.summary() || helpCmd.description()) : undefined };
}

function* nodes(c: CommandSpec): Generator<CommandSpec> {
  yield c;
  for (const k of c.children) yield* nodes(k);
}

const isVersion = (o: OptionSpec): boolean => o.flags.includes('--version');

/** A node's own options, without those the root already provides everywhere (the root's own: --version). */
function ownOptions(tree: TreeSpec, c: CommandSpec): OptionSpec[] {
  if (c.path === '') return c.options.filter(isVersion);
  const global = new Set(tree.globals.flatMap((o) => o.flags));
  return c.options.filter((o) => !o.flags.some((f) => global.has(f)));
}

/** POSIX shell single quotes. */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A case pattern that matches exactly this string. */
function shPattern(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** zsh _describe entry: name:description, with colons in the name escaped. */
function zshDescribed(name: string, description: string): string {
  return shQuote(description ? `${name.replace(/:/g, '\\:')}:${description}` : name.replace(/:/g, '\\:'));
}

function shArray(words: string[]): string {
  return `(${words.join(' ')})`;
}

/**
 * The data functions shared by bash and zsh (both understand this `case` and
 * array syntax): `arr` is the array they fill (bash: _srs_r, zsh: reply),
 * `word` the scalar (bash: _srs_w, zsh: REPLY).
 */
function shData(tree: TreeSpec, shell: 'bash' | 'zsh', p: string): string {
  const arr = shell === 'bash' ? `${p}_r` : 'reply';
  const word = shell === 'bash' ? `${p}_w` : 'REPLY';
  const all = [...nodes(tree.root)];
  const L: string[] = [];
  const describedOrPlain = (name: string, desc: string) => (shell === 'zsh' ? zshDescribed(name, desc) : shQuote(name));

  L.push(`# The subcommands of a command path (names and aliases).`);
  L.push(`${p}_subcommands() {`, `  case $1 in`);
  for (const c of all) {
    if (!c.children.length) continue;
    const words = c.children.flatMap((k) => [k.name, ...k.aliases].map((n) => describedOrPlain(n, k.description)));
    L.push(`    ${shPattern(c.path)}) ${arr}=${shArray(words)} ;;`);
  }
  L.push(`    *) ${arr}=() ;;`, `  esac`, `}`, ``);

  L.push(`# The name of the subcommand WORD (a name or an alias) of a command path, or nothing.`);
  L.push(`${p}_child() {`, `  case $1/$2 in`);
  for (const c of all) {
    for (const k of c.children) {
      L.push(`    ${[k.name, ...k.aliases].map((n) => shPattern(`${c.path}/${n}`)).join('|')}) ${word}=${k.name} ;;`);
    }
  }
  L.push(`    *) ${word}= ;;`, `  esac`, `}`, ``);

  L.push(`# Whether an option of a command path takes a value from the next word.`);
  L.push(`${p}_takes_value() {`, `  case $1/$2 in`);
  for (const c of all) {
    const flags = ownOptions(tree, c)
      .filter((o) => o.takesValue)
      .flatMap((o) => o.flags);
    if (flags.length) L.push(`    ${flags.map((f) => shPattern(`${c.path}/${f}`)).join('|')}) return 0 ;;`);
  }
  L.push(`  esac`);
  const globalValued = tree.globals.filter((o) => o.takesValue).flatMap((o) => o.flags);
  if (globalValued.length) L.push(`  case $2 in`, `    ${globalValued.map(shPattern).join('|')}) return 0 ;;`, `  esac`);
  L.push(`  return 1`, `}`, ``);

  L.push(`# The options of a command path, its own and the global ones.`);
  L.push(`${p}_options() {`, `  case $1 in`);
  for (const c of all) {
    const own = ownOptions(tree, c);
    if (!own.length) continue;
    L.push(`    ${shPattern(c.path)}) ${arr}=${shArray(own.flatMap((o) => o.flags.map((f) => describedOrPlain(f, o.description))))} ;;`);
  }
  L.push(`    *) ${arr}=() ;;`, `  esac`);
  L.push(`  ${arr}+=${shArray(tree.globals.flatMap((o) => o.flags.map((f) => describedOrPlain(f, o.description))))}`);
  L.push(`}`, ``);

  const setValues = (v: Values): string => {
    switch (v.kind) {
      case 'words':
        return `${p}_kind=words; ${arr}=${shArray(v.words.map(shQuote))}`;
      case 'cache':
        return `${p}_kind=cache:${v.cache}`;
      case 'files':
        return `${p}_kind=files`;
      default:
        return `${p}_kind=none`;
    }
  };

  L.push(`# What the value of an option can be: ${p}_kind is words (listed in ${arr}), files, cache:NAME or none.`);
  L.push(`${p}_option_values() {`, `  ${p}_kind=none; ${arr}=()`, `  case $1/$2 in`);
  for (const c of all) {
    for (const o of ownOptions(tree, c)) {
      if (o.values.kind !== 'none') L.push(`    ${o.flags.map((f) => shPattern(`${c.path}/${f}`)).join('|')}) ${setValues(o.values)}; return ;;`);
    }
  }
  L.push(`  esac`, `  case $2 in`);
  for (const o of tree.globals) {
    if (o.values.kind !== 'none') L.push(`    ${o.flags.map(shPattern).join('|')}) ${setValues(o.values)} ;;`);
  }
  L.push(`  esac`, `}`, ``);

  L.push(`# What the Nth (from 0) argument of a command path can be: ${p}_kind as above, or empty when the command takes no arguments.`);
  L.push(`${p}_positional() {`, `  ${p}_kind=; ${arr}=()`, `  case $1 in`);
  for (const c of all) {
    if (c.children.length || !c.args.length) continue;
    const parts = [`${p}_kind=none`];
    c.args.forEach((a, i) => {
      if (a.values.kind === 'none') return;
      parts.push(`(( $2 ${a.variadic ? '>=' : '=='} ${i} )) && { ${setValues(a.values)}; }`);
    });
    L.push(`    ${shPattern(c.path)}) ${parts.join('; ')} ;;`);
  }
  L.push(`  esac`, `  return 0`, `}`, ``);

  L.push(`# The entries of a value cache: DATA_DIR/completion/NAME.txt, found the way srs finds its data directory.`);
  L.push(`${p}_cache() {`);
  L.push(`  local dir file line code`);
  L.push(`  ${arr}=()`);
  L.push(`  if [[ -n \${SRS_DATA_DIR-} ]]; then dir=$SRS_DATA_DIR`);
  L.push(`  elif [[ \${XDG_DATA_HOME-} == /* ]]; then dir=$XDG_DATA_HOME/srs`);
  L.push(`  else dir=\${HOME-}/.local/share/srs`);
  L.push(`  fi`);
  L.push(`  file=$dir/completion/$1.txt`);
  L.push(`  [[ -r $file ]] || return 0`);
  L.push(`  while IFS= read -r line || [[ -n $line ]]; do`);
  L.push(`    line=\${line%$'\\r'}`);
  L.push(`    code=\${line%%$'\\t'*}`);
  L.push(`    [[ -z $code || $code == '#'* ]] && continue`);
  if (shell === 'zsh') {
    L.push(`    if [[ $line == *$'\\t'* ]]; then ${arr}+=("\${code//:/\\\\:}:\${line#*$'\\t'}"); else ${arr}+=("\${code//:/\\\\:}"); fi`);
  } else {
    L.push(`    ${arr}+=("$code")`);
  }
  L.push(`  done < "$file"`);
  L.push(`}`, ``);
  return L.join('\n');
}

function header(tree: TreeSpec, shell: Shell, install: string[]): string {
  const c = '#';
  return [
    `${c} ${shell} completion for ${tree.bin}`,
    `${c} Generated from the ${tree.bin} command tree by \`${tree.bin} completion ${shell}\` (or: node scripts/completions.mjs); do not edit.`,
    ...install.map((l) => `${c} ${l}`),
    `${c} Values for --country and --industry come from ${tree.bin}'s cache in DATA_DIR/completion/ ($SRS_DATA_DIR,`,
    `${c} else $XDG_DATA_HOME/srs, else ~/.local/share/srs), refreshed by \`${tree.bin} ref countries\` and \`${tree.bin} ref industries\`.`,
  ].join('\n');
}

export function bashScript(tree: TreeSpec): string {
  const p = `_${tree.bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const help = tree.help !== undefined;
  return `${header(tree, 'bash', [
    'Install: source it from ~/.bashrc, e.g. `source <(srs completion bash)`, or copy it to',
    '~/.local/share/bash-completion/completions/srs (loaded on demand by bash-completion).',
  ])}

${shData(tree, 'bash', p)}
${p}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cword=$COMP_CWORD
  local cmdpath= help= leaf= opt= prefix= w i nargs=0 ${p}_kind= ${p}_w=
  local -a ${p}_r=()
  COMPREPLY=()
  # Walk the words before the cursor: subcommands, options (and the values they take), arguments.
  # bash splits --option=value into three words (= is in COMP_WORDBREAKS).
  for ((i = 1; i < cword; i++)); do
    w=\${COMP_WORDS[i]}
    case $w in
      =) ((++i)); continue ;;
      --*=*) continue ;;
      -?*)
        if ${p}_takes_value "$cmdpath" "$w"; then
          if [[ \${COMP_WORDS[i+1]-} == = ]]; then ((i += 2)); else ((i += 1)); fi
          if ((i >= cword)); then opt=$w; fi
        fi
        continue ;;
    esac
    if [[ -n $leaf ]]; then ((++nargs)); continue; fi
${help ? `    if [[ -z $cmdpath && -z $help && $w == help ]]; then help=1; continue; fi\n` : ''}    ${p}_child "$cmdpath" "$w"
    if [[ -n $${p}_w ]]; then cmdpath=\${cmdpath:+$cmdpath }$${p}_w; else leaf=1; ((++nargs)); fi
  done
  if [[ -n $opt && $cur == = ]]; then cur=; fi
  if [[ -z $opt && $cur == --?*=* ]] && ${p}_takes_value "$cmdpath" "\${cur%%=*}"; then
    opt=\${cur%%=*}; prefix=$opt=; cur=\${cur#*=}
  fi

  if [[ -n $opt ]]; then
    ${p}_option_values "$cmdpath" "$opt"
  elif [[ -n $help ]]; then
    ${p}_subcommands "$cmdpath"; ${p}_kind=words
  elif [[ $cur == -* ]]; then
    ${p}_options "$cmdpath"; ${p}_kind=words
  else
    ${p}_r=()
    [[ -z $leaf ]] && ${p}_subcommands "$cmdpath"
    if ((\${#${p}_r[@]})); then
      ${p}_kind=words
${help ? `      [[ -z $cmdpath ]] && ${p}_r+=(help)\n` : ''}    else
      ${p}_positional "$cmdpath" "$nargs"
      if [[ -z $${p}_kind ]]; then ${p}_options "$cmdpath"; ${p}_kind=words; fi
    fi
  fi

  case $${p}_kind in
    words)
      for w in "\${${p}_r[@]}"; do [[ $w == "$cur"* ]] && COMPREPLY+=("$prefix$w"); done ;;
    cache:*)
      ${p}_cache "\${${p}_kind#cache:}"
      local lower=\${cur,,}
      for w in "\${${p}_r[@]}"; do [[ \${w,,} == "$lower"* ]] && COMPREPLY+=("$prefix$w"); done ;;
    files)
      compopt -o filenames 2>/dev/null
      if [[ -z $prefix ]] && declare -F _filedir >/dev/null; then
        _filedir
      else
        while IFS= read -r w; do COMPREPLY+=("$prefix$w"); done < <(compgen -f -- "$cur")
      fi ;;
  esac
  return 0
}

complete -F ${p} ${tree.bin}
`;
}

export function zshScript(tree: TreeSpec): string {
  const p = `_${tree.bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const help = tree.help !== undefined;
  return `#compdef ${tree.bin}
${header(tree, 'zsh', [
    'Install: put it in a directory of $fpath as _srs (before compinit runs), e.g.',
    '`srs completion zsh > ~/.zfunc/_srs` with `fpath=(~/.zfunc $fpath)` in ~/.zshrc;',
    'or, after compinit, `source <(srs completion zsh)`.',
  ])}

${shData(tree, 'zsh', p)}
${p}_offer() {
  case $${p}_kind in
    words) _describe -t values "$1" reply ;;
    cache:*) ${p}_cache \${${p}_kind#cache:}; _describe -t values "$1" reply ;;
    files) _files ;;
    *) _message "$1" ;;
  esac
}

${p}() {
  local cmdpath= help= leaf= opt= w ${p}_kind= REPLY=
  local -a reply
  local -i i=2 nargs=0
  # Walk the words before the cursor: subcommands, options (and the values they take), arguments.
  while (( i < CURRENT )); do
    w=\${words[i]}
    case $w in
      --*=*) ;;
      -?*)
        if ${p}_takes_value "$cmdpath" "$w"; then
          (( ++i ))
          if (( i >= CURRENT )); then opt=$w; fi
        fi ;;
      *)
        if [[ -n $leaf ]]; then
          (( ++nargs ))
${help ? `        elif [[ -z $cmdpath && -z $help && $w == help ]]; then\n          help=1\n` : ''}        else
          ${p}_child "$cmdpath" "$w"
          if [[ -n $REPLY ]]; then cmdpath=\${cmdpath:+$cmdpath }$REPLY; else leaf=1; (( ++nargs )); fi
        fi ;;
    esac
    (( ++i ))
  done
  if [[ -z $opt && $PREFIX == --?*=* ]] && ${p}_takes_value "$cmdpath" "\${PREFIX%%=*}"; then
    opt=\${PREFIX%%=*}
    compset -P '*='
  fi

  if [[ -n $opt ]]; then
    ${p}_option_values "$cmdpath" "$opt"
    ${p}_offer "value for $opt"
  elif [[ -n $help ]]; then
    ${p}_subcommands "$cmdpath"
    (( $#reply )) && _describe -t commands '${tree.bin} command' reply
  elif [[ $PREFIX == -* ]]; then
    ${p}_options "$cmdpath"
    _describe -t options 'option' reply
  else
    reply=()
    [[ -z $leaf ]] && ${p}_subcommands "$cmdpath"
    if (( $#reply )); then
${help ? `      [[ -z $cmdpath ]] && reply+=(${zshDescribed('help', tree.help ?? '')})\n` : ''}      _describe -t commands '${tree.bin} command' reply
    else
      ${p}_positional "$cmdpath" $nargs
      if [[ -z $${p}_kind ]]; then
        ${p}_options "$cmdpath"
        _describe -t options 'option' reply
      else
        ${p}_offer argument
      fi
    fi
  fi
}

if [[ \${zsh_eval_context[-1]-} == loadautofunc ]]; then
  # autoloaded from $fpath by compinit
  ${p} "$@"
else
  # sourced
  compdef ${p} ${tree.bin}
fi
`;
}

/** fish single quotes. */
function fishQuote(s: string): string {
  return `'${s.replace(/[\\']/g, '\\$&')}'`;
}

/** One fish word, escaped so that fish's expansion of `complete -a` yields it unchanged. */
function fishWord(s: string): string {
  return s.replace(/[^A-Za-z0-9_./:=,@%+-]/g, '\\$&');
}

export function fishScript(tree: TreeSpec): string {
  const p = `__${tree.bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const bin = tree.bin;
  const all = [...nodes(tree.root)];
  const L: string[] = [];
  L.push(header(tree, 'fish', ['Install: copy it to ~/.config/fish/completions/srs.fish, or run `srs completion fish | source`.']), '');

  L.push(`function ${p}_child --argument-names cmdpath word --description 'The subcommand WORD (a name or an alias) of a command path'`);
  L.push(`    switch "$cmdpath/$word"`);
  for (const c of all) {
    for (const k of c.children) L.push(`        case ${[k.name, ...k.aliases].map((n) => fishQuote(`${c.path}/${n}`)).join(' ')}`, `            echo ${k.name}`);
  }
  L.push(`    end`, `end`, '');

  L.push(`function ${p}_takes_value --argument-names cmdpath flag --description 'Whether an option takes a value from the next word'`);
  L.push(`    switch "$cmdpath/$flag"`);
  for (const c of all) {
    const flags = ownOptions(tree, c)
      .filter((o) => o.takesValue)
      .flatMap((o) => o.flags);
    if (flags.length) L.push(`        case ${flags.map((f) => fishQuote(`${c.path}/${f}`)).join(' ')}`, `            return 0`);
  }
  L.push(`    end`);
  const globalValued = tree.globals.filter((o) => o.takesValue).flatMap((o) => o.flags);
  if (globalValued.length) L.push(`    switch $flag`, `        case ${globalValued.map(fishQuote).join(' ')}`, `            return 0`, `    end`);
  L.push(`    return 1`, `end`, '');

  L.push(`function ${p}_path --description 'The ${bin} command path before the cursor, e.g. "score calc" ("help ..." after ${bin} help)'`);
  L.push(`    set -l tokens (commandline -opc)`);
  L.push(`    set -e tokens[1]`);
  L.push(`    set -l cmdpath`);
  L.push(`    set -l help 0`);
  L.push(`    set -l leaf 0`);
  L.push(`    set -l skip 0`);
  L.push(`    for t in $tokens`);
  L.push(`        if test $skip -eq 1`);
  L.push(`            set skip 0`);
  L.push(`            continue`);
  L.push(`        end`);
  L.push(`        switch $t`);
  L.push(`            case '--*=*'`);
  L.push(`                continue`);
  L.push(`            case -`);
  L.push(`            case '-*'`);
  L.push(`                if ${p}_takes_value "$cmdpath" $t`);
  L.push(`                    set skip 1`);
  L.push(`                end`);
  L.push(`                continue`);
  L.push(`        end`);
  L.push(`        if test $leaf -eq 1`);
  L.push(`            continue`);
  L.push(`        end`);
  if (tree.help !== undefined) {
    L.push(`        if test -z "$cmdpath" -a $help -eq 0 -a "$t" = help`);
    L.push(`            set help 1`);
    L.push(`            continue`);
    L.push(`        end`);
  }
  L.push(`        set -l child (${p}_child "$cmdpath" $t)`);
  L.push(`        if test -n "$child"`);
  L.push(`            set -a cmdpath $child`);
  L.push(`        else`);
  L.push(`            set leaf 1`);
  L.push(`        end`);
  L.push(`    end`);
  L.push(`    if test $help -eq 1`);
  L.push(`        set -p cmdpath help`);
  L.push(`    end`);
  L.push(`    echo "$cmdpath"`);
  L.push(`end`, '');

  L.push(`function ${p}_at --description 'Whether the ${bin} command path is one of the arguments'`);
  L.push(`    set -l line (commandline -pc)`);
  L.push(`    if not set -q ${p}_line; or test "$${p}_line" != "$line"`);
  L.push(`        set -g ${p}_line "$line"`);
  L.push(`        set -g ${p}_current (${p}_path)`);
  L.push(`    end`);
  L.push(`    contains -- "$${p}_current" $argv`);
  L.push(`end`, '');

  L.push(`function ${p}_cache --argument-names name --description 'The entries of a value cache (code<TAB>name), found the way ${bin} finds its data directory'`);
  L.push(`    set -l dir $HOME/.local/share/srs`);
  L.push(`    if test -n "$SRS_DATA_DIR"`);
  L.push(`        set dir $SRS_DATA_DIR`);
  L.push(`    else if string match -q -- '/*' "$XDG_DATA_HOME"`);
  L.push(`        set dir $XDG_DATA_HOME/srs`);
  L.push(`    end`);
  L.push(`    set -l file $dir/completion/$name.txt`);
  L.push(`    test -r $file; or return 0`);
  L.push(`    while read -l line`);
  L.push(`        set line (string replace -r '\\r$' '' -- $line)`);
  L.push(`        string match -qr '^[^#\\t]' -- $line; and printf '%s\\n' $line`);
  L.push(`    end < $file`);
  L.push(`end`, '');

  // Command paths are plain words (checked in describeTree), so double quotes are safe here.
  const cond = (path: string) => `-n "${p}_at ${fishQuote(path)}"`;
  const valueArgs = (v: Values): string => {
    switch (v.kind) {
      case 'words':
        return `-x -a ${fishQuote(v.words.map(fishWord).join(' '))}`;
      case 'cache':
        return `-x -a ${fishQuote(`(${p}_cache ${v.cache})`)}`;
      case 'files':
        return '-r -F';
      default:
        return '-x';
    }
  };
  const optionLine = (o: OptionSpec, condition: string): string =>
    [
      `complete -c ${bin}`,
      condition,
      o.short ? `-s ${o.short.slice(1)}` : '',
      o.long ? `-l ${o.long.slice(2)}` : '',
      o.takesValue ? valueArgs(o.values) : '',
      o.description ? `-d ${fishQuote(o.description)}` : '',
    ]
      .filter(Boolean)
      .join(' ');

  L.push(`# No file names unless a file is expected.`);
  L.push(`complete -c ${bin} -f`, '');
  L.push(`# Global options: everywhere.`);
  for (const o of tree.globals) L.push(optionLine(o, ''));
  L.push('');
  for (const c of all) {
    const lines: string[] = [];
    for (const k of c.children) {
      lines.push(`complete -c ${bin} ${cond(c.path)} -a ${fishQuote([k.name, ...k.aliases].join(' '))}${k.description ? ` -d ${fishQuote(k.description)}` : ''}`);
    }
    if (c.path === '' && tree.help !== undefined) lines.push(`complete -c ${bin} ${cond('')} -a help${tree.help ? ` -d ${fishQuote(tree.help)}` : ''}`);
    for (const o of ownOptions(tree, c)) lines.push(optionLine(o, cond(c.path)));
    if (!c.children.length) {
      for (const a of c.args) {
        if (a.values.kind === 'words') lines.push(`complete -c ${bin} ${cond(c.path)} -a ${fishQuote(a.values.words.map(fishWord).join(' '))}`);
        if (a.values.kind === 'files') lines.push(`complete -c ${bin} ${cond(c.path)} -F`);
      }
    }
    if (tree.help !== undefined && c.children.length) {
      const hp = c.path === '' ? 'help' : `help ${c.path}`;
      for (const k of c.children) lines.push(`complete -c ${bin} ${cond(hp)} -a ${fishQuote([k.name, ...k.aliases].join(' '))}${k.description ? ` -d ${fishQuote(k.description)}` : ''}`);
    }
    if (lines.length) L.push(`# ${bin}${c.path ? ' ' + c.path : ''}`, ...lines, '');
  }
  return L.join('\n').replace(/\n+$/, '\n');
}

export function generate(shell: Shell, program: Command, opts: GenerateOptions = {}): string {
  const tree = describeTree(program, opts);
  switch (shell) {
    case 'bash':
      return bashScript(tree);
    case 'zsh':
      return zshScript(tree);
    case 'fish':
      return fishScript(tree);
  }
}
