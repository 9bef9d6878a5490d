/**
 * Profiles: logging in to another profile leaves the active one alone unless
 * --activate; `auth switch` changes it; `auth status` lists every profile and
 * marks the one in use; messages name flags and variables, not jargon.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pty } from '../support/terminal.js';
import { baseEnv, BIN, runSrs, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

interface Status {
  profile: string;
  profileSource: string;
  activeProfile: string;
  baseUrl: string;
  profiles: Array<{ name: string; inUse: boolean; active: boolean; key: string | null }>;
}

describe('an empty --profile', () => {
  it('is exit 2 for login and logout (a script\'s unset $STAGE overwrote, then logged out, the active profile)', async () => {
    const env = { ...baseEnv(`${h.home}/emptyprofile`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const key = h.env.SRS_API_KEY!;
    expect((await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input: key })).code).toBe(0);
    const before = JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status;
    for (const args of [['--profile', '   ', 'auth', 'login', '--base-url', 'http://127.0.0.1:9', '--with-key'], ['--profile', '', 'auth', 'logout']]) {
      const r = await runSrs(args, env, { input: 'other-key-0000zzzz' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--profile needs a profile name/);
    }
    expect(JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout)).toEqual(before);
  });
});

describe('an empty --base-url, and base URLs srs would not send as given', () => {
  it('a rejected key is said with where it came from: SRS_API_KEY wins over the stored profile (logging in again did not help)', async () => {
    const env = { ...baseEnv(`${h.home}/stalekey`), SRS_BASE_URL: h.emu.url, SRS_API_KEY: 'StaleOldKey0000000' };
    const r = await runSrs(['ref', 'countries'], env);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the key came from SRS_API_KEY (****0000), which wins over any stored profile: set it to a valid key, or unset it to use profile "default"');
    expect(r.stderr).not.toContain('StaleOldKey');
  });

  it('--base-url "" is exit 2 (a create meant for staging went to the stored service, exit 0); a query or fragment is refused; --insecure-http warns', async () => {
    const env = { ...baseEnv(`${h.home}/emptyurl`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const key = h.env.SRS_API_KEY!;
    expect((await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input: key })).code).toBe(0);
    const before = h.requests.length;
    for (const args of [['--base-url', '', 'supplier', 'create', '--name', 'Meant For Staging', '-o', 'json'], ['--base-url', '  ', 'ref', 'countries'], ['auth', 'login', '--base-url', '', '--with-key']]) {
      const r = await runSrs(args, env, { input: key });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('--base-url needs a URL (it was empty)');
    }
    expect(h.requests.slice(before)).toEqual([]);
    // A query string is never sent: refused at login and at use, without repeating it (it may hold a secret).
    const q = await runSrs(['auth', 'login', '--profile', 'q', '--base-url', `${h.emu.url}/?api_key=SuperSecretKey123456`, '--with-key'], env, { input: key });
    expect(q.code).toBe(2);
    expect(q.stderr).toContain(`base URL ${h.emu.url} holds a query string (?...), which srs never sends`);
    expect(q.stderr).not.toContain('SuperSecretKey');
    const used = await runSrs(['ref', 'categories'], { ...env, SRS_BASE_URL: `${h.emu.url}/#frag` });
    expect(used.code).toBe(2);
    expect(used.stderr).toContain('holds a fragment');
    // --insecure-http to a host that is not this machine is allowed, never silent (192.0.2.1: TEST-NET, nothing answers).
    const insecure = await runSrs(['--insecure-http', '--timeout', '300ms', '--retries', '0', 'ref', 'categories'], { ...env, SRS_BASE_URL: 'http://192.0.2.1:9' });
    expect(insecure.stderr).toContain('warning: sending the API key over plain http to 192.0.2.1:9 (--insecure-http): anyone on the network path can read it');
  });
});

describe('auth login without a key', () => {
  it('is exit 4 (authentication missing), like a key of whitespace, and stores nothing', async () => {
    const env = { ...baseEnv(`${h.home}/nokey`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    for (const input of ['', '\n', '   \n']) {
      const r = await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input });
      expect(r.code, JSON.stringify(input)).toBe(4);
    }
    const st = JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status;
    expect(st.profiles.map((p) => [p.name, p.key])).toEqual([['default', null]]);
  });
});

describe('keys of a length srs cannot keep out of its output', () => {
  it('a key of thousands of characters (a file piped in by mistake) or of 1-3 is exit 4 in one line, never printed, never stored', async () => {
    const env = { ...baseEnv(`${h.home}/keylength`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const long = 'Kq'.repeat(3500);
    for (const [key, words] of [[long, 'longer than any API key srs takes'], ['Qz7', 'too short for srs to keep it out of what it prints']] as const) {
      const login = await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input: key });
      expect(login.code, login.stderr.slice(0, 300)).toBe(4);
      expect(login.stderr).toContain(words);
      expect(login.stderr.trim().split('\n')).toHaveLength(1);
      // Every command holding such a key (a lookup, a usage error, auth status) says so in one line, key unseen.
      for (const args of [['ref', 'countries'], ['supplier', 'get', 'bad'], ['auth', 'status']]) {
        const r = await runSrs(args, { ...env, SRS_BASE_URL: h.emu.url, SRS_API_KEY: key });
        expect(r.stderr, args.join(' ')).not.toContain(key === long ? key.slice(0, 40) : `"${key}"`);
        expect(r.stderr.length, args.join(' ')).toBeLessThan(2000);
        expect(r.stderr, args.join(' ')).not.toContain('    at ');
      }
      expect((await runSrs(['ref', 'countries'], { ...env, SRS_BASE_URL: h.emu.url, SRS_API_KEY: key })).code).toBe(4);
    }
    const st = JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status;
    expect(st.profiles.map((p) => [p.name, p.key])).toEqual([['default', null]]);
  });
});

describe('profiles changed by several srs at once', () => {
  it('six auth logins at once keep six profiles; three logouts at once remove three keys (none said done and lost it)', async () => {
    const env = { ...baseEnv(`${h.home}/concurrent`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const key = h.env.SRS_API_KEY!;
    const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    const logins = await Promise.all(names.map((p) => runSrs(['--profile', p, 'auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input: key })));
    for (const r of logins) expect(r.code, r.stderr).toBe(0);
    // auth status also lists "default", the profile in use, which none of them wrote.
    const stored = async () => (JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status).profiles.filter((p) => p.name !== 'default');
    expect((await stored()).map((p) => p.name).sort()).toEqual(names);
    const logouts = await Promise.all(['p2', 'p4', 'p5'].map((p) => runSrs(['--profile', p, 'auth', 'logout'], env)));
    for (const r of logouts) expect(r.code, r.stderr).toBe(0);
    const after = await stored();
    expect(after.map((p) => p.name).sort()).toEqual(names);
    for (const p of after) expect(p.key === null, `${p.name}: ${String(p.key)}`).toBe(['p2', 'p4', 'p5'].includes(p.name));
    expect(readFileSync(join(`${h.home}/concurrent`, 'config', 'config.json'), 'utf8').split(key).length - 1).toBe(3);
  });
});

describe('profiles', () => {
  it('login --profile X keeps the active profile; --activate and auth switch change it; status marks it', async () => {
    const env = { ...baseEnv(`${h.home}/profiles`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const key = h.env.SRS_API_KEY!;
    const login = (args: string[]) => runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key', ...args], env, { input: key });
    expect((await login([])).code).toBe(0);
    const ci = await login(['--profile', 'ci']);
    expect(ci.code).toBe(0);
    expect(ci.stderr).toContain('the active profile is still "default": use --profile ci for one command, or "srs auth switch ci"');
    const st = JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status;
    expect(st).toMatchObject({ profile: 'default', activeProfile: 'default', profileSource: 'default' });
    expect(st.profiles.map((p) => [p.name, p.inUse, p.active])).toEqual([['default', true, true], ['ci', false, false]]);
    // CSV gives the list as its count, as it does every nested list.
    const csv = (await runSrs(['auth', 'status', '-o', 'csv'], env)).stdout.trimEnd().split('\n');
    expect(csv[0]!.split(',').at(-1)).toBe('profiles.length');
    expect(csv[1]!.split(',').at(-1)).toBe('2');

    // A mistyped profile to log out of is exit 2 (the real key stays stored), not "had no stored API key", exit 0.
    const typo = await runSrs(['auth', 'logout', '--profile', 'cj'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('no profile "cj" (did you mean ci?');
    // The stored key sent to another base URL (--base-url, SRS_BASE_URL: a typo sent it without a word): said once.
    const other = `http://127.0.0.1:${h.emu.port === 9 ? 10 : 9}`;
    for (const extra of [['--base-url', other], []] as const) {
      const r = await runSrs([...extra, 'ref', 'categories', '--retries', '0'], extra.length ? env : { ...env, SRS_BASE_URL: other });
      expect(r.stderr).toContain(`warning: sending the API key of profile "default", stored for ${h.emu.url}, to ${other} (${extra.length ? '--base-url' : 'SRS_BASE_URL'})`);
      expect(r.stderr).not.toContain(key);
    }
    // A base URL the key will never be sent to is refused without the "sending" warning first.
    const refused = await runSrs(['--base-url', 'http://example.com', 'ref', 'categories'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('plain http');
    expect(refused.stderr).not.toContain('sending the API key of profile');
    // A command that sends nothing runs on (a lookup in the local catalog).
    const find = await runSrs(['--base-url', 'http://example.com', 'supplier', 'find', 'Acme', '-o', 'json'], env);
    expect(find.code, find.stderr).toBe(0);
    expect(find.stderr).not.toContain('sending the API key of profile');
    // Nor is it said by a command that sends nothing to a base URL it would send to (auth status, auth logout --profile x).
    const status = await runSrs(['auth', 'status', '-o', 'json'], { ...env, SRS_BASE_URL: other });
    expect(status.stderr).not.toContain('sending the API key of profile');
    // Never with the base URL's user:password, in whatever spelling (the warning printed "to http://al:p@ss@..."), nor in
    // auth status (a URL that does not parse was shown whole) or the /v1 note.
    for (const url of [`http://al:p@ss@127.0.0.1:${h.emu.port === 9 ? 10 : 9}`, `http:al:Sekr3tPW@127.0.0.1:${h.emu.port === 9 ? 10 : 9}/v1`]) {
      const w = await runSrs(['ref', 'categories', '--retries', '0'], { ...env, SRS_BASE_URL: url });
      expect(w.stderr).toContain('sending the API key of profile "default"');
      expect(w.stderr, url).not.toMatch(/p@ss|Sekr3tPW|al:/);
    }
    const unparsed = await runSrs(['auth', 'status', '-o', 'json'], { ...env, SRS_BASE_URL: 'http://al:p@ss99@exa mple' });
    expect(unparsed.stdout + unparsed.stderr).not.toContain('p@ss99');
    expect(unparsed.stdout).toContain('"baseUrl": "http://****@exa mple"');
    // Nor by one refused after its client was made, before any request left (a malformed --data-entry id).
    const refusedLate = await runSrs(['news', 'ls', '01h58vrn1sad1y603je9gbpje8', '--data-entry', 'BAD'], { ...env, SRS_BASE_URL: other });
    expect(refusedLate.code).toBe(2);
    expect(refusedLate.stderr).not.toContain('sending the API key of profile');
    const same = await runSrs(['--base-url', `${h.emu.url}/`, 'ref', 'categories'], env);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).not.toContain('sending the API key');
    // So is a mistyped --profile or SRS_PROFILE for any command (it said "run srs auth login" for a profile never stored).
    for (const [args, extra] of [[['--profile', 'cj', 'ref', 'categories'], {}], [['ref', 'categories'], { SRS_PROFILE: 'cj' }], [['auth', 'status', '--profile', 'cj'], {}]] as const) {
      const r = await runSrs([...args], { ...env, ...extra });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('no profile "cj" (did you mean ci? stored profiles: default, ci)');
    }
    // After logging out of the active profile, the error says how to switch back; switching fixes it.
    expect((await runSrs(['auth', 'logout'], env)).code).toBe(0);
    const fails = await runSrs(['ref', 'categories'], env);
    expect(fails.code).toBe(4);
    expect(fails.stderr).toContain('"srs auth switch ci"');
    const sw = await runSrs(['auth', 'switch', 'ci'], env);
    expect(sw.code).toBe(0);
    expect(sw.stderr).toBe('Switched the active profile from "default" to "ci"\n');
    expect((await runSrs(['ref', 'categories', '-o', 'json'], env)).code).toBe(0);

    const table = await runSrs(['auth', 'status', '-o', 'table'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^PROFILE FROM\s+active profile \(srs auth switch\)$/m);
    expect(table.stdout).toMatch(/^\*\s+ci\s+active\s+http/m);
    expect(table.stdout).toMatch(/^\s+default\s+http\S+\s+no key$/m);
    expect(table.stdout + table.stderr).not.toContain('command-line flag');

    // --activate makes the profile it logs in to the active one.
    expect((await login(['--profile', 'staging', '--activate'])).code).toBe(0);
    const after = JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status;
    expect(after.activeProfile).toBe('staging');
    const flag = JSON.parse((await runSrs(['auth', 'status', '--profile', 'ci', '-o', 'json'], env)).stdout) as Status;
    expect(flag).toMatchObject({ profile: 'ci', profileSource: '--profile', activeProfile: 'staging' });
  });

  it('auth switch to a profile that does not exist exits 2 and suggests one', async () => {
    const env = { ...baseEnv(`${h.home}/profiles2`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const key = h.env.SRS_API_KEY!;
    expect((await runSrs(['auth', 'login', '--profile', 'prod', '--base-url', h.emu.url, '--with-key'], env, { input: key })).code).toBe(0);
    const r = await runSrs(['auth', 'switch', 'prdo'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('srs: no profile "prdo" (did you mean prod? stored profiles: prod); create it with "srs auth login --profile prdo"\n');
    // "default" (the profile in use when none is chosen) is never stored here, and switching back to it works.
    expect((await runSrs(['auth', 'switch', 'prod'], env)).code).toBe(0);
    const back = await runSrs(['auth', 'switch', 'default'], env);
    expect(back.code).toBe(0);
    expect(back.stderr).toMatch(/^Switched the active profile from "prod" to "default"\n/);
    expect((JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status).activeProfile).toBe('default');
  });

  it('a base URL ending in /v1 is corrected, with a note (silenced by --quiet)', async () => {
    const env = { ...h.env, SRS_BASE_URL: `${h.emu.url}/v1/` };
    const r = await runSrs(['ref', 'categories', '-o', 'json'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`the base URL ends in /v1, which srs adds to every path itself: using ${h.emu.url}\n`);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
    const quiet = await runSrs(['--quiet', 'ref', 'categories', '-o', 'json'], env);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('a config file whose currentProfile is not text: one line naming the file and the fix (exit 1); auth switch repairs it', async () => {
    const env = { ...baseEnv(`${h.home}/badcurrent`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const key = h.env.SRS_API_KEY!;
    expect((await runSrs(['auth', 'login', '--base-url', h.emu.url, '--with-key'], env, { input: key })).code).toBe(0);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const file = `${h.home}/badcurrent/config/config.json`;
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), currentProfile: 7 }));
    for (const args of [['ref', 'sources'], ['auth', 'status']]) {
      const r = await runSrs(args, env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^srs: config file .*config\.json: currentProfile is not text; fix the file, or run "srs auth switch NAME"/);
      expect(r.stderr).not.toMatch(/unexpected error/);
    }
    expect((await runSrs(['auth', 'switch', 'default'], env)).code).toBe(0);
    expect((await runSrs(['ref', 'sources', '--limit', '1', '-o', 'json'], env)).code).toBe(0);
    // A name no profile may have is checked like --profile, naming the file; auth switch repairs it too.
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), currentProfile: '../x' }));
    const bad = await runSrs(['ref', 'sources'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/config file .*config\.json: the active profile "\.\.\/x" is not a usable profile name/);
    const sw = await runSrs(['auth', 'switch', 'default'], { ...env, SRS_API_KEY: 'override-key-0123' });
    expect(sw.code).toBe(0);
    // An environment that still overrides the profile is said, not left to a rejected key later.
    expect(sw.stderr).toContain('SRS_API_KEY is set in the environment and still overrides the API key of "default" in every command');
    expect((await runSrs(['ref', 'sources', '--limit', '1', '-o', 'json'], env)).code).toBe(0);
  });
});

describe('XDG base directories', () => {
  it('a relative XDG_CONFIG_HOME or XDG_DATA_HOME is ignored, as the XDG spec says (the key went to ./relcfg of whatever directory srs ran in)', async () => {
    const home = `${h.home}/xdg-home`;
    const { mkdirSync } = await import('node:fs');
    mkdirSync(`${home}/cwd`, { recursive: true });
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: 'relcfg', XDG_DATA_HOME: 'reldata' };
    const r = await runSrs(['auth', 'status', '-o', 'json'], env, { cwd: `${home}/cwd` });
    expect(r.code, r.stderr).toBe(4);
    expect((JSON.parse(r.stdout) as { configFile: string }).configFile).toBe(`${home}/.config/srs/config.json`);
    // An absolute one is used.
    const abs = await runSrs(['auth', 'status', '-o', 'json'], { ...env, XDG_CONFIG_HOME: `${home}/abs` }, { cwd: `${home}/cwd` });
    expect((JSON.parse(abs.stdout) as { configFile: string }).configFile).toBe(`${home}/abs/srs/config.json`);
  });
});

describe('a base URL with a short password', () => {
  it('is shown without its user:password@ when refused for its scheme (a password of 1-3 characters is too short to mask)', async () => {
    const r = await runSrs(['ref', 'countries', '--base-url', 'ftp://user:abc@127.0.0.1:9', '-o', 'table'], { ...baseEnv(`${h.home}/shortpw`), SRS_API_KEY: 'abcdefgh' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('base URL "ftp://****@127.0.0.1:9" must start with https:// or http://');
    expect(r.stderr).not.toContain('abc@');
    // Any spelling a URL parser reads as user:password, and a URL that does not parse at all.
    for (const [url, secret] of [['ftp:\\u:S3cretLongPassword@host', 'S3cret'], ['ftp:u:S3cretLongPassword@host', 'S3cret'], ['ftp://u:p@ss@host/', 'p@'], ['https://u:pw@ho st/', 'pw@']] as const) {
      const x = await runSrs(['ref', 'countries', '-o', 'table'], { ...baseEnv(`${h.home}/shortpw`), SRS_API_KEY: 'abcdefgh', SRS_BASE_URL: url });
      expect(x.code, url).toBe(2);
      expect(x.stderr, url).not.toContain(secret);
      expect(x.stderr, url).toContain('****@');
    }
  });
});

describe('a signal at the hidden key prompt', () => {
  pty.it('SIGTERM ends the prompt as Ctrl-C does: the line ended, exit 143, nothing stored', async () => {
    const { execFile } = await import('node:child_process');
    const env = { ...baseEnv(`${h.home}/promptsig`), SRS_BASE_URL: undefined, SRS_API_KEY: undefined };
    const q = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    // In the background, stdin would be /dev/null: the prompt reads the terminal itself.
    const cmd = `${q(process.execPath)} ${q(BIN)} auth login --base-url ${q(h.emu.url)} </dev/tty & p=$!; sleep 2; kill -TERM $p; wait $p; echo "RC=$?"`;
    const out = await new Promise<string>((resolve) => {
      execFile('script', ['-qfec', cmd, '/dev/null'], { env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 20_000 }, (_e, stdout) => resolve(stdout.replace(/\r\n/g, '\n')));
    });
    expect(out).toMatch(/API key for [^\n]*: *\n([^\n]*cancelled[^\n]*\n)?RC=143/);
    const st = JSON.parse((await runSrs(['auth', 'status', '-o', 'json'], env)).stdout) as Status;
    expect(st.profiles.map((p) => [p.name, p.key])).toEqual([['default', null]]);
  });
});
