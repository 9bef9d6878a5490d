/**
 * Tests that need a tool the project does not install (a shell, a browser).
 *
 * `optionalTool({ name, pkg, present })` returns `describe` and `it` wrappers:
 * - the tool is present: they are vitest's own `describe` and `it`;
 * - the tool is missing and CI is not set: the tests are skipped VISIBLY: their
 *   titles say "skipped: NAME is not installed (apt-get install PKG)", the skip
 *   carries that note, and one warning line goes to stderr;
 * - the tool is missing and `CI=true`: each test FAILS with the same hint, so CI
 *   (which installs the tools, see .ci/run) can never pass without running them.
 *
 * `present` is evaluated once, when optionalTool is called: pass a function
 * that looks the tool up on PATH (see `onPath`) or checks a file.
 *
 *   const zsh = optionalTool({ name: 'zsh', pkg: 'zsh', present: () => onPath('zsh') });
 *   zsh.describe('zsh completion', () => { zsh.it('completes', () => { ... }) });
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe as vDescribe, it as vIt, type TestContext } from 'vitest';

export interface OptionalToolSpec {
  /** What the tests need, as a user would name it: "zsh", "bash-completion", "chromium". */
  name: string;
  /** The Debian/Ubuntu package that provides it (named in the hint and installed by .ci/run). */
  pkg: string;
  /** Whether it is usable here; a string is a reason it is not (e.g. "zsh has no zsh/zpty module"). */
  present: boolean | string | (() => boolean | string);
}

type TestFn = (ctx: TestContext) => unknown;
type SuiteFn = () => void;

export interface OptionalTool {
  readonly name: string;
  readonly pkg: string;
  /** True when the tests run for real. */
  readonly present: boolean;
  /** "zsh is not installed (apt-get install zsh)", or "" when present. */
  readonly hint: string;
  describe(title: string, fn: SuiteFn): void;
  it(title: string, fn: TestFn, timeout?: number): void;
}

/** True under CI (CI=true or CI=1), where a missing optional tool is a failure. */
export const underCI = (env: NodeJS.ProcessEnv = process.env): boolean => env.CI === 'true' || env.CI === '1';

/** Whether an executable named `cmd` is on PATH (the PATH of `env`). */
export function onPath(cmd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, cmd);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** Whether `cmd args...` runs and exits 0 (within 10 s). */
export function runs(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore', timeout: 10_000 });
  return !r.error && r.status === 0;
}

const warned = new Set<string>();

export function optionalTool(spec: OptionalToolSpec): OptionalTool {
  const value = typeof spec.present === 'function' ? spec.present() : spec.present;
  const present = value === true;
  const reason = typeof value === 'string' && value ? value : `${spec.name} is not installed`;
  const hint = present ? '' : `${reason} (apt-get install ${spec.pkg})`;
  const ci = underCI();
  const failure = `${hint}: CI=true needs it installed (.ci/run installs it)`;

  const warn = (title: string) => {
    if (ci || warned.has(title)) return;
    warned.add(title);
    console.warn(`skipped: ${title}: ${hint}`);
  };

  return {
    name: spec.name,
    pkg: spec.pkg,
    present,
    hint,
    describe(title, fn) {
      if (present) return vDescribe(title, fn);
      if (ci) {
        return vDescribe(title, () => {
          vIt(`${spec.name} is installed`, () => {
            throw new Error(failure);
          });
        });
      }
      warn(title);
      // The body still registers its tests (so the report lists what was skipped), but no hook or test runs.
      return vDescribe.skip(`${title} [skipped: ${hint}]`, fn);
    },
    it(title, fn, timeout) {
      if (present) return vIt(title, fn, timeout);
      if (ci) {
        return vIt(title, () => {
          throw new Error(failure);
        });
      }
      warn(title);
      return vIt(`${title} [skipped: ${hint}]`, (ctx) => ctx.skip(hint));
    },
  };
}
