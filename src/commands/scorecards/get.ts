import type { Context } from '../../context.js';
import { columns } from '../../output/columns.js';
import { renderItem, renderList } from '../../output/render.js';
import { requireArg, type Opts } from '../kit.js';
import { checkId } from '../../util/ulid.js';

export async function run(ctx: Context, args: string[], _opts: Opts): Promise<void> {
  // Ids look like 26-character lowercase ULIDs: a malformed one is exit 2, not "not found" from the service.
  const id = checkId(requireArg(args, 0, 'scorecard id'), 'scorecard id');
  const client = await ctx.client();
  const card = await ctx.withSpinner('Fetching scorecard…', () => client.getScorecard(id));
  const ro = ctx.renderOptions();
  if (ctx.format === 'table' && !ro.fields && !ro.query) {
    // People get the card, then its items as a table (a --query shapes one document: the card).
    await renderItem(ctx.sink, card, columns.scorecard.filter((c) => c.path !== 'items.length'), ro);
    const items = card.items ?? [];
    if (items.length) {
      await ctx.sink.write('\n');
      await renderList(ctx.sink, items, columns.scorecardItem, ro);
    }
    return;
  }
  await renderItem(ctx.sink, card, columns.scorecard, ro);
}
