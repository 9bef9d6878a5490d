import type { Context } from '../../context.js';
import { DEFAULT_PROFILE } from '../../config/resolve.js';
import { UsageError } from '../../errors.js';
import { noSuchProfile } from './profiles.js';
import { requireArg, type Opts } from '../kit.js';

/** `srs auth switch NAME`: makes a stored profile the active one. */
export async function run(ctx: Context, args: string[], _opts: Opts): Promise<void> {
  if (ctx.sandbox) throw new UsageError('the sandbox has no profiles: drop --sandbox (or SRS_SANDBOX) to switch profiles');
  const name = requireArg(args, 0, 'profile name').trim();
  const store = await ctx.configStore();
  const names = store.profileNames();
  // "default" is the profile commands use when none is stored or chosen: switching back to it always works.
  if (!names.includes(name) && name !== DEFAULT_PROFILE) throw noSuchProfile(name, names);
  let before: string;
  try {
    before = store.currentProfile ?? DEFAULT_PROFILE;
  } catch {
    before = '(not text in the config file)'; // what this command repairs
  }
  store.currentProfile = name;
  ctx.stderr(before === name ? `"${name}" was already the active profile` : `Switched the active profile from "${before}" to "${name}"`);
  if (!store.getProfile(name)?.apiKey) ctx.warn(`profile "${name}" has no stored API key: run "srs auth login" (or set SRS_API_KEY)`);
  if (ctx.env.SRS_PROFILE) ctx.warn(`SRS_PROFILE=${ctx.env.SRS_PROFILE} is set in the environment and still chooses the profile of each command`);
  // The profile's own URL and key are not what commands use while these are set: said, not left to a 401 later.
  for (const v of ['SRS_BASE_URL', 'SRS_API_KEY'] as const) {
    if (ctx.env[v]) ctx.warn(`${v} is set in the environment and still overrides the ${v === 'SRS_API_KEY' ? 'API key' : 'base URL'} of "${name}" in every command`);
  }
}
