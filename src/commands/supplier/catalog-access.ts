/**
 * How the supplier commands reach the local catalog (src/store/catalog.ts): the file from
 * --catalog / SRS_CATALOG / the data directory, the partition of this run's target (asking the
 * service once when a new key meets a known base URL), closed when the command ends.
 */
import { existsSync, statSync } from 'node:fs';
import { otherAccountStatus, type Target } from '../../api/target.js';
import type { Context } from '../../context.js';
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ExitCode, SrsError, UsageError } from '../../errors.js';
import { JournalLock, LOCK_SUFFIX, LockHeldError, lockHolder } from '../../util/lock.js';
import type { Catalog, SameAccountCheck } from '../../store/catalog.js';

export interface OpenCatalog {
  catalog: Catalog;
  partition: number;
  target: Target;
}

/** The one key-rotation check: can this run's key read a supplier recorded under another key at the same base URL? */
export function sameAccountCheck(ctx: Context, target: Target): SameAccountCheck {
  return async (supplierId) => {
    ctx.debug(`catalog: a new key or address for ${target.baseUrl}; checking once whether it can read supplier ${supplierId} recorded under another`);
    const client = await ctx.client();
    try {
      await client.getSupplier(supplierId);
      return 'same';
    } catch (e) {
      if (otherAccountStatus(e)) return 'other';
      throw new SrsError(
        'runtime',
        ExitCode.failure,
        `cannot tell whether the supplier catalog's records apply to this API key at ${target.baseUrl} (GET of supplier ${supplierId}: ${(e as Error).message}); try again, or run with --no-catalog`,
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
    // Both steps at once: a named catalog must exist (below), so "srs creates the file" sent the user round twice.
    if (problem) throw new UsageError(`${setting.from} ${setting.path}: ${problem}; a named catalog must exist, to start a new one there: mkdir -p ${JSON.stringify(dirname(setting.path))} && touch ${JSON.stringify(setting.path)}`);
    // A named catalog (a team's shared file) must exist: a mistyped name made a new, empty catalog that knew no
    // supplier, and a create it should have refused made a duplicate. An empty file is a new catalog: `touch` starts one.
    if (!existsSync(setting.path)) {
      throw new UsageError(`${setting.from} ${setting.path}: no such file; to start a new shared catalog there, create it empty first (touch ${setting.path}): a mistyped name must not become a catalog that knows no supplier`);
    }
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
  const { Catalog, UNRESOLVED_PARTITION } = await import('../../store/catalog.js');
  let catalog: Catalog;
  try {
    catalog = Catalog.open(path, { redact: (s) => ctx.redact(s) });
  } catch (e) {
    // A file the user named that is not a catalog (a journal, a CSV, the emulator's state) is their mistake: exit 2, untouched.
    const setting = ctx.catalogSetting();
    if (setting && setting.from !== 'default' && /not a database|is not a supplier catalog/.test((e as Error).message)) {
      throw new UsageError(`${setting.from} ${path} is not a supplier catalog (${(e as Error).message.replace(/^.*?: /, '')}); name the catalog file`);
    }
    // A catalog that cannot be opened (its directory cannot be made, a full disk): one line, never "unexpected error".
    throw e instanceof SrsError ? e : new SrsError('runtime', ExitCode.failure, (e as Error).message, { cause: e });
  }
  closeWithRun(ctx, catalog);
  const known = catalog.knownPartition(target) !== undefined;
  // A reader (`required`: supplier ls, find, get --customer-id) works offline: it does not ask the service whether
  // this address is another spelling of one the catalog knows, and sees no entries until a create or import has.
  let partition: number;
  try {
    partition = await catalog.resolvePartition(target, sameAccountCheck(ctx, target), { otherAddresses: !required });
  } catch (e) {
    // Locked by another program past the busy timeout, a full disk, a damaged file: one line naming the catalog and
    // saying nothing was sent, never "unexpected error: database is locked".
    if (e instanceof SrsError) throw e;
    throw new SrsError('runtime', ExitCode.failure, `cannot use the supplier catalog ${catalog.path}: ${(e as Error).message}; nothing was sent (--no-catalog works without it)`, { cause: e });
  }
  if (partition === UNRESOLVED_PARTITION) {
    const others = catalog.otherAddressesOf(target);
    // The reader shows nothing here; say where this key's records are, and what links the two.
    if (others.length) ctx.info(`the supplier catalog knows this key at ${others.join(', ')}, not yet at ${target.baseUrl}: if it is the same service, a supplier create, supplier import or supplier get ID through this address links them`);
  }
  const link = known ? undefined : catalog.link(target);
  if (link?.how === 'same-service') {
    ctx.info(`${target.baseUrl} holds supplier ${link.checkedId} that srs created through ${link.firstBaseUrl} with this key: the same service, so the catalog's records (and its lock) are shared by both addresses`);
  }
  if (link?.how === 'assumed' && link.firstBaseUrl !== target.baseUrl) {
    ctx.warn(`${target.baseUrl} is new to the supplier catalog, which knows this key at ${link.firstBaseUrl} only by attempts with an unknown outcome: it may be the same service under another name, so they are taken as this address's too (not sent again without --retry-unknown)`);
  } else if (link?.how === 'assumed') {
    ctx.warn(`this API key is new to the catalog at ${target.baseUrl}, which holds only attempts with an unknown outcome under an earlier key: they cannot prove whose account they belong to, so they are taken as this account's (not sent again without --retry-unknown)`);
  }
  return { catalog, partition, target };
}

/** How an import names itself in the target lock (followed by its file). */
export const IMPORT_WHAT = 'srs supplier import';
/** An import waits this long for the target lock: long enough for a `supplier create` that holds it to finish. */
export const IMPORT_WAIT_MS = 3_000;
/** A `supplier create` waits this long for the target lock (an import holds it for its whole run). */
export const CREATE_WAIT_MS = 10_000;

/**
 * The catalog's lock for this target: one run at a time creates suppliers with customer ids on a target
 * through a catalog (an import for its whole run, a create for its request). The catalog learns a run's
 * outcomes after they happen: two runs at once (a cron overlap, this month's export beside last month's, a
 * create beside an import) would each find a shared customerSupplierId unknown and both create it. The
 * lock file sits beside the catalog's real file (a symlinked catalog is the same catalog), holds what
 * holds it, and is released when the run ends.
 *
 * A lock left by a process that is gone was left by a run that was killed: what it created after its last
 * catalog batch is not in the catalog. A create's is taken over with a warning (one request, which the
 * warning names); an import's only by the same import again (its journal), which repairs the catalog from
 * its journal: any other run is refused (exit 2) and told to re-run it first.
 */
export async function takeTargetLock(ctx: Context, open: OpenCatalog, me: { what: string; journal?: string | undefined }, waitMs: number): Promise<JournalLock> {
  const lock = await takeOwnTargetLock(ctx, open, me, waitMs);
  // Another spelling of this address (127.0.0.1 and localhost) not yet linked to it has a partition, and a lock, of its
  // own: two first imports, one through each, each created every row (800 duplicates, both exit 0). Taken first, this
  // lock is seen by the other run; an import holding, or killed holding, the other spelling's lock refuses this run.
  for (const { partition: p, baseUrl: other } of open.catalog.otherSpellings(open.target)) {
    if (p === open.partition) continue;
    const held = lockHolder(`${realCatalogPath(open.catalog.path)}.import-${p}${LOCK_SUFFIX}`);
    if (!held?.holder?.what) continue;
    // A killed create is taken over where it stands (its one request is named then); a killed import is not.
    if (held.gone && !held.holder.what.startsWith(IMPORT_WHAT)) continue;
    // A lock this run took over from a killed run goes back to it: refused, this run repaired nothing.
    if (lock.inherited) lock.handBack();
    else lock.release();
    const state = held.gone ? 'ended without writing its last outcomes (killed?)' : 'is running';
    throw new LockHeldError(
      `${held.holder.what} (process ${held.holder.pid}) ${state} through ${other}, which may be this same service under another name (${open.target.baseUrl}, the same key): two runs at once could both create the same customerSupplierId. ${held.gone ? `Run that import again through ${other} first` : 'Wait for it to finish'}, or use the same base URL for both. Nothing was sent.`,
      { code: 'usage' },
    );
  }
  return lock;
}

function takeOwnTargetLock(ctx: Context, open: OpenCatalog, me: { what: string; journal?: string | undefined }, waitMs: number): Promise<JournalLock> {
  const path = targetLockPath(open);
  const mine = me.journal === undefined ? undefined : resolve(me.journal);
  return JournalLock.takeWaiting(path, {
    now: () => new Date(),
    warn: (m) => ctx.warn(m),
    inUse: `another srs run is creating suppliers in ${open.target.baseUrl} with the supplier catalog ${open.catalog.path} (two at once could both create a customerSupplierId neither has recorded yet): it is held`,
    stale: 'catalog lock',
    cannotCreate: 'the catalog directory must be writable',
    nothing: 'Nothing was sent.',
    holder: { what: me.what, journal: mine },
    // Released by the run once its outcomes are in the catalog (CatalogSink.close), never by the process's exit.
    releaseOnExit: false,
    waitMs,
    beforeTakeOver: (h) => {
      if (!h?.what?.startsWith(IMPORT_WHAT)) return;
      // The same import again repairs the catalog from its journal, if that journal is still there: deleted (or emptied)
      // after a kill -9, the re-run took the lock over, found the catalog behind, and created the last batch again.
      const journalGone = h.journal !== undefined && !hasContent(h.journal);
      if (h.journal !== undefined && h.journal === mine && !journalGone) return;
      const rerun = journalGone
        ? `its journal ${h.journal} is gone (deleted or emptied), so nothing can repair the catalog: what that run created after the catalog's last write is known only to the service (srs supplier ls lists the catalog, which lacks it; the service has no lookup by customer id: ask its operators or compare its own listing), then delete ${path}`
        : h.journal
        ? `run it again first (its journal ${h.journal} repairs the catalog: the same file with --journal ${h.journal}), or, once you have checked the service, delete ${path}`
        : `it had no journal: check the service for what it created, then delete ${path}`;
      throw new UsageError(
        `${h.what} (process ${h.pid}, started ${h.started}) ended without writing its last outcomes to the supplier catalog (killed?): the suppliers it created since are not in the catalog, and this run could create them again. ${rerun}. Nothing was sent.`,
      );
    },
  });
}

/**
 * For `supplier ls` and `find`: a warning when an import on this target holds the catalog's lock, running or
 * killed. A killed one's last outcomes are not in the catalog: a supplier it created read as "not there", exit 0.
 */
export function incompleteNote(ctx: Context, open: OpenCatalog): void {
  const held = lockHolder(targetLockPath(open));
  const h = held?.holder;
  if (!h?.what?.startsWith(IMPORT_WHAT)) return;
  if (held!.gone) {
    const rerun = h.journal && !hasContent(h.journal)
      ? `its journal ${h.journal} is gone: what it created after the catalog's last write is known only to the service`
      : h.journal ? `run it again (the same file with --journal ${h.journal}): its journal repairs the catalog` : `it had no journal: check the service for what it created`;
    ctx.warn(`${h.what} (process ${h.pid}, started ${h.started}) ended without writing its last outcomes to this catalog: suppliers it created may be missing below; ${rerun}`);
  } else {
    ctx.warn(`${h.what} (process ${h.pid}) is running: the catalog lists what it has recorded so far`);
  }
}

/** Whether a file exists and holds anything (a journal that can repair the catalog). */
function hasContent(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

/** The file of the target's lock: beside the catalog's real file (a symlinked catalog is the same catalog). */
function targetLockPath(open: OpenCatalog): string {
  return `${realCatalogPath(open.catalog.path)}.import-${open.partition}${LOCK_SUFFIX}`;
}

/** The catalog file's real path (a symlink resolved), or the path itself while it does not exist. */
function realCatalogPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
