/** Split column paths: a list renders every cell of every row through getPath, with a handful of distinct paths. */
const pathParts = new Map<string, readonly string[]>();

/** Dot paths into nested objects: "a.b.c", with array indexes as numbers ("items.0.name"). */
export function getPath(obj: unknown, path: string): unknown {
  let parts = pathParts.get(path);
  if (!parts) pathParts.set(path, (parts = path.split('.')));
  let cur: unknown = obj;
  for (const part of parts) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      if (part === 'length') {
        cur = cur.length;
        continue;
      }
      const i = Number(part);
      if (Number.isInteger(i)) {
        cur = cur[i];
        continue;
      }
      // A path through an array collects that field from every element.
      cur = cur.map((el) => (el && typeof el === 'object' ? (el as Record<string, unknown>)[part] : undefined));
      continue;
    }
    if (typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** All leaf dot paths of an object, in key order; arrays of scalars are leaves, arrays of objects are leaves too (shown as JSON). */
export function leafPaths(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return prefix ? [prefix] : [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...leafPaths(v, p));
    else out.push(p);
  }
  return out;
}

/** A cell's text: scalars as themselves, arrays of scalars joined with "; ", objects as JSON, null/undefined empty. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v) && v.every((x) => x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean')) {
    return v.filter((x) => x !== null && x !== undefined).join('; ');
  }
  return JSON.stringify(v);
}

export function parseFieldList(s: string): string[] {
  return s
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f.length > 0);
}

/**
 * The fields --fields names, as JSON (like gh --json): an object holding only
 * those paths, nested as in the resource ("policyParameter.name" gives
 * {"policyParameter":{"name":...}}), in the order given. A path that is absent
 * in this item is left out.
 */
export function pickFields(item: unknown, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const v = getPath(item, path);
    if (v === undefined) continue;
    const parts = path.split('.');
    let cur = out;
    for (const part of parts.slice(0, -1)) {
      const next = cur[part];
      cur = (cur[part] = next !== null && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
    }
    cur[parts.at(-1)!] = v;
  }
  return out;
}
