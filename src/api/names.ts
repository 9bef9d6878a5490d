/**
 * Names for the ids a score or a data entry carries: policy parameters and
 * scorecards (from GET /v1/scorecards, whose items name their parameters) and
 * data sources (from GET /v1/data-sources). Each list is fetched at most once
 * per run, and only when a view asks for it. A name is decoration: when a list
 * cannot be fetched the view shows the id alone, and the caller says so once.
 */
import type { ApiClient } from './client.js';
import type { Scorecard } from './contract.js';

export interface Names {
  parameters: ReadonlyMap<string, string>;
  scorecards: ReadonlyMap<string, string>;
  dataSources: ReadonlyMap<string, string>;
}


/** Parameter and scorecard names from scorecard definitions (a bundle's, or a listing). */
export function namesFromScorecards(cards: Iterable<Scorecard>, into?: { parameters: Map<string, string>; scorecards: Map<string, string> }): { parameters: Map<string, string>; scorecards: Map<string, string> } {
  const out = into ?? { parameters: new Map<string, string>(), scorecards: new Map<string, string>() };
  for (const card of cards) {
    // The document marks no scorecard field required: only what has an id can be named.
    if (card.name && typeof card.id === 'string') out.scorecards.set(card.id, card.name);
    for (const it of card.items ?? []) {
      const p = it.policyParameter;
      if (p && typeof p.id === 'string' && typeof p.name === 'string' && p.name !== '' && !out.parameters.has(p.id)) out.parameters.set(p.id, p.name);
    }
  }
  return out;
}

export interface NameRequest {
  /** Parameter and scorecard names (all scorecards, every page). */
  parameters?: boolean;
  /** Data-source names (every page). */
  dataSources?: boolean;
}

export interface ResolvedNames extends Names {
  /** What could not be fetched, for one warning ("scorecards: 503 ..."). */
  failures: string[];
}

/** Fetches the lists asked for, concurrently; a failed list leaves its map empty and is named in `failures`. */
export async function resolveNames(client: ApiClient, want: NameRequest): Promise<ResolvedNames> {
  const parameters = new Map<string, string>();
  const scorecards = new Map<string, string>();
  const dataSources = new Map<string, string>();
  const failures: string[] = [];
  const jobs: Promise<void>[] = [];
  if (want.parameters) {
    jobs.push(
      (async () => {
        for await (const page of client.listScorecards()) namesFromScorecards(page.items, { parameters, scorecards });
      })().catch((e: unknown) => {
        failures.push(`scorecards (${(e as Error).message})`);
      }),
    );
  }
  if (want.dataSources) {
    jobs.push(
      (async () => {
        for await (const page of client.listDataSources()) for (const ds of page.items) if (ds.name && typeof ds.id === 'string') dataSources.set(ds.id, ds.name);
      })().catch((e: unknown) => {
        failures.push(`data sources (${(e as Error).message})`);
      }),
    );
  }
  await Promise.all(jobs);
  return { parameters, scorecards, dataSources, failures };
}
