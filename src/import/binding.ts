/**
 * Target binding of the journal: rows a journal records as created exist on
 * one service and one account (src/api/target.ts); on another they do not, so
 * a journal never makes another target skip rows.
 *
 * - A new journal records the run's target in its header.
 * - Another base URL (or the sandbox against a real service, or the reverse):
 *   exit 2, saying to pass --journal NEW (or to run against the journal's
 *   service to continue there).
 * - Same base URL, another key fingerprint not linked yet: the key may have
 *   been rotated. The service has no "who am I", so srs reads one supplier the
 *   journal recorded as created, with the new key: 200 means the same account
 *   (an "alias" line links the fingerprint, not asked again); 403 or 404
 *   means another account (exit 2); 401 rejects the key (exit 4); anything else leaves it unknown (exit 1,
 *   try again). One with rows in doubt but no created supplier to ask about
 *   cannot be checked: exit 2.
 * - A journal that records no row created, sent or unknown (only failed rows,
 *   e.g. every row refused by a mistyped base URL) is rebound to the run's
 *   target, whatever it is, with a note: nothing in it could make a row be
 *   skipped, and every failed row is sent again.
 * - A version 1 journal (no target) is checked the same way on first use, and
 *   then bound with a "target" line.
 * A dry run never asks the service: it warns and goes on.
 */
import { describeTarget, otherAccountStatus, type Target } from '../api/target.js';
import { ExitCode, SrsError, UsageError } from '../errors.js';
import type { JournalHistory, JournalMeta, MetaLine } from './journal.js';

export interface BindingDeps {
  dryRun: boolean;
  now: () => Date;
  warn: (msg: string) => void;
  info: (msg: string) => void;
  /** GET /v1/suppliers/{id} with the run's key; resolves when found, throws the client's error otherwise. */
  readSupplier?: ((id: string) => Promise<void>) | undefined;
}

type Probe = { same: true } | { same: false; why: string } | { unknown: string };

async function probe(id: string, read: (id: string) => Promise<void>): Promise<Probe> {
  try {
    await read(id);
    return { same: true };
  } catch (e) {
    const status = otherAccountStatus(e);
    if (status) return { same: false, why: `HTTP ${status}` };
    return { unknown: e instanceof Error ? e.message : String(e) };
  }
}

function otherTarget(journalPath: string, recorded: Target, current: Target, why: string): UsageError {
  return new UsageError(
    `journal ${journalPath} belongs to ${describeTarget(recorded)}, and this run is for ${describeTarget(current)} (${why}): ` +
      `the suppliers it records as created exist there, not here, so it cannot tell which rows to skip. ` +
      `To import this file into ${describeTarget(current)}, pass --journal NEW (a new journal for this target); ` +
      `to continue the earlier import, run it against ${describeTarget(recorded)} again. Nothing was sent.`,
    { code: 'usage' },
  );
}

/**
 * Checks an existing journal against the run's target. Returns the lines to
 * record (an alias, a version 1 journal's target); throws UsageError (exit 2)
 * for another target, SrsError (exit 1) when the service could not say.
 */
export async function checkTarget(
  journalPath: string,
  meta: JournalMeta,
  history: JournalHistory,
  current: Target | undefined,
  d: BindingDeps,
): Promise<MetaLine[]> {
  const recorded = meta.target;
  if (!current) {
    if (recorded) d.warn(`journal ${journalPath} belongs to ${describeTarget(recorded)}; this dry run has no base URL and key, so it cannot check that the real run targets the same service`);
    return [];
  }
  const at = d.now().toISOString();
  if (!history.holdsSends()) {
    // Only failed rows (or none): a re-run sends them all anyway, so nothing could be skipped for another target,
    // whatever it is (a mistyped base URL whose every row was refused, another key, a version 1 journal).
    if (recorded && (recorded.baseUrl !== current.baseUrl || (recorded.account !== current.account && !meta.aliases.includes(current.account)))) {
      d.info(`journal ${journalPath} was started for ${describeTarget(recorded)} and records no row created or in doubt: ${d.dryRun ? 'the real run binds it' : 'bound'} to ${describeTarget(current)}`);
    } else if (recorded) return [];
    return d.dryRun ? [] : [{ target: current, at }];
  }
  if (recorded && recorded.baseUrl !== current.baseUrl) {
    throw otherTarget(journalPath, recorded, current, recorded.baseUrl === 'sandbox' || current.baseUrl === 'sandbox' ? 'the sandbox is its own service' : 'another base URL');
  }
  if (recorded && (recorded.account === current.account || meta.aliases.includes(current.account))) return [];

  // Same base URL and another key (or a version 1 journal): ask the service.
  const id = history.someCreatedId();
  const what = recorded ? `was started with another key (account ${recorded.account}; this key: account ${current.account})` : 'was written by an older srs and does not record its service';
  if (!id) {
    throw new UsageError(
      `journal ${journalPath} ${what}, and records no created supplier srs could ask the service about, so it cannot tell whether both keys reach the same account. ` +
        `Pass --journal NEW to import with this key. Nothing was sent.`,
    );
  }
  if (d.dryRun || !d.readSupplier) {
    d.warn(`journal ${journalPath} ${what}; the real run asks the service whether this key can read supplier ${id} (recorded as created) before it skips anything`);
    return [];
  }
  const r = await probe(id, d.readSupplier);
  if ('unknown' in r) {
    throw new SrsError(
      'runtime',
      ExitCode.failure,
      `journal ${journalPath} ${what}; reading supplier ${id} (recorded as created) to tell whether this key reaches the same account failed: ${r.unknown}. ` +
        `Whether the journal applies is unknown: nothing was sent; run the same command again.`,
    );
  }
  if (!r.same) {
    throw otherTarget(journalPath, recorded ?? { baseUrl: current.baseUrl, account: 'unknown' }, current, `this key cannot read supplier ${id}, which the journal records as created: ${r.why}`);
  }
  if (recorded) {
    d.info(`journal ${journalPath}: this key (account ${current.account}) reads supplier ${id}, created under account ${recorded.account}: same account (a rotated key), linked`);
    return [{ alias: current.account, via: id, at }];
  }
  d.info(`journal ${journalPath}: written by an older srs; this key reads supplier ${id}, which it records as created: bound to ${describeTarget(current)}`);
  return [{ target: current, via: id, at }];
}
