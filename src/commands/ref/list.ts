import type { Context } from '../../context.js';
import type { Page } from '../../api/paginate.js';
import type { CacheEntry, CacheName } from '../../completion/cache.js';
import { columns } from '../../output/columns.js';
import { listFlags, printPages, type ListFlags, type Opts } from '../kit.js';

export async function countries(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  const flags = listFlags(opts);
  const seen: CacheEntry[] = [];
  await printPages(ctx, (p) => recording(client.listCountries(p), seen, (c) => ({ code: c.iso3Code ?? '', name: c.commonName ?? undefined })), columns.country, flags, 'countries');
  await refreshCompletionCache(ctx, 'countries', printed(seen, flags), flags);
}

export async function industries(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  const flags = listFlags(opts);
  const q = { subIndustriesOnly: opts.allLevels ? ('false' as const) : ('true' as const) };
  const seen: CacheEntry[] = [];
  // Completion offers only what --industry takes (8-digit sub-industry codes), also after --all-levels.
  const takes = (code: string | null | undefined): string => (code && /^\d{8}$/.test(code) ? code : '');
  await printPages(ctx, (p) => recording(client.listStandardIndustries(q, p), seen, (i) => ({ code: takes(i.code), name: i.name ?? undefined })), columns.industry, flags, 'industries');
  await refreshCompletionCache(ctx, 'industries', printed(seen, flags), flags);
}

export async function sources(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  await printPages(ctx, (p) => client.listDataSources(p), columns.dataSource, listFlags(opts), 'data sources');
}

export async function categories(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const client = await ctx.client();
  await printPages(ctx, (p) => client.listCategories(p), columns.category, listFlags(opts), 'categories');
}

/**
 * Passes pages through unchanged, keeping only each item's code and name for the
 * completion cache (never the items themselves: a long listing must stream).
 */
async function* recording<T>(pages: AsyncGenerator<Page<T>, void, undefined>, into: CacheEntry[], entry: (item: T) => CacheEntry): AsyncGenerator<Page<T>, void, undefined> {
  let overflow = false;
  for await (const p of pages) {
    if (!overflow) {
      // A record without a code (the document does not mark it required) gets '' here, which normalizeEntries drops.
      for (const it of p.items) into.push(entry(it));
      if (into.length > MAX_CACHE_ENTRIES) {
        // Not reference data a shell should offer: keep the old cache, hold nothing.
        overflow = true;
        into.length = 0;
      }
    }
    yield p;
  }
}

/** Real reference lists have hundreds of codes; past this, completion is no help and memory must stay flat. */
const MAX_CACHE_ENTRIES = 5_000;

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
    // Names are the service's text, written to a file other users may read (0644) and shown by zsh and fish: masked,
    // as everything srs writes is (a service echoing the key in a country's name put it there whole).
    const masked = entries.map((e) => ({ code: ctx.redact(e.code), name: e.name === undefined ? undefined : ctx.redact(e.name) }));
    const file = await refreshCache(ctx.env, name, masked, flags.limit === undefined && flags.page === undefined);
    ctx.debug(`completion cache: ${entries.length} ${name} written to ${file}`);
  } catch (e) {
    if (ctx.debugEnabled) ctx.warn(`could not update the completion cache of ${name}: ${(e as Error).message}`);
  }
}
