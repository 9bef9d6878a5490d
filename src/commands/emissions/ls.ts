import type { Context } from '../../context.js';
import { columns } from '../../output/columns.js';
import { renderList } from '../../output/render.js';
import { requireArg, type Opts } from '../kit.js';

export async function run(ctx: Context, args: string[], _opts: Opts): Promise<void> {
  const id = requireArg(args, 0, 'supplier id');
  const client = await ctx.client();
  const items = await ctx.withSpinner('Fetching emission reports…', () => client.listEmissionReports(id));
  const n = await renderList(ctx.sink, items, columns.emissionReport, ctx.renderOptions());
  if (n === 0 && ctx.format === 'table') ctx.info('no emission reports');
}
