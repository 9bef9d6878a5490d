import type { Context } from '../../context.js';
import { ApiError, ExitCode, SrsError } from '../../errors.js';
import { columns } from '../../output/columns.js';
import { listFlags, printPages, type Opts } from '../kit.js';
import { checkId } from '../../util/ulid.js';

export async function run(ctx: Context, _args: string[], opts: Opts): Promise<void> {
  const flags = listFlags(opts);
  const supplierId = typeof opts.supplier === 'string' ? checkId(opts.supplier, '--supplier') : undefined;
  const client = await ctx.client();
  if (supplierId !== undefined) {
    // The service lists no scorecards for an id it does not know, as for a supplier none applies to: a typo
    // would read as "no scorecards apply". The supplier is looked up first (GET /v1/suppliers/{id}).
    try {
      await client.getSupplier(supplierId);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        throw new SrsError('not_found', ExitCode.failure, `the service does not know supplier ${supplierId} (GET /v1/suppliers/${supplierId}: 404); no scorecards listed`);
      }
      throw e;
    }
  }
  const q = supplierId !== undefined ? { supplierId } : {};
  await printPages(ctx, (p) => client.listScorecards(q, p), columns.scorecard, flags, 'scorecards');
}
