import { markCheckedSupplierBody, type SupplierCreateRequest } from '../../api/contract.js';
import { SupplierInput as Schema } from '../../api/supplier-input.js';
import { validateRequest } from '../../api/client.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { columns } from '../../output/columns.js';
import { renderItem } from '../../output/render.js';
import { readJsonInput, type Opts } from '../kit.js';

export function parseContact(spec: string): NonNullable<SupplierCreateRequest['contacts']>[number] {
  const [email, firstName, lastName, ...rest] = spec.split(',').map((s) => s.trim());
  if (rest.length) throw new UsageError(`--contact takes EMAIL[,FIRST[,LAST]] (got "${spec}")`);
  return {
    ...(email ? { email } : {}),
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
  };
}

export function bodyFromFlags(opts: Opts): SupplierCreateRequest {
  const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);
  const body: Record<string, unknown> = {};
  if (typeof opts.name === 'string') body.name = opts.name;
  if (typeof opts.country === 'string') body.countryIso3Code = opts.country;
  if (typeof opts.website === 'string') body.website = opts.website;
  if (strings(opts.industry)) body.industryCodes = strings(opts.industry);
  if (strings(opts.category)) body.categoryIds = strings(opts.category);
  if (strings(opts.contact)) body.contacts = strings(opts.contact)!.map(parseContact);
  if (typeof opts.customerId === 'string') body.customerSupplierId = opts.customerId;
  if (body.name === undefined) throw new UsageError('--name is required (or give the whole body with --json FILE)');
  return body as SupplierCreateRequest;
}

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  let body: unknown;
  if (typeof opts.json === 'string') {
    const flagged = ['name', 'country', 'website', 'industry', 'category', 'contact', 'customerId'].filter((k) => opts[k] !== undefined);
    if (flagged.length) throw new UsageError(`--json cannot be combined with field flags (${flagged.map((f) => '--' + f.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())).join(', ')})`);
    body = await readJsonInput(ctx, opts.json, '--json');
  } else {
    body = bodyFromFlags(opts);
  }
  // Marked as checked: the client does not parse it a second time.
  const valid = markCheckedSupplierBody(validateRequest(Schema, body, 'supplier'));
  const client = await ctx.client();
  const created = await ctx.withSpinner('Creating supplier…', () => client.createSupplier(valid));
  await renderItem(ctx.sink, created, columns.supplierCreated, ctx.renderOptions());
}
