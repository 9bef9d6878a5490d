/**
 * The completion generator (a Commander tree in, shell scripts out), the value
 * cache, the man page, and the drift check of the committed files. The scripts
 * themselves are exercised in real shells in test/integration/completion.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { cachePath, formatCache, mergeEntries, normalizeEntries, parseCache, readCache, refreshCache, writeCache } from '../../src/completion/cache.js';
import { describeTree, generate, shQuote, SHELLS, type CommandSpec } from '../../src/completion/generate.js';
import { COMPLETION_SHELLS } from '../../src/commands/completion/index.js';
import { ENVIRONMENT, EXIT_STATUS, manPage, roff, splitAfterText } from '../../src/completion/man.js';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const REGENERATE = 'npm run build && node scripts/completions.mjs';

const program = () => buildProgram(() => async () => undefined);

function find(spec: CommandSpec, path: string): CommandSpec {
  if (spec.path === path) return spec;
  for (const c of spec.children) {
    const hit = path === c.path || path.startsWith(c.path + ' ') ? find(c, path) : undefined;
    if (hit) return hit;
  }
  throw new Error(`no command ${path}`);
}

describe('the command tree as data', () => {
  const tree = describeTree(program());

  it('has the commands, subcommands and aliases', () => {
    expect(tree.root.children.map((c) => c.name)).toEqual(expect.arrayContaining(['supplier', 'scorecards', 'score', 'ref', 'auth', 'emulator', 'completion']));
    expect(tree.root.children.map((c) => c.name)).not.toContain('help');
    expect(tree.help).toMatch(/help/i);
    expect(find(tree.root, 'score').children.map((c) => c.name)).toEqual(['calc', 'explain', 'report', 'recompute', 'check']);
    expect(find(tree.root, 'scorecards ls').aliases).toEqual(['list']);
    // Commander's implicit `help` of nested commands is not offered (srs gives nouns an action, so it never runs).
    expect(find(tree.root, 'score').children.map((c) => c.name)).not.toContain('help');
  });

  it('has global options with short and long flags and their values', () => {
    const output = tree.globals.find((o) => o.long === '--output')!;
    expect(output.flags).toEqual(['-o', '--output']);
    expect(output.takesValue).toBe(true);
    expect(output.values).toEqual({ kind: 'words', words: ['table', 'json', 'ndjson', 'csv'] });
    expect(tree.globals.find((o) => o.long === '--debug')).toMatchObject({ takesValue: false });
    expect(tree.globals.find((o) => o.long === '--no-color')).toBeDefined();
    expect(tree.globals.find((o) => o.long === '--help')).toMatchObject({ short: '-h' });
  });

  it('knows the values of enum options, cached reference values, and files', () => {
    const opt = (path: string, long: string) => find(tree.root, path).options.find((o) => o.long === long)!;
    expect(opt('score calc', '--breakdown').values).toEqual({ kind: 'words', words: ['sources', 'parameters', 'entries'] });
    expect(opt('score recompute', '--mode').values).toEqual({ kind: 'words', words: ['parameters', 'scorecards'] });
    expect(opt('emulator start', '--last-page').values).toEqual({ kind: 'words', words: ['null', 'absent', 'zero', 'same', 'past'] });
    expect(opt('supplier create', '--country').values).toEqual({ kind: 'cache', cache: 'countries' });
    expect(opt('supplier create', '--industry').values).toEqual({ kind: 'cache', cache: 'industries' });
    expect(opt('score calc', '--save').values).toEqual({ kind: 'files' });
    expect(opt('supplier create', '--name').values).toEqual({ kind: 'none' });
    expect(find(tree.root, 'score recompute').args).toEqual([{ name: 'file', variadic: false, values: { kind: 'files' } }]);
    expect(find(tree.root, 'completion').args[0]!.values).toEqual({ kind: 'words', words: ['bash', 'zsh', 'fish'] });
    // Hidden options are not offered.
    expect(find(tree.root, 'completion').options.map((o) => o.long)).not.toContain('--man');
  });
});

describe('generated scripts', () => {
  it('bash: data functions and a registered function', () => {
    const s = generate('bash', program());
    expect(s).toContain(`'score calc/--breakdown') _srs_kind=words; _srs_r=(sources parameters entries); return ;;`);
    expect(s).toContain(`'supplier create/--country') _srs_kind=cache:countries; return ;;`);
    expect(s).toContain(`'scorecards/ls'|'scorecards/list') _srs_w=ls ;;`);
    expect(s).toContain(`'-o'|'--output') _srs_kind=words; _srs_r=(table json ndjson csv) ;;`);
    expect(s).toMatch(/\ncomplete -F _srs srs\n$/);
    // The data directory is found like dataDir(): SRS_DATA_DIR, else XDG_DATA_HOME/srs, else ~/.local/share/srs.
    expect(s).toContain('if [[ -n ${SRS_DATA_DIR-} ]]; then dir=$SRS_DATA_DIR');
    expect(s).toContain('elif [[ ${XDG_DATA_HOME-} == /* ]]; then dir=$XDG_DATA_HOME/srs');
    expect(s).toContain('else dir=${HOME-}/.local/share/srs');
    // Never runs srs to complete (only comments mention it).
    const code = s.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');
    expect(code).not.toMatch(/\bsrs (completion|ref)\b|\$\(\s*srs|`srs /);
  });

  it('zsh: #compdef, descriptions, works autoloaded or sourced', () => {
    const s = generate('zsh', program());
    expect(s.startsWith('#compdef srs\n')).toBe(true);
    expect(s).toContain(`'calc:Calculate scores for any number of suppliers`);
    expect(s).toContain(`'--breakdown:rows per data source`);
    expect(s).toContain('compdef _srs srs');
    const code = s.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');
    expect(code).not.toMatch(/\$\(\s*srs|`srs /);
  });

  it('fish: complete lines with conditions on the command path', () => {
    const s = generate('fish', program());
    expect(s).toContain(`complete -c srs -n "__srs_at 'score'" -a 'calc' -d 'Calculate scores`);
    expect(s).toContain(`complete -c srs -n "__srs_at 'score calc'" -l breakdown -x -a 'sources parameters entries'`);
    expect(s).toContain(`complete -c srs -s o -l output -x -a 'table json ndjson csv'`);
    expect(s).toContain(`-l country -x -a '(__srs_cache countries)'`);
    expect(s).toContain(`complete -c srs -n "__srs_at 'help score'" -a 'calc'`);
    // The only command substitutions read the cache (fish builtins), never srs.
    expect(s.match(/-a '\([^)]*\)'/g)).toEqual([`-a '(__srs_cache countries)'`, `-a '(__srs_cache industries)'`]);
  });

  it('quotes descriptions and values safely', () => {
    const p = new Command('tool').description('a tool');
    p.command('go')
      .description(`it's "quoted" $HOME \`x\` \\ done`)
      .addOption(new Option('--mode <m>', `a 'mode'`).choices(['a b', "it's", 'x$y']));
    const tree = describeTree(p);
    expect(tree.root.children[0]!.options[0]!.values).toEqual({ kind: 'words', words: ['a b', "it's", 'x$y'] });
    const bash = generate('bash', p);
    expect(bash).toContain(`_tool_r=('a b' 'it'\\''s' 'x$y')`);
    const zsh = generate('zsh', p);
    expect(zsh).toContain(`'go:it'\\''s "quoted" $HOME \`x\` \\ done'`);
    const fish = generate('fish', p);
    expect(fish).toContain(`-a 'a\\\\ b it\\\\\\'s x\\\\$y'`);
    expect(fish).toContain(`-d 'it\\'s "quoted" $HOME \`x\` \\\\ done'`);
    expect(shQuote('plain-word')).toBe('plain-word');
    expect(shQuote("a'b")).toBe(`'a'\\''b'`);
  });

  it('refuses names it cannot complete safely', () => {
    const p = new Command('tool');
    p.command('bad$');
    expect(() => generate('bash', p)).toThrow(/unsupported command name/);
  });

  it('srs completion offers exactly the shells there is a generator for', () => {
    expect([...COMPLETION_SHELLS]).toEqual([...SHELLS]);
  });

  it('every shell gets a script for the same tree', () => {
    for (const shell of SHELLS) expect(generate(shell, program()).length).toBeGreaterThan(1000);
  });
});

describe('committed files match the command tree', () => {
  const files: Array<[string, () => string]> = [
    ['completions/srs.bash', () => generate('bash', program())],
    ['completions/_srs', () => generate('zsh', program())],
    ['completions/srs.fish', () => generate('fish', program())],
    ['man/srs.1', () => manPage(program(), { version: VERSION })],
  ];
  it.each(files)('%s is up to date', (file, make) => {
    const path = join(ROOT, file);
    const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
    expect(committed === make(), `${file} is out of date with the command tree: run "${REGENERATE}" and commit the result`).toBe(true);
  });
});

describe('the value cache', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const d = mkdtempSync(join(tmpdir(), 'srs-cache-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  it('lives in dataDir(env)/completion', () => {
    expect(cachePath({ SRS_DATA_DIR: '/d' }, 'countries')).toBe('/d/completion/countries.txt');
    expect(cachePath({ XDG_DATA_HOME: '/x', HOME: '/h' }, 'industries')).toBe('/x/srs/completion/industries.txt');
    expect(cachePath({ HOME: '/h' }, 'countries')).toBe('/h/.local/share/srs/completion/countries.txt');
  });

  it('formats code<TAB>name lines, sorted, de-duplicated, with unusable codes and control characters dropped', () => {
    const text = formatCache([
      { code: 'FRA', name: 'France' },
      { code: 'DEU', name: 'Germany\tBundes\u001b[31mrepublik\n' },
      { code: 'bad code', name: 'x' },
      { code: '$(rm -rf ~)', name: 'x' },
      { code: 'ABW' },
      { code: 'FRA', name: 'French Republic' },
      { code: 'ESP', name: '   ' },
    ]);
    expect(text).toBe('ABW\nDEU\tGermany Bundes [31mrepublik\nESP\nFRA\tFrench Republic\n');
    expect(parseCache(text)).toEqual(normalizeEntries(parseCache(text)));
    expect(parseCache('# comment\r\nDEU\tGermany\r\n\nFRA\n')).toEqual([{ code: 'DEU', name: 'Germany' }, { code: 'FRA' }]);
    expect(mergeEntries([{ code: 'A', name: 'old' }, { code: 'B' }], [{ code: 'A', name: 'new' }, { code: 'C' }])).toEqual([{ code: 'A', name: 'new' }, { code: 'B' }, { code: 'C' }]);
  });

  it('writes atomically; a full listing replaces, a partial one merges', async () => {
    const dir = scratch();
    const env = { SRS_DATA_DIR: dir };
    expect(await readCache(env, 'countries')).toEqual([]);
    await writeCache(env, 'countries', [{ code: 'DEU', name: 'Germany' }, { code: 'FRA', name: 'France' }]);
    expect(readFileSync(join(dir, 'completion/countries.txt'), 'utf8')).toBe('DEU\tGermany\nFRA\tFrance\n');
    await refreshCache(env, 'countries', [{ code: 'ESP', name: 'Spain' }], false);
    expect((await readCache(env, 'countries')).map((e) => e.code)).toEqual(['DEU', 'ESP', 'FRA']);
    await refreshCache(env, 'countries', [{ code: 'ITA', name: 'Italy' }], true);
    expect(await readCache(env, 'countries')).toEqual([{ code: 'ITA', name: 'Italy' }]);
    expect(readdirSync(join(dir, 'completion'))).toEqual(['countries.txt']);
  });

  it('fails (for the caller to ignore) when the directory cannot be made', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'completion'), 'not a directory');
    await expect(writeCache({ SRS_DATA_DIR: dir }, 'countries', [{ code: 'DEU' }])).rejects.toThrow();
  });
});

describe('the man page', () => {
  const page = manPage(program(), { version: VERSION });
  const lines = page.split('\n');

  it('has the sections of a man page, in order', () => {
    const sections = lines.filter((l) => l.startsWith('.SH ')).map((l) => l.slice(4));
    expect(sections).toEqual(['NAME', 'SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS', 'FILES', 'SEE ALSO']);
    expect(lines).toContain(`.TH SRS 1 "" "srs ${roff(VERSION)}" "User Commands"`);
  });

  it('documents every command with usage, description, options and examples', () => {
    const subsections = lines.filter((l) => l.startsWith('.SS ')).map((l) => l.slice(4).replace(/\\-/g, '-'));
    for (const c of ['srs supplier create', 'srs score calc', 'srs score', 'srs ref countries', 'srs emulator start', 'srs completion', 'srs help']) expect(subsections).toContain(c);
    const calc = page.slice(page.indexOf('.SS srs score calc'), page.indexOf('.SS srs score recompute'));
    expect(calc).toContain('\\fBsrs score calc [options] [ids...]\\fR');
    expect(calc).toContain('\\fB\\-\\-breakdown\\fR \\fI<kind>\\fR');
    expect(calc).toContain('(default: 8)');
    expect(calc).toContain('Examples:');
    expect(calc).toContain('$ srs score calc 01h58vrn1sad1y603je9gbpje8');
  });

  it('lists every variable of the README configuration table and the exit codes', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const config = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));
    const vars = new Set([...config.matchAll(/^\| `([A-Z_]+)/gm), ...config.matchAll(/`(SRS_[A-Z_]+)`/g)].map((m) => m[1]!));
    expect(vars.size).toBeGreaterThanOrEqual(10);
    const env = page.slice(page.indexOf('.SH ENVIRONMENT'), page.indexOf('.SH EXIT STATUS'));
    for (const v of vars) expect(env, v).toContain(`\\fB${v}\\fR`);
    expect(ENVIRONMENT.map(([k]) => k).sort()).toEqual([...vars].sort());
    const exit = page.slice(page.indexOf('.SH EXIT STATUS'), page.indexOf('.SH FILES'));
    const codes = ['0', '1', '2', '3', '4', '129', '130', '143'];
    expect(EXIT_STATUS.map(([k]) => k)).toEqual(codes);
    for (const k of codes) expect(exit).toContain(`.TP\n\\fB${k}\\fR`);
    const readmeExit = readme.slice(readme.indexOf('## Exit codes'));
    for (const k of codes) expect(readmeExit).toMatch(new RegExp(`^\\| ${k} \\|`, 'm'));
  });

  it('is well-formed roff: only known requests, no stray control characters', () => {
    const known = new Set(['.TH', '.SH', '.SS', '.TP', '.PP', '.br', '.RS', '.RE', '.nf', '.fi', '.nh', '.ad', '.\\"']);
    for (const l of lines) {
      if (l.startsWith('.') || l.startsWith("'")) expect(known.has(l.split(' ')[0]!), l).toBe(true);
    }
    expect(roff(".x 'a' \\b -c")).toBe('\\&.x \\(aqa\\(aq \\eb \\-c');
    expect(splitAfterText('\nNote one\nline two.\n\nExamples:\n  $ srs a\n  $ srs b\n')).toEqual({ examples: ['srs a', 'srs b'], notes: ['Note one line two.'] });
    // An example over several lines stays one example (its continuation became a note, and the examples after it were lost).
    expect(splitAfterText('Examples:\n  $ srs auth login --profile ci \\\n      --base-url https://x --with-key\n  $ srs c\n')).toEqual({
      examples: ['srs auth login --profile ci \\\n  --base-url https://x --with-key', 'srs c'],
      notes: [],
    });
  });
});
