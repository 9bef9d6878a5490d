/**
 * A reader that stops early (`srs ... | head`): a reader command stops at once with exit 0, but a command
 * whose exit code is a verdict or whose work has effects finishes and exits with its own code
 * (KEEPS_GOING_WHEN_STDOUT_CLOSES in src/context.ts). Each run here has its stdout's read end closed
 * before it writes anything, so every write meets EPIPE.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let ids: string[];

beforeAll(async () => {
  h = await startHarness();
  const fx = await h.run(['emulator', 'fixtures', '-o', 'json']);
  ids = (JSON.parse(fx.stdout) as { suppliers: Array<{ id: string }> }).suppliers.map((s) => s.id).slice(0, 60);
});
afterAll(() => h.close());

describe('a reader that has gone', () => {
  it('does not turn a failed score check into a pass', async () => {
    const r = await h.run(['score', 'check', ...ids, '--min', '0', '-o', 'ndjson'], { closeStdout: true });
    expect(r.stderr).toMatch(/failed, of 60 suppliers checked/);
    expect(r.code).toBe(3);
  });

  it('stderr gone too (2>&1 | head -1): score check keeps its verdict, a reader exits 0 (an uncaught EPIPE on stderr was exit 1)', async () => {
    const failing = await h.run(['score', 'check', ...ids, '--min', '0', '-o', 'table'], { closeStdout: true, closeStderr: true });
    expect(failing.code).toBe(3);
    const passing = await h.run(['score', 'check', ...ids.slice(0, 3), '--min', '-3', '--allow-no-data', '-o', 'table'], { closeStdout: true, closeStderr: true });
    expect(passing.code).toBe(0);
    const reader = await h.run(['ref', 'countries', '--limit', '3', '-o', 'csv'], { closeStdout: true, closeStderr: true });
    expect(reader.code).toBe(0);
  });

  it('auth status keeps its verdict: not logged in is exit 4 under | head -1 too (it was exit 0, the error unsaid)', async () => {
    for (const format of ['table', 'json']) {
      const r = await h.run(['auth', 'status', '-o', format], { closeStdout: true, env: { SRS_API_KEY: undefined, SRS_BASE_URL: undefined } });
      expect(r.code, `${format}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toMatch(/not logged in/);
    }
  });

  it('does not hide suppliers score calc could not score', async () => {
    const r = await h.run(['score', 'calc', ...ids.slice(0, 5), '01zzzzzzzzzzzzzzzzzzzzzzzz', '-o', 'ndjson'], { closeStdout: true });
    expect(r.stderr).toMatch(/UNKNOWN 01zzzzzzzzzzzzzzzzzzzzzzzz/);
    expect(r.code).toBe(1);
  });

  it('lets score calc --save finish its bundle, which then verifies', async () => {
    const bundle = join(h.home, 'piped.jsonl');
    const r = await h.run(['score', 'calc', ...ids, '--save', bundle, '-o', 'ndjson'], { closeStdout: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/saved the evidence bundle/);
    expect(existsSync(bundle)).toBe(true);
    expect(readdirSync(h.home).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const v = await h.run(['score', 'recompute', bundle, '--verify', '-o', 'json']);
    expect(v.code).toBe(0);
    expect(v.stderr).toMatch(/verified/);
  });

  it('still stops a listing at once, exit 0', async () => {
    const before = h.requests.length;
    const r = await h.run(['ref', 'countries', '-o', 'ndjson'], { closeStdout: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // The first page was read; the rest was never asked for.
    expect(h.requests.slice(before).filter((l) => l.includes('/v1/countries')).length).toBe(1);
  });
});

describe('stdout that cannot be written (a full disk: /dev/full)', () => {
  const full = existsSync('/dev/full');
  it.skipIf(!full)('help, the version and the root help are one line and exit 1, never a stack trace or a silent exit 0', async () => {
    const { spawnSync } = await import('node:child_process');
    const { openSync, closeSync } = await import('node:fs');
    const { BIN } = await import('./harness.js');
    for (const args of [['--help'], ['-V'], [], ['supplier', '--help'], ['help', 'score', 'calc']]) {
      const fd = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ['ignore', fd, 'pipe'], env: h.env, encoding: 'utf8' });
        expect(r.status, args.join(' ')).toBe(1);
        expect(r.stderr).toBe('srs: cannot write the output to stdout: ENOSPC: no space left on device\n');
      } finally {
        closeSync(fd);
      }
    }
  });
});

describe('--limit at the end of a list whose last page names one past it', () => {
  it('says "more exist" only when more do', async () => {
    const past = await startHarness({ lastPageNextPage: 'past' });
    try {
      const all = await past.run(['ref', 'categories', '--limit', '100', '-o', 'json']);
      expect(all.code).toBe(0);
      expect(all.stderr).not.toMatch(/more exist/);
      const some = await past.run(['ref', 'categories', '--limit', '3', '-o', 'json']);
      expect(some.stderr).toMatch(/showing the first 3 categories; more exist/);
    } finally {
      await past.close();
    }
  });
});

describe('words a user writes for "off", and "-" where a file is written', () => {
  it('SRS_SANDBOX=off|no|none leaves the sandbox off; --report - is refused rather than a file named "-"', async () => {
    for (const off of ['off', 'no', 'none', 'false', '0']) {
      const r = await h.run(['auth', 'status', '-o', 'json'], { env: { SRS_SANDBOX: off } });
      expect(JSON.parse(r.stdout).baseUrl, off).toBe(h.emu.url);
    }
    const dir = join(h.home, 'dash');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'in.csv'), 'name,countryIso3Code\nDash Co,DEU\n');
    const r = await h.run(['supplier', 'import', join(dir, 'in.csv'), '--dry-run', '--report', '-'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--report -: this option writes a file, not stdout/);
    expect(existsSync(join(dir, '-'))).toBe(false);
  });

  it('SRS_SANDBOX with SRS_BASE_URL, or set to a word that is neither on nor off, is exit 2 (a create went to the sandbox, exit 0)', async () => {
    const sent = h.requests.length;
    const both = await h.run(['supplier', 'create', '--name', 'Real Co', '--customer-id', 'REAL-2', '-o', 'json'], { env: { SRS_SANDBOX: '1' } });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/SRS_SANDBOX talks to the local sandbox, so SRS_BASE_URL would be ignored/);
    const odd = await h.run(['auth', 'status', '-o', 'json'], { env: { SRS_SANDBOX: 'disabled' } });
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/SRS_SANDBOX must be 1, true, yes or on .* not \\?"disabled\\?"/);
    expect(h.requests.length).toBe(sent);
    // A profile named for the run names a service too: refused with the sandbox (a create meant for it went to the sandbox).
    for (const [args, env, named] of [
      [['--sandbox', '--profile', 'b', 'supplier', 'create', '--name', 'Meant For B'], {}, '--profile b'],
      [['supplier', 'create', '--name', 'Meant For B'], { SRS_SANDBOX: '1', SRS_PROFILE: 'b' }, 'SRS_PROFILE=b'],
    ] as const) {
      const r = await h.run([...args], { env: { SRS_BASE_URL: undefined, ...env } });
      expect(r.code, named).toBe(2);
      expect(r.stderr).toContain(`talks to the local sandbox, so ${named} would be ignored`);
    }
    expect(h.requests.length).toBe(sent);
    // A password in a base URL is never printed: not in this refusal, not in the error for a URL that is no URL.
    const secret = await h.run(['--sandbox', 'ref', 'countries'], { env: { SRS_BASE_URL: 'http://alice:hunter2pw@127.0.0.1:5520' } });
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('--sandbox talks to the local sandbox, so SRS_BASE_URL would be ignored');
    const bad = await h.run(['ref', 'countries'], { env: { SRS_BASE_URL: 'http://alice:hunter2pw@127.0.0.1:99999' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('base URL "http://****@127.0.0.1:99999" is not a URL');
    expect(bad.stderr).not.toContain('alice');
    expect(secret.stderr + bad.stderr).not.toContain('hunter2pw');
    // So for the other switches: SRS_QUIET=maybe was "on".
    for (const [name, value] of [['SRS_QUIET', 'maybe'], ['SRS_DEBUG', '2']] as const) {
      const before = h.requests.length;
      const r = await h.run(['ref', 'countries', '--limit', '1', '-o', 'json'], { env: { [name]: value } });
      expect(h.requests.length).toBe(before);
      expect(r.code, name).toBe(2);
      expect(r.stderr).toContain(`${name} must be 1, true, yes or on (or 0, false, no, off, none to turn it off), not \\"${value}\\"`);
      expect((await h.run(['ref', 'countries', '--limit', '1', '-o', 'json'], { env: { [name]: 'off' } })).code).toBe(0);
    }
  });

  it('emissions ls and news ls check the id like every other command (exit 2, nothing sent)', async () => {
    const sent = h.requests.length;
    for (const args of [['emissions', 'ls', '01H58VRN1SAD1Y603JE9GBPJE8'], ['news', 'ls', '../v1/countries']]) {
      const r = await h.run([...args, '-o', 'json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/supplier id .* is not a 26-character lowercase ULID/);
    }
    expect(h.requests.length).toBe(sent);
  });
});

describe('CSV streams as JSON and NDJSON do', () => {
  it('rows of a page are written while the next page is on its way: Ctrl-C keeps them (it kept none of a slow list)', async () => {
    const { startHarness: start } = await import('./harness.js');
    const slow = await start({ faults: { latency: 400 } });
    try {
      const r = await slow.run(['ref', 'countries', '--per-page', '50', '-o', 'csv'], {
        onSpawn: (kill) => {
          const wait = setInterval(() => {
            if (slow.requests.some((l) => l.startsWith('GET /v1/countries'))) {
              clearInterval(wait);
              // The first page is in; the second is on its way (400 ms): its rows have been written by now.
              setTimeout(() => kill('SIGINT'), 200);
            }
          }, 10);
        },
      });
      expect(r.code).toBe(130);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('iso3Code,iso2Code,commonName,officialName,regionName');
      expect(lines.length).toBeGreaterThanOrEqual(51);
    } finally {
      await slow.close();
    }
  });
});
