/**
 * Output files named by score options (calc --save, report --html, check
 * --junit), checked before anything is sent or read: the parent directory
 * must exist, be a directory and be writable, and the target must not be a
 * directory. A mistake is a usage error (exit 2) naming the option, the path
 * and the reason, instead of an "unexpected error" after the requests.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';

const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** `option path`: throws a UsageError unless `path` can be written as a file. "-" (stdout) passes when `dash` allows it. */
export function checkOutputFile(option: string, path: string, dash = false): void {
  if (path === '') throw new UsageError(`${option}: empty path; name the file to write`);
  if (path === '-' && dash) return;
  let target: ReturnType<typeof statSync> | undefined;
  try {
    target = statSync(path);
  } catch (e) {
    if (code(e) !== 'ENOENT') throw new UsageError(`${option} ${path}: cannot use this path (${code(e)})`);
  }
  if (target?.isDirectory()) throw new UsageError(`${option} ${path}: is a directory; name a file to write (for example ${path.replace(/\/+$/, '')}/out${option === '--html' ? '.html' : option === '--junit' ? '.xml' : '.jsonl'})`);
  const parent = dirname(resolve(path));
  let dir: ReturnType<typeof statSync>;
  try {
    dir = statSync(parent);
  } catch (e) {
    throw new UsageError(`${option} ${path}: ${code(e) === 'ENOENT' ? `the directory ${parent} does not exist` : `cannot use the directory ${parent} (${code(e)})`}`);
  }
  if (!dir.isDirectory()) throw new UsageError(`${option} ${path}: ${parent} is not a directory`);
  try {
    accessSync(parent, constants.W_OK);
  } catch (e) {
    throw new UsageError(`${option} ${path}: cannot write in the directory ${parent} (${code(e)})`);
  }
}
