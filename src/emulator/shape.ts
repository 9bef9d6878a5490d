/**
 * What the emulator's successful answers look like, driven by the contract's
 * schemas (src/api/contract.ts) rather than by each handler:
 *
 * - 'wire' (the default): spec-strict. The handlers describe "no data" with
 *   null (a supplier without data has no averageScore, a parameter without
 *   entries no score value); here every null in a field the document does not
 *   mark required is left out instead, so the emulator never sends null where
 *   the document types a number or a string. Fields the document types
 *   "string or null" keep their null.
 * - 'nulls' (`srs emulator start --nulls`): the handlers' answers as they are,
 *   with null for no data, so that clients' null handling stays tested.
 * - 'minimal' (hidden, for tests): every field the client's reader does not
 *   require is left out: the smallest answer a client must accept.
 * - 'all-nulls' (hidden, for tests): every field the reader does not require
 *   is null.
 *
 * The pagination object is never reshaped: its nextPage says whether more
 * pages exist (--last-page chooses its form on the last page).
 *
 * Copy on write: the handlers' answers share records with the store (risk
 * data, industry contexts), so nothing is changed in place; a subtree with
 * nothing to change is returned as it is.
 */
import type * as z from 'zod/mini';

export const RESPONSE_SHAPES = ['wire', 'nulls', 'minimal', 'all-nulls'] as const;
export type ResponseShape = (typeof RESPONSE_SHAPES)[number];

interface Def {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  getter?: () => z.ZodMiniType;
}

const defOf = (s: z.ZodMiniType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under lazy/optional/nullable wrappers. */
function core(s: z.ZodMiniType): Def {
  let def = defOf(s);
  for (;;) {
    if (def.type === 'lazy' && def.getter) def = defOf(def.getter());
    else if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) def = defOf(def.innerType);
    else return def;
  }
}

/** A field may be absent: its schema is optional (possibly under lazy). */
function isOptional(s: z.ZodMiniType): boolean {
  let def = defOf(s);
  while (def.type === 'lazy' && def.getter) def = defOf(def.getter());
  return def.type === 'optional';
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `value` reshaped for `mode` along `schema` (for 'wire' the wire view's
 * schema, for 'minimal' and 'all-nulls' the reader view's). Values the schema
 * does not describe (unknown keys) are left alone.
 */
export function reshape(schema: z.ZodMiniType, value: unknown, mode: Exclude<ResponseShape, 'nulls'>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const def = core(schema);
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = reshape(def.element, value[i], mode);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  if (def.type === 'object' && def.shape && isRecord(value)) {
    let out: Record<string, unknown> | undefined;
    const copy = () => (out ??= { ...value });
    for (const [key, field] of Object.entries(def.shape)) {
      if (key === 'pagination') continue;
      const has = Object.hasOwn(value, key);
      const v = value[key];
      if (isOptional(field)) {
        if (mode === 'minimal') {
          if (has) delete copy()[key];
          continue;
        }
        if (mode === 'all-nulls') {
          if (v !== null) copy()[key] = null;
          continue;
        }
        if (v === null) {
          delete copy()[key];
          continue;
        }
      }
      if (!has) continue;
      const next = reshape(field, v, mode);
      if (next !== v) copy()[key] = next;
    }
    return out ?? value;
  }
  return value;
}
