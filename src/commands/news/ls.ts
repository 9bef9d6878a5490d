import type { Context } from '../../context.js';
import { ApiError, ExitCode, SrsError } from '../../errors.js';
import { checkId } from '../../util/ulid.js';
import { columns } from '../../output/columns.js';
import { listFlags, printPages, requireArg, type Opts } from '../kit.js';

export async function run(ctx: Context, args: string[], opts: Opts): Promise<void> {
  // Checked like every other id: "../v1/countries" was sent (and answered 404 "supplier not found").
  const id = checkId(requireArg(args, 0, 'supplier id'));
  const flags = listFlags(opts);
  const client = await ctx.client();
  // Checked like every id: a typo read as "this entry has no news" (exit 0).
  const dataEntryId = typeof opts.dataEntry === 'string' ? checkId(opts.dataEntry, '--data-entry') : undefined;
  if (dataEntryId !== undefined) {
    // The service lists no news for a data entry it does not know, as for one without news: a well-formed but
    // mistyped id read as "no news" (exit 0). The entry is looked up first (GET /v1/data-entries/{id}).
    try {
      const entry = await client.getDataEntry(dataEntryId);
      const owner = entry.supplier?.id;
      // Another supplier's entry lists nothing here either: the same mistake, said as such rather than "no news".
      if (typeof owner === 'string' && owner !== id) {
        throw new SrsError('not_found', ExitCode.failure, `data entry ${dataEntryId} is supplier ${owner}'s, not ${id}'s: no news listed (srs news ls ${owner} --data-entry ${dataEntryId})`);
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        throw new SrsError('not_found', ExitCode.failure, `the service does not know data entry ${dataEntryId} (GET /v1/data-entries/${dataEntryId}: 404); no news listed (srs score calc ${id} --breakdown entries lists the supplier's entry ids)`);
      }
      throw e;
    }
  }
  const q = dataEntryId !== undefined ? { dataEntryId } : {};
  await printPages(ctx, (p) => client.listNewsEvents(id, q, p), columns.newsEvent, flags, 'news events');
}
