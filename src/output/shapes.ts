/**
 * What `--fields` may name: the dot paths of the resource each command
 * prints, read from the zod contract (src/api/contract.ts) through one small
 * function, fieldPaths(). Loaded only when --fields is given.
 */
import type * as z from 'zod/mini';
import * as contract from '../api/contract.js';
import type { CatalogEntry } from '../store/catalog.js';
import type { ImportSummary } from '../import/report.js';
import type { AuthStatus, ProfileStatus } from '../config/resolve.js';
import type { CheckResult } from '../scoring/gate.js';
import type { ScoreDifference } from '../scoring/recompute.js';
import { ExplainedParameterSchema, ExplanationSchema } from './explanation.js';
import { closest } from '../util/suggest.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  getter?: () => z.ZodMiniType;
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
  options?: z.ZodMiniType[];
}

const defOf = (s: z.ZodMiniType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Every dot path into a schema's values, objects included ("policyParameter"
 * and "policyParameter.name"). Arrays of objects are walked through (getPath
 * collects a field from every element) and have a "length".
 */
export function fieldPaths(schema: z.ZodMiniType, prefix = '', depth = 0): string[] {
  if (depth > 8) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return fieldPaths(def.innerType!, prefix, depth);
    case 'lazy':
      return fieldPaths(def.getter!(), prefix, depth);
    case 'pipe':
      return fieldPaths(def.out!, prefix, depth);
    case 'union':
      return [...new Set(def.options!.flatMap((o) => fieldPaths(o, prefix, depth)))];
    case 'array':
      return [...(prefix ? [`${prefix}.length`] : []), ...fieldPaths(def.element!, prefix, depth + 1).filter((p) => p !== prefix)];
    case 'object':
      return Object.entries(def.shape!).flatMap(([k, v]) => {
        const p = prefix ? `${prefix}.${k}` : k;
        return [p, ...fieldPaths(v, p, depth + 1).filter((x) => x !== p)];
      });
    default:
      return prefix ? [prefix] : [];
  }
}

/** The rows of score calc's tables and CSV (src/commands/score/view.ts), per view: a field of another view printed nothing. */
const SCORE_VIEW_ROWS: Record<'summary' | 'sources' | 'parameters' | 'entries', { what: string; paths: string[] }> = {
  summary: { what: 'a score row', paths: ['supplierId', 'score', 'label', 'dataSourcesScore', 'policyParametersScore', 'riskLevel', 'riskRecognised', 'dataSources', 'parameters'] },
  sources: { what: 'a row of --breakdown sources', paths: ['supplierId', 'dataSourceId', 'dataSourceName', 'score', 'label', 'entries'] },
  parameters: { what: 'a row of --breakdown parameters', paths: ['supplierId', 'policyParameterId', 'policyParameterName', 'score', 'label', 'riskLevel', 'riskRecognised', 'entries', 'contexts'] },
  entries: { what: 'a row of --breakdown entries', paths: ['supplierId', 'scope', 'scopeId', 'scopeName', 'entryId', 'dataSourceId', 'score', 'isClaim', 'issueDate', 'expiryDate'] },
};

/** Rows some commands print instead of the resource (tables of score calc and its breakdowns): every view's fields. */
const scoreRowKeys = [...new Set(Object.values(SCORE_VIEW_ROWS).flatMap((v) => v.paths))];

/**
 * score calc's --fields against the rows of the view it prints (the summary of tables and CSV, or a breakdown in
 * every format): `--breakdown sources --fields riskLevel` printed an empty column that read as "no risk data".
 */
export function checkScoreRowFields(fields: readonly string[], view: 'summary' | 'sources' | 'parameters' | 'entries'): string | undefined {
  const { what, paths } = SCORE_VIEW_ROWS[view];
  return unknownField(what, paths, fields);
}

/** The fields of a catalog entry (supplier ls, supplier find): every key of CatalogEntry, checked by the compiler. */
const CATALOG_ENTRY_KEYS = { id: 1, name: 1, customerSupplierId: 1, countryIso3Code: 1, state: 1, recordedAt: 1, seenAt: 1, source: 1 } satisfies Record<keyof CatalogEntry, 1>;

/** A row of score check (CheckResult), checked by the compiler. */
const CHECK_RESULT_KEYS = { supplierId: 1, status: 1, score: 1, riskLevel: 1, riskRecognised: 1, reasons: 1 } satisfies Record<keyof CheckResult, 1>;
/** A row of score recompute: the supplier and one compared value (ScoreDifference), checked by the compiler. */
const RECOMPUTE_ROW_KEYS = { supplierId: 1, path: 1, reported: 1, recomputed: 1, delta: 1, ok: 1, missing: 1 } satisfies Record<keyof ScoreDifference | 'supplierId', 1>;
/** score explain: the explanation (json without --fields; with --query in every format), or one row per parameter per scorecard (csv, and --fields in every format). */
const explainPaths = () => [...new Set([...fieldPaths(ExplanationSchema), 'scorecardId', 'scorecardName', ...fieldPaths(ExplainedParameterSchema)])];

/** The fields of an import's summary (supplier import, dry run or not): every key of ImportSummary, checked by the compiler. */
const IMPORT_SUMMARY_KEYS = {
  file: 1, dryRun: 1, created: 1, valid: 1, skipped: 1, exists: 1, invalid: 1, failed: 1, unknown: 1, total: 1,
  elapsedSeconds: 1, rowsPerSecond: 1, throttled: 1, complete: 1, stopReason: 1, stoppedAfterLine: 1, journal: 1, report: 1, failedFile: 1,
} satisfies Record<keyof ImportSummary, 1>;

/** What `srs auth status` prints (src/commands/auth/status.ts): every key of AuthStatus and ProfileStatus, checked by the compiler. */
const AUTH_STATUS_KEYS = {
  profile: 1, profileSource: 1, baseUrl: 1, baseUrlSource: 1, keySource: 1, key: 1, configFile: 1, activeProfile: 1, profiles: 1,
} satisfies Record<keyof AuthStatus, 1>;
const PROFILE_STATUS_KEYS = { name: 1, inUse: 1, active: 1, baseUrl: 1, key: 1 } satisfies Record<keyof ProfileStatus, 1>;
const AUTH_STATUS_PATHS = [...Object.keys(AUTH_STATUS_KEYS), 'profiles.length', ...Object.keys(PROFILE_STATUS_KEYS).map((k) => `profiles.${k}`)];

/** The resource (and its name) each command prints, by command path without "srs". */
const SHAPES: Record<string, () => { what: string; paths: string[]; rows?: { what: string; paths: string[] } }> = {
  'supplier get': () => ({ what: 'a supplier', paths: fieldPaths(contract.SupplierDetail) }),
  'supplier ls': () => ({ what: 'a catalog entry', paths: Object.keys(CATALOG_ENTRY_KEYS) }),
  'supplier find': () => ({ what: 'a catalog entry', paths: Object.keys(CATALOG_ENTRY_KEYS) }),
  'supplier create': () => ({ what: 'a created supplier', paths: fieldPaths(contract.SupplierCreateResponse) }),
  'supplier import': () => ({ what: 'an import summary', paths: Object.keys(IMPORT_SUMMARY_KEYS) }),
  'auth status': () => ({ what: 'the authentication status', paths: AUTH_STATUS_PATHS }),
  'scorecards ls': () => ({ what: 'a scorecard', paths: fieldPaths(contract.Scorecard) }),
  // With --fields, `scorecards get` prints the card (its items as items.*), not the items table.
  'scorecards get': () => ({ what: 'a scorecard', paths: fieldPaths(contract.Scorecard) }),
  'emissions ls': () => ({ what: 'an emission report', paths: fieldPaths(contract.EmissionReport) }),
  'news ls': () => ({ what: 'a news event', paths: fieldPaths(contract.NewsEvent) }),
  'data-entry get': () => ({ what: 'a data entry', paths: fieldPaths(contract.DataEntry) }),
  'ref countries': () => ({ what: 'a country', paths: fieldPaths(contract.Country) }),
  'ref industries': () => ({ what: 'an industry', paths: fieldPaths(contract.StandardIndustry) }),
  'ref sources': () => ({ what: 'a data source', paths: fieldPaths(contract.DataSource) }),
  'ref categories': () => ({ what: 'a category', paths: fieldPaths(contract.Category) }),
  // json and ndjson print the results as sent (contract paths); tables and CSV print rows (summary or breakdown).
  'score calc': () => ({ what: 'a score result', paths: [...new Set([...fieldPaths(contract.ScoreResult), ...scoreRowKeys])], rows: { what: 'a score row', paths: scoreRowKeys } }),
  'score check': () => ({ what: 'a check result', paths: Object.keys(CHECK_RESULT_KEYS) }),
  'score recompute': () => ({ what: 'a recomputed value', paths: Object.keys(RECOMPUTE_ROW_KEYS) }),
  'score explain': () => ({ what: 'an explained score', paths: explainPaths() }),
};

/** Commander aliases of the commands above. */
const ALIASES: Record<string, string> = { 'scorecards list': 'scorecards ls', 'emissions list': 'emissions ls', 'news list': 'news ls' };

/**
 * Checks --fields against what a command prints. Returns undefined when every
 * path is known (or the command prints no fixed shape), else a one-line message
 * naming the first unknown path with the closest known ones.
 */
export function checkFields(command: string, fields: readonly string[], format?: string): string | undefined {
  const shape = SHAPES[ALIASES[command] ?? command];
  if (!shape) return undefined;
  const whole = shape();
  // A command whose tables and CSV show rows of their own: those rows' fields (a path into the results would be empty).
  const { what, paths } = whole.rows && (format === 'table' || format === 'csv') ? whole.rows : whole;
  return unknownField(what, paths, fields);
}

/**
 * `score calc -o json|ndjson` without --breakdown prints the results as the service sent them: a path of the rows
 * of tables and CSV (`label`) was accepted there and printed nothing, which made an unknown supplier and one without
 * data look alike. Checked by the command, which knows whether --breakdown is given.
 */
export function checkScoreResultFields(fields: readonly string[]): string | undefined {
  const problem = unknownField('a score result', fieldPaths(contract.ScoreResult), fields);
  return problem && `${problem}; -o json prints the results as the service sends them: the rows of tables and CSV (label, riskLevel, ...) are in -o csv --fields`;
}

function unknownField(what: string, paths: string[], fields: readonly string[]): string | undefined {
  const known = new Set(paths);
  for (const f of fields) {
    // Array indexes ("items.0.weight") address one element: the path without them must exist.
    const bare = f.split('.').filter((part) => !/^\d+$/.test(part)).join('.');
    if (known.has(bare)) continue;
    const near = closest(bare, paths, true);
    const top = paths.filter((p) => !p.includes('.'));
    const hint = near.length ? `did you mean ${near.slice(0, 3).join(' or ')}?` : `fields of ${what}: ${top.join(', ')}`;
    return `--fields: ${what} has no field "${f}" (${hint})`;
  }
  return undefined;
}
