import type { Context } from '../../context.js';
import type { Page } from '../../api/paginate.js';
import type { CacheEntry, CacheName } from '../../completion/cache.js';
import { columns } from '../../output/columns.js';
import { listFlags, printPages, type ListFlags, type Opts } from '../kit.js';

export async function countries(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  const flags = listFlags(opts);
  const seen: Array<{ iso3Code: string; commonName?: string | null | undefined }> = [];
  await printPages(ctx, (p) => recording(client.listCountries(p), seen), ctx.columns(columns.country), flags, 'countries');
  await refreshCompletionCache(ctx, 'countries', printed(seen, flags).map((c) => ({ code: c.iso3Code, name: c.commonName ?? undefined })), flags);
}

export async function industries(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  const flags = listFlags(opts);
  const q = { subIndustriesOnly: opts.allLevels ? ('false' as const) : ('true' as const) };
  const seen: Array<{ code: string; name?: string | null | undefined }> = [];
  await printPages(ctx, (p) => recording(client.listStandardIndustries(q, p), seen), ctx.columns(columns.industry), flags, 'industries');
  await refreshCompletionCache(ctx, 'industries', printed(seen, flags).map((i) => ({ code: i.code, name: i.name ?? undefined })), flags);
}

export async function sources(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  await printPages(ctx, (p) => client.listDataSources(p), ctx.columns(columns.dataSource), listFlags(opts), 'data sources');
}

export async function categories(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  await printPages(ctx, (p) => client.listCategories(p), ctx.columns(columns.category), listFlags(opts), 'categories');
}

/** Passes pages through unchanged, keeping their items (for the completion cache). */
async function* recording<T>(pages: AsyncGenerator<Page<T>, void, undefined>, into: T[]): AsyncGenerator<Page<T>, void, undefined> {
  for await (const p of pages) {
    into.push(...p.items);
    yield p;
  }
}

/** The items printPages printed: every item of the pages it read, up to --limit. */
function printed<T>(items: T[], flags: ListFlags): T[] {
  return flags.limit !== undefined ? items.slice(0, flags.limit) : items;
}

/**
 * Refreshes the shell completion cache (DATA_DIR/completion/NAME.txt) from what
 * was printed: a full listing replaces it, a partial one (--limit, --page) is
 * merged in. Never fails the command: a problem is reported under --debug only.
 */
async function refreshCompletionCache(ctx: Context, name: CacheName, entries: CacheEntry[], flags: ListFlags): Promise<void> {
  if (entries.length === 0) return;
  try {
    const { refreshCache } = await import('../../completion/cache.js');
    const file = await refreshCache(ctx.env, name, entries, flags.limit === undefined && flags.page === undefined);
    ctx.debug(`completion cache: ${entries.length} ${name} written to ${file}`);
  } catch (e) {
    if (ctx.debugEnabled) ctx.warn(`could not update the completion cache of ${name}: ${(e as Error).message}`);
  }
}
