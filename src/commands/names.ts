/** Names beside ids for the views that show them (score breakdowns, data-entry get, score explain|report). */
import type { ApiClient } from '../api/client.js';
import type { RetryBudget } from '../api/retry.js';
import type { NameRequest, Names } from '../api/names.js';
import type { Context } from '../context.js';

/**
 * The names a view needs, fetched once for this run. A list that cannot be
 * fetched costs its names only: one warning, and the view shows ids.
 */
export async function namesFor(ctx: Context, client: ApiClient, want: NameRequest): Promise<Names> {
  return ctx.withSpinner('Fetching names…', () => namesWithoutSpinner(ctx, client, want));
}

/** namesFor for a caller whose own spinner is running (ora shows one spinner at a time). */
export async function namesWithoutSpinner(ctx: Context, client: ApiClient, want: NameRequest): Promise<Names> {
  const { resolveNames } = await import('../api/names.js');
  const names = await resolveNames(client, want);
  if (names.failures.length) ctx.warn(`showing ids without names: could not list ${names.failures.join(' and ')}`);
  return names;
}

/**
 * A supplier's name for a view that names it beside its id (score explain's picture, score report), or null: the
 * view is of the scores, which do not depend on it, so a failed lookup costs the name only. `budget`: the lookup's
 * own retries (each costs 5 tokens), apart from the work beside it.
 */
export function supplierNameOrNull(client: ApiClient, id: string, budget: RetryBudget): Promise<string | null> {
  return client.getSupplier(id, budget).then(
    (s) => (typeof s.name === 'string' && s.name.trim() !== '' ? s.name : null),
    () => null,
  );
}
