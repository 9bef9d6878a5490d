/** File-system helpers shared by the CLI and the emulator. */
import { chmodSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ExitCode, SrsError } from '../errors.js';

let tmpCounter = 0;

export interface WriteFileAtomicOptions {
  /** Mode of the new file (before the umask); default 0o600. */
  mode?: number;
}

/**
 * Writes `text` to `path` atomically: a temporary file with a unique name in
 * the same directory (created exclusively, with `mode`), fsync, then a rename
 * over `path`. On failure the temporary file is removed and `path` is untouched.
 */
export async function writeFileAtomic(path: string, text: string, opts: WriteFileAtomicOptions = {}): Promise<void> {
  // pid and counter make the name unique in this process; the random part avoids a stale file
  // left by an earlier process with the same pid ('wx' refuses to reuse one). It need not be
  // cryptographic, and node:crypto would cost ~5 ms to load.
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++tmpCounter}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const fh = await open(tmp, 'wx', opts.mode ?? 0o600);
  try {
    try {
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/**
 * mkdir -p, one level at a time; returns the first directory it created. Not mkdirSync's own `recursive`: where
 * the parent exists and the directory still cannot be made with ENOENT (under /proc), Node's recursive mkdir
 * tries the parent and the directory again forever, at full CPU and deaf to SIGTERM (Node 24.21:
 * SRS_CONFIG_DIR=/proc/x made `srs auth status` hang). test/integration/cli.test.ts (under /proc) fails if this comes back.
 */
export function makeDirs(path: string, mode: number): string | undefined {
  const abs = resolve(path);
  try {
    if (statSync(abs).isDirectory()) return undefined;
  } catch {
    /* not there yet */
  }
  const parent = dirname(abs);
  const first = parent !== abs ? makeDirs(parent, mode) : undefined;
  try {
    mkdirSync(abs, { mode });
  } catch (e) {
    // Made meanwhile by another process: fine when it is a directory.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(abs).isDirectory()) throw e;
    return first;
  }
  return first ?? abs;
}

/**
 * Creates a directory 0700 (mkdir's mode is only ever narrowed by the umask, so
 * this holds under any umask that lets the owner in). `ours`: srs's own default
 * directory, tightened to 0700 when an older srs left it open; a directory the
 * user named (SRS_CONFIG_DIR) is theirs, and keeps its mode.
 */
export function privateDir(path: string, ours: boolean, what = 'directory'): void {
  let created: string | undefined;
  try {
    created = makeDirs(path, 0o700);
  } catch (e) {
    // A file in the way, a read-only disk: one line naming the directory and what sets it, not "unexpected error: ENOTDIR".
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new SrsError('runtime', ExitCode.failure, `cannot use ${path} as srs's ${what} (${code}${code === 'ENOTDIR' || code === 'EEXIST' ? ': a file is in the way' : ''})`);
  }
  // The umask may also take bits away from the owner (umask 0277): give them back.
  if (created !== undefined || ours) {
    try {
      const st = statSync(path);
      if ((st.mode & 0o777) !== 0o700 && st.uid === process.getuid?.()) chmodSync(path, 0o700);
    } catch {
      /* not ours to change: conf will say if it cannot write */
    }
  }
}

/**
 * Why a file cannot be created or replaced at `path`, checked before any work starts, or undefined: its
 * directory must exist and be a directory, and the path must not be a directory itself. (Permissions
 * are left to the write, which names them.)
 */
/**
 * What a path names, for telling two paths apart: an existing file by device and inode (so a symlink or a
 * hard link to the input is the input), a file still to be created by its absolute path.
 */
export function fileIdentity(p: string): string {
  try {
    const st = statSync(p);
    return `inode ${st.dev}:${st.ino}`;
  } catch {
    // Not there yet: its directory's real path (a symlinked directory is the directory it points to).
    try {
      return `path ${join(realpathSync(dirname(resolve(p))), basename(p))}`;
    } catch {
      return `path ${resolve(p)}`;
    }
  }
}

export function fileTargetProblem(path: string): string | undefined {
  // Elsewhere "-" is stdin or stdout: a file named "-" is never what was meant (callers that take "-" check it first).
  if (path === '-') return 'this option writes a file, not stdout';
  const dir = dirname(resolve(path));
  let st: ReturnType<typeof statSync> | undefined;
  try {
    st = statSync(dir);
  } catch {
    return `its directory ${dir} does not exist`;
  }
  if (!st.isDirectory()) return `${dir} is not a directory`;
  try {
    if (statSync(path).isDirectory()) return `${path} is a directory`;
  } catch {
    /* does not exist yet: fine */
  }
  return undefined;
}
