/**
 * Where the profile, base URL and API key come from, in one place.
 * Precedence: flags (--profile, --base-url) over environment (SRS_PROFILE,
 * SRS_BASE_URL, SRS_API_KEY) over the stored profile. There is deliberately no
 * flag that carries the key itself: argv is visible to every user on the machine.
 */
import { UsageError } from '../errors.js';
import { normaliseBaseUrl, showBaseUrl } from '../util/base-url.js';
import { MAX_KEY_LENGTH } from '../util/redact.js';

/** A stored profile: a base URL and an API key. */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
}

export const DEFAULT_PROFILE = 'default';

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'sandbox' | 'none';

export interface Settings {
  profile: string;
  profileSource: Source;
  baseUrl?: string;
  baseUrlSource: Source;
  apiKey?: string;
  apiKeySource: Source;
  /** Set when the base URL was corrected (a trailing /v1 dropped): say so once. */
  baseUrlNote?: string;
  /**
   * The base URL the profile's stored key was stored with, when --base-url or SRS_BASE_URL sends it to another
   * (a typo sent the real key to another host without a word): said once.
   */
  keyStoredFor?: string;
}

export interface ResolveInput {
  flags: { profile?: string; baseUrl?: string };
  env: Readonly<Record<string, string | undefined>>;
  /** Looks a stored profile up; absent when there is no store. */
  lookup: (name: string) => Profile | undefined;
  currentProfile?: string;
}

const nonEmpty = (s: string | undefined): string | undefined => (s !== undefined && s.trim() !== '' ? s.trim() : undefined);

/**
 * Why a profile name cannot be used, or undefined. Names are keys of the config file's "profiles"
 * object: letters, digits, ".", "_" and "-", and never a name every JavaScript object already has
 * (__proto__ was accepted, "stored", and silently not stored).
 */
export function profileNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) return 'use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';
  if (name in Object.prototype) return 'that name is reserved';
  return undefined;
}

/** A stored profile whose fields are not strings (a hand-edited file): the field, or undefined when it is sound. */
export function badProfileField(p: unknown): string | undefined {
  if (p === undefined) return undefined;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return '';
  for (const k of ['baseUrl', 'apiKey'] as const) {
    const v = (p as Record<string, unknown>)[k];
    if (v !== undefined && typeof v !== 'string') return k;
  }
  return undefined;
}

export function resolveSettings(input: ResolveInput): Settings {
  const { flags, env } = input;
  let profile = DEFAULT_PROFILE;
  let profileSource: Source = 'default';
  // `--profile ""` (a script's unset $STAGE) is a mistake, not "no flag": it fell through to the active profile,
  // and `auth login --profile ""` overwrote its URL and key, `auth logout --profile ""` removed its key.
  if (flags.profile !== undefined && !nonEmpty(flags.profile)) throw new UsageError('--profile needs a profile name (it was empty)');
  if (nonEmpty(flags.profile)) {
    profile = nonEmpty(flags.profile)!;
    profileSource = 'flag';
  } else if (nonEmpty(env.SRS_PROFILE)) {
    profile = nonEmpty(env.SRS_PROFILE)!;
    profileSource = 'env';
  } else if (nonEmpty(input.currentProfile)) {
    profile = nonEmpty(input.currentProfile)!;
    profileSource = 'profile';
  }
  const stored = input.lookup(profile);

  const out: Settings = { profile, profileSource, baseUrlSource: 'none', apiKeySource: 'none' };
  // `--base-url ""` (a script's unset $STAGING_URL) is a mistake too: it fell through to the stored service, and a
  // create meant for staging was made there with exit 0.
  if (flags.baseUrl !== undefined && !nonEmpty(flags.baseUrl)) throw new UsageError('--base-url needs a URL (it was empty)');
  const flagUrl = nonEmpty(flags.baseUrl);
  const envUrl = nonEmpty(env.SRS_BASE_URL);
  if (flagUrl) [out.baseUrl, out.baseUrlSource] = [flagUrl, 'flag'];
  else if (envUrl) [out.baseUrl, out.baseUrlSource] = [envUrl, 'env'];
  else if (nonEmpty(stored?.baseUrl)) [out.baseUrl, out.baseUrlSource] = [stored!.baseUrl!, 'profile'];
  if (out.baseUrl !== undefined) {
    const fixed = correctBaseUrl(out.baseUrl);
    out.baseUrl = fixed.url;
    if (fixed.note) out.baseUrlNote = fixed.note;
  }

  const envKey = nonEmpty(env.SRS_API_KEY);
  if (envKey) [out.apiKey, out.apiKeySource] = [envKey, 'env'];
  else if (nonEmpty(stored?.apiKey)) [out.apiKey, out.apiKeySource] = [stored!.apiKey!, 'profile'];
  const storedUrl = nonEmpty(stored?.baseUrl);
  if (out.apiKeySource === 'profile' && (out.baseUrlSource === 'flag' || out.baseUrlSource === 'env') && storedUrl && normaliseBaseUrl(storedUrl) !== normaliseBaseUrl(out.baseUrl!)) {
    out.keyStoredFor = storedUrl;
  }
  return out;
}

/**
 * Why a key cannot be sent as an x-api-key header, or undefined. A line break or other control
 * character (a paste accident, a file's trailing newline read raw) would otherwise fail every
 * request locally, and be retried as if the network had failed.
 */
/** The bounds of an API key's length (see keyProblem). */
export const MIN_KEY_LENGTH = 4;

export function keyProblem(key: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(key)) return 'contains whitespace, a line break or a control character';
  // A header value outside printable ASCII is refused by undici before it is sent (and retried as a network fault).
  if (!/^[\x21-\x7e]*$/.test(key)) return 'holds characters outside printable ASCII';
  // srs masks the key wherever it may print it (src/util/redact.ts): a key of 1-3 characters cannot be masked without
  // masking those letters everywhere, and one of thousands (a file piped in by mistake) is no API key.
  if (key.length < MIN_KEY_LENGTH) return `is ${key.length} character${key.length === 1 ? '' : 's'} long: too short for srs to keep it out of what it prints (at least ${MIN_KEY_LENGTH})`;
  if (key.length > MAX_KEY_LENGTH) return `is ${key.length.toLocaleString('en-US')} characters long: longer than any API key srs takes (at most ${MAX_KEY_LENGTH.toLocaleString('en-US')})`;
  return undefined;
}

/** Shows only the last 4 characters of a secret. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  const tail = key.length > 8 ? key.slice(-4) : '';
  return `****${tail}`;
}

/** Where a setting came from, in the words a user typed or can look up: "--profile", "SRS_API_KEY", "stored profile". */
export function describeSource(s: Source, setting: 'profile' | 'baseUrl' | 'apiKey'): string {
  switch (s) {
    case 'flag':
      return setting === 'profile' ? '--profile' : '--base-url';
    case 'env':
      return setting === 'profile' ? 'SRS_PROFILE' : setting === 'baseUrl' ? 'SRS_BASE_URL' : 'SRS_API_KEY';
    case 'profile':
      return setting === 'profile' ? 'active profile (srs auth switch)' : 'stored profile';
    case 'default':
      return 'default';
    case 'sandbox':
      return 'sandbox';
    case 'none':
      return 'not set';
  }
}

/**
 * A base URL as srs uses it: the service's paths all start with /v1/, so a
 * base URL that already ends in /v1 would send /v1/v1/...; that suffix (and a
 * trailing slash) is dropped, with a note saying so.
 */
export function correctBaseUrl(url: string): { url: string; note?: string } {
  const m = /^(.*?)\/v1\/?$/i.exec(url.trim());
  if (!m || !/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(m[1]!)) return { url: url.trim().replace(/\/+$/, '') };
  return { url: m[1]!, note: `the base URL ends in /v1, which srs adds to every path itself: using ${showBaseUrl(m[1]!)}` };
}

/** One stored profile as `auth status` lists it. */
export interface ProfileStatus {
  name: string;
  inUse: boolean;
  active: boolean;
  baseUrl: string | null;
  /** The last 4 characters only (maskKey). */
  key: string | null;
}

/** What `auth status` prints (and what --fields may name). */
export interface AuthStatus {
  profile: string;
  profileSource: string;
  baseUrl: string | null;
  baseUrlSource: string;
  keySource: string;
  key: string | null;
  /** null when the config directory cannot be used (the settings all came from the environment). */
  configFile: string | null;
  activeProfile: string;
  profiles: ProfileStatus[];
}
