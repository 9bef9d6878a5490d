import type { Context } from '../../context.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const { fixtures, DEFAULT_SEED } = await import('../../emulator/index.js');
  const f = fixtures(typeof opts.seed === 'number' ? opts.seed : DEFAULT_SEED, typeof opts.suppliers === 'number' ? opts.suppliers : undefined);
  await ctx.sink.write(JSON.stringify(f, null, 2) + '\n');
}
