import { mkdtempSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { maskKey, resolveSettings } from '../../src/config/resolve.js';
import { ConfigStore } from '../../src/config/store.js';
import { Context, type IO } from '../../src/context.js';

const profiles: Record<string, { baseUrl?: string; apiKey?: string }> = {
  default: { baseUrl: 'https://default.example', apiKey: 'key-default-1111' },
  ci: { baseUrl: 'https://ci.example', apiKey: 'key-ci-2222' },
};
const lookup = (n: string) => profiles[n];

describe('resolveSettings precedence', () => {
  it('uses the stored default profile when nothing else is given', () => {
    const s = resolveSettings({ flags: {}, env: {}, lookup });
    expect(s).toMatchObject({ profile: 'default', baseUrl: 'https://default.example', apiKey: 'key-default-1111', apiKeySource: 'profile', baseUrlSource: 'profile' });
  });
  it('environment beats the stored profile', () => {
    const s = resolveSettings({ flags: {}, env: { SRS_API_KEY: 'env-key-3333', SRS_BASE_URL: 'https://env.example', SRS_PROFILE: 'ci' }, lookup });
    expect(s).toMatchObject({ profile: 'ci', profileSource: 'env', baseUrl: 'https://env.example', baseUrlSource: 'env', apiKey: 'env-key-3333', apiKeySource: 'env' });
  });
  it('flags beat environment', () => {
    const s = resolveSettings({ flags: { profile: 'ci', baseUrl: 'https://flag.example' }, env: { SRS_PROFILE: 'default', SRS_BASE_URL: 'https://env.example' }, lookup });
    expect(s).toMatchObject({ profile: 'ci', profileSource: 'flag', baseUrl: 'https://flag.example', baseUrlSource: 'flag', apiKey: 'key-ci-2222' });
  });
  it('the stored current profile is used when no flag or env names one', () => {
    const s = resolveSettings({ flags: {}, env: {}, lookup, currentProfile: 'ci' });
    expect(s.profile).toBe('ci');
  });
  it('empty environment values count as unset; an empty --profile is a usage error (it fell through to the active profile)', () => {
    const s = resolveSettings({ flags: {}, env: { SRS_API_KEY: '  ', SRS_PROFILE: '' }, lookup });
    expect(s.profile).toBe('default');
    expect(s.apiKeySource).toBe('profile');
    expect(() => resolveSettings({ flags: { profile: '' }, env: {}, lookup })).toThrow(/--profile needs a profile name/);
    expect(() => resolveSettings({ flags: { profile: '   ' }, env: {}, lookup })).toThrow(/--profile needs a profile name/);
  });
  it('a stored key sent to another base URL is noted; the same URL spelled otherwise is not (one normalisation rule, util/base-url.ts)', () => {
    // The profile "default" is stored for https://default.example.
    for (const same of ['https://default.example/', 'HTTPS://Default.Example:443', 'https://default.example/v1/', 'https://default.example/V1']) {
      expect(resolveSettings({ flags: { baseUrl: same }, env: {}, lookup }).keyStoredFor, same).toBeUndefined();
    }
    for (const other of ['https://default.example:8443', 'http://default.example', 'https://default.example/api', 'https://other.example']) {
      expect(resolveSettings({ flags: {}, env: { SRS_BASE_URL: other }, lookup }).keyStoredFor, other).toBe('https://default.example');
    }
    // A key from the environment is the user's own choice for that URL: nothing to note.
    expect(resolveSettings({ flags: { baseUrl: 'https://other.example' }, env: { SRS_API_KEY: 'env-key-3333' }, lookup }).keyStoredFor).toBeUndefined();
  });
  it('masks keys to the last 4 characters', () => {
    expect(maskKey('abcdefghijklmnop')).toBe('****mnop');
    expect(maskKey('short')).toBe('****');
    expect(maskKey(undefined)).toBe('(none)');
  });
});

describe('ConfigStore', () => {
  it('writes the file 0600 and warns when others can read it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-conf-'));
    const store = new ConfigStore(dir);
    store.setProfile('default', { baseUrl: 'https://x.example', apiKey: 'secret-key-9999' });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(store.permissionWarning()).toBeUndefined();
    chmodSync(store.path, 0o644);
    expect(store.permissionWarning()).toMatch(/readable by other users/);
    expect(new ConfigStore(dir).getProfile('default')?.apiKey).toBe('secret-key-9999');
    expect(store.removeKey('default')).toBe(true);
    expect(store.getProfile('default')?.apiKey).toBeUndefined();
    expect(store.getProfile('default')?.baseUrl).toBe('https://x.example');
  });
});

function io(tty: boolean): IO {
  return { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: tty, stderrIsTTY: tty, stdinIsTTY: false, columns: 80 };
}

describe('colour and default format', () => {
  it('colour on a TTY only', () => {
    expect(new Context(io(true), {}, {}).color).toBe(true);
    expect(new Context(io(false), {}, {}).color).toBe(false);
  });
  it('NO_COLOR turns colour and spinners off even on a TTY', () => {
    const c = new Context(io(true), { NO_COLOR: '1' }, {});
    expect(c.color).toBe(false);
    expect(c.stderrColor).toBe(false);
    expect(c.renderOptions().color).toBe(false);
  });
  it('--no-color turns colour off', () => {
    expect(new Context(io(true), {}, { color: false }).color).toBe(false);
  });
  it('defaults to table on a TTY and json otherwise', () => {
    expect(new Context(io(true), {}, {}).format).toBe('table');
    expect(new Context(io(false), {}, {}).format).toBe('json');
    expect(new Context(io(true), {}, { output: 'csv' }).format).toBe('csv');
  });
  it('redacts registered secrets from stderr lines', () => {
    const i = io(false);
    const c = new Context(i, {}, {});
    c.addSecret('supersecretkey1234');
    c.warn('the key supersecretkey1234 leaked');
    const text = (i.stderr as PassThrough).read()?.toString() ?? '';
    expect(text).not.toContain('supersecretkey1234');
    expect(text).toContain('****1234');
  });
});

describe('base URL and sources in plain words', () => {
  it('drops a trailing /v1 with a note, and leaves other paths alone', async () => {
    const { correctBaseUrl } = await import('../../src/config/resolve.js');
    expect(correctBaseUrl('https://api.example.com/v1')).toEqual({ url: 'https://api.example.com', note: 'the base URL ends in /v1, which srs adds to every path itself: using https://api.example.com' });
    expect(correctBaseUrl('https://api.example.com/gateway/V1/').url).toBe('https://api.example.com/gateway');
    expect(correctBaseUrl('https://api.example.com/')).toEqual({ url: 'https://api.example.com' });
    expect(correctBaseUrl('https://api.example.com/v10')).toEqual({ url: 'https://api.example.com/v10' });
    expect(resolveSettings({ flags: { baseUrl: 'https://x.example/v1' }, env: {}, lookup }).baseUrl).toBe('https://x.example');
  });
  it('names the flag or variable a setting came from', async () => {
    const { describeSource } = await import('../../src/config/resolve.js');
    expect(describeSource('flag', 'profile')).toBe('--profile');
    expect(describeSource('flag', 'baseUrl')).toBe('--base-url');
    expect(describeSource('env', 'apiKey')).toBe('SRS_API_KEY');
    expect(describeSource('profile', 'apiKey')).toBe('stored profile');
  });
});
