import type { Context } from '../../context.js';
import { columns } from '../../output/columns.js';
import { listFlags, printPages, type Opts } from '../kit.js';

export async function countries(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  await printPages(ctx, (p) => client.listCountries(p), ctx.columns(columns.country), listFlags(opts), 'countries');
}

export async function industries(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  const q = { subIndustriesOnly: opts.allLevels ? ('false' as const) : ('true' as const) };
  await printPages(ctx, (p) => client.listStandardIndustries(q, p), ctx.columns(columns.industry), listFlags(opts), 'industries');
}

export async function sources(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  await printPages(ctx, (p) => client.listDataSources(p), ctx.columns(columns.dataSource), listFlags(opts), 'data sources');
}

export async function categories(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  await printPages(ctx, (p) => client.listCategories(p), ctx.columns(columns.category), listFlags(opts), 'categories');
}
