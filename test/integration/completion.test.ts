/**
 * Shell completion in the real shells (bash with bash-completion, zsh, fish),
 * driven by the BUILT srs on PATH (a temporary `srs` symlink to bin/srs.js);
 * the value cache written by `srs ref countries|industries`; the committed
 * scripts and man page against the built binary; help and error suggestions.
 *
 * Each shell is asked to complete partial command lines and the candidates it
 * would offer are compared:
 * - bash: sources bash-completion and `srs completion bash`, sets COMP_WORDS,
 *   COMP_CWORD, COMP_LINE and COMP_POINT as readline would, calls the function
 *   `complete -p srs` registered, and prints COMPREPLY.
 * - zsh: an interactive `zsh -i` under zpty (a pseudo-terminal) with compinit and
 *   _srs in $fpath (or sourced); a widget sets each line in the editor buffer and
 *   runs the real complete-word, and a compadd wrapper records the matches compsys
 *   would offer (after prefix matching) instead of inserting them.
 * - fish: `srs completion fish | source`, then `complete -C LINE`.
 * A missing shell skips its tests visibly, naming the package to install; with
 * CI=true it fails them (test/support/optional-tool.ts).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { generate } from '../../src/completion/generate.js';
import { optionalTool, runs, type OptionalTool } from '../support/optional-tool.js';
import { assertBuilt, baseEnv, BIN, ROOT, runSrs, startHarness, type Harness } from './harness.js';

const REGENERATE = 'npm run build && node scripts/completions.mjs';
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

type Shell = 'bash' | 'zsh' | 'fish';
const SHELLS: Shell[] = ['bash', 'zsh', 'fish'];

/** Each shell's tests run only where the shell (and what drives it) is installed. */
const TOOLS: Record<Shell, OptionalTool> = {
  bash: optionalTool({
    name: 'bash-completion',
    pkg: 'bash-completion',
    present: () => (!runs('bash', ['-c', 'exit 0']) ? 'bash is not installed' : existsSync(BASH_COMPLETION) || `bash-completion is not installed (${BASH_COMPLETION})`),
  }),
  zsh: optionalTool({
    name: 'zsh',
    pkg: 'zsh',
    present: () => runs('zsh', ['-fc', 'exit 0']) && (runs('zsh', ['-fc', 'zmodload zsh/zpty']) || 'zsh has no zsh/zpty module'),
  }),
  fish: optionalTool({ name: 'fish', pkg: 'fish', present: () => runs('fish', ['--no-config', '-c', 'exit 0']) }),
};

// A scratch area: srs on PATH, a home, a data directory with a value cache, a working directory with files.
const work = mkdtempSync(join(tmpdir(), 'srs-completion-'));
const binDir = join(work, 'bin');
mkdirSync(binDir);
symlinkSync(BIN, join(binDir, 'srs'));
const PATH = [binDir, dirname(process.execPath), process.env.PATH ?? ''].join(':');
const cwd = join(work, 'cwd');
mkdirSync(join(cwd, 'reports'), { recursive: true });
writeFileSync(join(cwd, 'evidence.json'), '{}');

function writeCacheFile(dataDir: string, name: string, text: string): void {
  mkdirSync(join(dataDir, 'completion'), { recursive: true });
  writeFileSync(join(dataDir, 'completion', `${name}.txt`), text);
}
const dataDir = join(work, 'data');
writeCacheFile(dataDir, 'countries', 'DEU\tGermany\nDNK\tDenmark\nESP\tSpain\nFRA\tFrance\n');
writeCacheFile(dataDir, 'industries', '20201010\tCommercial Printing\n20201050\tEnvironmental & Facilities Services\n30202030\tPackaged Foods & Meats\n');

let homes = 0;
/** A clean environment for a shell: srs on PATH, a fresh HOME, SRS_DATA_DIR with the cache above. */
function shellEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const home = join(work, `home${++homes}`);
  mkdirSync(home, { recursive: true });
  const env: Record<string, string | undefined> = { PATH, HOME: home, LANG: 'C.UTF-8', TERM: 'xterm', SRS_DATA_DIR: dataDir, ...extra };
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const fishq = (s: string) => `'${s.replace(/[\\']/g, '\\$&')}'`;

/** The words bash gives a completion function: split at blanks, and at "=" (COMP_WORDBREAKS). */
function bashWords(line: string): string[] {
  return line.split(' ').flatMap((w) => {
    const m = /^(--[^=]+)=(.*)$/.exec(w);
    return m ? (m[2] === '' ? [m[1]!, '='] : [m[1]!, '=', m[2]!]) : [w];
  });
}

function check(r: ReturnType<typeof spawnSync>, what: string): string {
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}: ${String(r.stderr)}`);
  return String(r.stdout);
}

/** bash: how the script gets loaded. */
type BashLoad = 'source' | 'loader';
function completeBash(lines: string[], env: Record<string, string>, load: BashLoad = 'source'): string[][] {
  const setup =
    load === 'source'
      ? ['source <(srs completion bash) || exit 3']
      : [
          // Installed where bash-completion looks on demand: ~/.local/share/bash-completion/completions/srs.
          `mkdir -p "$HOME/.local/share/bash-completion/completions"`,
          `cp ${sq(join(ROOT, 'completions/srs.bash'))} "$HOME/.local/share/bash-completion/completions/srs"`,
          `complete -p srs >/dev/null 2>&1 && { echo "loaded too early" >&2; exit 3; }`,
          `_completion_loader srs`,
        ];
  const script = [
    `source ${BASH_COMPLETION}`,
    ...setup,
    `spec=$(complete -p srs) || { echo "no completion registered for srs" >&2; exit 3; }`,
    `[[ $spec == *' -F '* ]] || { echo "unexpected: $spec" >&2; exit 3; }`,
    `fn=\${spec##*-F }; fn=\${fn%% *}`,
    `__t() {`,
    `  COMP_LINE=$1; COMP_POINT=\${#COMP_LINE}; shift`,
    `  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()`,
    `  "$fn" srs "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"`,
    `  printf '%s\\n' "\${COMPREPLY[@]}" '@@END@@'`,
    `}`,
    ...lines.map((l) => `__t ${sq(l)} ${bashWords(l).map(sq).join(' ')}`),
  ].join('\n');
  const out = check(spawnSync('bash', ['--norc', '--noprofile', '-c', script], { cwd, env, encoding: 'utf8', timeout: 60_000 }), 'bash');
  return splitResults(out, lines.length);
}

/** zsh: the interactive shell's startup file (ZDOTDIR/.zshrc); paths come from the environment. */
/** (¤{ stands for ${, which a template literal would interpolate.) */
const ZSHRC = String.raw`PS1='> '; RPS1=''
bindkey -e
autoload -Uz compinit
if [[ $SRS_T_MODE == fpath ]]; then
  mkdir -p $SRS_T_DIR/fpath
  srs completion zsh >| $SRS_T_DIR/fpath/_srs
  fpath=($SRS_T_DIR/fpath $fpath)
  compinit -u -D
elif [[ $SRS_T_MODE == file ]]; then
  compinit -u -D
  source $SRS_T_FILE
else
  compinit -u -D
  source <(srs completion zsh)
fi
unsetopt AUTO_LIST AUTO_MENU MENU_COMPLETE BEEP
# Record the matches compsys would offer (after matching what was typed) and add nothing.
compadd() {
  if [[ ¤{@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a __hits
  builtin compadd -A __hits "$@"
  (( $#__hits )) && print -rl -- $__hits >> $__srs_t_out
  return 0
}
# Completes every line of $SRS_T_DIR/lines with the real complete-word widget; matches of line N go to out.N.
__srs_t_all() {
  local n=0 line
  for line in "¤{(@f)$(<$SRS_T_DIR/lines)}"; do
    (( ++n ))
    __srs_t_out=$SRS_T_DIR/out.$n
    : >| $__srs_t_out
    BUFFER=$line
    CURSOR=$#BUFFER
    zle complete-word
  done
  BUFFER=
  print -r done >| $SRS_T_DIR/done
}
zle -N __srs_t_all
bindkey '^X^T' __srs_t_all
__srs_t_ready() { print -r ready >| $SRS_T_DIR/ready }
zle -N zle-line-init __srs_t_ready
`.replaceAll('¤{', '${');

/** zsh: runs an interactive zsh under zpty, waits until its line editor is up, then presses the key of __srs_t_all. */
const ZSH_DRIVER = String.raw`zmodload zsh/zpty || { print -u2 'zsh/zpty is not available'; exit 3 }
local chunk i
wait_for() {
  for i in {1..600}; do
    while zpty -r -t srs chunk 2>/dev/null; do :; done
    [[ -e $1 ]] && return 0
    sleep 0.05
  done
  return 1
}
zpty srs zsh -d -i
# Keys typed before the line editor starts may be discarded: wait for zle-line-init.
wait_for $SRS_T_DIR/ready || { print -u2 'zsh did not start its line editor'; zpty -d srs; exit 4 }
zpty -w -n srs $'\x18\x14'
wait_for $SRS_T_DIR/done || { print -u2 'completion did not finish'; zpty -d srs; exit 4 }
zpty -d srs
exit 0
`;

let zshRuns = 0;
function completeZsh(lines: string[], env: Record<string, string>, mode: 'fpath' | 'source' | 'file' = 'fpath'): string[][] {
  const dir = join(work, `zsh${++zshRuns}`);
  mkdirSync(dir);
  writeFileSync(join(dir, '.zshrc'), ZSHRC);
  writeFileSync(join(dir, 'driver.zsh'), ZSH_DRIVER);
  writeFileSync(join(dir, 'lines'), lines.join('\n') + '\n');
  check(
    spawnSync('zsh', ['-f', join(dir, 'driver.zsh')], { cwd, env: { ...env, ZDOTDIR: dir, SRS_T_DIR: dir, SRS_T_MODE: mode, SRS_T_FILE: join(ROOT, 'completions/_srs') }, encoding: 'utf8', timeout: 60_000 }),
    'zsh',
  );
  return lines.map((_, i) => {
    const f = join(dir, `out.${i + 1}`);
    if (!existsSync(f)) throw new Error(`zsh did not complete line ${i + 1}`);
    return readFileSync(f, 'utf8').split('\n').filter(Boolean);
  });
}

function completeFish(lines: string[], env: Record<string, string>, load: 'source' | 'autoload' = 'source'): string[][] {
  const run = lines.map((l) => `complete -C ${fishq(l)}; echo @@END@@`);
  let args: string[];
  if (load === 'source') {
    args = ['--no-config', '-c', ['srs completion fish | source', ...run].join('\n')];
  } else {
    // Installed: fish loads ~/.config/fish/completions/srs.fish itself, the first time srs (on PATH) is completed.
    mkdirSync(join(env.HOME!, '.config/fish/completions'), { recursive: true });
    copyFileSync(join(ROOT, 'completions/srs.fish'), join(env.HOME!, '.config/fish/completions/srs.fish'));
    args = ['-c', run.join('\n')];
  }
  const out = check(spawnSync('fish', args, { cwd, env, encoding: 'utf8', timeout: 60_000 }), 'fish');
  // fish prints "candidate<TAB>description".
  return splitResults(out, lines.length).map((c) => c.map((x) => x.split('\t')[0]!));
}

function splitResults(out: string, n: number): string[][] {
  const parts = out.split('@@END@@\n');
  expect(parts.length, `expected ${n} results in:\n${out}`).toBe(n + 1);
  return parts.slice(0, n).map((p) => p.split('\n').filter(Boolean));
}

function complete(shell: Shell, lines: string[], env: Record<string, string>): string[][] {
  return shell === 'bash' ? completeBash(lines, env) : shell === 'zsh' ? completeZsh(lines, env) : completeFish(lines, env);
}

/** Candidates as a sorted set; "--opt=value" (fish) counts as "value". */
const norm = (c: string[]) => [...new Set(c.map((x) => x.replace(/^--[a-z-]+=/, '')))].sort();

interface Case {
  line: string;
  exact?: string[];
  includes?: string[];
}
/** The root's commands and aliases (so that new commands do not break the prefix cases). */
const ROOT_NAMES = buildProgram(() => async () => undefined).commands.flatMap((c) => [c.name(), ...c.aliases()]);
const SC = ROOT_NAMES.filter((n) => n.startsWith('sc')).sort();
const CASES: Case[] = [
  { line: 'srs sc', exact: SC },
  { line: 'srs score ', exact: ['calc', 'check', 'explain', 'recompute', 'report'] },
  { line: 'srs ref countries -o ', exact: ['csv', 'json', 'ndjson', 'table'] },
  { line: 'srs ref countries --output=j', exact: ['json'] },
  { line: 'srs supplier create --country DE', exact: ['DEU'] },
  { line: 'srs supplier create --name Acme --country F', exact: ['FRA'] },
  { line: 'srs supplier create --industry 2020', exact: ['20201010', '20201050'] },
  {
    line: 'srs supplier create --',
    includes: ['--name', '--country', '--website', '--industry', '--category', '--contact', '--customer-id', '--json', '--output', '--sandbox', '--no-color', '--debug', '--help'],
  },
  { line: 'srs score calc --breakdown ', exact: ['entries', 'parameters', 'sources'] },
  { line: 'srs score recompute --mode ', exact: ['parameters', 'scorecards'] },
  { line: 'srs emulator start --last-page ', exact: ['absent', 'null', 'past', 'same', 'zero'] },
  { line: 'srs scorecards l', exact: ['list', 'ls'] },
  { line: 'srs --output json score c', exact: ['calc', 'check'] },
  { line: 'srs ref countries -o json --li', exact: ['--limit'] },
  { line: 'srs ref industries --all-', exact: ['--all-levels'] },
  { line: 'srs help score ', exact: ['calc', 'check', 'explain', 'recompute', 'report'] },
  { line: 'srs h', exact: ROOT_NAMES.filter((n) => n.startsWith('h')) },
  { line: 'srs completion ', exact: ['bash', 'fish', 'zsh'] },
  { line: 'srs score recompute ev', exact: ['evidence.json'] },
];

beforeAll(() => {
  assertBuilt();
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

for (const shell of SHELLS) {
  TOOLS[shell].describe(`${shell} completion, in the real shell`, () => {
    let results: string[][] = [];
    beforeAll(() => {
      results = complete(shell, CASES.map((c) => c.line), shellEnv());
    }, 120_000);

    it.each(CASES.map((c, i) => [c.line, c, i] as const))('%s', (_line, c, i) => {
      const got = norm(results[i]!);
      if (c.exact) expect(got).toEqual([...c.exact].sort());
      if (c.includes) expect(got).toEqual(expect.arrayContaining(c.includes));
    });

    it('finds the cache like dataDir(): SRS_DATA_DIR, else XDG_DATA_HOME/srs, else ~/.local/share/srs; nothing without one', () => {
      const xdg = join(work, `xdg-${shell}`);
      writeCacheFile(join(xdg, 'srs'), 'countries', 'NLD\tNetherlands\n');
      const env = shellEnv({ SRS_DATA_DIR: undefined, XDG_DATA_HOME: xdg });
      expect(complete(shell, ['srs supplier create --country N'], env).map(norm)).toEqual([['NLD']]);
      const home = shellEnv({ SRS_DATA_DIR: undefined });
      writeCacheFile(join(home.HOME!, '.local/share/srs'), 'countries', 'NOR\tNorway\n');
      expect(complete(shell, ['srs supplier create --country N'], home).map(norm)).toEqual([['NOR']]);
      expect(complete(shell, ['srs supplier create --country '], shellEnv({ SRS_DATA_DIR: join(work, 'empty') })).map(norm)).toEqual([[]]);
    });

    if (shell === 'bash') {
      it('bash-completion loads the installed file on demand (~/.local/share/bash-completion/completions/srs)', () => {
          expect(completeBash(['srs sc', 'srs supplier create --country D'], shellEnv(), 'loader').map(norm)).toEqual([SC, ['DEU', 'DNK']]);
      });
    }
    if (shell === 'zsh') {
      it('zsh: also works sourced after compinit (source <(srs completion zsh), source completions/_srs)', () => {
          expect(completeZsh(['srs sc', 'srs score calc --breakdown p'], shellEnv(), 'source').map(norm)).toEqual([SC, ['parameters']]);
        expect(completeZsh(['srs sc', 'srs supplier create --country D'], shellEnv(), 'file').map(norm)).toEqual([SC, ['DEU', 'DNK']]);
      });
    }
    if (shell === 'fish') {
      it('fish loads the installed file on demand (~/.config/fish/completions/srs.fish)', () => {
          expect(completeFish(['srs sc', 'srs supplier create --country D'], shellEnv(), 'autoload').map(norm)).toEqual([SC, ['DEU', 'DNK']]);
      });
    }

    it('the committed script and a script with hostile text parse', () => {
      const weird = new Command('srs').description('x');
      weird
        .command('go')
        .description(`it's "quoted" $HOME \`touch pwned\` $(touch pwned) \\ done; rm -rf /`)
        .addOption(new Option('--mode <m>', `a 'mode' $(touch pwned)`).choices(['a b', "it's", 'x$y', '$(touch pwned)']));
      const dir = join(work, `syntax-${shell}`);
      mkdirSync(dir);
      const file = join(dir, 'weird');
      writeFileSync(file, generate(shell, weird));
      const committed = join(ROOT, shell === 'bash' ? 'completions/srs.bash' : shell === 'zsh' ? 'completions/_srs' : 'completions/srs.fish');
      for (const f of [committed, file]) {
        const r = shell === 'fish' ? spawnSync('fish', ['--no-config', '-n', f], { encoding: 'utf8' }) : spawnSync(shell, shell === 'zsh' ? ['-fn', f] : ['-n', f], { encoding: 'utf8' });
        expect(r.status, `${shell} -n ${f}: ${r.stderr}`).toBe(0);
      }
      // Completing with it runs nothing from the descriptions or values.
      const env = shellEnv();
      const script =
        shell === 'bash'
          ? `source ${BASH_COMPLETION}; source ${sq(file)}; COMP_WORDS=(srs go --mode ''); COMP_CWORD=3; COMP_LINE='srs go --mode '; COMP_POINT=14; _srs srs '' --mode; printf '%s\\n' "\${COMPREPLY[@]}"`
          : shell === 'fish'
            ? `source ${fishq(file)}; complete -C 'srs go --mode '; complete -C 'srs '`
            : '';
      if (script) {
        const r = spawnSync(shell, shell === 'bash' ? ['--norc', '--noprofile', '-c', script] : ['--no-config', '-c', script], { cwd: dir, env, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        expect(norm(r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]!)).filter((x) => x !== 'go' && x !== 'help')).toEqual(['$(touch pwned)', 'a b', "it's", 'x$y'].sort());
      }
      expect(existsSync(join(dir, 'pwned'))).toBe(false);
    });
  });
}

describe('the built srs', () => {
  const env = () => baseEnv(mkdtempSync(join(work, 'run-')));

  it.each([
    ['completions/srs.bash', ['completion', 'bash']],
    ['completions/_srs', ['completion', 'zsh']],
    ['completions/srs.fish', ['completion', 'fish']],
    ['man/srs.1', ['completion', '--man']],
  ] as const)('%s is what the built srs prints', async (file, args) => {
    const r = await runSrs([...args], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout === readFileSync(join(ROOT, file), 'utf8'), `${file} is out of date: run "${REGENERATE}" and commit the result`).toBe(true);
  });

  it('srs completion needs a known shell', async () => {
    const none = await runSrs(['completion'], env());
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/bash\|zsh\|fish/);
    const bad = await runSrs(['completion', 'tcsh'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Allowed choices are bash, zsh, fish/);
  });

  it('suggests the closest subcommand: srs score cacl', async () => {
    const r = await runSrs(['score', 'cacl'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("srs: unknown command 'cacl' (did you mean calc?)\n");
    expect(r.stdout).toBe('');
  });

  it('suggests the closest option: srs ref countries --limt 5', async () => {
    const r = await runSrs(['ref', 'countries', '--limt', '5'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("srs: unknown option '--limt' (did you mean --limit?)\n");
    expect(r.stdout).toBe('');
  });

  it('srs help score calc is the help of score calc', async () => {
    const e = env();
    const viaHelp = await runSrs(['help', 'score', 'calc'], e);
    const viaFlag = await runSrs(['score', 'calc', '--help'], e);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: srs score calc /);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });
});

describe('the value cache, refreshed by srs ref countries / industries', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });
  const cacheFile = (name: string) => join(h.env.SRS_DATA_DIR!, 'completion', `${name}.txt`);

  it('a full listing writes every code with its name', async () => {
    const r = await h.run(['ref', 'countries', '-o', 'json']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as Array<{ iso3Code: string; commonName: string }>;
    const lines = readFileSync(cacheFile('countries'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(printed.length);
    expect(lines).toContain('DEU\tGermany');
    expect(lines).toEqual([...lines].sort());
    const ind = await h.run(['ref', 'industries', '-o', 'ndjson']);
    expect(ind.code).toBe(0);
    const codes = ind.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { code: string }).code);
    expect(readFileSync(cacheFile('industries'), 'utf8').trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual([...codes].sort());
    // --all-levels prints sectors and groups too; the cache keeps only what --industry takes (8-digit sub-industries).
    const all = await h.run(['ref', 'industries', '--all-levels', '-o', 'ndjson']);
    expect(all.code).toBe(0);
    const allCodes = all.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { code: string }).code);
    expect(allCodes.some((c) => c.length < 8)).toBe(true);
    expect(readFileSync(cacheFile('industries'), 'utf8').trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(allCodes.filter((c) => /^\d{8}$/.test(c)).sort());
  });

  it('a partial listing (--limit) merges into the cache instead of shrinking it', async () => {
    const before = readFileSync(cacheFile('countries'), 'utf8');
    const r = await h.run(['ref', 'countries', '-o', 'json', '--limit', '2']);
    expect(r.code).toBe(0);
    expect(readFileSync(cacheFile('countries'), 'utf8')).toBe(before);
  });

  it('never fails the command when the cache cannot be written; says so under --debug only', async () => {
    const data = mkdtempSync(join(work, 'ro-'));
    writeFileSync(join(data, 'completion'), 'a file where the directory should be');
    const quiet = await h.run(['ref', 'countries', '-o', 'json', '--limit', '1'], { env: { SRS_DATA_DIR: data } });
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.stdout)).toHaveLength(1);
    expect(quiet.stderr).not.toMatch(/cache/);
    const loud = await h.run(['ref', 'countries', '-o', 'json', '--limit', '1', '--debug'], { env: { SRS_DATA_DIR: data } });
    expect(loud.code).toBe(0);
    expect(loud.stderr).toMatch(/warning: could not update the completion cache of countries/);
  });

  const shell = SHELLS.find((s) => TOOLS[s].present);
  const anyShell = optionalTool({ name: 'a completion shell (bash-completion, zsh or fish)', pkg: 'bash-completion', present: shell !== undefined });
  anyShell.it('the shells complete from what srs ref countries wrote', () => {
    if (!shell) throw new Error('unreachable: anyShell.it runs only with a shell');
    const got = complete(shell, ['srs supplier create --country DE'], shellEnv({ SRS_DATA_DIR: h.env.SRS_DATA_DIR }));
    expect(got.map(norm)).toEqual([['DEU']]);
  });
});
