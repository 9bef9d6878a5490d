/**
 * Every command's --help, walked from the real command tree: a one-line
 * purpose, its arguments, its options with their defaults, and examples.
 * Plus `srs help COMMAND...` for nested commands.
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, HELP_WIDTH, main } from '../../src/cli.js';
import type { IO } from '../../src/context.js';

function tree(): Command {
  return buildProgram(() => async () => undefined);
}

function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Every command reachable from the root, the root included (not Commander's implicit help commands). */
function allCommands(root: Command): Command[] {
  const out: Command[] = [root];
  for (const c of root.commands) out.push(...allCommands(c));
  return out;
}

/** The whole --help text of a command, as srs prints it (including the examples added after it). */
function helpText(cmd: Command): string {
  let out = '';
  cmd.configureHelp({ helpWidth: HELP_WIDTH });
  cmd.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
  cmd.outputHelp();
  return out;
}

const program = tree();
const commands = allCommands(program);
const leaves = commands.filter((c) => c.commands.length === 0);

describe('--help of every command', () => {
  it('walks the whole tree', () => {
    expect(leaves.map(pathOf)).toEqual(expect.arrayContaining(['srs supplier create', 'srs score calc', 'srs ref countries', 'srs emulator start', 'srs completion', 'srs help']));
    expect(leaves.length).toBeGreaterThanOrEqual(20);
  });

  it.each(commands.map((c) => [pathOf(c), c] as const))('%s: a one-line purpose', (_name, cmd) => {
    const d = cmd.description();
    expect(d.trim().length, 'description').toBeGreaterThan(10);
    expect(d, 'one line').not.toContain('\n');
    // The help shows it (wrapped at 80 columns).
    expect(helpText(cmd).replace(/\s+/g, ' ')).toContain(d.replace(/\s+/g, ' '));
  });

  it.each(commands.map((c) => [pathOf(c), c] as const))('%s: at least one example', (name, cmd) => {
    const m = /\nExamples:\n((?: {2}\$ .*\n?)+)/.exec(helpText(cmd));
    expect(m, `${name} --help has no "Examples:" block`).not.toBeNull();
    for (const line of m![1]!.trimEnd().split('\n')) expect(line).toMatch(/^ {2}\$ .*\bsrs\b/);
  });

  it.each(leaves.map((c) => [pathOf(c), c] as const))('%s: every argument is described', (name, cmd) => {
    const text = helpText(cmd);
    for (const a of cmd.registeredArguments) {
      expect(a.description.trim(), `${name}: argument ${a.name()} has no description`).not.toBe('');
      expect(text).toMatch(new RegExp(`\\nArguments:\\n[\\s\\S]*\\b${a.name()}\\b`));
    }
    const usage = helpText(cmd).split('\n')[0];
    // With arguments the usage line shows them; without, it shows nothing but [options].
    if (cmd.registeredArguments.length) expect(usage).toMatch(/^Usage: srs .*[[<]/);
    else expect(usage).toMatch(new RegExp(`^Usage: ${name.replace(/[-]/g, '\\-')}(\\|[a-z-]+)? \\[options\\]$`));
  });

  it.each(commands.map((c) => [pathOf(c), c] as const))('%s: options are described and show their defaults', (name, cmd) => {
    const help = cmd.createHelp();
    const text = helpText(cmd).replace(/\s+/g, ' ');
    for (const o of help.visibleOptions(cmd)) {
      expect(o.description.trim(), `${name}: ${o.flags} has no description`).not.toBe('');
      expect(text, `${name}: ${o.flags} missing from --help`).toContain(o.flags);
      if (o.defaultValue !== undefined && !o.negate) {
        const shown = help.optionDescription(o);
        expect(shown, `${name}: ${o.flags} has a default that --help does not show`).toMatch(/[(,] ?default: /);
        expect(text).toContain(shown.replace(/\s+/g, ' '));
      }
      if (o.argChoices) expect(text, `${name}: ${o.flags} choices`).toContain(`choices: ${o.argChoices.map((c) => JSON.stringify(c)).join(', ')}`);
    }
  });

  it('the root help names the exit codes', () => {
    expect(helpText(tree()).replace(/\s+/g, " ")).toMatch(/Exit codes: 0 ok, 1 .*, 2 .*, 3 .*, 4 .*, 129 .*, 130 .*, 143 /);
  });
});

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const io: IO = { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  const code = await main(argv, io, { HOME: '/nonexistent', SRS_OUTPUT: 'table' });
  return { code, stdout: out, stderr: err };
}

describe('srs help COMMAND...', () => {
  it('shows the help of a nested command: srs help score calc', async () => {
    const r = await run(['help', 'score', 'calc']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: srs score calc \[options\] \[ids\.\.\.\]/);
    expect(r.stdout).toContain('--breakdown');
    expect(r.stdout).toMatch(/Examples:\n {2}\$ srs score calc/);
    expect((await run(['score', 'calc', '--help'])).stdout).toBe(r.stdout);
  });

  it('shows a noun, an alias and the root', async () => {
    expect((await run(['help', 'score'])).stdout).toMatch(/^Usage: srs score \[options\] \[command\]/);
    expect((await run(['help', 'scorecards', 'list'])).stdout).toMatch(/^Usage: srs scorecards ls\|list/);
    const root = await run(['help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^Usage: srs \[options\] \[command\]/);
  });

  it('suggests the closest command for a mistyped one', async () => {
    const r = await run(['help', 'score', 'cacl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'cacl'.*did you mean calc\?/);
    expect(r.stdout).toBe('');
  });

  it('a mistyped subcommand gets a suggestion and exit 2', async () => {
    const r = await run(['score', 'cacl']);
    expect(r.code).toBe(2);
    // "Did you mean" is on the same line as the error.
    expect(r.stderr).toBe("srs: unknown command 'cacl' (did you mean calc?)\n");
  });
});

describe('inherited global options', () => {
  const subcommands = commands.filter((c) => c.parent !== null);
  it.each(subcommands.map((c) => [pathOf(c), c] as const))('%s --help lists the global options it inherits', async (name) => {
    const r = await run([...name.split(' ').slice(1), '--help']);
    expect(r.code).toBe(0);
    const section = r.stdout.split('\nGlobal Options:\n')[1];
    expect(section, `${name} --help has no "Global Options:" section`).toBeDefined();
    for (const flag of ['-o, --output <format>', '--fields <paths>', '--query <jmespath>', '--sandbox', '--profile <name>', '--wide', '-q, --quiet']) expect(section).toContain(flag);
  });
  it('the root help does not repeat them', async () => {
    const r = await run(['--help']);
    expect(r.stdout).not.toContain('Global Options:');
    expect(r.stdout).toContain('--fields <paths>');
  });
});

describe('wrapExample (help examples within 80 columns)', () => {
  it('continues a long example with " \\" on lines of its own, never inside quotes, an option and its value, or a comment', async () => {
    const { wrapExample } = await import('../../src/commands/kit.js');
    const long = 'srs supplier create --name "Embudo Valley Organics" --country USA --website https://example.com --industry 30202030 --customer-id SUPP-12345';
    const wrapped = wrapExample(long);
    const lines = wrapped.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(79);
    for (const l of lines.slice(0, -1)) expect(l.endsWith(' \\')).toBe(true);
    // Joined as a shell joins them, it is the example again.
    expect(lines.map((l) => l.replace(/ \\$/, '').trim()).join(' ').replace(/^\$ /, '')).toBe(long);
    expect(wrapped).toContain('"Embudo Valley Organics"');
    expect(wrapped).toMatch(/--customer-id SUPP-12345/);
    const comment = wrapExample('srs completion zsh > ~/.zfunc/_srs # with fpath=(~/.zfunc $fpath) before compinit, in .zshrc');
    expect(comment.split('\n').at(-1)!.trim()).toMatch(/^# with fpath=/);
    expect(wrapExample('srs ref countries')).toBe('  $ srs ref countries');
  });
});
