/** File-system helpers shared by the CLI and the emulator. */
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
