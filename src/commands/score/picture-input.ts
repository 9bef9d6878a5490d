/**
 * What `score explain` and `score report` draw from: score results with the
 * scorecards that apply to each supplier, the names of parameters, scorecards
 * and data sources, the date and the options of the calculation. From the
 * service (a fresh calculation), or offline from a saved bundle.
 */
import type { ApiClient } from '../../api/client.js';
import type { ScoreCalculationRequest, ScoreResult, Scorecard } from '../../api/contract.js';
import type { Names } from '../../api/names.js';
import type { Context } from '../../context.js';
import { todayUtc } from '../../scoring/index.js';
import { bundleOptions, type Bundle, type BundleOptions } from './bundle.js';
import { calculate, fetchScorecards } from './calc.js';

export interface Evidence {
  items: ScoreResult[];
  cardsFor: (supplierId: string) => Scorecard[];
  names: Names;
  asOf: string;
  options: BundleOptions;
  /** The bundle it was read from (absent for a fresh calculation). */
  bundle?: Bundle;
  /** The calculation as a bundle would record it (for a fresh calculation). */
  fresh?: Omit<Bundle, 'kind' | 'bundleVersion' | 'modelVersion' | 'createdAt' | 'service'>;
}

export async function evidenceFromService(ctx: Context, client: ApiClient, ids: string[], filters: Omit<ScoreCalculationRequest, 'supplierIds'>, concurrency: number): Promise<Evidence> {
  const asOf = todayUtc(ctx.now());
  const { namesFor } = await import('../names.js');
  const [{ requests, items }, names] = await Promise.all([
    ctx.withSpinner(`Calculating scores for ${ids.length} supplier(s)…`, () => calculate(ctx, client, ids, filters, concurrency)),
    namesFor(ctx, client, { parameters: true, dataSources: true }),
  ]);
  const cards = await ctx.withSpinner('Fetching the scorecards that apply…', () => fetchScorecards(client, items.map((i) => i.supplierId), concurrency));
  const options = bundleOptions({
    includeZeroValues: filters.includeZeroValues ?? true,
    ...(filters.dataSourceIds ? { dataSourceIds: filters.dataSourceIds } : {}),
    ...(filters.policyParameterIds ? { policyParameterIds: filters.policyParameterIds } : {}),
  });
  return {
    items,
    cardsFor: cardsLookup(cards),
    names,
    asOf,
    options,
    fresh: { asOf, options, requests, response: { items }, ...cards },
  };
}

/** Offline: parameter and scorecard names come from the bundle's scorecard definitions; data sources stay ids. */
export async function evidenceFromBundle(bundle: Bundle): Promise<Evidence> {
  const { namesFromScorecards } = await import('../../api/names.js');
  const { parameters, scorecards } = namesFromScorecards(Object.values(bundle.scorecardDefinitions));
  return { items: bundle.response.items, cardsFor: cardsLookup(bundle), names: { parameters, scorecards, dataSources: new Map() }, asOf: bundle.asOf, options: bundle.options, bundle };
}

function cardsLookup(b: Pick<Bundle, 'scorecards' | 'scorecardDefinitions'>): (supplierId: string) => Scorecard[] {
  return (id) => (Object.hasOwn(b.scorecards, id) ? b.scorecards[id]! : []).filter((c) => Object.hasOwn(b.scorecardDefinitions, c)).map((c) => b.scorecardDefinitions[c]!);
}
