/**
 * Where the profile, base URL and API key come from, in one place.
 * Precedence: flags (--profile, --base-url) over environment (SRS_PROFILE,
 * SRS_BASE_URL, SRS_API_KEY) over the stored profile. There is deliberately no
 * flag that carries the key itself: argv is visible to every user on the machine.
 */
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
}

export interface ResolveInput {
  flags: { profile?: string; baseUrl?: string };
  env: Readonly<Record<string, string | undefined>>;
  /** Looks a stored profile up; absent when there is no store. */
  lookup: (name: string) => Profile | undefined;
  currentProfile?: string;
}

const nonEmpty = (s: string | undefined): string | undefined => (s !== undefined && s.trim() !== '' ? s.trim() : undefined);

export function resolveSettings(input: ResolveInput): Settings {
  const { flags, env } = input;
  let profile = DEFAULT_PROFILE;
  let profileSource: Source = 'default';
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
  const flagUrl = nonEmpty(flags.baseUrl);
  const envUrl = nonEmpty(env.SRS_BASE_URL);
  if (flagUrl) [out.baseUrl, out.baseUrlSource] = [flagUrl, 'flag'];
  else if (envUrl) [out.baseUrl, out.baseUrlSource] = [envUrl, 'env'];
  else if (nonEmpty(stored?.baseUrl)) [out.baseUrl, out.baseUrlSource] = [stored!.baseUrl!, 'profile'];

  const envKey = nonEmpty(env.SRS_API_KEY);
  if (envKey) [out.apiKey, out.apiKeySource] = [envKey, 'env'];
  else if (nonEmpty(stored?.apiKey)) [out.apiKey, out.apiKeySource] = [stored!.apiKey!, 'profile'];
  return out;
}

/** Shows only the last 4 characters of a secret. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  const tail = key.length > 8 ? key.slice(-4) : '';
  return `****${tail}`;
}

export function describeSource(s: Source): string {
  switch (s) {
    case 'flag':
      return 'command-line flag';
    case 'env':
      return 'environment';
    case 'profile':
      return 'stored profile';
    case 'default':
      return 'default';
    case 'sandbox':
      return 'sandbox';
    case 'none':
      return 'not set';
  }
}
