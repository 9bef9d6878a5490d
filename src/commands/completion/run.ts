import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { generate, SHELLS, type Shell } from '../../completion/generate.js';
import { manPage } from '../../completion/man.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  // A fresh tree: the same one --help describes, without the run-time wiring of main() (src/cli.ts supplies it).
  if (!ctx.commandTree) throw new Error('srs completion needs the command tree (set by src/cli.ts)');
  const program = ctx.commandTree();
  // A shell script or a man page, not data: the output options cannot apply, and were ignored in silence.
  const given = [ctx.globals.fields !== undefined && '--fields', ctx.globals.query !== undefined && '--query', ctx.globals.output !== undefined && '-o'].filter((o): o is string => !!o);
  if (given.length) throw new UsageError(`${given.join(' and ')} ${given.length > 1 ? 'do' : 'does'} not apply to srs completion (it prints a ${opts.man === true ? 'man page' : 'shell script'}, not data)`);
  if (opts.man === true) {
    await ctx.sink.write(manPage(program, { version: program.version() ?? '0.0.0-dev' }));
    return;
  }
  const shell = args[0];
  if (shell === undefined) throw new UsageError(`name a shell: srs completion ${SHELLS.join('|')}`);
  if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`unsupported shell "${shell}": use one of ${SHELLS.join(', ')}`);
  await ctx.sink.write(generate(shell as Shell, program));
}
