/**
 * `srs schema [NAME...]`: the JSON Schema (draft 2020-12) of a resource or of
 * a command's `-o json` output, from src/schema/registry.ts. The schema itself
 * always pretty JSON on stdout, whatever -o says (--query shapes it; --fields is refused); the list of names follows -o.
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
  // A schema is one JSON document, printed as JSON whatever -o says: --query shapes it (as every other
  // document), and --fields, which cannot apply, is refused rather than ignored in silence.
  const ro = ctx.renderOptions();
  if (ro.fields) throw new UsageError('--fields does not apply to a schema (one JSON document); use --query, e.g. --query properties');
  // -o csv or -o table given for it cannot apply: said, not answered with JSON in silence. -o ndjson is the document
  // on one line (it printed 80 indented lines).
  const chosen = ctx.globals.output;
  if (chosen === 'csv' || chosen === 'table') ctx.info(`-o ${chosen} does not apply to a schema (one JSON document): it is printed as JSON (-o ndjson prints it on one line)`);
  const schema = jsonSchemaOf(entry);
  const doc = ro.query ? (ro.query(schema) ?? null) : schema;
  await ctx.sink.write((ctx.format === 'ndjson' ? JSON.stringify(doc) : JSON.stringify(doc, null, 2)) + '\n');
}
