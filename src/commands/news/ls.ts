import type { Context } from '../../context.js';
import { checkId } from '../../util/ulid.js';
import { columns } from '../../output/columns.js';
import { listFlags, printPages, requireArg, type Opts } from '../kit.js';

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  // Checked like every other id: "../v1/countries" was sent (and answered 404 "supplier not found").
  const id = checkId(requireArg(args, 0, 'supplier id'));
  const flags = listFlags(opts);
  const client = await ctx.client();
  // Checked like every id: a typo read as "this entry has no news" (exit 0).
  const q = typeof opts.dataEntry === 'string' ? { dataEntryId: checkId(opts.dataEntry, '--data-entry') } : {};
  await printPages(ctx, (p) => client.listNewsEvents(id, q, p), columns.newsEvent, flags, 'news events');
}
