import type { Context } from '../../context.js';
import { columns } from '../../output/columns.js';
import { listFlags, printPages, type Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const flags = listFlags(opts);
  const client = await ctx.client();
  const q = typeof opts.supplier === 'string' ? { supplierId: opts.supplier } : {};
  await printPages(ctx, (p) => client.listScorecards(q, p), columns.scorecard, flags, 'scorecards');
}
