import type { Context } from '../../context.js';
import { columns, type Column } from '../../output/columns.js';
import { renderItem, renderList } from '../../output/render.js';
import { requireArg, type Opts } from '../kit.js';
import { checkId } from '../../util/ulid.js';
import { scoreCell } from '../../scoring/index.js';


/** The per-parameter scores of a data entry, as rows with the parameter's name (table view only). */
const parameterColumns: Column[] = [
  { path: 'policyParameterId', header: 'PARAMETER ID', kind: 'id' },
  { path: 'name', header: 'PARAMETER', kind: 'text' },
  { path: 'score', header: 'SCORE', align: 'right', format: scoreCell, kind: 'number' },
];

export async function run(ctx: Context, args: string[], _opts: Opts): Promise<void> {
  const id = checkId(requireArg(args, 0, 'data entry id'), 'data entry id');
  const client = await ctx.client();
  const entry = await ctx.withSpinner('Fetching data entry…', () => client.getDataEntry(id));
  const ro = ctx.renderOptions();
  if (ctx.format !== 'table' || ro.fields || ro.query) {
    // Scripts get the service's resource as it is.
    await renderItem(ctx.sink, entry, columns.dataEntryDetail, ro);
    return;
  }
  // People get the entry, then its per-parameter scores with the parameters' names.
  await renderItem(ctx.sink, entry, columns.dataEntryDetail.filter((c) => c.path !== 'policyParameterScores.length' && c.path !== 'newsEvent.articles'), ro);
  // Then every article of its news event (the item showed the first title only, cut at the width).
  const articles = (entry.newsEvent?.articles ?? []).filter((a) => a != null);
  if (articles.length) {
    await ctx.sink.write('\n');
    await renderList(ctx.sink, articles, columns.article, ro);
  }
  if (!entry.policyParameterScores.length) return;
  const { namesFor } = await import('../names.js');
  const names = await namesFor(ctx, client, { parameters: true });
  // The document does not mark a parameter score's fields required: what is missing shows as —.
  const rows = entry.policyParameterScores.map((p) => ({ policyParameterId: p.policyParameter?.id ?? null, name: names.parameters.get(p.policyParameter?.id ?? '') ?? null, score: p.score ?? null }));
  await ctx.sink.write('\n');
  await renderList(ctx.sink, rows, parameterColumns, ro);
}
