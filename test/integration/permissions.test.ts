/**
 * Permissions whatever the umask (issue 16): the built srs, run under umask 022
 * and 000, with only HOME set (no SRS_CONFIG_DIR, no SRS_DATA_DIR), creates the
 * config directory 0700, the config file 0600 and the data directory 0700 (the
 * sandbox's state file 0600); an existing config directory that an older srs
 * left 0755 is tightened.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { assertBuilt, BIN } from './harness.js';

const KEY = 'perm-test-key-0123456789-SECRET';
let emu: RunningEmulator;
beforeAll(async () => {
  assertBuilt();
  emu = await startEmulator({ port: 0, apiKey: KEY });
});
afterAll(async () => {
  await emu?.close();
});

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

/** Runs srs under a umask (set by sh, which every POSIX system has), with only PATH and HOME. */
function srsUnder(umask: string, home: string, args: string[], input = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `umask ${umask} && exec "$@"`, 'sh', process.execPath, BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(input);
  });
}

describe.each(['022', '000'])('umask %s', (umask) => {
  it('auth login: ~/.config/srs is 0700 and config.json 0600', async () => {
    const home = mkdtempSync(join(tmpdir(), 'srs-perm-'));
    const r = await srsUnder(umask, home, ['auth', 'login', '--base-url', emu.url, '--with-key'], KEY);
    expect(r.code, r.stderr).toBe(0);
    expect(mode(join(home, '.config/srs'))).toBe('700');
    expect(mode(join(home, '.config/srs/config.json'))).toBe('600');
    expect(r.stderr).not.toContain(KEY);
  });

  it('--sandbox: ~/.local/share/srs is 0700, its state and catalog files 0600', async () => {
    const home = mkdtempSync(join(tmpdir(), 'srs-perm-'));
    const r = await srsUnder(umask, home, ['--sandbox', 'supplier', 'create', '--name', 'Umask Test GmbH', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(mode(join(home, '.local/share/srs'))).toBe('700');
    expect(mode(join(home, '.local/share/srs/sandbox-state.db'))).toBe('600');
    expect(mode(join(home, '.local/share/srs/catalog.db'))).toBe('600');
  });
});

it('a config directory an older srs left 0755 is tightened to 0700', async () => {
  const home = mkdtempSync(join(tmpdir(), 'srs-perm-'));
  mkdirSync(join(home, '.config/srs'), { recursive: true });
  chmodSync(join(home, '.config/srs'), 0o755);
  const r = await srsUnder('022', home, ['auth', 'status']);
  expect(r.code, r.stderr).not.toBeNull();
  expect(mode(join(home, '.config/srs'))).toBe('700');
});

it('a config file others can read: chmod 600 is advised; auth login adds that it rewrites the file 0600 once it stores anything, and does', async () => {
  const home = mkdtempSync(join(tmpdir(), 'srs-perm-'));
  expect((await srsUnder('022', home, ['auth', 'login', '--base-url', emu.url, '--with-key'], KEY)).code).toBe(0);
  const file = join(home, '.config/srs/config.json');
  chmodSync(file, 0o644);
  const status = await srsUnder('022', home, ['auth', 'status']);
  expect(status.stderr).toContain(`config file ${file} is readable by other users (mode 644); run: chmod 600 ${file}`);
  const login = await srsUnder('022', home, ['auth', 'login', '--base-url', emu.url, '--with-key'], KEY);
  expect(login.code, login.stderr).toBe(0);
  expect(login.stderr).toContain(`config file ${file} is readable by other users (mode 644); run: chmod 600 ${file} (or let this command rewrite it: it does so, 0600, once it stores anything)`);
  expect(mode(file)).toBe('600');
  // A login that stores nothing (a rejected key) leaves it as it was: the advice stands.
  chmodSync(file, 0o644);
  const rejected = await srsUnder('022', home, ['auth', 'login', '--base-url', emu.url, '--with-key'], 'wrong-key-0123456789');
  expect(rejected.code).toBe(4);
  expect(mode(file)).toBe('644');
});
