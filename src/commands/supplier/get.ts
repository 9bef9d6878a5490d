/**
 * srs supplier get ID | --customer-id ID: one supplier's profile. --customer-id resolves through the
 * local catalog (the service has no lookup by your own id), then GETs. What it reads is recorded in
 * the catalog; a catalog that cannot be written only warns (the profile was read).
 */
import type { Context } from '../../context.js';
import { ExitCode, OutcomeUnknownError, SrsError, UsageError } from '../../errors.js';
import { columns } from '../../output/columns.js';
import { renderItem } from '../../output/render.js';
import type { Opts } from '../kit.js';
import { catalogPathOf, incompleteNote, openCatalog, type OpenCatalog } from './catalog-access.js';
import { checkId, isUsableServiceId } from '../../util/ulid.js';

async function resolveCustomerId(ctx: Context, cid: string): Promise<{ id: string; open: OpenCatalog }> {
  const open = (await openCatalog(ctx, 'srs supplier get --customer-id', true))!;
  // As supplier ls and find say it: an import on this target running, or killed before its last outcomes reached the
  // catalog, may have created this id without the catalog knowing (it read "no supplier with customerSupplierId").
  incompleteNote(ctx, open);
  const entries = open.catalog.byCustomerId(open.partition, cid);
  const created = [...new Set(entries.filter((e) => e.state === 'created' && e.id).map((e) => e.id!))];
  if (created.length === 1) {
    // A create of the same id whose outcome is unknown may have made a second supplier (then --retry-unknown made this
    // one): the profile is this one's, and the other is said, not hidden.
    const unknown = entries.filter((e) => e.state === 'unknown');
    if (unknown.length) {
      ctx.warn(
        `the catalog also records ${unknown.length === 1 ? 'a create' : `${unknown.length} creates`} of customerSupplierId ${JSON.stringify(cid)} whose outcome is unknown (${unknown[0]!.source}, ${unknown[0]!.recordedAt}): a second supplier with this id may exist; srs supplier find ${JSON.stringify(cid)} lists what the catalog knows`,
      );
    }
    return { id: created[0]!, open };
  }
  if (created.length > 1) {
    throw new SrsError('runtime', ExitCode.failure, `the catalog knows ${created.length} suppliers with customerSupplierId ${JSON.stringify(cid)}: ${created.join(', ')}; run srs supplier get ID with one of them`);
  }
  if (entries.length > 0) {
    throw new OutcomeUnknownError(
      `the catalog knows customerSupplierId ${JSON.stringify(cid)} only from a create whose outcome is unknown (${entries[0]!.source}, ${entries[0]!.recordedAt}): the supplier may or may not exist, and its id was never returned`,
    );
  }
  throw new SrsError(
    'not_found',
    ExitCode.failure,
    `no supplier with customerSupplierId ${JSON.stringify(cid)} in the catalog of ${open.target.baseUrl === 'sandbox' ? 'the sandbox' : open.target.baseUrl} (${open.catalog.path}); the catalog knows only what srs created or read`,
  );
}

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  const given = args[0];
  const cid = typeof opts.customerId === 'string' ? opts.customerId : undefined;
  if (given !== undefined && cid !== undefined) throw new UsageError('give a supplier id or --customer-id, not both');
  if (cid !== undefined && cid.trim() === '') throw new UsageError('--customer-id needs a value');
  if (given === undefined && cid === undefined) throw new UsageError('missing supplier id (or --customer-id ID to look it up in the catalog)');
  if (given !== undefined && given.trim() === '') throw new UsageError('missing supplier id');
  let open: OpenCatalog | undefined;
  let id: string;
  if (cid !== undefined) {
    ({ id, open } = await resolveCustomerId(ctx, cid.trim()));
    // The id the catalog holds is the service's own (ids are opaque strings: a create may be answered with one that
    // is not a ULID); it is sent unless it cannot name a supplier (an older srs recorded whatever a service answered).
    if (!isUsableServiceId(id)) {
      throw new SrsError('runtime', ExitCode.failure, `the catalog holds ${JSON.stringify(id.slice(0, 40))} as the id of customerSupplierId ${JSON.stringify(cid.trim())}, which cannot name a supplier (empty, blank or a path); look it up with srs supplier find ${JSON.stringify(cid.trim())}`);
    }
  }
  // Ids look like 26-character lowercase ULIDs: an uppercase or malformed one is exit 2 (it was "HTTP 404: not found").
  else id = checkId(given!);
  // A named catalog that does not exist is exit 2 before anything is sent, as in every other catalog command (a
  // mistyped --catalog was a warning after the profile, exit 0).
  if (!open) await catalogPathOf(ctx);
  const client = await ctx.client();
  const fetching = ctx.withSpinner('Fetching supplier…', () => client.getSupplier(id));
  // The catalog opens while the request is in flight (loading node:sqlite and opening the file
  // took ~5% of the samples of a lookup, after the answer); a failure to open it still only warns,
  // once the profile has been printed.
  const opening: Promise<OpenCatalog | undefined | Error> = open
    ? Promise.resolve(open)
    : openCatalog(ctx, 'srs supplier get', false).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  const supplier = await fetching;
  await renderItem(ctx.sink, supplier, columns.supplierDetail, ctx.renderOptions());
  try {
    // The document marks no field of the detail required: the id asked for is the supplier's, and a
    // profile without a name is recorded with an empty one (the catalog keeps a name it already knew).
    const name = typeof supplier.name === 'string' ? supplier.name : '';
    const opened = await opening;
    if (opened instanceof Error) throw opened;
    opened?.catalog.recordRead(opened.partition, { id: supplier.id ?? id, name, countryIso3Code: supplier.countryIso3Code ?? null, customerSupplierId: cid?.trim() ?? null });
  } catch (e) {
    ctx.warn(`supplier ${supplier.id ?? id} could not be recorded in the supplier catalog: ${(e as Error).message}`);
  }
}
