/** Split column paths: a list renders every cell of every row through getPath, with a handful of distinct paths. */
const pathParts = new Map<string, readonly string[]>();

/** Dot paths into nested objects: "a.b.c", with array indexes as numbers ("items.0.name"). */
export function getPath(obj: unknown, path: string): unknown {
  // A key that itself holds a dot (a service's "a.b", which `srs api` makes a column of) is that key, not a path.
  if (obj !== null && typeof obj === 'object' && !Array.isArray(obj) && path.includes('.') && Object.hasOwn(obj, path)) return (obj as Record<string, unknown>)[path];
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

/**
 * A cell's text: scalars as themselves, arrays of scalars joined with "; ", objects as JSON, null/undefined empty.
 * An array that joined would not read back as it is, one with a null (articles.publishedAt beside articles.title:
 * dropped, the next date moved to the wrong article) or a string holding ";" ("Metals; Mining" read as two
 * categories), is written as JSON, one slot per element.
 */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v) && v.every((x) => (typeof x === 'string' && !x.includes(';')) || typeof x === 'number' || typeof x === 'boolean')) return v.join('; ');
  return JSON.stringify(v);
}

export function parseFieldList(s: string): string[] {
  return s
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f.length > 0);
}

/**
 * The fields --fields names, as JSON (like gh --json): the item holding only
 * those paths, nested as in the resource, in the order given:
 * "policyParameter.name" gives {"policyParameter":{"name":...}}, and a path
 * through an array keeps the array ("items.weight" gives
 * {"items":[{"weight":5},{"weight":2}]}). A path absent in this item is left out.
 */
export function pickFields(item: unknown, paths: readonly string[]): Record<string, unknown> {
  const tree: FieldTree = new Map();
  for (const path of paths) {
    let node = tree;
    const parts = path.split('.');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const have = node.get(part);
      if (i === parts.length - 1) node.set(part, true);
      // The whole field is already wanted: nothing inside it to add.
      else if (have === true) break;
      else {
        const next: FieldTree = have ?? new Map();
        node.set(part, next);
        node = next;
      }
    }
  }
  const picked = pick(item, tree);
  return picked !== null && typeof picked === 'object' && !Array.isArray(picked) ? (picked as Record<string, unknown>) : {};
}

/** Paths as a tree: a key's value is true for a whole field, or the fields wanted inside it. */
type FieldTree = Map<string, FieldTree | true>;

function pick(value: unknown, tree: FieldTree | true): unknown {
  if (tree === true) return value;
  if (value === null || typeof value !== 'object') return undefined;
  // Fields of the elements of an array: the array, each element picked (indexes and "length" name the array itself).
  if (Array.isArray(value) && [...tree.keys()].every((k) => k !== 'length' && !Number.isInteger(Number(k)))) return value.map((el) => pick(el, tree) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    const v = Array.isArray(value) && key === 'length' ? value.length : (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    const p = pick(v, sub);
    if (p !== undefined) out[key] = p;
  }
  return out;
}

/** Every key any of the records has, in the order first seen (a record may lack optional fields, the first one too). */
export function unionKeys(records: Iterable<Record<string, unknown>>): string[] {
  const keys = new Set<string>();
  for (const r of records) for (const k in r) if (Object.prototype.hasOwnProperty.call(r, k)) keys.add(k);
  return [...keys];
}
