import type { Context } from '../../context.js';
import { DEFAULT_PROFILE } from '../../config/resolve.js';
import { UsageError } from '../../errors.js';
import { noSuchProfile } from './profiles.js';
import type { Opts } from '../kit.js';

export async function run(ctx: Context, _args: string[], _opts: Opts): Promise<void> {
  if (ctx.sandbox) throw new UsageError('the sandbox has no stored key: drop --sandbox (or SRS_SANDBOX) to log out of a profile');
  const s = await ctx.settings();
  const store = await ctx.configStore();
  // A profile named on purpose (--profile, SRS_PROFILE) that does not exist is a typo: the real key stays stored.
  if (s.profile !== DEFAULT_PROFILE && !store.profileNames().includes(s.profile)) throw noSuchProfile(s.profile, store.profileNames());
  const removed = store.removeKey(s.profile);
  ctx.info(removed ? `Removed the API key of profile "${s.profile}"` : `Profile "${s.profile}" had no stored API key`);
  if (ctx.env.SRS_API_KEY) ctx.warn('SRS_API_KEY is still set in the environment; unset it to stop using that key');
}
