import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  // One JSON document of several lists: asked for explicitly in another format, say so rather than print JSON anyway.
  if (ctx.globals.output !== undefined && ctx.globals.output !== 'json') {
    throw new UsageError(`emulator fixtures prints one JSON document (several lists of ids); -o ${ctx.globals.output} is not available: use -o json, or pipe it to jq`);
  }
  const { fixtures, DEFAULT_SEED } = await import('../../emulator/index.js');
  const f = fixtures(typeof opts.seed === 'number' ? opts.seed : DEFAULT_SEED, typeof opts.suppliers === 'number' ? opts.suppliers : undefined);
  await ctx.sink.write(JSON.stringify(f, null, 2) + '\n');
}
