/**
 * How the supplier commands reach the local catalog (src/store/catalog.ts): the file from
 * --catalog / SRS_CATALOG / the data directory, the partition of this run's target (asking the
 * service once when a new key meets a known base URL), closed when the command ends.
 */
import { otherAccountStatus, type Target } from '../../api/target.js';
import type { Context } from '../../context.js';
import { ExitCode, SrsError, UsageError } from '../../errors.js';
import type { Catalog, SameAccountCheck } from '../../store/catalog.js';

export interface OpenCatalog {
  catalog: Catalog;
  partition: number;
  target: Target;
}

/** The one key-rotation check: can this run's key read a supplier recorded under another key at the same base URL? */
export function sameAccountCheck(ctx: Context, target: Target): SameAccountCheck {
  return async (supplierId) => {
    ctx.debug(`catalog: a new key for ${target.baseUrl}; checking once whether it can read supplier ${supplierId} recorded under another key`);
    const client = await ctx.client();
    try {
      await client.getSupplier(supplierId);
      return 'same';
    } catch (e) {
      if (otherAccountStatus(e)) return 'other';
      throw new SrsError(
        'runtime',
        ExitCode.failure,
        `cannot tell whether this API key belongs to the account the supplier catalog knows at ${target.baseUrl} (GET of supplier ${supplierId}: ${(e as Error).message}); try again, or run with --no-catalog`,
        { cause: e },
      );
    }
  };
}

/**
 * Closes the catalog when the command ends, unless the process exits right after (the CLI): closing
 * the last connection checkpoints the WAL into the database file with an fsync (10-30 ms on a busy
 * disk, more than the whole `supplier get`). Left open, every commit is already in the WAL, which
 * the next open (or an automatic checkpoint) takes in: nothing is lost.
 */
export function closeWithRun(ctx: Context, catalog: Catalog): void {
  if (!ctx.io.exitsAfter) ctx.onCleanup(() => catalog.close());
}

/**
 * The catalog file of this run (undefined when it is off). A path the user named (--catalog, SRS_CATALOG) must
 * have its directory: a mistyped shared catalog must not become a new empty one, which knows no supplier (exit 2).
 */
export async function catalogPathOf(ctx: Context): Promise<string | undefined> {
  const setting = ctx.catalogSetting();
  if (setting === undefined) return undefined;
  if (setting.from !== 'default') {
    const { fileTargetProblem } = await import('../../util/fs.js');
    const problem = fileTargetProblem(setting.path);
    if (problem) throw new UsageError(`${setting.from} ${setting.path}: ${problem} (srs creates the catalog file, not its directory)`);
  }
  return setting.path;
}

/**
 * Opens the catalog for this run's target. `required` (supplier ls / find) turns "the catalog is
 * off" into a usage error; otherwise an off catalog gives undefined.
 */
export async function openCatalog(ctx: Context, what: string, required: boolean): Promise<OpenCatalog | undefined> {
  const path = await catalogPathOf(ctx);
  if (path === undefined) {
    if (required) throw new UsageError(`${what} reads the local supplier catalog, which is off (--no-catalog or SRS_CATALOG=off)`);
    return undefined;
  }
  const target = await ctx.target();
  const { Catalog } = await import('../../store/catalog.js');
  const catalog = Catalog.open(path, { redact: (s) => ctx.redact(s) });
  closeWithRun(ctx, catalog);
  const partition = await catalog.resolvePartition(target, sameAccountCheck(ctx, target));
  return { catalog, partition, target };
}
