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
  /** A pipe's input and output schemas (the reader's list answers: items absent or null read as []). */
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
}

interface Internals {
  def: Def;
  /** A lazy schema's resolved schema (built once and cached by zod; def.getter would build a new one each call). */
  innerType?: z.ZodMiniType;
}

const internals = (s: z.ZodMiniType): Internals => (s as unknown as { _zod: Internals })._zod;

/** What reshape() needs of a schema, worked out once per schema. */
type Plan =
  | { kind: 'leaf' }
  | { kind: 'array'; element: z.ZodMiniType }
  | { kind: 'object'; fields: ReadonlyArray<{ key: string; optional: boolean; schema: z.ZodMiniType }> };

const plans = new WeakMap<z.ZodMiniType, Plan>();

/** The schema under lazy/optional/nullable wrappers, and whether the outermost non-lazy wrapper is optional. */
function unwrap(s: z.ZodMiniType): { core: Def; optional: boolean } {
  let zod = internals(s);
  while (zod.def.type === 'lazy' && zod.innerType) zod = internals(zod.innerType);
  const optional = zod.def.type === 'optional';
  for (;;) {
    if (zod.def.type === 'lazy' && zod.innerType) zod = internals(zod.innerType);
    else if ((zod.def.type === 'optional' || zod.def.type === 'nullable') && zod.def.innerType) zod = internals(zod.def.innerType);
    // A pipe (the reader's list answers: a transform, then the list) is reshaped along the list it ends in.
    else if (zod.def.type === 'pipe' && zod.def.out && internals(zod.def.in!).def.type === 'transform') zod = internals(zod.def.out);
    else if (zod.def.type === 'pipe' && zod.def.in) zod = internals(zod.def.in);
    else return { core: zod.def, optional };
  }
}

function planOf(schema: z.ZodMiniType): Plan {
  let plan = plans.get(schema);
  if (plan) return plan;
  const { core } = unwrap(schema);
  if (core.type === 'array' && core.element) plan = { kind: 'array', element: core.element };
  else if (core.type === 'object' && core.shape) {
    plan = {
      kind: 'object',
      // The pagination object is never reshaped (see above).
      fields: Object.entries(core.shape)
        .filter(([key]) => key !== 'pagination')
        .map(([key, field]) => ({ key, optional: unwrap(field).optional, schema: field })),
    };
  } else plan = { kind: 'leaf' };
  plans.set(schema, plan);
  return plan;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `value` reshaped for `mode` along `schema` (for 'wire' the wire view's
 * schema, for 'minimal' and 'all-nulls' the reader view's). Values the schema
 * does not describe (unknown keys) are left alone.
 */
export function reshape(schema: z.ZodMiniType, value: unknown, mode: Exclude<ResponseShape, 'nulls'>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const plan = planOf(schema);
  if (plan.kind === 'array' && Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = reshape(plan.element, value[i], mode);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  if (plan.kind === 'object' && isRecord(value)) {
    let out: Record<string, unknown> | undefined;
    const copy = () => (out ??= { ...value });
    for (const { key, optional, schema: field } of plan.fields) {
      const has = Object.hasOwn(value, key);
      const v = value[key];
      if (optional) {
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
