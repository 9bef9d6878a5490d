/**
 * A record's compact JSON, made once by a producer that needs it anyway and taken by renderList
 * instead of serialising the record again. `score calc --save -o ndjson` wrote each ~6 KB result
 * twice (its bundle line, then its output line): sharing the string cut the CPU of srs by 4% (20,000
 * suppliers, --cpu-prof, 2026-11-24). The string is taken once (then forgotten), and only for the
 * very object it was made from, which the producer hands on unchanged.
 */
const made = new WeakMap<object, string>();

/** JSON.stringify(value), remembered for the next takeSerialised(value). */
export function serialiseOnce(value: object): string {
  const text = JSON.stringify(value);
  made.set(value, text);
  return text;
}

/** The JSON serialiseOnce made of this very object, once; undefined otherwise. */
export function takeSerialised(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const text = made.get(value);
  if (text !== undefined) made.delete(value);
  return text;
}
