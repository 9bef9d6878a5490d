import type { Context } from '../../context.js';
import { columns } from '../../output/columns.js';
import { renderItem } from '../../output/render.js';
import { requireArg, type Opts } from '../kit.js';

export async function run(ctx: Context, args: string[], _opts: Opts): Promise<void> {
  const id = requireArg(args, 0, 'supplier id');
  const client = await ctx.client();
  const supplier = await ctx.withSpinner('Fetching supplier…', () => client.getSupplier(id));
  await renderItem(ctx.sink, supplier, columns.supplierDetail, ctx.renderOptions());
}
