/** Names beside ids for the views that show them (score breakdowns, data-entry get, score explain|report). */
import type { ApiClient } from '../api/client.js';
import type { NameRequest, Names } from '../api/names.js';
import type { Context } from '../context.js';

/**
 * The names a view needs, fetched once for this run. A list that cannot be
 * fetched costs its names only: one warning, and the view shows ids.
 */
export async function namesFor(ctx: Context, client: ApiClient, want: NameRequest): Promise<Names> {
  const { resolveNames } = await import('../api/names.js');
  const names = await ctx.withSpinner('Fetching names…', () => resolveNames(client, want));
  if (names.failures.length) ctx.warn(`showing ids without names: could not list ${names.failures.join(' and ')}`);
  return names;
}
