import type { Context } from '../../context.js';
import { columns } from '../../output/columns.js';
import { renderItem } from '../../output/render.js';
import { requireArg, type Opts } from '../kit.js';

export async function run(ctx: Context, args: string[], _opts: Opts): Promise<void> {
  const id = requireArg(args, 0, 'data entry id');
  const client = await ctx.client();
  const entry = await ctx.withSpinner('Fetching data entry…', () => client.getDataEntry(id));
  await renderItem(ctx.sink, entry, columns.dataEntryDetail, ctx.renderOptions());
}
