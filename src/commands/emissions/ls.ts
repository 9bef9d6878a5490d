import type { Context } from '../../context.js';
import { checkId } from '../../util/ulid.js';
import { columns } from '../../output/columns.js';
import { renderList } from '../../output/render.js';
import { sanitizeForTerminal } from '../../output/sanitize.js';
import { count } from '../../util/plural.js';
import { requireArg, type Opts } from '../kit.js';

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  // Checked like every other id: "../v1/countries" was sent (and answered 404 "supplier not found").
  const id = checkId(requireArg(args, 0, 'supplier id'));
  const client = await ctx.client();
  const items = await ctx.withSpinner('Fetching emission reports…', () => client.listEmissionReports(id));
  const ro = ctx.renderOptions();
  const n = await renderList(ctx.sink, items, columns.emissionReport, ro);
  if (n === 0 && ctx.format === 'table') ctx.info('no emission reports');
  if (ctx.format !== 'table' || ro.query || n === 0) return;
  // People also get the totals per year as bars (tables only: JSON and CSV stay the reports).
  const [{ glyphsFor }, { renderYearBars, totalsPerYear }] = await Promise.all([import('../../output/bars.js'), import('../../output/year-bars.js')]);
  const { totals, skipped, unreadable } = totalsPerYear(items);
  // The width the table above was fitted to (COLUMNS, else the terminal's), else 80.
  const width = ro.width ?? 80;
  if (totals.length) await ctx.sink.write('\n' + renderYearBars(totals, glyphsFor(ctx.env, opts.ascii === true), width, ctx.paint));
  // A start date that is there but that srs cannot read is said as such, not as "without a start date".
  if (unreadable.length) {
    ctx.info(`${count(unreadable.length, 'report')} whose start date srs cannot read (such as ${JSON.stringify(sanitizeForTerminal(unreadable[0]!))}) ${unreadable.length === 1 ? 'is' : 'are'} not in the totals`);
  }
  const missing = skipped - unreadable.length;
  if (missing) ctx.info(`${count(missing, 'report')} without a start date or value ${missing === 1 ? 'is' : 'are'} not in the totals`);
}
