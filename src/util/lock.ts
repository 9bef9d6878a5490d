/**
 * A lock file: one run at a time per journal (the import), per catalog target, per config file (auth).
 *
 * `<journal>.lock` is created with O_CREAT|O_EXCL (atomic on local file
 * systems and NFSv3+) and holds {"pid","host","started"}. A second run finds it
 * and stops with exit 2 before reading the input or sending anything, naming
 * the holder. A lock whose process no longer exists on this host (pid gone:
 * kill(pid, 0) says ESRCH) was left by a run that was killed: it is taken over
 * with a warning. Taking over renames the stale file away first and checks
 * (by inode) that what it renamed is the stale lock it read, so two runs that
 * find the same stale lock cannot both win. A lock from another host is never
 * broken (its pid means nothing here): the message says how to remove it.
 *
 * The lock is released (unlinked, if it is still ours) when the run ends and,
 * as a last resort, when the process exits. A dry run never takes or breaks a
 * lock (the caller does not call acquire).
 */
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { ExitCode, SrsError, UsageError } from '../errors.js';
import { sleepSync } from './sleep.js';

export const LOCK_SUFFIX = '.lock';

/** How old an unreadable lock must be to be taken for abandoned (a live run writes its holder within milliseconds). */
const ABANDONED_AFTER_MS = 5_000;

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

export interface LockHolder {
  pid: number;
  host: string;
  started: string;
  /** What holds it, for people: "srs supplier import vendors.csv" (the catalog's target lock). */
  what?: string | undefined;
  /** The holder's journal (an import), which can repair what the holder did not record. */
  journal?: string | undefined;
}

function describeHolder(h: LockHolder | undefined): string {
  if (!h) return 'another run (its lock file is unreadable)';
  return `${h.what ? `${h.what} (` : ''}process ${h.pid} on ${h.host}, started ${h.started}${h.what ? ')' : ''}`;
}

/** The lock is held by a run that is alive (or on another host). Exit 2. */
export class LockHeldError extends UsageError {}

function readHolder(path: string): { holder: LockHolder | undefined; ino: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const ino = fstatSync(fd).ino;
    let holder: LockHolder | undefined;
    try {
      const x = JSON.parse(readFileSync(fd, 'utf8')) as Partial<LockHolder>;
      if (typeof x.pid === 'number' && typeof x.host === 'string' && typeof x.started === 'string') {
        holder = { pid: x.pid, host: x.host, started: x.started };
        if (typeof x.what === 'string') holder.what = x.what;
        if (typeof x.journal === 'string') holder.journal = x.journal;
      }
    } catch {
      holder = undefined; // torn (the holder died while writing it) or not ours
    }
    return { holder, ino };
  } finally {
    closeSync(fd);
  }
}

/** Who holds the lock at `path`, and whether that run is gone (on this host); undefined when there is no lock. */
export function lockHolder(path: string): { holder: LockHolder | undefined; gone: boolean } | undefined {
  const found = readHolder(path);
  if (!found) return undefined;
  const h = found.holder;
  return { holder: h, gone: !!h && h.host === hostname() && processGone(h.pid) };
}

/** True when `pid` is no process on this machine (EPERM: it exists, owned by someone else). */
function processGone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class JournalLock {
  readonly path: string;
  /** The holder of the stale lock this one took over (a killed run), if it did. */
  readonly inherited: LockHolder | undefined;
  readonly #ino: number;
  #released = false;
  readonly #onExit = (): void => this.release();

  private constructor(path: string, ino: number, inherited: LockHolder | undefined, releaseOnExit: boolean) {
    this.path = path;
    this.#ino = ino;
    this.inherited = inherited;
    if (releaseOnExit) process.once('exit', this.#onExit);
  }

  /**
   * Takes the lock of `journalPath`, or throws UsageError (exit 2) naming the
   * holder. `warn` hears of a stale lock taken over.
   */
  static acquire(journalPath: string, opts: { now: () => Date; warn: (msg: string) => void }): JournalLock {
    return JournalLock.take(journalPath + LOCK_SUFFIX, {
      ...opts,
      inUse: `journal ${journalPath} is in use`,
      stale: 'journal lock',
      cannotCreate: 'pass --journal PATH somewhere writable',
      nothing: 'Nothing was read or sent.',
    });
  }

  /**
   * The lock at `path` (the same protocol, another subject: the catalog's per-target lock).
   * `inUse` starts the message a second run gets ("journal X is in use"), `stale` names the lock in
   * the take-over warning, `cannotCreate` says what to do when the file cannot be made. `holder`
   * adds what this run is to the lock file; `beforeTakeOver` may refuse (throw) to take over a
   * stale lock.
   */
  static take(
    path: string,
    opts: {
      now: () => Date;
      warn: (msg: string) => void;
      inUse: string;
      stale: string;
      cannotCreate: string;
      nothing: string;
      holder?: Pick<LockHolder, 'what' | 'journal'>;
      beforeTakeOver?: (h: LockHolder | undefined) => void;
      /**
       * Whether the process's exit releases the lock when the run did not (default true). The catalog's target lock
       * says false: a run that exits before writing its last outcomes to the catalog (a second Ctrl-C ends the process
       * at once) must leave the lock for the repair, as a `kill -9` does; released on exit, the next overlapping import
       * found the catalog without them and created 139 suppliers twice.
       */
      releaseOnExit?: boolean;
    },
  ): JournalLock {
    const me: LockHolder = { pid: process.pid, host: hostname(), started: opts.now().toISOString(), ...opts.holder };
    let inherited: LockHolder | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      let fd: number;
      try {
        // Readable by the other users of a shared catalog (it holds a pid, a host and a start time): one that cannot
        // read it cannot tell a live holder from a dead one.
        fd = openSync(path, 'wx', 0o644);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST') {
          throw new UsageError(`cannot create the ${opts.stale} ${path} (${code ?? (e as Error).message}); ${opts.cannotCreate}`);
        }
        const found = readHolder(path);
        if (!found) continue; // released meanwhile: try again
        const h = found.holder;
        // A run writes its holder right after creating the file: an unreadable (empty) lock older than that was
        // left by a run killed in between, and would otherwise never be taken over.
        const abandoned = !h && Date.now() - mtimeOf(path) > ABANDONED_AFTER_MS;
        if ((h && h.host === me.host && processGone(h.pid)) || abandoned) {
          opts.beforeTakeOver?.(h);
          if (takeOver(path, found.ino)) {
            inherited = h;
            opts.warn(`${opts.stale} ${path} was left by ${describeHolder(h)}, which no longer runs: taken over`);
          }
          continue;
        }
        const how =
          h && h.host !== me.host
            ? `if that run is over (srs cannot check a process on another host), delete ${path}`
            : `wait for it to finish (if no other srs is running, delete ${path}${h ? `: process ${h.pid} is then another program that reused the id` : ''})`;
        throw new LockHeldError(`${opts.inUse} by ${describeHolder(h)} (lock ${path}): ${how}. ${opts.nothing}`, { code: 'usage' });
      }
      try {
        const buf = Buffer.from(JSON.stringify(me) + '\n');
        writeSync(fd, buf, 0, buf.length);
        const ino = fstatSync(fd).ino;
        return new JournalLock(path, ino, inherited, opts.releaseOnExit !== false);
      } catch (e) {
        // A full disk: the empty file would read as a lock left by a killed run. Removed, and said in one line.
        try {
          unlinkSync(path);
        } catch {
          /* gone already */
        }
        const code = (e as NodeJS.ErrnoException).code;
        throw new SrsError('runtime', ExitCode.failure, `cannot write the ${opts.stale} ${path} (${code ?? (e as Error).message}); ${opts.cannotCreate}. ${opts.nothing}`, { cause: e });
      } finally {
        closeSync(fd);
      }
    }
    throw new UsageError(`cannot take the ${opts.stale} ${path}: it keeps changing hands (another run is starting?). ${opts.nothing}`);
  }

  /**
   * take(), waiting up to `waitMs` for a live holder to let go, without leaving the event loop (asking again every
   * 25 ms): for a change that is synchronous from end to end (the config file's read-modify-write).
   */
  static takeWaitingSync(path: string, opts: Parameters<typeof JournalLock.take>[1] & { waitMs: number }): JournalLock {
    const deadline = Date.now() + opts.waitMs;
    for (;;) {
      try {
        return JournalLock.take(path, opts);
      } catch (e) {
        if (!(e instanceof LockHeldError) || Date.now() >= deadline) throw e;
        sleepSync(25);
      }
    }
  }

  /** take(), waiting up to `waitMs` for a live holder to let go (asking again every 100 ms; signals still arrive). */
  static async takeWaiting(path: string, opts: Parameters<typeof JournalLock.take>[1] & { waitMs: number }): Promise<JournalLock> {
    const deadline = Date.now() + opts.waitMs;
    for (;;) {
      try {
        return JournalLock.take(path, opts);
      } catch (e) {
        if (!(e instanceof LockHeldError) || Date.now() >= deadline) throw e;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * Gives the lock back to the killed run it was taken from (its holder written back, the file kept): this run
   * did not finish what taking it over was for (repairing what that run left), so the next one must know.
   */
  handBack(): void {
    if (this.#released || !this.inherited) return this.release();
    this.#released = true;
    process.off('exit', this.#onExit);
    try {
      if (statSync(this.path).ino === this.#ino) writeFileSync(this.path, JSON.stringify(this.inherited) + '\n', { mode: 0o644 });
    } catch {
      /* gone meanwhile: nothing to give back */
    }
  }

  /** Unlinks the lock when it is still ours. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    process.off('exit', this.#onExit);
    try {
      if (statSync(this.path).ino === this.#ino) unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Moves the stale lock (inode `ino`) out of the way. If what was moved is not
 * that file (another run took the stale lock over and made a fresh one in
 * between), the fresh lock is put back with link() (which never overwrites).
 */
function takeOver(path: string, ino: number): boolean {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // gone meanwhile
  }
  let movedIno: number;
  try {
    movedIno = statSync(aside).ino;
  } catch {
    return false;
  }
  if (movedIno !== ino) {
    try {
      linkSync(aside, path);
    } catch {
      /* a third run holds it now: the loop finds it */
    }
    try {
      unlinkSync(aside);
    } catch {
      /* nothing to do */
    }
    return false;
  }
  unlinkSync(aside);
  return true;
}
