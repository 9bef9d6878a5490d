/**
 * Output files named by score options (calc --save, report --html, check
 * --junit), checked before anything is sent or read, with the rule every
 * command shares (fileTargetProblem: the directory exists and is one, the
 * path is not a directory), plus write permission on the directory: the
 * bundle and the report are written after the requests. A mistake is a usage
 * error (exit 2) naming the option, the path and the reason, instead of an
 * "unexpected error" after the requests.
 */
import { accessSync, constants, fstatSync, lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { fileIdentity, fileTargetProblem } from '../../util/fs.js';
import type { Protected } from '../protect.js';

/**
 * `option path` must not be a file this run reads, nor one of `protect` (the catalog, the config file) (also through a symlink or a hard link): a --junit naming
 * the bundle being checked replaced the evidence with the report, and the check still passed. `inputs` maps
 * each reading option to its path ("-", stdin, is never a file here).
 */
export function checkNotAnInput(option: string, path: string, inputs: Record<string, string | undefined>, protect: Protected = [], outputs: Record<string, string | undefined> = {}): void {
  if (path === '-') return;
  const id = fileIdentity(path);
  for (const [flag, p] of Object.entries(inputs)) {
    if (p === undefined || p === '-' || p === '') continue;
    if (fileIdentity(p) === id) throw new UsageError(`${option} ${path} is the same file as ${flag}, which this run reads: writing it would destroy it; choose another path`);
  }
  // Another output of this run: the two would overwrite each other.
  for (const [flag, p] of Object.entries(outputs)) {
    if (p === undefined || p === '-' || p === '') continue;
    if (fileIdentity(p) === id) throw new UsageError(`${option} ${path} is the same file as ${flag}, which this run also writes: one would overwrite the other; choose another path`);
  }
  for (const [p, what] of protect) if (fileIdentity(p) === id) throw new UsageError(`${option} ${path} is ${what}: writing it would destroy it; choose another path`);
}

/** What a non-regular file is, in a user's words. */
function kindOf(st: Stats): string {
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a pipe';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * `option path`: throws a UsageError unless `path` can be written as a file, and returns the path to write. "-"
 * (stdout) passes when `dash` allows it. The file is written whole and then renamed into place, so a symbolic
 * link is followed to the file it names (renaming over the link replaced it and left its target as it was), and
 * a device, a pipe or srs's own stdout is refused (--save /dev/stdout became a regular file named /dev/stdout).
 * `inPlace`: the file is written where it is (--junit), which a link or a device takes as it is.
 */
export function checkOutputFile(option: string, path: string, dash = false, inPlace = false): string {
  if (path === '') throw new UsageError(`${option}: empty path; name the file to write`);
  if (path === '-' && dash) return path;
  const problem = fileTargetProblem(path);
  if (problem) throw new UsageError(`${option} ${path}: ${problem}; name a file in an existing directory`);
  if (inPlace) {
    // A device or a link is written as it is, but not srs's own stdout: the results there were replaced by the file.
    if (isStdout(path)) throw new UsageError(`${option} ${path} is srs's standard output, which carries the results: name another file`);
    checkWritableDir(option, path);
    return path;
  }
  const instead = dash ? ' (- writes to stdout)' : '';
  let target = path;
  let st: Stats | undefined;
  try {
    st = lstatSync(path);
  } catch {
    /* not there yet */
  }
  if (st?.isSymbolicLink()) {
    try {
      target = realpathSync(path);
      st = statSync(target);
    } catch {
      // A link to a file not there yet: the file it names is created (its directory must exist, as for any path).
      target = resolve(dirname(path), readlinkSync(path));
      const problem = fileTargetProblem(target);
      if (problem) throw new UsageError(`${option} ${path} is a symbolic link to ${target}: ${problem}; name a file in an existing directory`);
      st = undefined;
    }
  }
  if (st && !st.isFile()) throw new UsageError(`${option} ${path} is ${kindOf(st)}, not a file: srs writes its output file whole; name a file${instead}`);
  if (st) {
    for (const [fd, name] of [[1, 'standard output'], [2, 'standard error']] as const) {
      let std: Stats | undefined;
      try {
        std = fstatSync(fd);
      } catch {
        continue;
      }
      if (std.isFile() && std.dev === st.dev && std.ino === st.ino) throw new UsageError(`${option} ${path} is srs's ${name}: name another file${instead}`);
    }
  }
  checkWritableDir(option, target);
  return target;
}

/** Whether `path` (a link followed) is the file, pipe or device srs's stdout (fd 1) writes to; false when it is not there. */
export function isStdout(path: string): boolean {
  try {
    const st = statSync(path);
    const out = fstatSync(1);
    return out.dev === st.dev && out.ino === st.ino && (out.isFile() || out.isFIFO() || out.isSocket() || (out.isCharacterDevice() && !isNullDevice(out)));
  } catch {
    return false;
  }
}

/** /dev/null is every process's stdout now and then: writing the report there is no loss. */
function isNullDevice(st: Stats): boolean {
  try {
    const n = statSync('/dev/null');
    return n.dev === st.dev && n.ino === st.ino;
  } catch {
    return false;
  }
}

function checkWritableDir(option: string, path: string): void {
  const dir = dirname(resolve(path));
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new UsageError(`${option} ${path}: cannot write in the directory ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
