/**
 * No output file of a score command replaces what the run reads or what srs keeps (review round 10): a --junit
 * naming the bundle being checked replaced the evidence and the check passed; `calc --save` over the supplier
 * catalog destroyed it with exit 0. And the JUnit file never says "pass" for a run that did not finish or whose
 * report could not be written. Each runs the built srs.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { SANDBOX_STATE_FILE } from '../../src/emulator/state.js';
import { BIN, runSrs, startHarness, startWithBundle, type Harness } from './harness.js';

let h: Harness;
let offline: Record<string, string>;
let bundle: string;
const [a, b] = fixtures().suppliers.map((s) => s.id);

beforeAll(async () => {
  ({ h, offline, bundle } = await startWithBundle([a!, b!]));
});
afterAll(async () => {
  await h?.close();
});

/** Sends `sig` once the service has received a request (srs is then waiting on it). */
function killOnFirstRequest(service: Harness, sig: NodeJS.Signals) {
  return (kill: (s: NodeJS.Signals) => void) => {
    const wait = setInterval(() => {
      if (service.requests.some((l) => /^(GET|POST) \/v1\//.test(l))) {
        clearInterval(wait);
        kill(sig);
      }
    }, 20);
  };
}

/** Runs srs, expects exit 2 with `message`, and checks that `file` still holds `before` and nothing was sent. */
async function refused(args: string[], env: Record<string, string>, file: string, message: RegExp) {
  const before = readFileSync(file);
  const sent = h.requests.length;
  const r = await runSrs(args, env);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.replace(/\\"/g, '"')).toMatch(message);
  expect(readFileSync(file).equals(before), `${file} was changed`).toBe(true);
  expect(h.requests.length, `${args.join(' ')} sent requests`).toBe(sent);
}

describe('an output file that is an input or a file srs keeps is refused (exit 2, nothing written or sent)', () => {
  it('--junit or GITHUB_STEP_SUMMARY naming the bundle, the baseline (also a hard link) or the ids file', async () => {
    const copy = join(h.home, 'checked.jsonl');
    copyFileSync(bundle, copy);
    await refused(['score', 'check', '--from', copy, '--min', '-3', '--allow-no-data', '--junit', copy], offline, copy, /--junit .*checked\.jsonl is the same file as --from, which this run reads/);
    const link = join(h.home, 'baseline-link.jsonl');
    linkSync(copy, link);
    await refused(['score', 'check', a!, '--baseline', copy, '--max-drop', '1', '--allow-no-data', '--junit', link], h.env, copy, /--junit .*baseline-link\.jsonl is the same file as --baseline/);
    await refused(['score', 'check', '--from', copy, '--min', '-3', '--allow-no-data'], { ...offline, GITHUB_STEP_SUMMARY: copy }, copy, /GITHUB_STEP_SUMMARY .* is the same file as --from/);
    const ids = join(h.home, 'ids.txt');
    writeFileSync(ids, `${a}\n${b}\n`);
    await refused(['score', 'check', '--ids-file', ids, '--min', '-3', '--junit', ids], h.env, ids, /--junit .*ids\.txt is the same file as --ids-file/);
    // The two outputs naming one file: "which this run also writes", not "reads".
    const both = join(h.home, 'both.txt');
    writeFileSync(both, 'kept');
    const r = await runSrs(['score', 'check', '--from', copy, '--min', '-3', '--allow-no-data', '--junit', both], { ...offline, GITHUB_STEP_SUMMARY: both });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/GITHUB_STEP_SUMMARY .*both\.txt is the same file as --junit, which this run also writes/);
  });

  it('calc --save naming its --ids-file, report --html naming its bundle', async () => {
    const ids = join(h.home, 'save-ids.txt');
    writeFileSync(ids, `${a}\n`);
    await refused(['score', 'calc', '--ids-file', ids, '--save', ids, '-o', 'json'], h.env, ids, /--save .*save-ids\.txt is the same file as --ids-file/);
    const copy = join(h.home, 'reported.jsonl');
    copyFileSync(bundle, copy);
    await refused(['score', 'report', copy, '--html', copy], offline, copy, /--html .*reported\.jsonl is the same file as the bundle argument/);
  });

  it('the supplier catalog (named or the default one, and its -wal) and the config file', async () => {
    const created = await h.run(['supplier', 'create', '--name', 'Kept Catalog Ltd', '--customer-id', 'KEEP-1', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const catalog = join(h.env.SRS_DATA_DIR!, 'catalog.db');
    expect(existsSync(catalog)).toBe(true);
    await refused(['score', 'calc', a!, '--save', catalog, '-o', 'json'], h.env, catalog, /--save .*catalog\.db is the supplier catalog: writing it would destroy it/);
    await refused(['--no-catalog', 'score', 'check', a!, '--min', '-3', '--allow-no-data', '--junit', catalog], h.env, catalog, /--junit .*catalog\.db is the supplier catalog/);
    const named = join(h.home, 'team.db');
    copyFileSync(catalog, named);
    await refused(['--catalog', named, 'score', 'report', a!, '--html', named], h.env, named, /--html .*team\.db is the supplier catalog/);
    // The CLI leaves the catalog open at exit, so its -wal is there after the create above.
    expect(existsSync(`${catalog}-wal`)).toBe(true);
    await refused(['score', 'calc', a!, '--save', `${catalog}-wal`], h.env, `${catalog}-wal`, /is the supplier catalog's write-ahead log/);
    // Not there yet, through a symlinked directory: still the catalog's path.
    const fresh = join(h.home, 'fresh-data');
    mkdirSync(fresh, { recursive: true });
    const freshLink = join(h.home, 'fresh-link');
    symlinkSync(fresh, freshLink);
    const before = h.requests.length;
    const viaLink = await runSrs(['score', 'calc', a!, '--save', join(freshLink, 'catalog.db')], { ...h.env, SRS_DATA_DIR: fresh });
    expect(viaLink.code).toBe(2);
    expect(viaLink.stderr).toMatch(/is the supplier catalog/);
    expect(existsSync(join(fresh, 'catalog.db'))).toBe(false);
    expect(h.requests.length).toBe(before);
    const config = join(h.home, 'config', 'config.json');
    mkdirSync(join(h.home, 'config'), { recursive: true });
    writeFileSync(config, JSON.stringify({ profiles: {} }));
    await refused(['score', 'calc', a!, '--save', config], h.env, config, /is srs's config file \(it holds the API keys\)/);
    // The sandbox's state (every supplier created in the sandbox): an import's --report over it broke the sandbox.
    const sandboxed = await h.run(['--sandbox', 'supplier', 'create', '--name', 'Sandbox Kept Ltd', '-o', 'json'], { env: { SRS_BASE_URL: undefined, SRS_API_KEY: undefined } });
    expect(sandboxed.code, sandboxed.stderr).toBe(0);
    const state = join(h.env.SRS_DATA_DIR!, SANDBOX_STATE_FILE);
    expect(existsSync(state)).toBe(true);
    const csv = join(h.home, 'to-report.csv');
    writeFileSync(csv, 'name,country\nReported Ltd,DEU\n');
    await refused(['supplier', 'import', csv, '--dry-run', '--report', state], h.env, state, /--report .*sandbox-state\.db is the sandbox's state/);
    await refused(['score', 'calc', a!, '--save', state], h.env, state, /is the sandbox's state/);
  });
});

describe('the JUnit file of score check', () => {
  it('says "did not finish" while a check runs, so one stopped by a signal does not leave an earlier pass in place', async () => {
    const stalled = await startHarness({ faults: { stallRate: 1 } });
    try {
      const junit = join(stalled.home, 'gate.xml');
      writeFileSync(junit, '<?xml version="1.0"?><testsuites tests="2" failures="0" errors="0"></testsuites>\n');
      const r = await stalled.run(['--timeout', '60s', 'score', 'check', a!, '--min', '-3', '--junit', junit], {
        onSpawn: killOnFirstRequest(stalled, 'SIGINT'),
      });
      expect(r.code, `${r.signal}: ${r.stderr}`).toBe(130);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(/errors="1"/);
      expect(xml).toMatch(/the check did not finish/);
    } finally {
      await stalled.close();
    }
  });

  it('an earlier passing report is replaced by a usage error caught before the check runs (unknown option, bad --fields)', async () => {
    const junit = join(h.home, 'stale.xml');
    for (const extra of [['--bogus-flag'], ['--fields', 'nosuch'], ['-o', 'bogus']]) {
      const ok = await runSrs(['score', 'check', '--from', bundle, '--min', '-3', '--allow-no-data', '--junit', junit], offline);
      expect(ok.code, ok.stderr).toBe(0);
      expect(readFileSync(junit, 'utf8')).toMatch(/errors="0"/);
      const r = await runSrs(['score', 'check', '--from', bundle, '--min', '-3', '--allow-no-data', '--junit', junit, ...extra], offline);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(readFileSync(junit, 'utf8'), extra.join(' ')).toMatch(/errors="1"[\s\S]*not evaluated/);
    }
    // A --junit naming a file that is not a JUnit report is left alone at that stage (its own checks have not run).
    const other = join(h.home, 'not-a-report.txt');
    writeFileSync(other, 'keep me\n');
    expect((await runSrs(['score', 'check', '--from', bundle, '--min', '-3', '--junit', other, '--bogus-flag'], offline)).code).toBe(2);
    expect(readFileSync(other, 'utf8')).toBe('keep me\n');
  });

  // /dev/full (a device that is always full) is Linux's: elsewhere this is skipped, and says so.
  it.runIf(existsSync('/dev/full'))('that cannot be written is one line and exit 1 (it was "unexpected error: ENOSPC"), before anything is checked', async () => {
    const r = await runSrs(['score', 'check', '--from', bundle, '--min', '-3', '--allow-no-data', '--junit', '/dev/full', '-o', 'json'], offline);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/could not write --junit \/dev\/full \(ENOSPC\)/);
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.stdout).toBe('');
  });
});

describe('score calc --save that cannot finish', () => {
  it('a full disk is one line naming the file, and the earlier bundle stays (it was "unexpected error: ENOSPC")', async () => {
    const dir = join(h.home, 'efbig');
    mkdirSync(dir, { recursive: true });
    const out = join(dir, 'evidence.jsonl');
    writeFileSync(out, 'the earlier bundle\n');
    const r = await h.run(['score', 'calc', a!, b!, '--save', out, '-o', 'json'], { fileSizeLimitKb: 1 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot write the evidence bundle .*evidence\.jsonl \(EFBIG\): nothing was saved/);
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(readFileSync(out, 'utf8')).toBe('the earlier bundle\n');
    expect(readdirSync(dir)).toEqual(['evidence.jsonl']);
  });

  it('a run that fails (a rejected key) leaves the earlier bundle, and says it is not this run\'s evidence', async () => {
    const dir = join(h.home, 'stale');
    mkdirSync(dir, { recursive: true });
    const out = join(dir, 'evidence.jsonl');
    writeFileSync(out, 'the earlier bundle\n');
    const r = await h.run(['score', 'calc', a!, '--save', out, '-o', 'json'], { env: { SRS_API_KEY: 'wrong-key-0000' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`warning: the evidence bundle was not saved: ${out} is as it was, an earlier run's bundle, not this run's evidence`);
    expect(readFileSync(out, 'utf8')).toBe('the earlier bundle\n');
    expect(readdirSync(dir)).toEqual(['evidence.jsonl']);
  });

  it('stopped by a signal, it leaves no temporary file and says the bundle was not saved', async () => {
    const stalled = await startHarness({ faults: { stallRate: 1 } });
    try {
      const dir = join(stalled.home, 'stopped');
      mkdirSync(dir, { recursive: true });
      const r = await stalled.run(['--timeout', '60s', 'score', 'calc', a!, '--save', join(dir, 'e.jsonl'), '-o', 'json'], {
        onSpawn: killOnFirstRequest(stalled, 'SIGTERM'),
      });
      expect(r.code, `${r.signal}: ${r.stderr}`).toBe(143);
      expect(readdirSync(dir)).toEqual([]);
      expect(r.stderr).toMatch(/the evidence bundle was not saved/);
    } finally {
      await stalled.close();
    }
  });
});

describe('output files that are links, devices or srs\'s own stdout (review round 16)', () => {
  it('--save and --html through a symbolic link write the file it names and keep the link', async () => {
    const dir = join(h.home, 'links');
    mkdirSync(dir, { recursive: true });
    const target = join(dir, 'target.jsonl');
    writeFileSync(target, 'old\n');
    symlinkSync('target.jsonl', join(dir, 'link.jsonl'));
    const r = await h.run(['score', 'calc', a!, '--save', join(dir, 'link.jsonl'), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(dir, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toMatch(/^\{"kind":"srs\.score-bundle"/);
    const htmlTarget = join(dir, 'report.html');
    writeFileSync(htmlTarget, 'old');
    symlinkSync('report.html', join(dir, 'r.html'));
    const rep = await h.run(['score', 'report', bundle, '--html', join(dir, 'r.html')], { env: offline });
    expect(rep.code, rep.stderr).toBe(0);
    expect(lstatSync(join(dir, 'r.html')).isSymbolicLink()).toBe(true);
    expect(readFileSync(htmlTarget, 'utf8')).toMatch(/^<!doctype html>/i);
    // A link to a file not there yet: that file is created, the link kept.
    symlinkSync('new.jsonl', join(dir, 'dangling.jsonl'));
    const fresh = await h.run(['score', 'calc', a!, '--save', join(dir, 'dangling.jsonl'), '-o', 'json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(lstatSync(join(dir, 'dangling.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'new.jsonl'), 'utf8')).toMatch(/^\{"kind":"srs\.score-bundle"/);
  });

  it('a pipe (directly or through a link) is refused with exit 2 before anything is sent; so is srs\'s own stdout', async () => {
    const dir = join(h.home, 'special');
    mkdirSync(dir, { recursive: true });
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    symlinkSync(fifo, join(dir, 'to-fifo'));
    for (const path of [fifo, join(dir, 'to-fifo')]) {
      const sent = h.requests.length;
      const r = await h.run(['score', 'calc', a!, '--save', path, '-o', 'json']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--save ${path} is a pipe, not a file: srs writes its output file whole; name a file`);
      expect(h.requests.length).toBe(sent);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    }
    // stdout redirected to a file, and --save naming that file: the results and the bundle would share it.
    const out = join(dir, 'both.txt');
    const fd = openSync(out, 'w');
    try {
      // Synchronous (the emulator in this process cannot answer meanwhile): bounded, so that a regression fails, not hangs.
      const r = spawnSync(process.execPath, [BIN, '--retries', '0', '--timeout', '2s', 'score', 'calc', a!, '--save', out, '-o', 'json'], { env: h.env, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 20_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`--save ${out} is srs's standard output: name another file`);
    } finally {
      closeSync(fd);
    }
  });
});
