/**
 * Output files named by score options (calc --save, report --html, check
 * --junit), checked before anything is sent or read, with the rule every
 * command shares (fileTargetProblem: the directory exists and is one, the
 * path is not a directory), plus write permission on the directory: the
 * bundle and the report are written after the requests. A mistake is a usage
 * error (exit 2) naming the option, the path and the reason, instead of an
 * "unexpected error" after the requests.
 */
import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { fileIdentity, fileTargetProblem } from '../../util/fs.js';
import type { Protected } from '../protect.js';

/**
 * `option path` must not be a file this run reads, nor one of `protect` (the catalog, the config file) (also through a symlink or a hard link): a --junit naming
 * the bundle being checked replaced the evidence with the report, and the check still passed. `inputs` maps
 * each reading option to its path ("-", stdin, is never a file here).
 */
export function checkNotAnInput(option: string, path: string, inputs: Record<string, string | undefined>, protect: Protected = []): void {
  if (path === '-') return;
  const id = fileIdentity(path);
  for (const [flag, p] of Object.entries(inputs)) {
    if (p === undefined || p === '-' || p === '') continue;
    if (fileIdentity(p) === id) throw new UsageError(`${option} ${path} is the same file as ${flag}, which this run reads: writing it would destroy it; choose another path`);
  }
  for (const [p, what] of protect) if (fileIdentity(p) === id) throw new UsageError(`${option} ${path} is ${what}: writing it would destroy it; choose another path`);
}

/** `option path`: throws a UsageError unless `path` can be written as a file. "-" (stdout) passes when `dash` allows it. */
export function checkOutputFile(option: string, path: string, dash = false): void {
  if (path === '') throw new UsageError(`${option}: empty path; name the file to write`);
  if (path === '-' && dash) return;
  const problem = fileTargetProblem(path);
  if (problem) throw new UsageError(`${option} ${path}: ${problem}; name a file in an existing directory`);
  const dir = dirname(resolve(path));
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new UsageError(`${option} ${path}: cannot write in the directory ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
