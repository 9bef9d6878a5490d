import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, commandToBuild, HELP_WIDTH, TOP_COMMANDS } from '../../src/cli.js';

const noop = () => async () => undefined;
const root = () => buildProgram(noop, '');

function* walk(c: Command): Generator<Command> {
  yield c;
  for (const s of c.commands) yield* walk(s);
}

describe('building only the command argv runs (start-up of a lookup)', () => {
  it('TOP_COMMANDS names every top-level command by the name it has, without aliases', () => {
    const full = buildProgram(noop);
    expect(full.commands.map((c) => c.name())).toEqual(TOP_COMMANDS.map(([n]) => n));
    for (const c of full.commands) expect(c.aliases()).toEqual([]);
  });

  it('finds the command after global options and their values', () => {
    const r = root();
    expect(commandToBuild(['supplier', 'get', 'X'], r)).toBe('supplier');
    expect(commandToBuild(['--no-catalog', 'supplier', 'get', 'X'], r)).toBe('supplier');
    expect(commandToBuild(['-o', 'json', '--base-url', 'http://x', 'ref', 'countries'], r)).toBe('ref');
    expect(commandToBuild(['--output=json', '-ojson', '--catalog', 'supplier', 'score', 'calc'], r)).toBe('score');
    expect(commandToBuild(['--fields', 'supplier', 'ref'], r)).toBe('ref');
    // A group of short flags whose last takes the next word (it was read as -q alone, and json as the command).
    expect(commandToBuild(['-qo', 'json', 'supplier', 'get', 'X'], r)).toBe('supplier');
  });

  it('builds the whole tree when the command is not certain', () => {
    const r = root();
    for (const argv of [[], ['-o', 'json'], ['suplier', 'get'], ['help', 'supplier'], ['--bogus', 'supplier'], ['--help'], ['--', 'supplier'], ['-qx', 'supplier']]) {
      expect(commandToBuild(argv, r), argv.join(' ')).toBeUndefined();
    }
  });

  it('gives every command of a subtree the same help as the whole tree does', () => {
    const full = buildProgram(noop);
    for (const [name] of TOP_COMMANDS) {
      const part = buildProgram(noop, name);
      expect(part.commands.map((c) => c.name())).toEqual([name]);
      const a = [...walk(full.commands.find((c) => c.name() === name)!)];
      const b = [...walk(part.commands[0]!)];
      expect(b.length).toBe(a.length);
      a.forEach((c, i) => {
        c.configureHelp({ helpWidth: HELP_WIDTH });
        b[i]!.configureHelp({ helpWidth: HELP_WIDTH });
        expect(b[i]!.helpInformation()).toBe(c.helpInformation());
      });
    }
  });
});
