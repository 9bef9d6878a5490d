/**
 * A local emulator of the Supplier Responsibility Assessment Service: a real
 * HTTP server (node:http) on 127.0.0.1 implementing every endpoint of
 * shared/spec/service-interface.md plus GET /v1/categories, with seeded,
 * deterministic data. Shapes come from src/api/contract.ts; scores from the
 * same model the CLI uses (src/scoring/, adapted in scoring.ts).
 *
 * Layout: random.ts (PRNG, ULIDs) -> seed.ts (seeded records) -> store.ts
 * (in-memory store, O(1) writes) -> scoring.ts (store <-> score model) ->
 * handlers.ts (plain request -> {status, body} functions) -> routes.ts (the
 * routing table) -> server.ts (node:http, auth, body limits, layers for fault
 * injection) ; state.ts (optional state file). Decisions the spec leaves open
 * are documented where they are made (ordering: store.ts; unknown supplier ids
 * in score calculation and scorecard scores: scoring.ts; state file: state.ts)
 * and summarised in NOTICE.md next to the data notices. Fault injection
 * (latency, 5xx, resets, stalls, rate limiting, failures after commit) is the
 * layer in faults.ts; the admin route GET /_emulator/suppliers is in routes.ts.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { isCalendarDate, todayUtc } from '../scoring/dates.js';
import type { LastPageNextPage } from './http-types.js';
import { describeFaults, FaultInjector, resolveFaults } from './faults.js';
import type { FaultOptions, FaultStats } from './faults.js';
import { ADMIN_ROUTES, Router, ROUTES } from './routes.js';
import { EmulatorScoring } from './scoring.js';
import { generateSeed } from './seed.js';
import { createEmulatorServer } from './server.js';
import { RESPONSE_SHAPES, type ResponseShape } from './shape.js';
import type { Layer } from './server.js';
import { StateDb } from './state.js';
import { Store } from './store.js';

export type { FaultOptions, FaultStats } from './faults.js';
export type { ResponseShape } from './shape.js';

export const DEFAULT_SEED = 1;
export const DEFAULT_SUPPLIERS = 150;

export interface EmulatorOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (ephemeral). */
  port?: number;
  /** The required key; when absent one is generated (random, 36 characters). */
  apiKey?: string;
  /** Default DEFAULT_SEED. */
  seed?: number;
  /** How many suppliers to seed. Default DEFAULT_SUPPLIERS. */
  suppliers?: number;
  /** When set: created suppliers kept in this SQLite file across restarts, each committed before its 201 (see state.ts). */
  statePath?: string;
  /**
   * What nextPage holds on the last page. Default 'absent' (the document types
   * nextPage an integer, so null is not spec-strict), 'null' with shape 'nulls'.
   */
  lastPageNextPage?: LastPageNextPage;
  /**
   * The form of successful answers (shape.ts): 'wire' (default, spec-strict:
   * no data is left out, never null), 'nulls' (no data as null, as before),
   * or for tests 'minimal' / 'all-nulls' (every field the client does not
   * require left out / null).
   */
  shape?: ResponseShape;
  /**
   * Request log lines ("METHOD /path status 1.2ms"; "dropped" instead of a
   * status when the connection closed before an answer). Besides those, only
   * exceptional lines: a state file overriding seed/suppliers, a JSON state
   * file migrated to SQLite, an internal error. The key is never logged.
   */
  log?: (line: string) => void;
  /** A fixed calendar date (YYYY-MM-DD) for score calculations; default: today in UTC at each request. */
  asOf?: string;
  /**
   * Fault injection on /v1/* requests (see faults.ts for the order they apply
   * in): latency, failRate, failAfterCommitRate, resetRate, rateLimit,
   * stallRate. Deterministic under `seed`. Invalid values throw. With `log`,
   * one line per injected fault ("POST /v1/suppliers fault=reset").
   */
  faults?: FaultOptions;
  /** Also serve GET /_emulator/suppliers (x-api-key required): every stored supplier (with statePath: every one in the file, whichever process created it). Default false (404). */
  admin?: boolean;
}

export interface RunningEmulator {
  url: string;
  host: string;
  port: number;
  apiKey: string;
  /**
   * What the fault layer injected so far (all zero without faults; `requests`
   * counts every /v1/* request). Always present on what startEmulator returns
   * (StartedEmulator); optional here only so that hand-made RunningEmulator
   * objects (tests wrapping createEmulatorServer) stay valid.
   */
  faultStats?(): FaultStats;
  /** Stops listening, ends stalled requests at once, waits for the others (at most ~2 s), closes the state file. */
  close(): Promise<void>;
}

/** What startEmulator returns: a RunningEmulator whose faultStats() is always there. */
export interface StartedEmulator extends RunningEmulator {
  faultStats(): FaultStats;
  /** The seed and supplier count in use: a --state file made earlier keeps its own, whatever was asked. */
  seed: number;
  suppliers: number;
}

export interface Fixtures {
  suppliers: { id: string; name: string }[];
  scorecards: { id: string; name: string }[];
  dataEntries: { id: string; supplierId: string }[];
  policyParameters: { id: string; name: string }[];
  dataSources: { id: string; name: string }[];
}

const LAST_PAGE_MODES: readonly LastPageNextPage[] = ['null', 'absent', 'zero', 'same', 'past'];

/**
 * The seeded data's discoverable ids, the same as startEmulator({seed, suppliers})
 * serves. suppliers[0] has data entries, news events, emission reports, risk
 * data and applies to at least one scorecard besides the baseline.
 */
export function fixtures(seed: number = DEFAULT_SEED, suppliers: number = DEFAULT_SUPPLIERS): Fixtures {
  const data = generateSeed(seed, suppliers);
  return {
    suppliers: data.suppliers.map((s) => ({ id: s.id, name: s.name })),
    scorecards: data.scorecards.map((s) => ({ id: s.id, name: s.name })),
    dataEntries: data.dataEntries.map((e) => ({ id: e.id, supplierId: e.supplierId })),
    policyParameters: data.policyParameters.map((p) => ({ id: p.id, name: p.name })),
    dataSources: data.dataSources.map((d) => ({ id: d.id, name: d.name })),
  };
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<StartedEmulator> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log;
  const shape = opts.shape ?? 'wire';
  if (!RESPONSE_SHAPES.includes(shape)) throw new Error(`shape must be one of ${RESPONSE_SHAPES.join(', ')}, got ${String(shape)}`);
  const lastPageNextPage = opts.lastPageNextPage ?? (shape === 'nulls' ? 'null' : 'absent');
  if (!LAST_PAGE_MODES.includes(lastPageNextPage)) {
    throw new Error(`lastPageNextPage must be one of ${LAST_PAGE_MODES.join(', ')}, got ${String(lastPageNextPage)}`);
  }
  if (opts.asOf !== undefined && !isCalendarDate(opts.asOf)) {
    throw new Error(`asOf must be a calendar date YYYY-MM-DD, got ${opts.asOf}`);
  }
  if (opts.apiKey !== undefined && opts.apiKey === '') throw new Error('apiKey must not be empty');
  const faultConfig = resolveFaults(opts.faults); // throws (an Error) naming the option
  const apiKey = opts.apiKey ?? `emu_${randomBytes(24).toString('base64url')}`;

  let seed = opts.seed ?? DEFAULT_SEED;
  let supplierCount = opts.suppliers ?? DEFAULT_SUPPLIERS;
  const state = opts.statePath !== undefined ? StateDb.open(opts.statePath, { seed, suppliers: supplierCount }, log) : undefined;
  let store: Store;
  try {
    if (state && (state.seed !== seed || state.suppliers !== supplierCount)) {
      log?.(
        `state file ${opts.statePath} was made with seed ${state.seed} and ${state.suppliers} suppliers; ` +
          `using those instead of seed ${seed} and ${supplierCount} suppliers`,
      );
      seed = state.seed;
      supplierCount = state.suppliers;
    }
    store = new Store(generateSeed(seed, supplierCount));
    if (state) {
      try {
        store.restoreCreated(state.all());
      } catch (e) {
        throw new Error(`emulator state file ${opts.statePath} is corrupt (${(e as Error).message})`, { cause: e });
      }
      store.persistWith(state);
    }
  } catch (e) {
    state?.close();
    throw e;
  }

  const fixedAsOf = opts.asOf;
  const scoring = new EmulatorScoring(store, () => fixedAsOf ?? todayUtc());
  // Fault injection and rate limiting: a layer around request handling (see server.ts and faults.ts).
  const faults = new FaultInjector(faultConfig, seed, log);
  if (faults.active) log?.(`injecting faults on /v1/*: ${describeFaults(faultConfig)}`);
  const layers: Layer[] = [faults.layer];
  const router = new Router(opts.admin ? [...ROUTES, ...ADMIN_ROUTES] : ROUTES);
  const server = createEmulatorServer({ context: { store, scoring, lastPageNextPage, shape }, apiKey, log, layers, router });

  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => {
      state?.close();
      reject(e);
    };
    server.once('error', onError);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const port = address.port;
  const urlHost = address.family === 'IPv6' || host.includes(':') ? `[${address.address}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    apiKey,
    seed,
    suppliers: supplierCount,
    faultStats: () => faults.stats(),
    close(): Promise<void> {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => server.closeAllConnections(), 2_000);
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
          faults.endStalled();
        });
        state?.close();
      })();
      return closing;
    },
  };
}
