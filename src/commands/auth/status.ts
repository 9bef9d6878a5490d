import type { Context } from '../../context.js';
import type { ConfigStore } from '../../config/store.js';
import { noSuchProfile } from '../../config/no-such-profile.js';
import { DEFAULT_PROFILE, describeSource, keyProblem, maskKey, type AuthStatus, type ProfileStatus } from '../../config/resolve.js';
import { AuthError, UsageError } from '../../errors.js';
import type { Column } from '../../output/columns.js';
import { renderItem, renderList } from '../../output/render.js';
import type { Opts } from '../kit.js';
import { showBaseUrl } from '../../util/base-url.js';

/** A URL as shown: a password in it (user:password@, from SRS_BASE_URL or an older config) masked like a key. */
const shownUrl = (url: string | null | undefined): string | null => (url ? showBaseUrl(url) : null);

export async function run(ctx: Context, _args: string[], _opts: Opts): Promise<void> {
  if (ctx.sandbox) {
    await renderItem(ctx.sink, { profile: 'sandbox', baseUrl: 'in-process emulator', keySource: 'sandbox', key: 'generated per run' }, statusColumns, ctx.renderOptions());
    return;
  }
  const s = await ctx.settings();
  let store: ConfigStore | undefined;
  try {
    store = await ctx.configStore();
  } catch (e) {
    // Everything from the environment (CI, a read-only HOME): every other command works, so the status is shown, not
    // exit 1 for a directory it does not need.
    if (!(s.baseUrl && s.apiKey && s.apiKeySource === 'env' && s.baseUrlSource !== 'profile')) throw e;
    ctx.warn(`${(e as Error).message}: stored profiles are not shown`);
  }
  const active = store?.currentProfile ?? DEFAULT_PROFILE;
  // Every stored profile, the one in use marked; a profile named by --profile or SRS_PROFILE but not stored is listed too.
  const names = store?.profileNames() ?? [];
  if (!names.includes(s.profile)) names.push(s.profile);
  const profiles = names.map((name): ProfileStatus => {
    const p = store?.getProfile(name);
    return { name, inUse: name === s.profile, active: name === active, baseUrl: shownUrl(p?.baseUrl), key: p?.apiKey ? maskKey(p.apiKey) : null };
  });
  const status: AuthStatus = {
    profile: s.profile,
    profileSource: describeSource(s.profileSource, 'profile'),
    baseUrl: shownUrl(s.baseUrl),
    baseUrlSource: describeSource(s.baseUrlSource, 'baseUrl'),
    keySource: describeSource(s.apiKeySource, 'apiKey'),
    key: s.apiKey ? maskKey(s.apiKey) : null,
    configFile: store?.path ?? null,
    activeProfile: active,
    profiles,
  };
  const ro = ctx.renderOptions();
  if (ctx.format === 'table' && !ro.query && !ro.fields) {
    await renderItem(ctx.sink, status, statusColumns, ro);
    await ctx.sink.write('\n');
    await renderList(ctx.sink, profiles, profileColumns, ro);
  } else {
    await renderItem(ctx.sink, status, statusColumns, ro);
  }
  // A mistyped --profile or SRS_PROFILE that was to supply the key or the base URL: as every other command says it.
  if ((s.profileSource === 'flag' || s.profileSource === 'env') && store && store.getProfile(s.profile) === undefined && (!s.apiKey || !s.baseUrl)) {
    throw noSuchProfile(s.profile, store.profileNames());
  }
  // With no base URL either, the login that helps names it (plain "srs auth login" then failed for want of one).
  if (!s.apiKey) throw new AuthError(`not logged in: profile "${s.profile}" has no API key${s.baseUrl ? '' : ' and no base URL'}; run "srs auth login${s.baseUrl ? '' : ' --base-url URL'}" or set SRS_API_KEY${s.baseUrl ? '' : ' and SRS_BASE_URL'} (or try --sandbox)`);
  // The same refusal every other command gives (exit 4): a status that says "fine" for a key no command will send is a false "ok".
  const problem = keyProblem(s.apiKey);
  if (problem) throw new AuthError(`the API key from ${describeSource(s.apiKeySource, 'apiKey')} ${problem}; no command will send it: set it again (srs auth login, or SRS_API_KEY)`);
  // Likewise a base URL every command refuses (none, not http(s), plain http to another host): the same exit 2 and words.
  if (!s.baseUrl) throw new UsageError(`no base URL for profile "${s.profile}": run "srs auth login --base-url URL", set SRS_BASE_URL, or try --sandbox`);
  const { checkBaseUrl } = await import('../../api/http.js');
  checkBaseUrl(s.baseUrl, !!ctx.globals.insecureHttp);
}

const statusColumns: Column[] = [
  { path: 'profile', header: 'PROFILE', kind: 'code' },
  { path: 'profileSource', header: 'PROFILE FROM' },
  { path: 'baseUrl', header: 'BASE URL', kind: 'url' },
  { path: 'baseUrlSource', header: 'BASE URL FROM' },
  { path: 'keySource', header: 'KEY FROM' },
  { path: 'key', header: 'KEY', kind: 'code' },
  { path: 'configFile', header: 'CONFIG FILE', kind: 'url' },
  { path: 'activeProfile', header: 'ACTIVE PROFILE', kind: 'code', csvOnly: true },
  // A nested list is given as its count in CSV, as everywhere (the README's rule; -o json lists them).
  { path: 'profiles.length', header: 'PROFILES', kind: 'number', csvOnly: true },
];

/** "*" marks the profile this command used; "active" the one commands use without --profile or SRS_PROFILE. */
const profileColumns: Column[] = [
  { path: 'inUse', header: ' ', kind: 'state', format: (v) => (v ? '*' : '') },
  { path: 'name', header: 'PROFILES', kind: 'code' },
  { path: 'active', header: 'ACTIVE', kind: 'state', format: (v) => (v ? 'active' : '') },
  { path: 'baseUrl', header: 'BASE URL', kind: 'url' },
  { path: 'key', header: 'KEY', kind: 'code', format: (v) => (typeof v === 'string' ? v : 'no key') },
];
