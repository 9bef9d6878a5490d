import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  // One JSON document of several lists: asked for explicitly in another format, say so rather than print JSON anyway.
  if (ctx.globals.output !== undefined && ctx.globals.output !== 'json') {
    throw new UsageError(`emulator fixtures prints one JSON document (several lists of ids); -o ${ctx.globals.output} is not available: use -o json, or pipe it to jq`);
  }
  // --fields cannot apply to one document of several lists: refused, not ignored; --query shapes it as any document.
  const ro = ctx.renderOptions();
  if (ro.fields) throw new UsageError('--fields does not apply to emulator fixtures (one JSON document of several lists); use --query, e.g. --query "suppliers[].id"');
  const { fixtures, DEFAULT_SEED } = await import('../../emulator/index.js');
  const f = fixtures(typeof opts.seed === 'number' ? opts.seed : DEFAULT_SEED, typeof opts.suppliers === 'number' ? opts.suppliers : undefined);
  await ctx.sink.write(JSON.stringify(ro.query ? (ro.query(f) ?? null) : f, null, 2) + '\n');
}
