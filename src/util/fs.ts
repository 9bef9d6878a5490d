/** File-system helpers shared by the CLI and the emulator. */
import { randomBytes } from 'node:crypto';
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
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++tmpCounter}.${randomBytes(4).toString('hex')}.tmp`);
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
