/**
 * `srs schema [NAME...]`: the JSON Schema (draft 2020-12) of a resource or of
 * a command's `-o json` output, from src/schema/registry.ts. The schema itself
 * is always pretty JSON on stdout, whatever -o says; the list of names follows -o.
 */
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Column } from '../../output/columns.js';
import { renderList } from '../../output/render.js';
import { findSchema, jsonSchemaOf, schemaNames, SCHEMAS } from '../../schema/registry.js';
import type { Opts } from '../kit.js';

const columns: Column[] = [
  { path: 'name', header: 'NAME' },
  { path: 'kind', header: 'KIND' },
  { path: 'description', header: 'DESCRIPTION' },
];

export async function run(ctx: Context, args: string[], _opts: Opts): Promise<void> {
  const words = args.flatMap((a) => a.split(/\s+/)).filter((w) => w !== '');
  if (words.length === 0) {
    const rows = SCHEMAS.map((e) => ({ name: e.name, kind: e.kind, description: e.description }));
    await renderList(ctx.sink, rows, columns, ctx.renderOptions());
    return;
  }
  const entry = findSchema(words);
  if (!entry) {
    throw new UsageError(`unknown schema "${words.join(' ')}"; valid names: ${schemaNames().join(', ')}`);
  }
  await ctx.sink.write(JSON.stringify(jsonSchemaOf(entry), null, 2) + '\n');
}
