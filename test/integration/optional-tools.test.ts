/**
 * `npm test` passes on a fresh machine (issue 16): the tests that need an
 * optional tool (test/support/optional-tool.ts) skip visibly when it is missing,
 * naming the Debian package, and fail under CI=true, so CI keeps running them.
 *
 * Proof: the shell completion tests for zsh and fish run in a nested vitest with
 * a PATH from which zsh and fish are removed (every other command of PATH is
 * still there, through symlinks): without CI they are skipped with the hint and
 * the run passes; with CI=true the same run fails, naming the packages; and
 * .ci/run installs every package those failures name.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPath } from '../support/optional-tool.js';
import { ROOT } from './harness.js';

const HIDDEN = ['zsh', 'fish'];
const work = mkdtempSync(join(tmpdir(), 'srs-optional-'));

/** A directory of symlinks to every command on PATH except `hidden` (first match wins, as in a PATH lookup). */
function pathWithout(hidden: string[]): string {
  const dir = join(work, 'bin');
  mkdirSync(dir);
  const dirs = [dirname(process.execPath), ...(process.env.PATH ?? '').split(delimiter)].filter(Boolean);
  const done = new Set(hidden);
  for (const d of dirs) {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      if (done.has(n)) continue;
      try {
        if (!statSync(join(d, n)).isFile()) continue;
      } catch {
        continue;
      }
      done.add(n);
      symlinkSync(join(d, n), join(dir, n));
    }
  }
  return dir;
}

interface JsonReport {
  numFailedTests: number;
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
}

/** The completion tests of zsh and fish, in a nested vitest with PATH set to `path`. */
/** `output`: what the default reporter showed (stdout and stderr). */
function nested(path: string, ci: boolean, tag: string): { status: number | null; output: string; report: JsonReport; tests: JsonReport['testResults'][number]['assertionResults'] } {
  const out = join(work, `${tag}.json`);
  // Nothing of this vitest's own environment leaks in (VITEST_*, CI, a worker's settings).
  const env: Record<string, string> = { PATH: path, HOME: process.env.HOME ?? work, LANG: 'C.UTF-8' };
  if (ci) env.CI = 'true';
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/integration/completion.test.ts', '-t', '(zsh|fish) completion, in the real shell', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { cwd: ROOT, env, encoding: 'utf8', timeout: 240_000 },
  );
  const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
  const tests = report.testResults.flatMap((f) => f.assertionResults).filter((t) => /\b(zsh|fish)\b/.test(t.fullName));
  return { status: r.status, output: r.stdout + r.stderr, report, tests };
}

let path = '';
beforeAll(() => {
  path = pathWithout(HIDDEN);
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the shell completion tests with zsh and fish absent from PATH', () => {
  it('the shadow PATH has no zsh or fish, and still has what the tests need', () => {
    for (const t of HIDDEN) expect(onPath(t, { PATH: path })).toBe(false);
    expect(onPath('node', { PATH: path })).toBe(true);
    expect(onPath('sh', { PATH: path })).toBe(true);
  });

  it('without CI: they are skipped, visibly, naming the package to install; the run passes', () => {
    const r = nested(path, false, 'local');
    expect(r.status, r.output).toBe(0);
    expect(r.tests.length).toBeGreaterThan(10);
    for (const t of r.tests) expect(['skipped', 'pending'], t.fullName).toContain(t.status);
    for (const shell of HIDDEN) {
      expect(r.tests.some((t) => t.fullName.includes(`[skipped: ${shell} is not installed (apt-get install ${shell})]`))).toBe(true);
      expect(r.output).toContain(`skipped: ${shell} completion, in the real shell: ${shell} is not installed (apt-get install ${shell})`);
    }
  }, 300_000);

  it('with CI=true: they fail, naming the packages; .ci/run installs every one of them', () => {
    const r = nested(path, true, 'ci');
    expect(r.status).not.toBe(0);
    const failures = r.tests.filter((t) => t.status === 'failed');
    expect(failures.map((t) => t.fullName).sort()).toEqual(['fish completion, in the real shell fish is installed', 'zsh completion, in the real shell zsh is installed']);
    const pkgs = new Set(failures.flatMap((t) => t.failureMessages.join('\n').match(/apt-get install ([\w.+-]+)/g) ?? []).map((m) => m.split(' ').pop()!));
    expect([...pkgs].sort()).toEqual(HIDDEN.slice().sort());
    for (const t of failures) expect(t.failureMessages.join('\n')).toContain('CI=true needs it installed');
    const ciRun = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const install = ciRun.split('\n').find((l) => /apt-get install\b/.test(l)) ?? '';
    for (const p of pkgs) expect(install.split(/\s+/), `.ci/run does not install ${p}`).toContain(p);
    // And .ci/run runs the README's test command after installing them.
    expect(ciRun.indexOf('npm test')).toBeGreaterThan(ciRun.indexOf('apt-get install'));
  }, 300_000);
});
