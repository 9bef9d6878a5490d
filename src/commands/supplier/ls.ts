/** srs supplier ls / srs supplier find TEXT: the local catalog of the current target (what srs has seen). */
import type { Context } from '../../context.js';
import { catalogEntryColumns } from '../../output/columns.js';
import { renderList } from '../../output/render.js';
import { requireArg, type Opts } from '../kit.js';
import { incompleteNote, openCatalog } from './catalog-access.js';

function noteEmpty(ctx: Context, n: number, what: string): void {
  if (n === 0 && ctx.format === 'table') ctx.info(what);
}

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const open = (await openCatalog(ctx, 'srs supplier ls', true))!;
  incompleteNote(ctx, open);
  const all = open.catalog.list(open.partition);
  const entries = typeof opts.state === 'string' ? all.filter((e) => e.state === opts.state) : all;
  const n = await renderList(ctx.sink, entries, catalogEntryColumns, ctx.renderOptions());
  // With --state, an empty list is no supplier in that state, not an empty catalog (it said "holds no supplier" beside 11).
  noteEmpty(
    ctx,
    n,
    all.length && entries.length < all.length
      ? `no supplier of this target is in state ${String(opts.state)} in the catalog (${all.length} ${all.length === 1 ? 'is' : 'are'} in another state)`
      : `the catalog (${open.catalog.path}) holds no supplier for this target yet: it knows only what srs created or read`,
  );
}

export async function find(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const text = requireArg(args, 0, 'TEXT to look for in names and customer ids');
  const open = (await openCatalog(ctx, 'srs supplier find', true))!;
  incompleteNote(ctx, open);
  let entries = open.catalog.find(open.partition, text);
  if (typeof opts.state === 'string') entries = entries.filter((e) => e.state === opts.state);
  const n = await renderList(ctx.sink, entries, catalogEntryColumns, ctx.renderOptions());
  noteEmpty(ctx, n, `no supplier in the catalog matches "${text}" (it knows only what srs created or read)`);
}
