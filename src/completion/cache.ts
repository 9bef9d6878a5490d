/**
 * The local cache of reference values for shell completion: one file per list
 * in DATA_DIR/completion/ (countries.txt, industries.txt), one entry per line,
 * `code<TAB>name` or just `code`. The completion scripts read these files with
 * shell builtins, so completing a value never waits on the network; the files
 * are refreshed whenever `srs ref countries` / `srs ref industries` succeeds.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDir, type Env } from '../context.js';
import { makeDirs, writeFileAtomic } from '../util/fs.js';

export const CACHE_NAMES = ['countries', 'industries'] as const;
export type CacheName = (typeof CACHE_NAMES)[number];

export interface CacheEntry {
  code: string;
  name?: string | undefined;
}

/** Codes become shell words: keep them to characters no shell treats specially. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_NAME = 200;

export function cacheDir(env: Env): string {
  return join(dataDir(env), 'completion');
}

export function cachePath(env: Env, name: CacheName): string {
  return join(cacheDir(env), `${name}.txt`);
}

/** A name fit for one line of the cache: no control characters (tabs, newlines, escapes), no runs of spaces. */
function cleanName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const s = name.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  if (s === '') return undefined;
  return s.length > MAX_NAME ? s.slice(0, MAX_NAME - 1) + '…' : s;
}

/** Entries with usable codes, cleaned, de-duplicated by code (the last one wins), sorted by code. */
export function normalizeEntries(entries: Iterable<CacheEntry>): CacheEntry[] {
  const byCode = new Map<string, CacheEntry>();
  for (const e of entries) {
    const code = typeof e.code === 'string' ? e.code.trim() : '';
    if (!CODE.test(code)) continue;
    const name = cleanName(e.name);
    byCode.set(code, name === undefined ? { code } : { code, name });
  }
  return [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function formatCache(entries: Iterable<CacheEntry>): string {
  return normalizeEntries(entries)
    .map((e) => (e.name === undefined ? e.code : `${e.code}\t${e.name}`) + '\n')
    .join('');
}

export function parseCache(text: string): CacheEntry[] {
  const out: CacheEntry[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const tab = line.indexOf('\t');
    out.push(tab < 0 ? { code: line } : { code: line.slice(0, tab), name: line.slice(tab + 1) });
  }
  return normalizeEntries(out);
}

/** Existing entries updated and extended by new ones (for a partial listing, e.g. --limit or --page). */
export function mergeEntries(existing: Iterable<CacheEntry>, fresh: Iterable<CacheEntry>): CacheEntry[] {
  return normalizeEntries([...existing, ...fresh]);
}

export async function readCache(env: Env, name: CacheName): Promise<CacheEntry[]> {
  try {
    return parseCache(await readFile(cachePath(env, name), 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/** Writes a cache file atomically: a temporary file in the same directory, then a rename over the old one. */
export async function writeCache(env: Env, name: CacheName, entries: Iterable<CacheEntry>): Promise<string> {
  makeDirs(cacheDir(env), 0o700); // not mkdir's recursive: see makeDirs
  const file = cachePath(env, name);
  await writeFileAtomic(file, formatCache(entries), { mode: 0o644 });
  return file;
}

/**
 * Refreshes a cache from the items a listing printed: a complete listing
 * replaces the file, a partial one (--limit, --page) is merged into it.
 */
export async function refreshCache(env: Env, name: CacheName, entries: CacheEntry[], complete: boolean): Promise<string> {
  const all = complete ? entries : mergeEntries(await readCache(env, name).catch(() => []), entries);
  return writeCache(env, name, all);
}
